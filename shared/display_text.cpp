#include "shared/display_text.hpp"

#include <utf8proc.h>

#include <algorithm>

namespace mission::text {
namespace {

constexpr char32_t kReplacement = 0xFFFD;
constexpr unsigned char kEsc = 0x1b;

void append_code_point(std::string& out, char32_t code_point) {
  utf8proc_uint8_t bytes[4];
  utf8proc_ssize_t length = utf8proc_encode_char(static_cast<utf8proc_int32_t>(code_point), bytes);
  out.append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(length));
}

// Decodes the code point at `at`; invalid UTF-8 is one byte of U+FFFD.
char32_t next_code_point(std::string_view text, std::size_t& at) {
  utf8proc_int32_t code_point = 0;
  utf8proc_ssize_t length =
      utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + at),
                       static_cast<utf8proc_ssize_t>(text.size() - at), &code_point);
  if (length <= 0) {
    ++at;
    return kReplacement;
  }
  at += static_cast<std::size_t>(length);
  return static_cast<char32_t>(code_point);
}

// Skips a string control (OSC, DCS, SOS, PM, APC) up to its terminator: BEL,
// ESC \ or the 8-bit ST; an unterminated one runs to the end.
std::size_t skip_string_control(std::string_view text, std::size_t at) {
  while (at < text.size()) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte == 0x07) return at + 1;
    if (byte == kEsc) return at + 1 < text.size() && text[at + 1] == '\\' ? at + 2 : at + 1;
    if (byte == 0xc2 && at + 1 < text.size() && static_cast<unsigned char>(text[at + 1]) == 0x9c) {
      return at + 2;
    }
    ++at;
  }
  return at;
}

// Skips the parameters, intermediates and final byte of a CSI sequence.
std::size_t skip_csi(std::string_view text, std::size_t at) {
  while (at < text.size()) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte >= 0x40 && byte <= 0x7e) return at + 1;
    if (byte < 0x20 || byte > 0x3f) return at;  // malformed: stop before it
    ++at;
  }
  return at;
}

// Skips the escape sequence whose ESC is at `at`.
std::size_t skip_escape(std::string_view text, std::size_t at) {
  ++at;
  if (at >= text.size()) return at;
  const auto byte = static_cast<unsigned char>(text[at]);
  switch (byte) {
    case '[':
      return skip_csi(text, at + 1);
    case ']':
    case 'P':
    case 'X':
    case '^':
    case '_':
      return skip_string_control(text, at + 1);
    default:
      break;
  }
  while (at < text.size() && static_cast<unsigned char>(text[at]) >= 0x20 &&
         static_cast<unsigned char>(text[at]) <= 0x2f) {
    ++at;  // intermediates
  }
  if (at < text.size() && static_cast<unsigned char>(text[at]) >= 0x30 &&
      static_cast<unsigned char>(text[at]) <= 0x7e) {
    ++at;  // final byte
  }
  return at;
}

// Terminal programs move the cursor right where a space would be drawn:
// CSI n C skips n columns, CSI n G jumps to column n of the line. As text,
// the first is the n spaces it skipped (up to a line), the second a gap of
// one: where it lands depends on what is drawn already.
constexpr std::size_t kMaxCursorForwardColumns = 512;

std::size_t cursor_move_spaces(std::string_view sequence) {
  if (sequence.size() < 3 || sequence[1] != '[') return 0;
  const char final_byte = sequence.back();
  if (final_byte != 'C' && final_byte != 'G') return 0;
  std::size_t columns = 0;
  for (char c : sequence.substr(2, sequence.size() - 3)) {
    if (c < '0' || c > '9') return 0;  // private or several parameters: not a plain move
    columns = std::min(columns * 10 + static_cast<std::size_t>(c - '0'), kMaxCursorForwardColumns);
  }
  if (final_byte == 'G') return 1;
  return columns == 0 ? 1 : columns;
}

bool is_bidi_control(char32_t c) {
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e ||
         c == 0x200f || c == 0x061c;
}

// One grapheme cluster of `text` from `at`: its end and its width.
std::size_t next_cluster(std::string_view text, std::size_t at, std::size_t& width) {
  utf8proc_int32_t state = 0;
  std::size_t end = at;
  char32_t first = next_code_point(text, end);
  int widest = utf8proc_charwidth(static_cast<utf8proc_int32_t>(first));
  char32_t previous = first;
  while (end < text.size()) {
    std::size_t after = end;
    char32_t code_point = next_code_point(text, after);
    if (utf8proc_grapheme_break_stateful(static_cast<utf8proc_int32_t>(previous),
                                         static_cast<utf8proc_int32_t>(code_point), &state)) {
      break;
    }
    // A variation selector 16 asks for the emoji presentation: two columns.
    if (code_point == 0xfe0f) widest = 2;
    previous = code_point;
    end = after;
  }
  width = widest > 0 ? static_cast<std::size_t>(widest) : 0;
  return end;
}

}  // namespace

