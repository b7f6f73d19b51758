#pragma once
// The per-execution output log: what a launched agent writes on stdout and
// stderr, stored line by line in the state dir and read back a page at a
// time (`execution.logs`, `mission exec logs`).
//
// Two files per execution, both 0600 in a 0700 directory:
//   <id>.log  the text of every line, each followed by "\n", in the order the
//             lines were completed. A trailing "\r" (CRLF) is not stored.
//   <id>.idx  one 16-byte record per line, line n (1-based) at byte
//             (n - 1) * 16, all fields little-endian:
//               0  u64  byte offset of the line's text in <id>.log
//               8  u32  length of the text, its "\n" excluded
//              12  u8   stream: 'o' stdout, 'e' stderr
//              13  u8   flags: bit 0 = continued (the line went on past
//                       kMaxLogLineBytes and the next line of the same stream
//                       holds the rest)
//              14  u16  zero
// The writer appends to <id>.log before <id>.idx, so every record a reader
// sees points at text already written; a reader ignores a partial last
// record. <id>.log and <id>.idx together hold at most
// limits::kMaxExecutionLogBytes: the last line that fits is followed by one
// stderr line saying output was dropped.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/limits.hpp"

namespace mission::daemon::execution {

inline constexpr std::size_t kLogIndexRecordBytes = 16;
inline constexpr std::uint8_t kLogLineContinued = 0x01;

// Output of a stream that has no "\n" yet: a prompt waiting for its answer.
struct PartialLine {
  char stream;  // 'o' stdout, 'e' stderr
  std::string text;
};

// Writes one execution's log. Lives on the loop thread; append() and close()
// never throw on I/O errors (they run in libuv callbacks): the first error is
// reported on missiond's stderr and the rest of the output is dropped.
class ExecutionLogWriter {
 public:
  // Creates `directory` (0700) if needed and opens <id>.log and <id>.idx
  // (0600). Existing files are continued, after cutting off whatever a crash
  // left half-written. Throws MissionError invalid_argument for an id that is
  // not a plain file name, internal when the files cannot be opened.
  ExecutionLogWriter(std::filesystem::path directory, std::string execution_id,
                     std::uint64_t max_log_bytes = limits::kMaxExecutionLogBytes);
  ~ExecutionLogWriter();
  ExecutionLogWriter(const ExecutionLogWriter&) = delete;
  ExecutionLogWriter& operator=(const ExecutionLogWriter&) = delete;

  // Adds output of `stream` ('o' stdout, 'e' stderr; anything else counts as
  // stdout). Each stream keeps its own partial line until its "\n" arrives.
  // The complete lines of one call are written with one write(2) per file.
  void append(char stream, std::string_view bytes);

  // Writes the partial lines (stdout's, then stderr's) and closes the files.
  // Idempotent; output appended afterwards is dropped.
  void close();

  // Each stream's output since its last "\n" (stdout's, then stderr's;
  // none when empty), at most kMaxLogLineBytes each: what a reader of the
  // log would otherwise not see until the line ends.
  std::vector<PartialLine> partial_lines() const;

  // Lines written so far, the limit notice included.
  std::uint64_t line_count() const { return lines_; }
  // Bytes of output, line endings included, that were not stored: past the
  // size bound, after close() or after an I/O error.
  std::uint64_t dropped_bytes() const { return dropped_; }
  // Size of <id>.log.
  std::uint64_t log_bytes() const { return log_size_; }

  const std::filesystem::path& log_path() const { return log_path_; }
  const std::filesystem::path& index_path() const { return index_path_; }

 private:
  struct Stream {
    char name;
    std::string partial;
  };

  void take_line(char stream, std::string_view text, bool continued, std::uint64_t raw_bytes);
  void take_oversized_partial(Stream& stream);
  void push_record(char stream, std::string_view text, std::uint8_t flags);
  void drop_everything_pending();
  void flush();
  void fail(const char* what, int error);

  std::filesystem::path log_path_;
  std::filesystem::path index_path_;
  std::string execution_id_;
  std::uint64_t max_log_bytes_;
  std::string notice_;  // the last line once max_log_bytes_ is reached
  int log_fd_ = -1;
  int index_fd_ = -1;
  std::uint64_t log_size_ = 0;  // bytes in <id>.log, pending batch included
  std::uint64_t lines_ = 0;     // records in <id>.idx, pending batch included
  std::uint64_t dropped_ = 0;
  std::uint64_t batch_raw_bytes_ = 0;
  bool full_ = false;    // the size bound was reached
  bool closed_ = false;  // close() ran or an I/O error stopped the log
  Stream out_{'o', {}};
  Stream err_{'e', {}};
  std::string log_batch_;
  std::string index_batch_;
};

struct LogLine {
  std::uint64_t number;  // 1-based
  char stream;           // 'o' stdout, 'e' stderr
  std::string text;
  bool continued = false;  // the next line of this stream goes on with it
};

struct LogPage {
  std::vector<LogLine> lines;                // oldest first
  std::optional<std::uint64_t> next_cursor;  // for the page before this one
  std::uint64_t last_line = 0;               // lines in the log so far
};

struct LogQuery {
  std::optional<std::uint64_t> after;   // only lines numbered > after
  std::optional<std::uint64_t> cursor;  // only lines numbered < cursor
  std::size_t limit = 100;
  // The page's budget: each line costs its text plus kLogLinePageCost bytes.
  // A page always holds at least one line.
  std::size_t max_bytes = limits::kMaxLogPageBytes;
};

inline constexpr std::size_t kLogLinePageCost = 64;

// One page of an execution's log, reading only that page's index records and
// text, whatever the log's size:
// - neither after nor cursor: the newest `limit` lines;
// - cursor C: the `limit` lines before line C;
// - after N: the first `limit` lines after line N.
// For the first two, next_cursor is the first returned line's number when
// older lines exist. An execution that printed nothing, whose files do not
// exist, has an empty page. Throws MissionError mixed_pagination when both
// after and cursor are set; invalid_argument for a cursor of 0 or past
// last_line + 1, a limit of 0, or an id that is not a plain file name;
// internal when the files cannot be read or disagree.
LogPage read_execution_log(const std::filesystem::path& directory, const std::string& execution_id,
                           const LogQuery& query);

}  // namespace mission::daemon::execution
