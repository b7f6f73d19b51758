#pragma once
// The byte stream of an attached terminal (after terminal.attach), both ways:
// frames of one type byte, a 4-byte big-endian length and the payload, so
// output passes as it is, without JSON or base64.
//
// Daemon to client: 'o' output for the viewer's terminal; 'n' a notice for
// the person (UTF-8 text); 'x' the agent ended (a JSON object with state,
// exitCode, exitSignal). Client to daemon: 'i' keystrokes; 'r' a new size
// (rows then columns, 2 bytes each, big-endian).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mission::terminal_frames {

inline constexpr char kOutput = 'o';
inline constexpr char kNotice = 'n';
inline constexpr char kEnded = 'x';
inline constexpr char kInput = 'i';
inline constexpr char kResize = 'r';

// A frame larger than this is a protocol error.
inline constexpr std::size_t kMaxFrameBytes = 1024 * 1024;

struct Frame {
  char type = 0;
  std::string payload;
};

std::string encode(char type, std::string_view payload);
std::string encode_resize(unsigned short rows, unsigned short columns);
// Rows and columns of a resize payload; false when it has the wrong size.
bool decode_resize(std::string_view payload, unsigned short& rows, unsigned short& columns);

// Collects frames from bytes arriving in arbitrary chunks.
class Decoder {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next complete frame; nullopt when more bytes are needed. Throws
  // std::length_error for a frame over kMaxFrameBytes.
  std::optional<Frame> next();

 private:
  std::string buffer_;
  std::size_t start_ = 0;
};

}  // namespace mission::terminal_frames
