#include "daemon/terminal/terminal_modes.hpp"

#include <array>
#include <cstring>

namespace mission::daemon::terminal {
namespace {

// DEC private modes (CSI ? n h / l) a viewer's terminal must share with the
// program: cursor keys, mouse reporting and its encodings, focus events,
// bracketed paste. The alternate screen and the cursor's visibility come
// from the screen model.
constexpr std::array<unsigned, 9> kTrackedModes = {1,    1000, 1002, 1003, 1004,
                                                   1005, 1006, 1015, 2004};

// A CSI sequence longer than this is no mode change worth keeping; its
// bytes are skipped to its final byte without being stored.
constexpr std::size_t kMaxCsiParameterBytes = 64;

constexpr char kEsc = '\x1b';

}  // namespace

void TerminalModes::feed(std::string_view bytes) {
  std::size_t at = 0;
  while (at < bytes.size()) {
    if (state_ == State::ground) {
      const void* esc = std::memchr(bytes.data() + at, kEsc, bytes.size() - at);
      if (esc == nullptr) return;
      at = static_cast<std::size_t>(static_cast<const char*>(esc) - bytes.data()) + 1;
      state_ = State::escape;
      continue;
    }
    const char byte = bytes[at++];
    if (state_ == State::escape) {
      if (byte == '[') {
        state_ = State::csi;
        parameters_.clear();
        parameters_overflowed_ = false;
        continue;
      }
      if (byte == '=') keypad_application_ = true;
      if (byte == '>') keypad_application_ = false;
      if (byte == 'c') {  // RIS, a full reset: every mode off
        keypad_application_ = false;
        private_modes_ = 0;
      }
      state_ = byte == kEsc ? State::escape : State::ground;
      continue;
    }
    // In a CSI sequence: parameters and intermediates, then a final byte.
    if (byte >= 0x40 && byte <= 0x7e) {
      finish_csi(byte);
      state_ = State::ground;
    } else if (byte >= 0x20 && byte <= 0x3f) {
      if (parameters_.size() < kMaxCsiParameterBytes) {
        parameters_.push_back(byte);
      } else {
        parameters_overflowed_ = true;
      }
    } else if (byte == kEsc) {
      state_ = State::escape;  // a sequence cut short by a new one
    } else {
      state_ = State::ground;  // malformed: dropped
    }
  }
}

void TerminalModes::finish_csi(char final_byte) {
  if ((final_byte != 'h' && final_byte != 'l') || parameters_overflowed_ || parameters_.empty() ||
      parameters_.front() != '?') {
    return;
  }
  // ? n ; n ... h|l sets or resets each mode listed.
  unsigned mode = 0;
  bool digits = false;
  for (std::size_t i = 1; i <= parameters_.size(); ++i) {
    const char c = i < parameters_.size() ? parameters_[i] : ';';
    if (c >= '0' && c <= '9') {
      mode = mode * 10 + static_cast<unsigned>(c - '0');
      digits = true;
      if (mode > 100000) return;  // no such mode
    } else if (c == ';') {
      if (digits) set_private_mode(mode, final_byte == 'h');
      mode = 0;
      digits = false;
    } else {
      return;
    }
  }
}

void TerminalModes::set_private_mode(unsigned mode, bool on) {
  for (std::size_t bit = 0; bit < kTrackedModes.size(); ++bit) {
    if (kTrackedModes[bit] != mode) continue;
    if (on) {
      private_modes_ |= 1u << bit;
    } else {
      private_modes_ &= ~(1u << bit);
    }
  }
}

std::string TerminalModes::restore() const {
  // Each mode set as the program has it, on or off: a viewer that missed
  // output while it fell behind may hold one the program turned off since.
  std::string out;
  for (std::size_t bit = 0; bit < kTrackedModes.size(); ++bit) {
    out += "\x1b[?" + std::to_string(kTrackedModes[bit]) +
           ((private_modes_ & (1u << bit)) != 0 ? "h" : "l");
  }
  out += keypad_application_ ? "\x1b=" : "\x1b>";
  return out;
}

}  // namespace mission::daemon::terminal
