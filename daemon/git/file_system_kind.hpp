#pragma once
// What kind of file system a directory is on, for the two decisions that
// depend on it: pseudo file systems (/proc, /sys, ...) are never snapshot,
// since their files stream or block; and only local disk file systems are
// trusted to change a directory's mtime with every entry added or removed
// and to report every change through inotify (a network file system does
// neither for changes made by other machines).

namespace mission::daemon::git {

enum class FileSystemKind {
  local,   // ext4, xfs, btrfs, tmpfs, f2fs, zfs, overlayfs, ...
  pseudo,  // proc, sysfs, debugfs, cgroup, ...: no snapshot
  other,   // network, FUSE, unknown: snapshots, but nothing trusted
};

// The kind of the file system holding the open directory `fd`; `other` when
// fstatfs fails.
FileSystemKind file_system_kind(int fd);

// Its name for messages ("proc", "sysfs", "nfs", or the magic number in hex).
const char* file_system_name(int fd);

}  // namespace mission::daemon::git
