#pragma once
// Finds marker lines (`@agent-execution::{json}`) in an agent's stdout. Bytes
// arrive in arbitrary chunks; a marker line may be split anywhere, even inside
// the prefix or an escape sequence. Lines that are not markers are only
// scanned, never copied, so memory stays bounded whatever the output.
//
// A line is a marker line when, once ANSI escape sequences (CSI, OSC and the
// short ESC forms such as `ESC ( B`) and leading spaces/tabs are removed, it
// starts with kMarkerPrefix. Anything else before the prefix rules it out.
// The JSON is not checked here: the daemon parses and validates it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shared/limits.hpp"

namespace mission {

inline constexpr std::string_view kMarkerPrefix = "@agent-execution::";

struct MarkerLine {
  enum class Kind { marker, oversized };
  Kind kind;
  // The text after the prefix with ANSI sequences removed and trailing
  // CR/spaces/tabs trimmed; empty when oversized.
  std::string json;
  // 1-based stdout line number.
  std::uint64_t line_number;
};

class MarkerReader {
 public:
  // `max_marker_bytes` bounds a marker line: its raw bytes, prefix, escape
  // sequences and leading blanks included, "\n" and a "\r" before it excluded.
  explicit MarkerReader(std::size_t max_marker_bytes = limits::kMaxMarkerBytes)
      : max_marker_bytes_(max_marker_bytes) {}

  // Scans `bytes` and appends every marker line they complete to `out`, in
  // order. A marker line over the limit yields one `oversized` entry at its
  // newline; its bytes are dropped as they come. Never throws except
  // std::bad_alloc.
  void feed(std::string_view bytes, std::vector<MarkerLine>& out);

  // End of output: an unterminated last line counts as a line. The reader is
  // back at the start of a line afterwards.
  void finish(std::vector<MarkerLine>& out);

  // Lines ended so far (by "\n", or by finish() for the last one).
  std::uint64_t lines_seen() const { return lines_; }

  // Bytes of an unfinished marker line currently held (at most the limit + 1).
  std::size_t buffered_bytes() const { return json_.size(); }

 private:
  enum class Mode : unsigned char {
    head,     // before the prefix is complete: blanks, escapes, prefix bytes
    body,     // a marker line: JSON bytes are kept
    skip,     // not a marker line: scan to its newline
    discard,  // an oversized marker line: scan to its newline
  };
  enum class Escape : unsigned char { none, esc, nf, csi, osc, osc_esc };
  enum class Step : unsigned char { pending, done, aborted };

  Step escape_step(unsigned char c);
  const char* scan_head(const char* p, const char* end);
  const char* scan_body(const char* p, const char* end);
  void end_line(std::vector<MarkerLine>& out);

  std::size_t max_marker_bytes_;
  Mode mode_ = Mode::head;
  Escape escape_ = Escape::none;
  bool line_started_ = false;  // some byte of the current line was consumed
  bool cr_last_ = false;       // the last body byte consumed was "\r"
  std::size_t prefix_matched_ = 0;
  std::size_t line_bytes_ = 0;  // raw bytes of the current line (head and body)
  std::uint64_t lines_ = 0;
  std::string json_;
};

}  // namespace mission
