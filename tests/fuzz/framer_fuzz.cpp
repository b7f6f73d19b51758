// The line framer: any bytes, split anywhere, give the same frames as the
// same bytes in one piece, and no frame is ever over the limit.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shared/framing.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t limit = 16 + data[0] % 64;
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  mission::LineFramer whole(limit);
  auto expected = whole.feed(bytes);
  mission::LineFramer pieces(limit);
  std::vector<mission::Frame> got;
  std::size_t step = 1 + data[0] % 7;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    for (auto& frame : pieces.feed(bytes.substr(at, step))) got.push_back(std::move(frame));
  }
  if (got.size() != expected.size()) __builtin_trap();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].kind != expected[i].kind || got[i].text != expected[i].text) __builtin_trap();
    if (got[i].text.size() > limit) __builtin_trap();
    if (got[i].text.find('\n') != std::string::npos) __builtin_trap();
  }
  if (pieces.pending_bytes() > limit) __builtin_trap();
  return 0;
}
