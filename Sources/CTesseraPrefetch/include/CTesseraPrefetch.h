#ifndef C_TESSERA_PREFETCH_H
#define C_TESSERA_PREFETCH_H

/// Asks the processor to start loading the cache line at `address` for a
/// read soon: no fault and no wait, whatever the address.
static inline void tessera_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
