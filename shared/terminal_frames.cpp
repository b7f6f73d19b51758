#include "shared/terminal_frames.hpp"

#include <stdexcept>

namespace mission::terminal_frames {

std::string encode(char type, std::string_view payload) {
  std::string frame;
  frame.reserve(payload.size() + 5);
  const auto length = static_cast<std::uint32_t>(payload.size());
  frame.push_back(type);
  for (int shift = 24; shift >= 0; shift -= 8)
    frame.push_back(static_cast<char>((length >> shift) & 0xff));
  frame.append(payload);
  return frame;
}

std::string encode_resize(unsigned short rows, unsigned short columns) {
  const char payload[4] = {static_cast<char>(rows >> 8), static_cast<char>(rows & 0xff),
                           static_cast<char>(columns >> 8), static_cast<char>(columns & 0xff)};
  return encode(kResize, std::string_view(payload, 4));
}

bool decode_resize(std::string_view payload, unsigned short& rows, unsigned short& columns) {
  if (payload.size() != 4) return false;
  auto byte = [&](std::size_t i) {
    return static_cast<unsigned>(static_cast<unsigned char>(payload[i]));
  };
  rows = static_cast<unsigned short>((byte(0) << 8) | byte(1));
  columns = static_cast<unsigned short>((byte(2) << 8) | byte(3));
  return true;
}

std::optional<Frame> Decoder::next() {
  if (buffer_.size() - start_ < 5) {
    if (start_ > 0) {
      buffer_.erase(0, start_);
      start_ = 0;
    }
    return std::nullopt;
  }
  std::uint32_t length = 0;
  for (int i = 1; i <= 4; ++i)
    length = (length << 8) | static_cast<unsigned char>(buffer_[start_ + i]);
  if (length > kMaxFrameBytes) throw std::length_error("terminal frame over the size limit");
  if (buffer_.size() - start_ - 5 < length) {
    buffer_.erase(0, start_);
    start_ = 0;
    return std::nullopt;
  }
  Frame frame{buffer_[start_], buffer_.substr(start_ + 5, length)};
  start_ += 5 + length;
  if (start_ == buffer_.size()) {
    buffer_.clear();
    start_ = 0;
  }
  return frame;
}

}  // namespace mission::terminal_frames
