// The per-execution output log: how output becomes lines (streams, partial
// and long lines, CRLF), the size bound, and paging back and forward.

#include "daemon/execution/execution_log.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "support/temp_dir.hpp"

using namespace mission::daemon::execution;
using mission::ErrorCode;
using mission::MissionError;
namespace limits = mission::limits;

namespace {

const std::string kId = "ae-test";

struct Log {
  mission::test::TempDir dir;
  std::filesystem::path logs = dir.path() / "logs";

  LogPage read(LogQuery query = {}) const { return read_execution_log(logs, kId, query); }
  LogPage all() const { return read({std::nullopt, std::nullopt, 100000, SIZE_MAX}); }
};

std::vector<std::string> texts(const LogPage& page) {
  std::vector<std::string> out;
  for (const auto& line : page.lines) out.push_back(line.text);
  return out;
}

std::string streams(const LogPage& page) {
  std::string out;
  for (const auto& line : page.lines) out.push_back(line.stream);
  return out;
}

std::vector<std::uint64_t> numbers(const LogPage& page) {
  std::vector<std::uint64_t> out;
  for (const auto& line : page.lines) out.push_back(line.number);
  return out;
}

std::vector<std::uint64_t> range(std::uint64_t first, std::uint64_t last) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t n = first; n <= last; ++n) out.push_back(n);
  return out;
}

ErrorCode error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const MissionError& e) {
    return e.code();
  }
  FAIL("no MissionError was thrown");
  return ErrorCode::internal;
}

}  // namespace

TEST_CASE("stdout and stderr keep their own partial lines", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId);
  writer.append('o', "out 1\nout 2 ");
  writer.append('e', "err 1 ");
  writer.append('o', "continues\n");
  writer.append('e', "continues\nerr 2\n");
  writer.append('o', "tail without newline");
  CHECK(writer.line_count() == 4);
  writer.close();
  CHECK(writer.line_count() == 5);

  LogPage page = log.all();
  CHECK(texts(page) == std::vector<std::string>{"out 1", "out 2 continues", "err 1 continues",
                                                "err 2", "tail without newline"});
  CHECK(streams(page) == "ooeeo");
  CHECK(numbers(page) == range(1, 5));
  CHECK(page.last_line == 5);
  CHECK_FALSE(page.next_cursor);
  CHECK(writer.dropped_bytes() == 0);
  // The .log file is the plain text, one line each.
  std::ifstream in(log.logs / (kId + ".log"), std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(raw == "out 1\nout 2 continues\nerr 1 continues\nerr 2\ntail without newline\n");
  CHECK(std::filesystem::file_size(log.logs / (kId + ".idx")) == 5 * kLogIndexRecordBytes);
}

TEST_CASE("a CRLF line is stored without its carriage return", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId);
  writer.append('o', "dos\r\nsplit\r");
  writer.append('o', "\nmid\rline\n\r\n");
  writer.append('e', "unterminated\r");
  writer.close();
  CHECK(texts(log.all()) ==
        std::vector<std::string>{"dos", "split", "mid\rline", "", "unterminated"});
}

TEST_CASE("a line that arrives a byte at a time is one line", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId);
  std::string expected;
  for (int i = 0; i < 3000; ++i) {
    char c = static_cast<char>('a' + i % 26);
    expected.push_back(c);
    writer.append('o', std::string_view(&c, 1));
    writer.append('e', "x");
  }
  CHECK(writer.line_count() == 0);
  writer.append('o', "\n");
  writer.append('e', "\n");
  CHECK(writer.line_count() == 2);
  LogPage page = log.all();
  REQUIRE(page.lines.size() == 2);
  CHECK(page.lines[0].text == expected);
  CHECK(page.lines[1].text == std::string(3000, 'x'));
  CHECK(streams(page) == "oe");
}

TEST_CASE("a long line is stored in continued pieces", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId);
  const std::size_t max = limits::kMaxLogLineBytes;

  SECTION("one append with its newline") {
    std::string line;
    for (std::size_t i = 0; i < 3 * max + 100; ++i) line.push_back(static_cast<char>('0' + i % 10));
    writer.append('o', line + "\r\n");
    writer.append('o', "next\n");
    LogPage page = log.all();
    REQUIRE(page.lines.size() == 5);
    std::string joined;
    for (std::size_t i = 0; i < 4; ++i) {
      joined += page.lines[i].text;
      CHECK(page.lines[i].continued == (i < 3));
      CHECK(page.lines[i].text.size() <= max);
    }
    CHECK(joined == line);
    CHECK(page.lines[4].text == "next");
    CHECK_FALSE(page.lines[4].continued);
  }

  SECTION("a partial line is stored once it passes the bound, before its newline") {
    writer.append('e', std::string(max, 'a'));
    CHECK(writer.line_count() == 0);  // exactly the bound: still waiting
    writer.append('e', "b");
    CHECK(writer.line_count() == 1);
    LogPage page = log.read();
    REQUIRE(page.lines.size() == 1);
    CHECK(page.lines[0].text == std::string(max, 'a'));
    CHECK(page.lines[0].continued);
    CHECK(page.lines[0].stream == 'e');
    writer.append('e', std::string(2 * max, 'c') + "\n");
    page = log.all();
    REQUIRE(page.lines.size() == 4);
    CHECK(page.lines[1].text == "b" + std::string(max - 1, 'c'));
    CHECK(page.lines[1].continued);
    CHECK(page.lines[2].text == std::string(max, 'c'));
    CHECK(page.lines[2].continued);
    CHECK(page.lines[3].text == "c");
    CHECK_FALSE(page.lines[3].continued);
  }

  SECTION("a piece does not end inside a UTF-8 character") {
    std::string line = "x";
    while (line.size() < max + 10) line += "\xc3\xa9";  // é
    writer.append('o', line + "\n");
    LogPage page = log.all();
    REQUIRE(page.lines.size() == 2);
    CHECK(page.lines[0].text.size() == max - 1);
    CHECK(page.lines[0].text + page.lines[1].text == line);
  }
}

