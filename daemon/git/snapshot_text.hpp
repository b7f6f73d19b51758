#pragma once
// The text both snapshot kinds serialize to (Snapshot::data): lines of
// fields separated by one space, the path last so it may hold spaces. In a
// path '%', '\n' and '\r' are written as %25, %0A and %0D, so each entry
// stays one line; other bytes of a file name pass through as they are.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::git::text {

void append_path(std::string& out, std::string_view path);
void append_hex(std::string& out, std::uint64_t value);
void append_octal(std::string& out, std::uint32_t value);

// Reads a snapshot line by line. Every parse failure throws MissionError
// invalid_argument naming the snapshot as corrupt.
class Reader {
 public:
  explicit Reader(std::string_view data) : rest_(data) {}
  // The next line (without its "\n"); false at the end.
  bool next_line();
  // The next space-separated field of the current line.
  std::string_view field();
  std::uint64_t hex_field() { return hex(field()); }
  // `text` read as a hex number.
  std::uint64_t hex(std::string_view text) const;
  std::uint32_t octal_field();
  // The last field of the current line, as it is.
  std::string_view last_field();
  // The rest of the current line, unescaped.
  std::string path_rest();
  [[noreturn]] void fail() const;

 private:
  std::string_view rest_;
  std::string_view line_;
};

}  // namespace mission::daemon::git::text
