#pragma once

// The keyboard and mouse modes a program on a terminal has turned on, read
// from its output: what a viewer's own terminal must be told again when it
// attaches later, so that a paste stays one paste and the keys send what
// the program expects. The screen model (libvterm 0.1) keeps the screen,
// the cursor and the alternate screen but none of these.

#include <cstdint>
#include <string>
#include <string_view>

namespace mission::daemon::terminal {

class TerminalModes {
 public:
  // Every byte the program writes, in order; sequences may be split
  // anywhere between calls.
  void feed(std::string_view bytes);
  // The sequences that set each mode as the program has it now.
  std::string restore() const;

 private:
  enum class State : std::uint8_t { ground, escape, csi };
  void finish_csi(char final_byte);
  void set_private_mode(unsigned mode, bool on);

  State state_ = State::ground;
  std::string parameters_;  // of the CSI sequence being read
  bool parameters_overflowed_ = false;
  bool keypad_application_ = false;  // ESC =, until ESC >
  std::uint32_t private_modes_ = 0;  // bits of kTrackedModes, in its order
};

}  // namespace mission::daemon::terminal
