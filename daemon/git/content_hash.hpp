#pragma once
// XXH64 (Yann Collet's public xxHash 64-bit algorithm, seed 0), written from
// its specification: a fast non-cryptographic 64-bit hash for checksum
// snapshots. It only has to tell whether a file's content changed between two
// snapshots taken by the same user, not resist anyone, and it runs well
// above disk speed, so a snapshot costs little more than reading the files.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mission::daemon::git {

class ContentHash {
 public:
  void update(const void* data, std::size_t size);
  std::uint64_t digest() const;

 private:
  std::uint64_t lanes_[4] = {
      0x9E3779B185EBCA87ull + 0xC2B2AE3D27D4EB4Full,  // prime 1 + prime 2
      0xC2B2AE3D27D4EB4Full,                          // prime 2
      0,
      0 - 0x9E3779B185EBCA87ull,  // -prime 1
  };
  std::uint64_t total_ = 0;
  unsigned char pending_[32];  // bytes of an unfinished 32-byte stripe
  std::size_t pending_size_ = 0;
};

std::uint64_t content_hash(std::string_view bytes);

}  // namespace mission::daemon::git
