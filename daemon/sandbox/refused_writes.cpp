#include "daemon/sandbox/refused_writes.hpp"

#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "shared/sandbox_limits.hpp"

namespace mission::daemon::sandbox {
namespace {

namespace fs = std::filesystem;

// What a refused write prints: strerror(EACCES), or its name (Node's
// errors, Python's). Landlock refuses with EACCES.
constexpr std::string_view kRefusalWords[] = {"Permission denied", "EACCES"};

// A line with these words reports a refused read or lookup, which the
// profile does not restrict: it is not a refused write.
constexpr std::string_view kReadWords[] = {"cannot open directory", "cannot access", "cannot read",
                                           "for reading", "cannot stat"};

// The operation a line names, first match wins; "write" otherwise.
struct OperationWords {
  std::string_view words;
  std::string_view operation;
};
constexpr OperationWords kOperations[] = {
    {"cannot create directory", "mkdir"},
    {"mkdir", "mkdir"},
    {"cannot remove", "remove"},
    {"unlink", "remove"},
    {"rmdir", "remove"},
    {"cannot move", "rename"},
    {"rename", "rename"},
    {"symbolic link", "link"},
    {"hard link", "link"},
    {"cannot touch", "create"},
    {"cannot create", "create"},
};

bool contains(std::string_view text, std::string_view words) {
  return text.find(words) != std::string_view::npos;
}

// Characters that end a path in a line of output: blanks, quotes, the
// punctuation tools put around a path ("'/x': Permission denied",
// "open(/x)", "path=/x"), and a backslash (JSON's escapes).
bool ends_path(char c) {
  constexpr std::string_view kEnders = " \t\r\n'\"`:,;()[]{}<>=\\";
  return kEnders.find(c) != std::string_view::npos;
}

// The line with JSON's escapes of a newline, a tab and a quote made blanks,
// an escaped slash a slash (a streaming agent's tool result is a JSON
// string), and typographic single quotes blanks.
std::string unescaped(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    // Coreutils quote a path in ‘ and ’ in a UTF-8 locale.
    if (line.substr(i, 3) == "\u2018" || line.substr(i, 3) == "\u2019") {
      out += ' ';
      i += 2;
      continue;
    }
    if (line[i] == '\\' && i + 1 < line.size()) {
      const char next = line[i + 1];
      if (next == 'n' || next == 't' || next == 'r' || next == '"') {
        out += ' ';
        ++i;
        continue;
      }
      if (next == '/') {
        out += '/';
        ++i;
        continue;
      }
    }
    out += line[i];
  }
  return out;
}

bool is_beneath(const fs::path& path, fs::path tree) {
  if (!tree.has_filename()) tree = tree.parent_path();  // a trailing slash
  return std::mismatch(tree.begin(), tree.end(), path.begin(), path.end()).first == tree.end();
}

}  // namespace

bool writable_unconfined(const fs::path& path) {
  std::error_code ec;
  fs::path at = path;
  while (!at.empty() && !fs::exists(fs::symlink_status(at, ec))) {
    if (at == at.root_path()) return false;
    at = at.parent_path();
  }
  return !at.empty() && ::access(at.c_str(), W_OK) == 0;
}

