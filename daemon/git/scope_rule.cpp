#include "daemon/git/scope_rule.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "daemon/git/change_set.hpp"

namespace mission::daemon::git {
namespace scope {
namespace {

std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    auto slash = path.find('/', start);
    parts.push_back(path.substr(start, slash == std::string_view::npos ? slash : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

// One bracket expression at pattern[i] (pattern[i] == '['): sets `matched`
// for `c` and returns the index after the closing ']', or npos when there is
// none (the '[' is then an ordinary character).
std::size_t match_class(std::string_view pattern, std::size_t i, char c, bool& matched) {
  std::size_t j = i + 1;
  bool negate = j < pattern.size() && (pattern[j] == '!' || pattern[j] == '^');
  if (negate) ++j;
  bool found = false;
  bool first = true;
  while (j < pattern.size() && (pattern[j] != ']' || first)) {
    first = false;
    char low = pattern[j];
    char high = low;
    if (j + 2 < pattern.size() && pattern[j + 1] == '-' && pattern[j + 2] != ']') {
      high = pattern[j + 2];
      j += 2;
    }
    if (low <= c && c <= high) found = true;
    ++j;
  }
  if (j >= pattern.size()) return std::string_view::npos;
  matched = found != negate;
  return j + 1;
}

// A glob within one segment: * any run of characters, ? one character.
bool segment_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0;
  std::size_t star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size()) {
      char c = pattern[p];
      if (c == '*') {
        star = ++p;
        star_text = t;
        continue;
      }
      if (c == '?') {
        ++p;
        ++t;
        continue;
      }
      if (c == '[') {
        bool matched = false;
        auto next = match_class(pattern, p, text[t], matched);
        if (next != std::string_view::npos) {
          if (matched) {
            p = next;
            ++t;
            continue;
          }
        } else if (text[t] == '[') {
          ++p;
          ++t;
          continue;
        }
      } else if (c == text[t]) {
        ++p;
        ++t;
        continue;
      }
    }
    // Mismatch: let the last * take one more character, if there was one.
    if (star == std::string_view::npos) return false;
    p = star;
    t = ++star_text;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool word_covers(std::string_view word, std::string_view path) {
  std::string wanted = lower(word);
  for (auto segment : segments(path)) {
    std::string name = lower(segment);
    if (name == wanted) return true;
    auto dot = name.find('.');
    if (dot != std::string::npos && name.substr(0, dot) == wanted) return true;
  }
  return false;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  auto globs = segments(pattern);
  auto parts = segments(path);
  // reachable[j]: the globs so far can match the first j path segments.
  std::vector<bool> reachable(parts.size() + 1, false);
  reachable[0] = true;
  for (auto glob : globs) {
    std::vector<bool> next(parts.size() + 1, false);
    if (glob == "**") {
      bool any = false;
      for (std::size_t j = 0; j <= parts.size(); ++j) {
        any = any || reachable[j];
        next[j] = any;
      }
    } else {
      for (std::size_t j = 0; j < parts.size(); ++j) {
        if (reachable[j] && segment_match(glob, parts[j])) next[j + 1] = true;
      }
    }
    reachable.swap(next);
  }
  return reachable[parts.size()];
}

Area parse_area(std::string_view text) {
  auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  for (;;) {
    if (text.starts_with("./")) {
      text.remove_prefix(2);
    } else if (text.starts_with("/")) {
      text.remove_prefix(1);
    } else {
      break;
    }
  }
  bool directory = text.ends_with("/");
  while (text.ends_with("/")) text.remove_suffix(1);
  if (text == ".") text = {};
  Area area{AreaKind::word, std::string(text)};
  if (text.find_first_of("*?[") != std::string_view::npos) {
    area.kind = AreaKind::glob;
  } else if (directory || text.find('/') != std::string_view::npos) {
    area.kind = AreaKind::prefix;
  }
  return area;
}

bool covers(const Area& area, std::string_view path) {
  if (area.pattern.empty()) return false;
  switch (area.kind) {
    case AreaKind::glob:
      return glob_match(area.pattern, path);
    case AreaKind::prefix:
      return path == area.pattern ||
             (path.starts_with(area.pattern) && path[area.pattern.size()] == '/');
    case AreaKind::word:
      return word_covers(area.pattern, path);
  }
  return false;
}

}  // namespace scope

ScopeVerification verify_scope(const ChangeSet& changes, const std::vector<std::string>& areas) {
  ScopeVerification result{true, {}, {}};
  std::vector<scope::Area> parsed;
  std::vector<std::string> names;
  for (const auto& text : areas) {
    auto area = scope::parse_area(text);
    if (area.pattern.empty()) {
      result.warnings.push_back("area \"" + text + "\" names no path; ignored");
      continue;
    }
    names.push_back(area.pattern);
    parsed.push_back(std::move(area));
  }
  if (parsed.empty()) {
    result.warnings.push_back("no areas declared; scope not checked");
    return result;
  }
  auto in_scope = [&](const std::string& path) {
    return std::any_of(parsed.begin(), parsed.end(),
                       [&](const scope::Area& area) { return scope::covers(area, path); });
  };

  std::vector<std::string> changed;
  for (const auto* list : {&changes.added, &changes.modified, &changes.deleted}) {
    changed.insert(changed.end(), list->begin(), list->end());
  }
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  for (const auto& path : changed) {
    if (!in_scope(path)) result.unexpected_files.push_back(path);
  }
  result.scope_match = result.unexpected_files.empty();

  if (!result.unexpected_files.empty()) {
    std::string list;
    for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
    result.warnings.push_back(std::to_string(result.unexpected_files.size()) +
                              " file(s) changed outside the declared areas (" + list + ")");
  }
  for (const auto& rename : changes.renamed) {
    bool from = in_scope(rename.from);
    bool to = in_scope(rename.to);
    if (from != to) {
      result.warnings.push_back("renamed " + rename.from + " to " + rename.to + ": " +
                                (from ? "moved out of" : "moved into") + " the declared areas");
    }
  }
  return result;
}

}  // namespace mission::daemon::git
