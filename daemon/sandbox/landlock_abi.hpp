#pragma once
// The kernel's Landlock interface, spelled out here: Debian 12's
// linux-libc-dev stops at ABI 2, and the rights and scopes of later ABIs
// are needed. Values are the kernel's (include/uapi/linux/landlock.h); each
// names the ABI that brought it. Nothing here decides a policy.

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace mission::daemon::sandbox::landlock {

// Flag of landlock_create_ruleset: return the ABI version instead.
inline constexpr std::uint32_t kCreateRulesetVersion = 1U << 0;

// Filesystem rights (ABI 1 unless noted).
inline constexpr std::uint64_t kFsExecute = 1ULL << 0;
inline constexpr std::uint64_t kFsWriteFile = 1ULL << 1;
inline constexpr std::uint64_t kFsReadFile = 1ULL << 2;
inline constexpr std::uint64_t kFsReadDir = 1ULL << 3;
inline constexpr std::uint64_t kFsRemoveDir = 1ULL << 4;
inline constexpr std::uint64_t kFsRemoveFile = 1ULL << 5;
inline constexpr std::uint64_t kFsMakeChar = 1ULL << 6;
inline constexpr std::uint64_t kFsMakeDir = 1ULL << 7;
inline constexpr std::uint64_t kFsMakeReg = 1ULL << 8;
inline constexpr std::uint64_t kFsMakeSock = 1ULL << 9;
inline constexpr std::uint64_t kFsMakeFifo = 1ULL << 10;
inline constexpr std::uint64_t kFsMakeBlock = 1ULL << 11;
inline constexpr std::uint64_t kFsMakeSym = 1ULL << 12;
inline constexpr std::uint64_t kFsRefer = 1ULL << 13;     // ABI 2: link or rename across folders
inline constexpr std::uint64_t kFsTruncate = 1ULL << 14;  // ABI 3
inline constexpr std::uint64_t kFsIoctlDev = 1ULL << 15;  // ABI 5

// Scopes (ABI 6): a confined process cannot reach outside its domain.
inline constexpr std::uint64_t kScopeAbstractUnixSocket = 1ULL << 0;
inline constexpr std::uint64_t kScopeSignal = 1ULL << 1;

// The ABIs that brought what the profile uses.
inline constexpr int kAbiRefer = 2;
inline constexpr int kAbiTruncate = 3;
inline constexpr int kAbiNetwork = 4;  // TCP bind and connect rules (not used yet)
inline constexpr int kAbiScopes = 6;

inline constexpr int kRulePathBeneath = 1;

// struct landlock_ruleset_attr as of ABI 6; the kernel takes its size, so
// an older kernel is given only the fields it knows (see ruleset_size()).
struct RulesetAttr {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;  // ABI 4
  std::uint64_t scoped = 0;              // ABI 6
};

// struct landlock_path_beneath_attr, packed as the kernel declares it.
struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowed_access = 0;
  std::int32_t parent_fd = -1;
};

inline long create_ruleset(const RulesetAttr* attr, std::size_t size, std::uint32_t flags) {
  return ::syscall(SYS_landlock_create_ruleset, attr, size, flags);
}
inline long add_rule(int ruleset_fd, int rule_type, const void* rule_attr) {
  return ::syscall(SYS_landlock_add_rule, ruleset_fd, rule_type, rule_attr, 0);
}
inline long restrict_self(int ruleset_fd) {
  return ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0);
}

}  // namespace mission::daemon::sandbox::landlock
