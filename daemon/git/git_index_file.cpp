#include "daemon/git/git_index_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mission::daemon::git {
namespace {

constexpr std::size_t kHeaderBytes = 12;
// ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each), oid, flags.
constexpr std::size_t kFixedBytes = 62;
constexpr std::uint16_t kNameMask = 0x0fff;
constexpr std::uint16_t kSkipWorktree = 0x4000;
constexpr std::uint16_t kIntentToAdd = 0x2000;

std::uint32_t read_be32(const unsigned char* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

// git's offset varint (varint.c): 7 bits a byte, each continuation adds one.
bool read_varint(const unsigned char*& p, const unsigned char* end, std::uint64_t& value) {
  if (p >= end) return false;
  unsigned char c = *p++;
  value = c & 127;
  while ((c & 128) != 0) {
    if (p >= end || value > (std::uint64_t{1} << 56)) return false;
    ++value;
    c = *p++;
    value = (value << 7) + (c & 127);
  }
  return true;
}

// One TREE extension node and its children, in git's order: path component
// NUL, entry count (-1 when invalid) SP subtree count LF, then the id when
// valid.
bool parse_cache_tree(const unsigned char*& p, const unsigned char* end, CacheTreeNode& node,
                      int depth) {
  if (depth > 4096) return false;
  const unsigned char* nul =
      static_cast<const unsigned char*>(std::memchr(p, 0, static_cast<std::size_t>(end - p)));
  if (nul == nullptr) return false;
  p = nul + 1;
  auto number = [&](char stop, long long& value) {
    bool negative = p < end && *p == '-';
    if (negative) ++p;
    if (p >= end || *p < '0' || *p > '9') return false;
    value = 0;
    while (p < end && *p >= '0' && *p <= '9') {
      value = value * 10 + (*p - '0');
      if (value > (1LL << 40)) return false;
      ++p;
    }
    if (p >= end || *p != stop) return false;
    ++p;
    if (negative) value = -value;
    return true;
  };
  long long entries = 0;
  long long subtrees = 0;
  if (!number(' ', entries) || !number('\n', subtrees) || subtrees < 0) return false;
  node.valid = entries >= 0;
  if (node.valid) {
    if (end - p < static_cast<std::ptrdiff_t>(kOidBytes)) return false;
    std::memcpy(node.oid, p, kOidBytes);
    p += kOidBytes;
  }
  for (long long i = 0; i < subtrees; ++i) {
    const unsigned char* name_start = p;
    const unsigned char* name_end =
        static_cast<const unsigned char*>(std::memchr(p, 0, static_cast<std::size_t>(end - p)));
    if (name_end == nullptr) return false;
    std::string name(reinterpret_cast<const char*>(name_start),
                     static_cast<std::size_t>(name_end - name_start));
    CacheTreeNode& child = node.children[name];
    if (!parse_cache_tree(p, end, child, depth + 1)) return false;
  }
  return true;
}

}  // namespace

std::string oid_hex(const unsigned char* oid) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(kOidBytes * 2, '0');
  for (std::size_t i = 0; i < kOidBytes; ++i) {
    hex[2 * i] = kDigits[oid[i] >> 4];
    hex[2 * i + 1] = kDigits[oid[i] & 15];
  }
  return hex;
}

FileState index_entry_state(const IndexEntry& entry) {
  std::uint32_t mode = entry.mode();
  if (mode != kModeFile && mode != kModeExecutable && mode != kModeSymlink) return {};
  return {mode, oid_hex(entry.oid())};
}

