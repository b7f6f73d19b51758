// The AcpReader on any output split anywhere: the same messages as in one
// piece, every refusal with its reason, bounded buffering.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "shared/acp_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t limit = 16 + data[0] % 512;
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  mission::AcpReader whole(limit);
  const std::vector<mission::AcpMessage> expected = whole.feed(bytes);
  mission::AcpReader pieces(limit);
  std::vector<mission::AcpMessage> got;
  const std::size_t step = 1 + data[0] % 7;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    for (auto& message : pieces.feed(bytes.substr(at, step))) got.push_back(std::move(message));
    if (pieces.pending_bytes() > limit + 1) __builtin_trap();
  }
  if (got.size() != expected.size()) __builtin_trap();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const mission::AcpMessage& a = got[i];
    const mission::AcpMessage& b = expected[i];
    if (a.kind != b.kind || a.method != b.method || a.id != b.id || a.reason != b.reason) {
      __builtin_trap();
    }
    const bool invalid = a.kind == mission::AcpMessage::Kind::invalid;
    if (invalid == a.reason.empty()) __builtin_trap();
    // A response holds a result or an error, never both.
    if (!a.error.is_null() && !a.result.is_null()) __builtin_trap();
  }
  return 0;
}
