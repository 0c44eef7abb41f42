#ifndef TESSERA_CZLIB_SHIM_H
#define TESSERA_CZLIB_SHIM_H
#include <zlib.h>
#include <stddef.h>
#include <stdint.h>

/// Compresses `length` bytes at `input` into a gzip member (RFC 1952, no
/// name, mtime 0: the same input gives the same bytes) at `output`, which
/// has room for `capacity` bytes (`tessera_gzip_bound(length)` is enough).
/// Returns the bytes written, or 0 on failure.
static inline size_t tessera_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t capacity, int level) {
    z_stream stream = {0};
    if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return 0;
    }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    size_t written = stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? written : 0;
}

/// Enough room for the gzip member of `length` bytes.
static inline size_t tessera_gzip_bound(size_t length) {
    return (size_t)compressBound((uLong)length) + 32;
}

/// Decompresses one gzip member at `input` into `output` (room for
/// `capacity` bytes). Returns the bytes written, or -1 when the input is not
/// gzip or does not fit.
static inline long tessera_gunzip(const uint8_t *input, size_t length, uint8_t *output, size_t capacity) {
    z_stream stream = {0};
    if (inflateInit2(&stream, 15 + 16) != Z_OK) {
        return -1;
    }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = inflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    inflateEnd(&stream);
    return status == Z_STREAM_END ? written : -1;
}

#endif
