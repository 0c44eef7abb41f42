#ifndef TESSERA_CSQLITE_SHIM_H
#define TESSERA_CSQLITE_SHIM_H
#include <sqlite3.h>
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

#endif
