#include "daemon/git/file_system_kind.hpp"

#include <sys/vfs.h>

#include <cstdint>
#include <cstdio>

namespace mission::daemon::git {
namespace {

struct KnownFileSystem {
  std::uint32_t magic;
  const char* name;
  FileSystemKind kind;
};

// From <linux/magic.h>, written out: not every libc ships all of them.
constexpr KnownFileSystem kFileSystems[] = {
    {0xEF53, "ext4", FileSystemKind::local},
    {0x58465342, "xfs", FileSystemKind::local},
    {0x9123683E, "btrfs", FileSystemKind::local},
    {0x01021994, "tmpfs", FileSystemKind::local},
    {0x858458f6, "ramfs", FileSystemKind::local},
    {0xF2F52010, "f2fs", FileSystemKind::local},
    {0x2fc12fc1, "zfs", FileSystemKind::local},
    {0x794c7630, "overlayfs", FileSystemKind::local},
    {0x52654973, "reiserfs", FileSystemKind::local},
    {0x3153464a, "jfs", FileSystemKind::local},
    {0xca451a4e, "bcachefs", FileSystemKind::local},
    {0x9fa0, "proc", FileSystemKind::pseudo},
    {0x62656572, "sysfs", FileSystemKind::pseudo},
    {0x64626720, "debugfs", FileSystemKind::pseudo},
    {0x74726163, "tracefs", FileSystemKind::pseudo},
    {0x73636673, "securityfs", FileSystemKind::pseudo},
    {0x27e0eb, "cgroup", FileSystemKind::pseudo},
    {0x63677270, "cgroup2", FileSystemKind::pseudo},
    {0x1cd1, "devpts", FileSystemKind::pseudo},
    {0x6165676C, "pstore", FileSystemKind::pseudo},
    {0xcafe4a11, "bpf", FileSystemKind::pseudo},
    {0xde5e81e4, "efivarfs", FileSystemKind::pseudo},
    {0xf97cff8c, "selinuxfs", FileSystemKind::pseudo},
    {0x43415d53, "smackfs", FileSystemKind::pseudo},
    {0x42494e4d, "binfmt_misc", FileSystemKind::pseudo},
    {0x6e736673, "nsfs", FileSystemKind::pseudo},
    {0x62656570, "configfs", FileSystemKind::pseudo},
    {0x65735543, "fusectl", FileSystemKind::pseudo},
    {0x19800202, "mqueue", FileSystemKind::pseudo},
    {0x6969, "nfs", FileSystemKind::other},
    {0x65735546, "fuse", FileSystemKind::other},
    {0xFF534D42, "cifs", FileSystemKind::other},
    {0xFE534D42, "smb2", FileSystemKind::other},
};

const KnownFileSystem* lookup(int fd, std::uint32_t& magic) {
  struct statfs info;
  if (::fstatfs(fd, &info) != 0) return nullptr;
  magic = static_cast<std::uint32_t>(info.f_type);
  for (const auto& known : kFileSystems) {
    if (known.magic == magic) return &known;
  }
  return nullptr;
}

}  // namespace

FileSystemKind file_system_kind(int fd) {
  std::uint32_t magic = 0;
  const KnownFileSystem* known = lookup(fd, magic);
  return known != nullptr ? known->kind : FileSystemKind::other;
}

const char* file_system_name(int fd) {
  std::uint32_t magic = 0;
  if (const KnownFileSystem* known = lookup(fd, magic)) return known->name;
  thread_local char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%x", magic);
  return buffer;
}

}  // namespace mission::daemon::git
