#ifndef TESSERA_CSQLITE_SHIM_H
#define TESSERA_CSQLITE_SHIM_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/// Copies the first 48-byte copy of the WAL-index header (the start of a
/// WAL database's `-shm` file, https://sqlite.org/walformat.html) that other
/// connections, in this process or others, rewrite at every commit. Volatile
/// loads between acquire fences: the words are read from memory each call,
/// and no later read of the database moves before them.
static inline void tessera_copy_wal_index_header(const void *shm, uint64_t words[6]) {
    const volatile uint64_t *header = (const volatile uint64_t *)shm;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    for (int index = 0; index < 6; index++) {
        words[index] = header[index];
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

/// The start of the WAL-index (the shared memory of a WAL database) as
/// SQLite itself maps it for `db`'s main database, or NULL when it is not
/// mapped. Asked through the VFS (`xShmMap` without extending), so no file
/// descriptor is opened or closed: closing one would drop every POSIX lock
/// this process holds on the file, SQLite's included.
static inline const void *tessera_mapped_wal_index(sqlite3 *db) {
    sqlite3_file *file = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || file == NULL) {
        return NULL;
    }
    const sqlite3_io_methods *methods = file->pMethods;
    if (methods == NULL || methods->iVersion < 2 || methods->xShmMap == NULL) {
        return NULL;
    }
    volatile void *region = NULL;
    if (methods->xShmMap(file, 0, 32768, 0, &region) != SQLITE_OK) {
        return NULL;
    }
    return (const void *)region;
}

/// Turns SQLite's memory statistics on or off for the process
/// (`SQLITE_CONFIG_MEMSTATUS`): `sqlite3_config` is variadic, which Swift
/// cannot call. `SQLITE_MISUSE` once SQLite is initialized.
static inline int tessera_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

#endif
