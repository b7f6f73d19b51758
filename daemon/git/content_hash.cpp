#include "daemon/git/content_hash.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace mission::daemon::git {
namespace {

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ull;
constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ull;
constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ull;

// The algorithm reads little-endian words; memcpy keeps unaligned reads legal.
std::uint64_t load64(const unsigned char* p) {
  std::uint64_t value;
  std::memcpy(&value, p, sizeof value);
  if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap64(value);
  return value;
}

std::uint32_t load32(const unsigned char* p) {
  std::uint32_t value;
  std::memcpy(&value, p, sizeof value);
  if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap32(value);
  return value;
}

std::uint64_t round(std::uint64_t lane, std::uint64_t word) {
  lane += word * kPrime2;
  return std::rotl(lane, 31) * kPrime1;
}

std::uint64_t merge(std::uint64_t acc, std::uint64_t lane) {
  acc ^= round(0, lane);
  return acc * kPrime1 + kPrime4;
}

void stripe(std::uint64_t lanes[4], const unsigned char* p) {
  lanes[0] = round(lanes[0], load64(p));
  lanes[1] = round(lanes[1], load64(p + 8));
  lanes[2] = round(lanes[2], load64(p + 16));
  lanes[3] = round(lanes[3], load64(p + 24));
}

}  // namespace

void ContentHash::update(const void* data, std::size_t size) {
  auto p = static_cast<const unsigned char*>(data);
  total_ += size;
  if (pending_size_ > 0) {
    std::size_t take = std::min(size, sizeof pending_ - pending_size_);
    std::memcpy(pending_ + pending_size_, p, take);
    pending_size_ += take;
    p += take;
    size -= take;
    if (pending_size_ < sizeof pending_) return;
    stripe(lanes_, pending_);
    pending_size_ = 0;
  }
  for (; size >= 32; p += 32, size -= 32) stripe(lanes_, p);
  std::memcpy(pending_, p, size);
  pending_size_ = size;
}

std::uint64_t ContentHash::digest() const {
  std::uint64_t acc;
  if (total_ >= 32) {
    acc = std::rotl(lanes_[0], 1) + std::rotl(lanes_[1], 7) + std::rotl(lanes_[2], 12) +
          std::rotl(lanes_[3], 18);
    for (auto lane : lanes_) acc = merge(acc, lane);
  } else {
    acc = lanes_[2] + kPrime5;  // lanes_[2] still holds the seed
  }
  acc += total_;

  const unsigned char* p = pending_;
  std::size_t size = pending_size_;
  for (; size >= 8; p += 8, size -= 8) {
    acc ^= round(0, load64(p));
    acc = std::rotl(acc, 27) * kPrime1 + kPrime4;
  }
  if (size >= 4) {
    acc ^= std::uint64_t{load32(p)} * kPrime1;
    acc = std::rotl(acc, 23) * kPrime2 + kPrime3;
    p += 4;
    size -= 4;
  }
  for (; size > 0; ++p, --size) {
    acc ^= *p * kPrime5;
    acc = std::rotl(acc, 11) * kPrime1;
  }

  acc ^= acc >> 33;
  acc *= kPrime2;
  acc ^= acc >> 29;
  acc *= kPrime3;
  acc ^= acc >> 32;
  return acc;
}

std::uint64_t content_hash(std::string_view bytes) {
  ContentHash hash;
  hash.update(bytes.data(), bytes.size());
  return hash.digest();
}

}  // namespace mission::daemon::git
