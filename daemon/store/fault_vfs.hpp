#pragma once
// The db_write fault point (shared/fault_points.hpp) as SQLite sees it: a
// VFS over the default one whose writes fail with SQLITE_IOERR_WRITE or
// SQLITE_FULL when the point's rule says so, as a failing or full disk's
// would. Registered as the default VFS only when fault points are armed;
// otherwise SQLite's own VFS is used untouched.

namespace mission::store {

// Idempotent; call before opening a database.
void install_fault_vfs_if_armed();

}  // namespace mission::store
