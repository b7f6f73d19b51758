#pragma once
// What of an agent's terminal output may reach the person's own terminal
// (`mission attach`, `mission run` on a terminal): what a program needs to
// draw (text, SGR, cursor moves, erasing, scroll regions, the alternate
// screen, and the keyboard and mouse modes it asks for), and nothing that
// writes the clipboard, sets titles or links, queries or reports, or resets
// or reconfigures the terminal for longer than the view (docs/adr/0014).
// The way tmux shows a pane: only what it understands to draw gets out.
//
// A whitelist over a streaming parser: sequences may be split anywhere
// between reads; one that is not on the list is dropped whole, as is one
// longer than kMaxSequenceBytes. C1 controls, as U+0080 to U+009F in UTF-8
// (which xterm obeys) or as lone bytes, count as their ESC forms; the kept
// ones are written in those forms. Invalid UTF-8 becomes U+FFFD.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mission {

class TerminalOutputFilter {
 public:
  // A kept sequence is at most this long (parameters included); a longer
  // one is no drawing a program needs, and is dropped.
  static constexpr std::size_t kMaxSequenceBytes = 256;

  // Appends to `out` what of `bytes` may reach the person's terminal. What
  // ends in the middle of a sequence or a UTF-8 character waits for the
  // next call.
  void feed(std::string_view bytes, std::string& out);

  // Whether the output kept so far left the terminal on the alternate
  // screen (CSI ? 1049, 1047 or 47 h), which a viewer leaves as it goes.
  bool alternate_screen() const { return alternate_screen_; }

 private:
  enum class State : std::uint8_t { ground, escape, csi, string, string_escape };

  void ground_byte(unsigned char byte, std::string& out);
  // A complete code point of 2 to 4 bytes in utf8_, or U+0080..U+009F.
  void finish_code_point(std::string& out);
  void c1_control(unsigned char code);
  // A C0 control met anywhere: kept ones are written, CAN and SUB abort a
  // sequence, ESC starts one.
  void c0_control(unsigned char byte, std::string& out);
  void escape_byte(unsigned char byte, std::string& out);
  void csi_byte(unsigned char byte, std::string& out);
  void string_byte(unsigned char byte);
  void finish_escape(unsigned char final_byte, std::string& out);
  void finish_csi(unsigned char final_byte, std::string& out);
  // A CSI ? Pm h / l (or CSI Pm h / l) with only the modes of `kept`.
  void write_modes(bool dec, unsigned char final_byte, std::string& out);
  void start(State state);

  State state_ = State::ground;
  std::string sequence_;  // the escape or CSI sequence read so far, ESC included
  bool too_long_ = false;
  bool string_after_c2_ = false;   // in a string: the byte before was 0xC2 (U+009C ends it)
  std::string utf8_;               // a UTF-8 character read so far
  std::size_t utf8_expected_ = 0;  // its length
  bool alternate_screen_ = false;
};

}  // namespace mission
