#include "shared/marker_reader.hpp"

#include <array>
#include <cstring>

namespace mission {

namespace {

constexpr unsigned char kEsc = 0x1b;
constexpr unsigned char kBel = 0x07;

// First bytes that can open a marker line. A line starting with any other byte
// is skipped with one memchr and no per-byte work: almost all output.
constexpr std::array<bool, 256> make_head_bytes() {
  std::array<bool, 256> table{};
  table[kEsc] = true;
  table[' '] = true;
  table['\t'] = true;
  table[static_cast<unsigned char>(kMarkerPrefix.front())] = true;
  return table;
}
constexpr std::array<bool, 256> kHeadBytes = make_head_bytes();

const char* find(const char* p, const char* end, unsigned char c) {
  return static_cast<const char*>(std::memchr(p, c, static_cast<std::size_t>(end - p)));
}

}  // namespace

// One byte of an escape sequence (ECMA-48). `aborted` means `c` does not
// belong to the sequence: the sequence is dropped and `c` is ordinary text.
MarkerReader::Step MarkerReader::escape_step(unsigned char c) {
  switch (escape_) {
    case Escape::esc:
      if (c == '[') {
        escape_ = Escape::csi;
      } else if (c == ']') {
        escape_ = Escape::osc;
      } else if (c >= 0x20 && c <= 0x2f) {
        escape_ = Escape::nf;  // e.g. `ESC ( B`, which `tput sgr0` prints
      } else if (c >= 0x30 && c <= 0x7e) {
        escape_ = Escape::none;  // two-byte forms: `ESC 7`, `ESC =`, ...
        return Step::done;
      } else {
        escape_ = Escape::none;
        return Step::aborted;
      }
      return Step::pending;
    case Escape::nf:
      if (c >= 0x20 && c <= 0x2f) return Step::pending;
      escape_ = Escape::none;
      return c >= 0x30 && c <= 0x7e ? Step::done : Step::aborted;
    case Escape::csi:
      if (c >= 0x20 && c <= 0x3f) return Step::pending;
      escape_ = Escape::none;
      return c >= 0x40 && c <= 0x7e ? Step::done : Step::aborted;
    case Escape::osc:
      if (c == kBel) {
        escape_ = Escape::none;
        return Step::done;
      }
      if (c == kEsc) escape_ = Escape::osc_esc;
      return Step::pending;
    case Escape::osc_esc:
      if (c == '\\') {
        escape_ = Escape::none;
        return Step::done;
      }
      // An ESC that is not ST ends the OSC and starts a new sequence.
      escape_ = Escape::esc;
      return escape_step(c);
    case Escape::none:
      break;
  }
  return Step::aborted;
}

// Consumes the start of a line until the prefix is complete (-> body), a byte
// rules the line out (-> skip), a newline (not consumed) or the end.
const char* MarkerReader::scan_head(const char* p, const char* end) {
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '\n') return p;
    ++p;
    ++line_bytes_;
    line_started_ = true;
    if (escape_ != Escape::none && escape_step(c) != Step::aborted) continue;
    if (c == kEsc) {
      escape_ = Escape::esc;
    } else if (prefix_matched_ == 0 && (c == ' ' || c == '\t')) {
      // leading blanks
    } else if (c == static_cast<unsigned char>(kMarkerPrefix[prefix_matched_])) {
      if (++prefix_matched_ == kMarkerPrefix.size()) {
        mode_ = Mode::body;
        return p;
      }
    } else {
      mode_ = Mode::skip;
      return p;
    }
  }
  return p;
}

// Keeps the JSON bytes up to the next newline (not consumed) without their
// escape sequences, or switches to discard once the line is over the limit.
const char* MarkerReader::scan_body(const char* p, const char* end) {
  const char* newline = find(p, end, '\n');
  const char* stop = newline ? newline : end;
  if (p == stop) return stop;
  line_bytes_ += static_cast<std::size_t>(stop - p);
  cr_last_ = stop[-1] == '\r';
  // + 1: a "\r" before the newline does not count, and is not known yet.
  if (line_bytes_ > max_marker_bytes_ + 1) {
    mode_ = Mode::discard;
    escape_ = Escape::none;
    json_.clear();
    json_.shrink_to_fit();
    return stop;
  }
  while (p < stop) {
    if (escape_ != Escape::none) {
      if (escape_step(static_cast<unsigned char>(*p)) != Step::aborted) {
        ++p;
        continue;
      }
      // aborted: *p is ordinary text, kept below
    }
    const char* esc = find(p, stop, kEsc);
    const char* text_end = esc ? esc : stop;
    json_.append(p, static_cast<std::size_t>(text_end - p));
    p = text_end;
    if (esc) {
      escape_ = Escape::esc;
      ++p;
    }
  }
  return stop;
}

void MarkerReader::end_line(std::vector<MarkerLine>& out) {
  ++lines_;
  if (mode_ == Mode::body) {
    const std::size_t length = line_bytes_ - (cr_last_ ? 1 : 0);
    if (length > max_marker_bytes_) {
      out.push_back({MarkerLine::Kind::oversized, {}, lines_});
    } else {
      const std::size_t kept = json_.find_last_not_of(" \t\r");
      json_.resize(kept == std::string::npos ? 0 : kept + 1);
      out.push_back({MarkerLine::Kind::marker, std::move(json_), lines_});
    }
  } else if (mode_ == Mode::discard) {
    out.push_back({MarkerLine::Kind::oversized, {}, lines_});
  }
  json_.clear();
  mode_ = Mode::head;
  escape_ = Escape::none;
  line_started_ = false;
  cr_last_ = false;
  prefix_matched_ = 0;
  line_bytes_ = 0;
}

void MarkerReader::feed(std::string_view bytes, std::vector<MarkerLine>& out) {
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  while (p < end) {
    switch (mode_) {
      case Mode::head:
        if (!line_started_) {
          // The common path: whole lines whose first byte cannot open a marker.
          while (p < end && !kHeadBytes[static_cast<unsigned char>(*p)]) {
            const char* newline = find(p, end, '\n');
            if (!newline) {
              mode_ = Mode::skip;
              line_started_ = true;
              return;
            }
            ++lines_;
            p = newline + 1;
          }
          if (p == end) return;
        }
        p = scan_head(p, end);
        break;
      case Mode::body:
        p = scan_body(p, end);
        break;
      case Mode::skip:
      case Mode::discard:
        p = find(p, end, '\n');
        if (!p) return;
        break;
    }
    if (p < end && *p == '\n') {
      ++p;
      end_line(out);
    }
  }
}

void MarkerReader::finish(std::vector<MarkerLine>& out) {
  if (line_started_ || mode_ != Mode::head) end_line(out);
}

}  // namespace mission