TEST_CASE("output past the size bound is dropped after one notice", "[log]") {
  Log log;
  const std::uint64_t bound = 300;
  ExecutionLogWriter writer(log.logs, kId, bound);
  const std::string notice = "[mission: log limit of 300 bytes reached; further output is dropped]";
  const std::string line(49, 'l');  // 50 bytes with its newline
  std::uint64_t given = 0;
  for (int i = 0; i < 10; ++i) {
    writer.append('o', line + "\n");
    given += 50;
  }
  writer.append('e', "partial");
  given += 7;
  writer.close();

  LogPage page = log.all();
  // Each line costs 50 bytes of text and 16 of index. Three lines fit with
  // room left for the notice; a fourth would not.
  REQUIRE(page.lines.size() == 4);
  for (int i = 0; i < 3; ++i) CHECK(page.lines[i].text == line);
  CHECK(page.lines[3].text == notice);
  CHECK(page.lines[3].stream == 'e');
  const auto log_bytes = std::filesystem::file_size(log.logs / (kId + ".log"));
  const auto index_bytes = std::filesystem::file_size(log.logs / (kId + ".idx"));
  CHECK(log_bytes == 3 * 50 + notice.size() + 1);
  CHECK(log_bytes + index_bytes <= bound);
  CHECK(writer.dropped_bytes() == given - 3 * 50);
  CHECK(writer.line_count() == 4);
}

TEST_CASE("a flood of empty lines is bounded by the log cap, index included", "[log]") {
  Log log;
  const std::uint64_t bound = 64 * 1024;
  ExecutionLogWriter writer(log.logs, kId, bound);
  writer.append('o', std::string(100000, '\n'));
  writer.close();
  const auto log_bytes = std::filesystem::file_size(log.logs / (kId + ".log"));
  const auto index_bytes = std::filesystem::file_size(log.logs / (kId + ".idx"));
  CHECK(log_bytes + index_bytes <= bound);
  CHECK(index_bytes > bound / 2);  // most of it is index: it had to be counted
  CHECK(log.all().lines.back().text.find("log limit") != std::string::npos);
}

TEST_CASE("the bound reached in the middle of an append drops the rest of it", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId, 200);
  writer.append('e', "pending stderr");
  std::string burst;
  for (int i = 0; i < 20; ++i) burst += "line " + std::to_string(i) + "\n";
  burst += "tail";
  writer.append('o', burst);
  writer.append('o', "more\n");
  writer.close();
  LogPage page = log.all();
  REQUIRE_FALSE(page.lines.empty());
  CHECK(page.lines.back().stream == 'e');
  CHECK(page.lines.back().text.find("log limit of 200 bytes") != std::string::npos);
  std::uint64_t kept = 0;
  for (std::size_t i = 0; i + 1 < page.lines.size(); ++i) kept += page.lines[i].text.size() + 1;
  CHECK(writer.dropped_bytes() == 14 + burst.size() + 5 - kept);
  CHECK(std::filesystem::file_size(log.logs / (kId + ".log")) <= 200);
}

TEST_CASE("pages: newest, cursor back to the start, after", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId);
  for (int i = 1; i <= 250; ++i)
    writer.append(i % 7 == 0 ? 'e' : 'o', "line " + std::to_string(i) + "\n");

  LogPage newest = log.read();
  CHECK(numbers(newest) == range(151, 250));
  CHECK(newest.lines.front().text == "line 151");
  CHECK(newest.lines[5].stream == 'o');  // 156
  CHECK(newest.lines[3].stream == 'e');  // 154 = 7 * 22
  CHECK(newest.last_line == 250);
  REQUIRE(newest.next_cursor == 151u);

  LogPage older = log.read({std::nullopt, newest.next_cursor, 100});
  CHECK(numbers(older) == range(51, 150));
  REQUIRE(older.next_cursor == 51u);
  LogPage oldest = log.read({std::nullopt, older.next_cursor, 100});
  CHECK(numbers(oldest) == range(1, 50));
  CHECK(oldest.lines.front().text == "line 1");
  CHECK_FALSE(oldest.next_cursor);
  CHECK(oldest.last_line == 250);

  CHECK(numbers(log.read({std::nullopt, 251, 3})) == range(248, 250));
  CHECK(numbers(log.read({std::nullopt, 2, 3})) == range(1, 1));
  CHECK(numbers(log.read({240, std::nullopt, 100})) == range(241, 250));
  CHECK(numbers(log.read({0, std::nullopt, 5})) == range(1, 5));
  LogPage after = log.read({100, std::nullopt, 5});
  CHECK(numbers(after) == range(101, 105));
  CHECK_FALSE(after.next_cursor);
  CHECK(log.read({250, std::nullopt, 100}).lines.empty());
  CHECK(log.read({999, std::nullopt, 100}).lines.empty());
}

