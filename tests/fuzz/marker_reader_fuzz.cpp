// The MarkerReader on any output split anywhere: the same markers as in one
// piece, none over the limit, bounded buffering.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "shared/marker_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t limit = 24 + data[0] % 200;
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  mission::MarkerReader whole(limit);
  std::vector<mission::MarkerLine> expected;
  whole.feed(bytes, expected);
  whole.finish(expected);
  mission::MarkerReader pieces(limit);
  std::vector<mission::MarkerLine> got;
  std::size_t step = 1 + data[0] % 5;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    pieces.feed(bytes.substr(at, step), got);
    if (pieces.buffered_bytes() > limit + 1) __builtin_trap();
  }
  pieces.finish(got);
  if (got.size() != expected.size()) __builtin_trap();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].kind != expected[i].kind || got[i].json != expected[i].json ||
        got[i].line_number != expected[i].line_number) {
      __builtin_trap();
    }
    if (got[i].json.size() > limit) __builtin_trap();
  }
  if (whole.lines_seen() != pieces.lines_seen()) __builtin_trap();
  return 0;
}