std::vector<RefusedWrite> refused_writes_in_line(std::string_view raw) {
  std::vector<RefusedWrite> found;
  if (std::none_of(std::begin(kRefusalWords), std::end(kRefusalWords),
                   [&](std::string_view w) { return contains(raw, w); })) {
    return found;
  }
  if (std::any_of(std::begin(kReadWords), std::end(kReadWords),
                  [&](std::string_view w) { return contains(raw, w); })) {
    return found;
  }
  const std::string line = unescaped(raw);
  std::string_view operation = "write";
  for (const OperationWords& candidate : kOperations) {
    if (contains(line, candidate.words)) {
      operation = candidate.operation;
      break;
    }
  }
  // "/bin/sh: 1: cannot create /x: ...": a path that starts the line and
  // is followed by a colon names the program that speaks, unless the
  // refusal itself follows ("/x: Permission denied").
  const std::size_t first = line.find_first_not_of(" \t");
  std::size_t program_end = std::string::npos;
  if (first != std::string::npos && line[first] == '/') {
    const std::size_t colon = line.find(": ", first);
    if (colon != std::string::npos &&
        std::string_view(line).substr(colon + 2).rfind(kRefusalWords[0], 0) != 0 &&
        std::none_of(line.begin() + static_cast<std::ptrdiff_t>(first),
                     line.begin() + static_cast<std::ptrdiff_t>(colon),
                     [](char c) { return ends_path(c); })) {
      program_end = colon;
    }
  }
  std::size_t i = program_end == std::string::npos ? 0 : program_end;
  while (i < line.size()) {
    if (ends_path(line[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < line.size() && !ends_path(line[end])) ++end;
    std::string token = line.substr(i, end - i);
    i = end;
    // A path closes a sentence: "... to /x."
    while (token.size() > 1 && token.back() == '.') token.pop_back();
    if (token.size() < 2 || token.front() != '/') continue;
    const std::string path = fs::path(token).lexically_normal().string();
    if (std::none_of(found.begin(), found.end(),
                     [&](const RefusedWrite& w) { return w.path == path; })) {
      found.push_back({path, std::string(operation)});
    }
  }
  return found;
}

RefusedWriteReader::RefusedWriteReader(const Profile& profile,
                                       std::function<bool(const fs::path&)> writable)
    : trees_(profile.writable_trees),
      files_(profile.writable_files),
      hidden_(profile.hidden),
      writable_(std::move(writable)) {}

bool RefusedWriteReader::hidden(const fs::path& path) const {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(path, ec);
  for (const fs::path& candidate : {path, ec ? path : resolved}) {
    for (const fs::path& tree : hidden_) {
      if (is_beneath(candidate, tree)) return true;
    }
  }
  return false;
}

bool RefusedWriteReader::inside_profile(const fs::path& path) const {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(path, ec);
  for (const fs::path& candidate : {path, ec ? path : resolved}) {
    for (const fs::path& tree : trees_) {
      if (is_beneath(candidate, tree)) return true;
    }
    for (const fs::path& file : files_) {
      if (candidate == file) return true;
    }
  }
  return false;
}

void RefusedWriteReader::read_line(std::string_view line, std::vector<RefusedWrite>& found) {
  for (RefusedWrite& write : refused_writes_in_line(line)) {
    if (seen_.size() >= limits::kMaxRefusedWritesPerExecution) return;
    if (seen_.count(write.path) != 0) continue;
    const fs::path path(write.path);
    // A hidden path refuses reads too: its Permission denied is most
    // likely a read (docs/adr/0051), and what is hidden is not where the
    // agent should write.
    if (inside_profile(path) || !writable_(path) || hidden(path)) continue;
    seen_.insert(write.path);
    found.push_back(std::move(write));
  }
}

std::vector<RefusedWrite> RefusedWriteReader::feed(char stream, std::string_view bytes) {
  std::vector<RefusedWrite> found;
  Partial& partial = partial_[stream == 'e' ? 1 : 0];
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, newline);
    if (!partial.overflowed) {
      const std::size_t room = limits::kMaxRefusedWriteLineBytes - partial.line.size();
      partial.line.append(piece.substr(0, room));
      if (piece.size() > room) {
        // The first kMaxRefusedWriteLineBytes are read; the rest is skipped.
        read_line(partial.line, found);
        partial.line.clear();
        partial.overflowed = true;
      }
    }
    if (newline == std::string_view::npos) break;
    if (!partial.overflowed) read_line(partial.line, found);
    partial.line.clear();
    partial.overflowed = false;
    bytes.remove_prefix(newline + 1);
  }
  return found;
}

std::vector<RefusedWrite> RefusedWriteReader::finish() {
  std::vector<RefusedWrite> found;
  for (Partial& partial : partial_) {
    if (!partial.overflowed) read_line(partial.line, found);
    partial = Partial{};
  }
  return found;
}

}  // namespace mission::daemon::sandbox