TEST_CASE("a page stays within its byte budget and holds at least one line", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId);
  for (int i = 0; i < 10; ++i) {
    std::string line(60000, static_cast<char>('a' + i));
    line.push_back('\n');
    writer.append('o', line);
  }
  LogPage newest = log.read();
  CHECK(numbers(newest) == range(9, 10));
  CHECK(newest.next_cursor == 9u);
  CHECK(numbers(log.read({3, std::nullopt, 100})) == range(4, 5));
  LogPage tiny = log.read({std::nullopt, std::nullopt, 100, 10});
  CHECK(numbers(tiny) == range(10, 10));
  CHECK(tiny.lines[0].text == std::string(60000, 'j'));
}

TEST_CASE("after and cursor together are a mixed_pagination error", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId);
  writer.append('o', "a\nb\n");
  try {
    log.read({1, 2, 10});
    FAIL("no error");
  } catch (const MissionError& e) {
    CHECK(e.code() == ErrorCode::mixed_pagination);
    CHECK(e.hint() == "use --after to follow new lines or --cursor to page back, not both");
  }
  CHECK(error_of([&] { log.read({std::nullopt, 0, 10}); }) == ErrorCode::invalid_argument);
  CHECK(error_of([&] { log.read({std::nullopt, 4, 10}); }) == ErrorCode::invalid_argument);
  CHECK(numbers(log.read({std::nullopt, 3, 10})) == range(1, 2));
  CHECK(error_of([&] {
          log.read({std::nullopt, std::nullopt, 0});
        }) == ErrorCode::invalid_argument);
  CHECK(error_of([&] { read_execution_log(log.logs, "../escape", {}); }) ==
        ErrorCode::invalid_argument);
  CHECK(error_of([&] { ExecutionLogWriter bad(log.logs, "a/b"); }) == ErrorCode::invalid_argument);
}

TEST_CASE("an execution that printed nothing has an empty log", "[log]") {
  Log log;
  SECTION("no files at all") {
    LogPage page = log.read();
    CHECK(page.lines.empty());
    CHECK(page.last_line == 0);
    CHECK_FALSE(page.next_cursor);
    CHECK(log.read({0, std::nullopt, 10}).lines.empty());
    CHECK(log.read({std::nullopt, 1, 10}).lines.empty());
    CHECK(error_of([&] { log.read({std::nullopt, 2, 10}); }) == ErrorCode::invalid_argument);
  }
  SECTION("a writer that got nothing") {
    ExecutionLogWriter writer(log.logs, kId);
    writer.close();
    CHECK(log.read().lines.empty());
    CHECK(log.read().last_line == 0);
  }
}

TEST_CASE("a reader sees the complete lines of a writer still open", "[log]") {
  Log log;
  ExecutionLogWriter writer(log.logs, kId);
  writer.append('o', "one\ntwo\nthr");
  LogPage page = log.read();
  CHECK(texts(page) == std::vector<std::string>{"one", "two"});
  CHECK(page.last_line == 2);
  writer.append('e', "warn\n");
  writer.append('o', "ee\n");
  LogPage fresh = log.read({page.last_line, std::nullopt, 100});
  CHECK(texts(fresh) == std::vector<std::string>{"warn", "three"});
  CHECK(numbers(fresh) == range(3, 4));
  CHECK(fresh.last_line == 4);
}

TEST_CASE("log files are private and a reopened log goes on", "[log]") {
  Log log;
  {
    ExecutionLogWriter writer(log.logs, kId);
    writer.append('o', "first\n");
  }
  struct stat st {};
  REQUIRE(::stat(log.logs.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  REQUIRE(::stat((log.logs / (kId + ".log")).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(::stat((log.logs / (kId + ".idx")).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);

  // What a crash can leave: text no record points at, half a record.
  {
    std::ofstream(log.logs / (kId + ".log"), std::ios::app | std::ios::binary) << "orphan text";
    std::ofstream(log.logs / (kId + ".idx"), std::ios::app | std::ios::binary) << "half";
  }
  CHECK(log.read().last_line == 1);
  ExecutionLogWriter again(log.logs, kId);
  CHECK(again.line_count() == 1);
  again.append('e', "second\n");
  LogPage page = log.all();
  CHECK(texts(page) == std::vector<std::string>{"first", "second"});
  CHECK(streams(page) == "oe");
}
