#include "shared/jsonrpc.hpp"

#include <cctype>
#include <cstdint>
#include <optional>
#include <vector>

namespace mission::jsonrpc {

nlohmann::json request(const nlohmann::json& id, std::string_view method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

nlohmann::json notification(std::string_view method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

nlohmann::json result(const nlohmann::json& id, nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

nlohmann::json error(const nlohmann::json& id, const MissionError& err) {
  return {
      {"jsonrpc", "2.0"},
      {"id", id},
      {"error",
       {{"code", jsonrpc_code(err.code())}, {"message", err.what()}, {"data", err.to_payload()}}}};
}

std::string to_line(const nlohmann::json& message) {
  std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line.push_back('\n');
  return line;
}

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The string starting at text[at] == '"', with its quotes, or nullopt when
// it does not end within `text`.
std::optional<std::string_view> string_at(std::string_view text, std::size_t at) {
  for (std::size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return text.substr(at, i - at + 1);
    }
  }
  return std::nullopt;
}

nlohmann::json parsed_or_null(std::string_view text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded() ||
      !(value.is_string() || value.is_number_integer() || value.is_number_unsigned())) {
    return nullptr;
  }
  return value;
}

// A scan of the head, tracking the member each value belongs to, until the
// text ends or every wanted member is found.
void scan_head(std::string_view head, RecoveredRequest& out) {
  std::vector<char> open;         // '{' or '['
  std::vector<std::string> keys;  // the current key at each level
  bool expect_key = false;
  bool have_id = false;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    if (is_space(c) || c == ':') continue;
    if (c == '{' || c == '[') {
      open.push_back(c);
      keys.emplace_back();
      expect_key = c == '{';
      continue;
    }
    if (c == '}' || c == ']') {
      if (open.empty()) return;
      open.pop_back();
      keys.pop_back();
      expect_key = false;
      continue;
    }
    if (c == ',') {
      expect_key = !open.empty() && open.back() == '{';
      continue;
    }
    const std::size_t depth = open.size();
    if (c == '"') {
      auto text = string_at(head, i);
      if (!text) return;  // cut off
      i += text->size() - 1;
      if (expect_key && depth > 0) {
        nlohmann::json key = nlohmann::json::parse(*text, nullptr, false);
        keys.back() = key.is_string() ? key.get<std::string>() : std::string();
        expect_key = false;
        continue;
      }
      nlohmann::json value = nlohmann::json::parse(*text, nullptr, false);
      if (!value.is_string()) continue;
      if (depth == 1 && keys.back() == "id" && !have_id) {
        out.id = value;
        have_id = true;
      } else if (depth == 1 && keys.back() == "method") {
        out.method = value.get<std::string>();
      } else if (depth == 2 && keys[0] == "params" && keys[1] == "name") {
        out.tool = value.get<std::string>();
      }
      continue;
    }
    // A number, true, false or null: up to the next delimiter.
    std::size_t end = i;
    while (end < head.size() && head[end] != ',' && head[end] != '}' && head[end] != ']' &&
           !is_space(head[end]))
      ++end;
    if (end == head.size()) return;  // cut off
    if (depth == 1 && keys.back() == "id" && !have_id) {
      out.id = parsed_or_null(head.substr(i, end - i));
      have_id = true;
    }
    i = end - 1;
  }
}

// `..."id": VALUE }` at the very end of the tail, VALUE a number or a string.
nlohmann::json id_at_end(std::string_view tail) {
  std::size_t end = tail.size();
  while (end > 0 && is_space(tail[end - 1])) --end;
  if (end == 0 || tail[end - 1] != '}') return nullptr;
  --end;
  while (end > 0 && is_space(tail[end - 1])) --end;
  if (end == 0) return nullptr;
  std::size_t start = end;
  if (tail[end - 1] == '"') {
    // Back to the opening quote: one not preceded by an odd run of backslashes.
    start = end - 1;
    while (true) {
      if (start == 0) return nullptr;
      --start;
      if (tail[start] != '"') continue;
      std::size_t slashes = 0;
      while (start > slashes && tail[start - slashes - 1] == '\\') ++slashes;
      if (slashes % 2 == 0) break;
    }
  } else {
    while (start > 0 && (std::isdigit(static_cast<unsigned char>(tail[start - 1])) != 0 ||
                         tail[start - 1] == '-')) {
      --start;
    }
    if (start == end) return nullptr;
  }
  const std::string_view value = tail.substr(start, end - start);
  std::size_t at = start;
  while (at > 0 && is_space(tail[at - 1])) --at;
  if (at == 0 || tail[at - 1] != ':') return nullptr;
  --at;
  while (at > 0 && is_space(tail[at - 1])) --at;
  constexpr std::string_view kKey = "\"id\"";
  if (at < kKey.size() || tail.substr(at - kKey.size(), kKey.size()) != kKey) return nullptr;
  at -= kKey.size();
  while (at > 0 && is_space(tail[at - 1])) --at;
  if (at == 0 || (tail[at - 1] != ',' && tail[at - 1] != '{')) return nullptr;
  return parsed_or_null(value);
}

}  // namespace

RecoveredRequest recover_request(std::string_view head, std::string_view tail) {
  RecoveredRequest out;
  scan_head(head, out);
  if (out.id.is_null()) out.id = id_at_end(tail);
  if (!valid_id(out.id)) out.id = nullptr;
  return out;
}

bool valid_id(const nlohmann::json& id) {
  constexpr std::int64_t kMaxExactInteger = (std::int64_t{1} << 53) - 1;
  if (id.is_null() || id.is_string()) return true;
  if (id.is_number_unsigned())
    return id.get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxExactInteger);
  if (id.is_number_integer()) {
    const auto value = id.get<std::int64_t>();
    return value >= -kMaxExactInteger && value <= kMaxExactInteger;
  }
  return false;
}

MissionError invalid_id_error() {
  return MissionError(ErrorCode::invalid_request,
                      "id must be a string or an integer between -(2^53 - 1) and 2^53 - 1",
                      "number requests 1, 2, 3, ... or use string ids");
}

bool is_request(const nlohmann::json& message) {
  return message.is_object() && message.contains("method") && message.contains("id");
}

}  // namespace mission::jsonrpc
