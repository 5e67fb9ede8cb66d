/*
 * reader.h — bytes from wherever logs live (internal): plain files, stdin, gzip and zstd
 * streams, tar archives (libarchive). Every backend streams with a fixed buffer: nothing is ever
 * decompressed whole into memory, so a 50 GB .zst costs the same memory as a 5 KB log.
 *
 * The backends do not know who consumes the bytes: they feed a struct sink. The scanner is one
 * sink (fl_scan_path), the masker another (fl_mask_path); both read paths by the same rules.
 */
#ifndef FL_READER_H
#define FL_READER_H

#include "faultline.h"
#include <stdbool.h>
#include <stddef.h>

/* Small enough that a chunk stays in the core's L2 cache from read(2)'s copy through the scan
 * and the passes after it (counting newlines, step lines): 1 MiB chunks were 5-9% slower on one
 * core than 128 or 256 KiB ones. */
#define READ_CHUNK (1u << 17)
#define SNIFF_LEN 512

/* An open input: a file descriptor with the first bytes already read for sniffing. */
struct input {
    int fd;
    const char *name;
    unsigned char head[SNIFF_LEN];
    size_t head_len, head_pos;
};

/* Reads up to n bytes, head first; returns bytes read, 0 at end, -1 on error (errno set). */
long input_read(struct input *in, void *buf, size_t n);

/* Where the bytes go: one source per file or archive member, opened, fed, closed. */
struct sink {
    void *ctx;
    enum fl_status (*open)(void *ctx, const char *name, int *src);
    enum fl_status (*feed)(void *ctx, int src, const void *buf, size_t len);
    enum fl_status (*close)(void *ctx, int src);
    /* a source that could not be read completely */
    void (*note_error)(void *ctx, const char *name, const char *msg);
};

/* Reads PATH (file, folder, .gz, .zst, tar archive, "-" for stdin) into the sink, with the
 * error rules of fl_scan_path. */
enum fl_status reader_path(const struct sink *s, const char *path, struct fl_error *err);

/* Whether path is a file that reader_path would read as plain text (no compression, no tar):
 * one whose bytes can be read from any offset. */
bool reader_plain_file(const char *path);

/* Backends: each feeds the sink and fills err with a message naming the source on failure. */
enum fl_status reader_plain(const struct sink *s, struct input *in, char *buf, struct fl_error *err);
enum fl_status reader_gz(const struct sink *s, struct input *in, char *buf, struct fl_error *err);
enum fl_status reader_zstd(const struct sink *s, struct input *in, char *buf, struct fl_error *err);
enum fl_status reader_archive(const struct sink *s, struct input *in, char *buf,
                              struct fl_error *err);

#endif
