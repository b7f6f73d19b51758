#include "daemon/git/snapshot_text.hpp"

#include <charconv>

#include "shared/error_code.hpp"

namespace mission::daemon::git::text {

void append_path(std::string& out, std::string_view path) {
  for (char c : path) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\n':
        out += "%0A";
        break;
      case '\r':
        out += "%0D";
        break;
      default:
        out += c;
    }
  }
}

void append_hex(std::string& out, std::uint64_t value) {
  char buffer[16];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, 16);
  out.append(buffer, end);
}

void append_octal(std::string& out, std::uint32_t value) {
  char buffer[12];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, 8);
  out.append(buffer, end);
}

bool Reader::next_line() {
  if (rest_.empty()) return false;
  auto newline = rest_.find('\n');
  if (newline == std::string_view::npos) fail();  // every line ends with "\n"
  line_ = rest_.substr(0, newline);
  rest_.remove_prefix(newline + 1);
  return true;
}

std::string_view Reader::field() {
  auto space = line_.find(' ');
  if (space == std::string_view::npos) fail();
  auto value = line_.substr(0, space);
  line_.remove_prefix(space + 1);
  return value;
}

std::string_view Reader::last_field() {
  if (line_.empty() || line_.find(' ') != std::string_view::npos) fail();
  auto value = line_;
  line_ = {};
  return value;
}

std::uint64_t Reader::hex(std::string_view text) const {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) fail();
  return value;
}

std::uint32_t Reader::octal_field() {
  auto text = field();
  std::uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 8);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) fail();
  return value;
}

std::string Reader::path_rest() {
  std::string path;
  path.reserve(line_.size());
  for (std::size_t i = 0; i < line_.size(); ++i) {
    if (line_[i] != '%') {
      path += line_[i];
      continue;
    }
    auto code = line_.substr(i + 1, 2);
    if (code == "25") {
      path += '%';
    } else if (code == "0A") {
      path += '\n';
    } else if (code == "0D") {
      path += '\r';
    } else {
      fail();
    }
    i += 2;
  }
  line_ = {};
  return path;
}

void Reader::fail() const {
  throw MissionError(ErrorCode::invalid_argument, "the task's start snapshot is corrupt",
                     "start the task again to take a new snapshot");
}

}  // namespace mission::daemon::git::text
