#include "shared/terminal_output_filter.hpp"

#include <algorithm>
#include <array>

namespace mission {
namespace {

constexpr unsigned char kEsc = 0x1b;
constexpr unsigned char kCan = 0x18;
constexpr unsigned char kSub = 0x1a;
constexpr std::string_view kReplacement = "\xef\xbf\xbd";

// C0 controls a program draws with: BEL, BS, HT, LF, VT, FF, CR, and SO and
// SI (the line-drawing set). NUL, ENQ (which asks for the answerback) and
// the rest are dropped.
bool kept_c0(unsigned char byte) {
  return byte >= 0x07 && byte <= 0x0f;
}

// DEC private modes a program may set on the person's terminal, each one
// the viewer sets back when it leaves (cli/terminal_attach.cpp): cursor
// keys, reverse video, autowrap, cursor blink and visibility, the
// alternate screen and its cursor, mouse reporting and its encodings,
// focus events, bracketed paste, synchronized output. Not kept: 132
// columns (resizes the window), origin mode (moves the cursor when set
// back), key encodings that would outlive the view.
constexpr std::array<unsigned, 20> kKeptDecModes = {1,    5,    7,    9,    12,   25,   47,
                                                    1000, 1002, 1003, 1004, 1005, 1006, 1015,
                                                    1016, 1047, 1048, 1049, 2004, 2026};
// ANSI modes: insert (IRM). Not kept: keyboard lock, local echo, newline.
constexpr std::array<unsigned, 1> kKeptAnsiModes = {4};

// Final bytes of the CSI sequences without prefix or intermediates that
// draw: cursor moves, erasing, inserting and deleting, scrolling and
// margins, tabs, SGR, and the cursor's save and restore. Not kept: the
// queries and reports (c, n, x), window operations and title reports (t),
// printing (i), LEDs (q) and the rest.
constexpr std::string_view kKeptCsiFinals = "@ABCDEFGHIJKLMPSTXZ`abdefgmrsu";

bool in(std::string_view set, unsigned char byte) {
  return set.find(static_cast<char>(byte)) != std::string_view::npos;
}

bool is_continuation(unsigned char byte) {
  return byte >= 0x80 && byte <= 0xbf;
}

// The length of the UTF-8 character `lead` starts; 0 when it starts none.
std::size_t utf8_length(unsigned char lead) {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

// Whether `byte` may follow what `so_far` holds of a UTF-8 character: no
// overlong forms, surrogates or code points past U+10FFFF.
bool valid_next(const std::string& so_far, unsigned char byte) {
  if (!is_continuation(byte)) return false;
  if (so_far.size() != 1) return true;
  switch (static_cast<unsigned char>(so_far[0])) {
    case 0xe0:
      return byte >= 0xa0;
    case 0xed:
      return byte <= 0x9f;
    case 0xf0:
      return byte >= 0x90;
    case 0xf4:
      return byte <= 0x8f;
    default:
      return true;
  }
}

}  // namespace

void TerminalOutputFilter::start(State state) {
  state_ = state;
  sequence_.clear();
  too_long_ = false;
  string_after_c2_ = false;
}

void TerminalOutputFilter::feed(std::string_view bytes, std::string& out) {
  out.reserve(out.size() + bytes.size());
  std::size_t at = 0;
  while (at < bytes.size()) {
    // Text, the bulk of any output, goes in runs.
    if (state_ == State::ground && utf8_.empty()) {
      std::size_t end = at;
      while (end < bytes.size() && static_cast<unsigned char>(bytes[end]) >= 0x20 &&
             static_cast<unsigned char>(bytes[end]) < 0x7f) {
        ++end;
      }
      out.append(bytes.substr(at, end - at));
      at = end;
      if (at == bytes.size()) break;
    }
    const auto byte = static_cast<unsigned char>(bytes[at++]);
    if (!utf8_.empty()) {
      if (valid_next(utf8_, byte)) {
        utf8_.push_back(static_cast<char>(byte));
        if (utf8_.size() == utf8_expected_) finish_code_point(out);
        continue;
      }
      // A character cut short: shown as U+FFFD, and the byte read afresh.
      out.append(kReplacement);
      utf8_.clear();
    }
    switch (state_) {
      case State::ground:
        ground_byte(byte, out);
        break;
      case State::escape:
        escape_byte(byte, out);
        break;
      case State::csi:
        csi_byte(byte, out);
        break;
      case State::string:
        string_byte(byte);
        break;
      case State::string_escape:
        if (byte == '\\') {
          start(State::ground);
        } else {
          // ESC ends the string and starts a sequence of its own.
          start(State::escape);
          sequence_.push_back(static_cast<char>(kEsc));
          escape_byte(byte, out);
        }
        break;
    }
  }
}

void TerminalOutputFilter::ground_byte(unsigned char byte, std::string& out) {
  if (byte < 0x20) {
    c0_control(byte, out);
  } else if (byte < 0x7f) {
    out.push_back(static_cast<char>(byte));
  } else if (byte >= 0x80) {
    utf8_expected_ = utf8_length(byte);
    if (utf8_expected_ == 0) {
      out.append(kReplacement);  // a lone continuation byte (an 8-bit C1 too) or no lead at all
    } else {
      utf8_.push_back(static_cast<char>(byte));
    }
  }
  // DEL draws nothing.
}

void TerminalOutputFilter::finish_code_point(std::string& out) {
  if (utf8_.size() == 2 && static_cast<unsigned char>(utf8_[0]) == 0xc2 &&
      static_cast<unsigned char>(utf8_[1]) <= 0x9f) {
    const auto code = static_cast<unsigned char>(utf8_[1]);
    utf8_.clear();
    c1_control(code);
    return;
  }
  out.append(utf8_);
  utf8_.clear();
}

void TerminalOutputFilter::c1_control(unsigned char code) {
  switch (code) {
    case 0x9b:  // CSI, read as ESC [
      start(State::csi);
      sequence_ = "\x1b[";
      break;
    case 0x90:  // DCS
    case 0x98:  // SOS
    case 0x9d:  // OSC
    case 0x9e:  // PM
    case 0x9f:  // APC
      start(State::string);
      break;
    default:  // IND, NEL, RI, the single shifts, a lone ST...: dropped
      break;
  }
}

void TerminalOutputFilter::c0_control(unsigned char byte, std::string& out) {
  if (byte == kEsc) {
    // Whatever sequence was being read is dropped; a new one starts.
    start(State::escape);
    sequence_.push_back(static_cast<char>(kEsc));
    return;
  }
  if (byte == kCan || byte == kSub) {
    start(State::ground);
    return;
  }
  // Controls inside a sequence act at once, as terminals do.
  if (kept_c0(byte)) out.push_back(static_cast<char>(byte));
}

void TerminalOutputFilter::escape_byte(unsigned char byte, std::string& out) {
  if (byte < 0x20) {
    c0_control(byte, out);
    return;
  }
  if (byte >= 0x80) {
    start(State::ground);
    ground_byte(byte, out);
    return;
  }
  if (byte == 0x7f) return;
  if (sequence_.size() < kMaxSequenceBytes) {
    sequence_.push_back(static_cast<char>(byte));
  } else {
    too_long_ = true;
  }
  if (byte < 0x30) return;  // an intermediate
  if (sequence_.size() == 2) {
    switch (byte) {
      case '[':
        state_ = State::csi;
        return;
      case ']':  // OSC: titles, the clipboard (52), links (8), colours and their queries
      case 'P':  // DCS: DECRQSS and other queries, sixels, tmux passthrough
      case 'X':  // SOS
      case '^':  // PM
      case '_':  // APC: kitty graphics
        start(State::string);
        return;
      default:
        break;
    }
  }
  finish_escape(byte, out);
}

void TerminalOutputFilter::finish_escape(unsigned char final_byte, std::string& out) {
  const std::string_view intermediates =
      std::string_view(sequence_).substr(1, sequence_.size() - 2);
  bool keep = false;
  if (too_long_) {
    keep = false;
  } else if (intermediates.empty()) {
    // Save and restore the cursor, keypad modes, index, next line, reverse
    // index, tab set. Not RIS (ESC c), DECID (ESC Z), shifts.
    keep = in("78=>DEMH", final_byte);
  } else if (intermediates.size() == 1 &&
             in("()*+-./", static_cast<unsigned char>(intermediates[0]))) {
    keep = true;  // a character set for G0 to G3 (line drawing)
  } else if (intermediates == "#") {
    keep = in("34568", final_byte);  // double-size lines, the alignment test
  }
  if (keep) out.append(sequence_);
  start(State::ground);
}

void TerminalOutputFilter::csi_byte(unsigned char byte, std::string& out) {
  if (byte < 0x20) {
    c0_control(byte, out);
    return;
  }
  if (byte >= 0x80) {
    start(State::ground);
    ground_byte(byte, out);
    return;
  }
  if (byte == 0x7f) return;
  if (sequence_.size() < kMaxSequenceBytes) {
    sequence_.push_back(static_cast<char>(byte));
  } else {
    too_long_ = true;
  }
  if (byte >= 0x40) finish_csi(byte, out);
}

void TerminalOutputFilter::finish_csi(unsigned char final_byte, std::string& out) {
  if (too_long_) {
    start(State::ground);
    return;
  }
  const std::string_view body = std::string_view(sequence_).substr(2, sequence_.size() - 3);
  std::size_t split = 0;
  while (split < body.size() && body[split] >= 0x30 && body[split] <= 0x3f) ++split;
  const std::string_view parameters = body.substr(0, split);
  const std::string_view intermediates = body.substr(split);
  const char prefix = !parameters.empty() && in("<=>?", static_cast<unsigned char>(parameters[0]))
                          ? parameters[0]
                          : 0;
  const std::string_view values = prefix != 0 ? parameters.substr(1) : parameters;
  const bool well_formed =
      std::none_of(values.begin(), values.end(),
                   [](char c) { return in("<=>?", static_cast<unsigned char>(c)); }) &&
      std::all_of(intermediates.begin(), intermediates.end(),
                  [](char c) { return c >= 0x20 && c <= 0x2f; });
  bool keep = false;
  if (!well_formed) {
    keep = false;
  } else if (!intermediates.empty()) {
    // Cursor style (SP q), soft reset (! p), character protection (" q).
    keep = prefix == 0 && ((intermediates == " " && final_byte == 'q') ||
                           (intermediates == "!" && final_byte == 'p') ||
                           (intermediates == "\"" && final_byte == 'q'));
  } else if (final_byte == 'h' || final_byte == 'l') {
    if (prefix == '?' || prefix == 0) write_modes(prefix == '?', final_byte, out);
  } else if (prefix == '?') {
    keep = final_byte == 'J' || final_byte == 'K';  // selective erase
  } else if (prefix == 0) {
    keep = in(kKeptCsiFinals, final_byte);
  }
  // Every other prefix (>, <, =) is a query or a key encoding: DA2, DA3,
  // XTVERSION, modifyOtherKeys, the kitty keyboard protocol.
  if (keep) out.append(sequence_);
  start(State::ground);
}

void TerminalOutputFilter::write_modes(bool dec, unsigned char final_byte, std::string& out) {
  std::string_view values =
      std::string_view(sequence_).substr(dec ? 3 : 2, sequence_.size() - (dec ? 4 : 3));
  std::string kept;
  while (!values.empty()) {
    const std::size_t end = std::min(values.find(';'), values.size());
    const std::string_view value = values.substr(0, end);
    values.remove_prefix(std::min(end + 1, values.size()));
    if (value.empty() || value.size() > 5 ||
        !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    unsigned mode = 0;
    for (char c : value) mode = mode * 10 + static_cast<unsigned>(c - '0');
    const bool allowed =
        dec ? std::find(kKeptDecModes.begin(), kKeptDecModes.end(), mode) != kKeptDecModes.end()
            : std::find(kKeptAnsiModes.begin(), kKeptAnsiModes.end(), mode) != kKeptAnsiModes.end();
    if (!allowed) continue;
    if (dec && (mode == 47 || mode == 1047 || mode == 1049)) alternate_screen_ = final_byte == 'h';
    kept += (kept.empty() ? "" : ";") + std::string(value);
  }
  if (kept.empty()) return;
  out += dec ? "\x1b[?" : "\x1b[";
  out += kept;
  out.push_back(static_cast<char>(final_byte));
}

void TerminalOutputFilter::string_byte(unsigned char byte) {
  // Dropped whole, whatever it holds (an image, a clipboard, a title), up
  // to its end: BEL, ST (ESC \ or U+009C), or CAN or SUB.
  if (byte == 0x07 || byte == kCan || byte == kSub || (string_after_c2_ && byte == 0x9c)) {
    start(State::ground);
    return;
  }
  if (byte == kEsc) {
    state_ = State::string_escape;
    return;
  }
  string_after_c2_ = byte == 0xc2;
}

}  // namespace mission
