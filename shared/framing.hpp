#pragma once
// Newline-delimited framing shared by the control API and MCP stdio. Bytes
// arrive in arbitrary chunks; complete lines come out, partial ones are kept.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mission {

struct Frame {
  enum class Kind { line, oversized };
  Kind kind;
  std::string text;  // the line without its "\n" (and "\r"); empty when oversized
  // Oversized: the line's first and last kOversizedEdgeBytes, kept so the
  // refusal can carry the request's id (jsonrpc::recover_id).
  std::string head;
  std::string tail;
};

// Bytes kept from each end of an oversized line.
inline constexpr std::size_t kOversizedEdgeBytes = 4096;

class LineFramer {
 public:
  explicit LineFramer(std::size_t max_frame_bytes) : max_frame_bytes_(max_frame_bytes) {}

  // Appends `bytes` and returns every frame completed by them, in order. A
  // line longer than the limit yields one `oversized` frame when its newline
  // arrives; its bytes are dropped as they come, so memory stays bounded
  // (but for its first and last kOversizedEdgeBytes).
  // Blank lines are skipped.
  std::vector<Frame> feed(std::string_view bytes);

  // Changes the limit for lines not yet complete.
  void set_max_frame_bytes(std::size_t max_frame_bytes) { max_frame_bytes_ = max_frame_bytes; }

  std::size_t max_frame_bytes() const { return max_frame_bytes_; }

  // Bytes of an unfinished line currently held.
  std::size_t pending_bytes() const { return partial_.size(); }

 private:
  std::size_t max_frame_bytes_;
  std::string partial_;
  bool discarding_ = false;
  std::string head_;  // of the line being discarded
  std::string tail_;
};

}  // namespace mission
