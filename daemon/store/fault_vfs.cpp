#include "daemon/store/fault_vfs.hpp"

#include <sqlite3.h>

#include <mutex>

#include "shared/fault_points.hpp"

namespace mission::store {
namespace {

sqlite3_vfs* g_base = nullptr;
sqlite3_vfs g_vfs{};

// A file of the fault VFS: our header, the base VFS's file right after it.
struct FaultFile {
  sqlite3_file header;
  sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
};

FaultFile* as_fault(sqlite3_file* file) {
  return reinterpret_cast<FaultFile*>(file);
}
sqlite3_file* real(sqlite3_file* file) {
  return as_fault(file)->real();
}

int fault_close(sqlite3_file* file) {
  return real(file)->pMethods->xClose(real(file));
}
int fault_read(sqlite3_file* file, void* buffer, int amount, sqlite3_int64 offset) {
  return real(file)->pMethods->xRead(real(file), buffer, amount, offset);
}
int fault_write(sqlite3_file* file, const void* buffer, int amount, sqlite3_int64 offset) {
  if (auto fault = faults::hit(faults::FaultPoint::db_write)) {
    if (*fault == faults::FaultAction::full) return SQLITE_FULL;
    if (*fault == faults::FaultAction::fail) return SQLITE_IOERR_WRITE;
    if (*fault == faults::FaultAction::oom) return SQLITE_NOMEM;
  }
  return real(file)->pMethods->xWrite(real(file), buffer, amount, offset);
}
int fault_truncate(sqlite3_file* file, sqlite3_int64 size) {
  return real(file)->pMethods->xTruncate(real(file), size);
}
int fault_sync(sqlite3_file* file, int flags) {
  return real(file)->pMethods->xSync(real(file), flags);
}
int fault_file_size(sqlite3_file* file, sqlite3_int64* size) {
  return real(file)->pMethods->xFileSize(real(file), size);
}
int fault_lock(sqlite3_file* file, int level) {
  return real(file)->pMethods->xLock(real(file), level);
}
int fault_unlock(sqlite3_file* file, int level) {
  return real(file)->pMethods->xUnlock(real(file), level);
}
int fault_check_reserved_lock(sqlite3_file* file, int* out) {
  return real(file)->pMethods->xCheckReservedLock(real(file), out);
}
int fault_file_control(sqlite3_file* file, int op, void* arg) {
  return real(file)->pMethods->xFileControl(real(file), op, arg);
}
int fault_sector_size(sqlite3_file* file) {
  return real(file)->pMethods->xSectorSize(real(file));
}
int fault_device_characteristics(sqlite3_file* file) {
  return real(file)->pMethods->xDeviceCharacteristics(real(file));
}
int fault_shm_map(sqlite3_file* file, int page, int page_size, int extend, void volatile** out) {
  return real(file)->pMethods->xShmMap(real(file), page, page_size, extend, out);
}
int fault_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
  return real(file)->pMethods->xShmLock(real(file), offset, n, flags);
}
void fault_shm_barrier(sqlite3_file* file) {
  real(file)->pMethods->xShmBarrier(real(file));
}
int fault_shm_unmap(sqlite3_file* file, int delete_flag) {
  return real(file)->pMethods->xShmUnmap(real(file), delete_flag);
}
int fault_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  return real(file)->pMethods->xFetch(real(file), offset, amount, out);
}
int fault_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  return real(file)->pMethods->xUnfetch(real(file), offset, page);
}

const sqlite3_io_methods kMethods = {
    3,
    fault_close,
    fault_read,
    fault_write,
    fault_truncate,
    fault_sync,
    fault_file_size,
    fault_lock,
    fault_unlock,
    fault_check_reserved_lock,
    fault_file_control,
    fault_sector_size,
    fault_device_characteristics,
    fault_shm_map,
    fault_shm_lock,
    fault_shm_barrier,
    fault_shm_unmap,
    fault_fetch,
    fault_unfetch,
};

int fault_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  FaultFile* fault = as_fault(file);
  fault->header.pMethods = nullptr;
  int rc = g_base->xOpen(g_base, name, fault->real(), flags, out_flags);
  // SQLite calls xClose only when pMethods is set: leave it null on failure.
  if (rc == SQLITE_OK && fault->real()->pMethods != nullptr) fault->header.pMethods = &kMethods;
  return rc;
}

}  // namespace

void install_fault_vfs_if_armed() {
  static std::once_flag once;
  if (!faults::hit_is_armed()) return;
  std::call_once(once, [] {
    g_base = sqlite3_vfs_find(nullptr);
    g_vfs = *g_base;
    g_vfs.zName = "mission-faults";
    g_vfs.szOsFile = static_cast<int>(sizeof(FaultFile)) + g_base->szOsFile;
    g_vfs.xOpen = fault_open;
    g_vfs.pAppData = nullptr;
    sqlite3_vfs_register(&g_vfs, 1);
  });
}

}  // namespace mission::store