std::unique_ptr<IndexFile> IndexFile::open(const std::string& path, std::string& why) {
  std::unique_ptr<IndexFile> index(new IndexFile());
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return index;  // no index yet: nothing staged, nothing tracked
    why = "cannot open " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  if (::fstat(fd, &index->stat_) != 0) {
    why = "cannot stat " + path + ": " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  index->size_ = static_cast<std::size_t>(index->stat_.st_size);
  if (index->size_ > 0) {
    void* map = ::mmap(nullptr, index->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      why = "cannot map " + path + ": " + std::strerror(errno);
      ::close(fd);
      return nullptr;
    }
    index->map_ = map;
  }
  ::close(fd);
  if (index->size_ > 0 && !index->parse(why)) return nullptr;
  return index;
}

IndexFile::~IndexFile() {
  if (map_ != nullptr) ::munmap(map_, size_);
}

bool IndexFile::parse(std::string& why) {
  const auto* base = static_cast<const unsigned char*>(map_);
  if (size_ < kHeaderBytes + kOidBytes || std::memcmp(base, "DIRC", 4) != 0) {
    why = "not an index file";
    return false;
  }
  std::uint32_t version = read_be32(base + 4);
  if (version < 2 || version > 4) {
    why = "index version " + std::to_string(version);
    return false;
  }
  std::uint32_t count = read_be32(base + 8);
  // The trailing checksum is not verified: git writes the index whole and
  // renames it into place, and a torn one fails to parse here.
  const unsigned char* end = base + size_ - kOidBytes;
  const unsigned char* p = base + kHeaderBytes;
  entries_.reserve(count);
  std::string previous;  // version 4: the previous path, for prefix compression
  if (version == 4) paths_.reserve(static_cast<std::size_t>(count) * 32);
  std::vector<std::pair<std::size_t, std::size_t>> v4_spans;  // offset, length in paths_
  for (std::uint32_t i = 0; i < count; ++i) {
    if (end - p < static_cast<std::ptrdiff_t>(kFixedBytes)) {
      why = "truncated entry";
      return false;
    }
    IndexEntry entry{{}, p};
    std::size_t fixed = kFixedBytes;
    if (entry.extended()) {
      if (version < 3) {
        why = "extended flags in a version 2 index";
        return false;
      }
      fixed += 2;
    }
    const unsigned char* name = p + fixed;
    if (version == 4) {
      std::uint64_t strip = 0;
      if (!read_varint(name, end, strip) || strip > previous.size()) {
        why = "bad path compression";
        return false;
      }
      const auto* nul = static_cast<const unsigned char*>(
          std::memchr(name, 0, static_cast<std::size_t>(end - name)));
      if (nul == nullptr) {
        why = "unterminated path";
        return false;
      }
      previous.resize(previous.size() - strip);
      previous.append(reinterpret_cast<const char*>(name), static_cast<std::size_t>(nul - name));
      v4_spans.emplace_back(paths_.size(), previous.size());
      paths_ += previous;
      p = nul + 1;
    } else {
      std::size_t length = entry.flags() & kNameMask;
      if (length == kNameMask) {  // 4095 or longer: find the NUL
        const auto* nul = static_cast<const unsigned char*>(
            std::memchr(name, 0, static_cast<std::size_t>(end - name)));
        if (nul == nullptr) {
          why = "unterminated path";
          return false;
        }
        length = static_cast<std::size_t>(nul - name);
      }
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      std::size_t total = (fixed + length + 8) & ~std::size_t{7};
      if (end - p < static_cast<std::ptrdiff_t>(total)) {
        why = "truncated entry";
        return false;
      }
      entry.path = std::string_view(reinterpret_cast<const char*>(name), length);
      p += total;
    }
    std::uint16_t extended = entry.extended_flags();
    if (special_.empty()) {
      if (entry.stage() != 0)
        special_ = "a merge conflict";
      else if (entry.assume_valid())
        special_ = "an assume-unchanged entry";
      else if ((extended & kSkipWorktree) != 0)
        special_ = "a skip-worktree entry (sparse checkout)";
      else if ((extended & kIntentToAdd) != 0)
        special_ = "an intent-to-add entry";
    }
    entries_.push_back(entry);
  }
  if (version == 4) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      entries_[i].path = std::string_view(paths_).substr(v4_spans[i].first, v4_spans[i].second);
    }
  }
  // Extensions: signature, size, data. One whose signature starts with a
  // capital letter may be ignored; any other changes what the entries mean.
  while (end - p >= 8) {
    const unsigned char* signature = p;
    std::uint32_t length = read_be32(p + 4);
    p += 8;
    if (static_cast<std::uint64_t>(end - p) < length) {
      why = "truncated extension";
      return false;
    }
    if (std::memcmp(signature, "TREE", 4) == 0) {
      auto root = std::make_unique<CacheTreeNode>();
      const unsigned char* tree = p;
      if (parse_cache_tree(tree, p + length, *root, 0)) cache_tree_ = std::move(root);
    } else if (signature[0] < 'A' || signature[0] > 'Z') {
      why = "index extension '" + std::string(reinterpret_cast<const char*>(signature), 4) + "'";
      return false;
    }
    p += length;
  }
  return true;
}

}  // namespace mission::daemon::git