std::string neutralised(std::string_view text, Newlines newlines) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(static_cast<char>(byte));
      ++at;
      continue;
    }
    if (byte == kEsc) {
      const std::size_t end = skip_escape(text, at);
      out.append(cursor_move_spaces(text.substr(at, end - at)), ' ');
      at = end;
      continue;
    }
    if (byte == '\n') {
      out.push_back(newlines == Newlines::keep ? '\n' : ' ');
      ++at;
      continue;
    }
    if (byte == '\t' || byte == '\r') {
      out.push_back(' ');
      ++at;
      continue;
    }
    if (byte < 0x20 || byte == 0x7f) {
      out.push_back('^');
      out.push_back(static_cast<char>(byte == 0x7f ? '?' : byte + 0x40));
      ++at;
      continue;
    }
    char32_t code_point = next_code_point(text, at);
    if (code_point >= 0x80 && code_point <= 0x9f) {
      // 8-bit forms of CSI and the string controls take their argument with them.
      if (code_point == 0x9b) {
        at = skip_csi(text, at);
      } else if (code_point == 0x90 || code_point == 0x98 || code_point == 0x9d ||
                 code_point == 0x9e || code_point == 0x9f) {
        at = skip_string_control(text, at);
      } else {
        append_code_point(out, kReplacement);
      }
      continue;
    }
    append_code_point(out, is_bidi_control(code_point) ? kReplacement : code_point);
  }
  return out;
}

std::string inert_keys(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(static_cast<char>(byte));
      ++at;
      continue;
    }
    if (byte == '\t' || byte == '\r' || byte == '\n') {
      out.push_back(' ');
      ++at;
      continue;
    }
    if (byte < 0x20 || byte == 0x7f) {
      out.push_back('^');
      out.push_back(static_cast<char>(byte == 0x7f ? '?' : byte + 0x40));
      ++at;
      continue;
    }
    const char32_t code_point = next_code_point(text, at);
    if (code_point >= 0x80 && code_point <= 0x9f) {
      out += "M-^";
      out.push_back(static_cast<char>(code_point - 0x80 + 0x40));
      continue;
    }
    append_code_point(out, code_point);
  }
  return out;
}

std::size_t display_width(std::string_view text) {
  std::size_t total = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t width = 0;
    at = next_cluster(text, at, width);
    total += width;
  }
  return total;
}

std::string cut(std::string_view text, std::size_t columns) {
  std::size_t used = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t width = 0;
    std::size_t end = next_cluster(text, at, width);
    if (used + width > columns) break;
    used += width;
    at = end;
  }
  return std::string(text.substr(0, at));
}

namespace {

// The longest suffix of `text` that fits in `columns`.
std::string tail_of(std::string_view text, std::size_t columns) {
  std::vector<std::pair<std::size_t, std::size_t>> clusters;  // start, width
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t width = 0;
    std::size_t end = next_cluster(text, at, width);
    clusters.emplace_back(at, width);
    at = end;
  }
  std::size_t used = 0;
  std::size_t start = text.size();
  for (auto it = clusters.rbegin(); it != clusters.rend(); ++it) {
    if (used + it->second > columns) break;
    used += it->second;
    start = it->first;
  }
  return std::string(text.substr(start));
}

}  // namespace

std::string elide_middle(std::string_view text, std::size_t columns) {
  if (display_width(text) <= columns) return std::string(text);
  if (columns <= 3) return cut(text, columns);
  const std::size_t keep = columns - 3;
  const std::size_t head = keep / 3;
  return cut(text, head) + "..." + tail_of(text, keep - head);
}

std::string elide_end(std::string_view text, std::size_t columns) {
  if (display_width(text) <= columns) return std::string(text);
  if (columns <= 3) return cut(text, columns);
  return cut(text, columns - 3) + "...";
}

std::vector<std::string> wrap(std::string_view text, std::size_t columns) {
  if (columns == 0) columns = 1;
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (;;) {
    const std::size_t newline = text.find('\n', start);
    std::string_view paragraph = text.substr(
        start, newline == std::string_view::npos ? std::string_view::npos : newline - start);
    std::string line;
    std::size_t line_width = 0;
    std::size_t at = 0;
    while (at < paragraph.size()) {
      std::size_t word_end = paragraph.find(' ', at);
      if (word_end == std::string_view::npos) word_end = paragraph.size();
      std::string_view word = paragraph.substr(at, word_end - at);
      std::size_t word_width = display_width(word);
      const std::size_t gap = line.empty() ? 0 : 1;
      if (line_width + gap + word_width <= columns) {
        if (gap) line.push_back(' ');
        line.append(word);
        line_width += gap + word_width;
      } else {
        if (!line.empty()) lines.push_back(std::move(line));
        line.clear();
        line_width = 0;
        // A word wider than a line is broken inside it.
        while (word_width > columns) {
          std::string piece = cut(word, columns);
          if (piece.empty()) {  // one cluster wider than the line: it goes alone
            std::size_t width = 0;
            piece = std::string(word.substr(0, next_cluster(word, 0, width)));
          }
          lines.push_back(piece);
          word.remove_prefix(piece.size());
          word_width = display_width(word);
        }
        if (word.empty() && !lines.empty()) {  // the last piece goes on as the current line
          line = std::move(lines.back());
          lines.pop_back();
          line_width = display_width(line);
        } else {
          line.assign(word);
          line_width = word_width;
        }
      }
      at = word_end + 1;
    }
    lines.push_back(std::move(line));
    if (newline == std::string_view::npos) break;
    start = newline + 1;
  }
  return lines;
}

}  // namespace mission::text
