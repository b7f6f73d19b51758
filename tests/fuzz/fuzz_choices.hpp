#pragma once
// The choices a structured fuzz target makes, read from the input's bytes
// in order: the same bytes make the same choices, so a crashing input
// replays, and a mutated byte changes one choice. Past the end every
// choice is the first one (zero), so a short input still makes a whole
// call.

#include <cstddef>
#include <cstdint>
#include <string>

namespace mission::fuzz {

class FuzzChoices {
 public:
  FuzzChoices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool exhausted() const { return at_ >= size_; }

  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }

  // A number in [0, n): one byte for small n, two for larger ones.
  std::size_t below(std::size_t n) {
    if (n <= 1) return 0;
    std::size_t value = byte();
    if (n > 256) value = value << 8 | byte();
    return value % n;
  }

  // True once in `n` (on average over the byte's values).
  bool one_in(std::size_t n) { return below(n) == 0; }

  std::uint64_t u64() {
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value = value << 8 | byte();
    return value;
  }

  // Up to `max` raw bytes of the input.
  std::string bytes(std::size_t max) {
    std::size_t count = below(max + 1);
    std::string out;
    while (count-- > 0 && !exhausted()) out += static_cast<char>(byte());
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace mission::fuzz
