#include "shared/framing.hpp"

namespace mission {

std::vector<Frame> LineFramer::feed(std::string_view bytes) {
  std::vector<Frame> frames;
  while (!bytes.empty()) {
    std::size_t newline = bytes.find('\n');
    std::string_view chunk = bytes.substr(0, newline);
    bytes = newline == std::string_view::npos ? std::string_view() : bytes.substr(newline + 1);

    if (!discarding_) {
      if (partial_.size() + chunk.size() > max_frame_bytes_) {
        discarding_ = true;
        partial_.clear();
        partial_.shrink_to_fit();
      } else {
        partial_.append(chunk);
      }
    }
    if (newline == std::string_view::npos) break;

    if (discarding_) {
      frames.push_back({Frame::Kind::oversized, {}});
      discarding_ = false;
      continue;
    }
    if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
    if (!partial_.empty()) frames.push_back({Frame::Kind::line, std::move(partial_)});
    partial_.clear();
  }
  return frames;
}

}  // namespace mission
