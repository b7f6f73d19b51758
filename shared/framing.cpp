#include "shared/framing.hpp"

#include <algorithm>

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
        partial_.append(chunk.substr(0, kOversizedEdgeBytes));
        head_ = partial_.substr(0, kOversizedEdgeBytes);
        tail_ = partial_.substr(partial_.size() - std::min(partial_.size(), kOversizedEdgeBytes));
        partial_.clear();
        partial_.shrink_to_fit();
        chunk.remove_prefix(std::min(chunk.size(), kOversizedEdgeBytes));
      } else {
        partial_.append(chunk);
      }
    }
    if (discarding_) {
      // Only the last kOversizedEdgeBytes of what is dropped are kept.
      if (chunk.size() >= kOversizedEdgeBytes) {
        tail_.assign(chunk.substr(chunk.size() - kOversizedEdgeBytes));
      } else {
        tail_.append(chunk);
        if (tail_.size() > kOversizedEdgeBytes) tail_.erase(0, tail_.size() - kOversizedEdgeBytes);
      }
    }
    if (newline == std::string_view::npos) break;

    if (discarding_) {
      if (!tail_.empty() && tail_.back() == '\r') tail_.pop_back();
      frames.push_back({Frame::Kind::oversized, {}, std::move(head_), std::move(tail_)});
      head_.clear();
      tail_.clear();
      discarding_ = false;
      continue;
    }
    if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
    if (!partial_.empty()) frames.push_back({Frame::Kind::line, std::move(partial_), {}, {}});
    partial_.clear();
  }
  return frames;
}

}  // namespace mission
