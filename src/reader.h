/*
 * reader.h — bytes from wherever logs live (internal): plain files, stdin, gzip and zstd
 * streams, tar archives (libarchive). Every backend streams with a fixed buffer: nothing is ever
 * decompressed whole into memory, so a 50 GB .zst costs the same memory as a 5 KB log.
 */
#ifndef FL_READER_H
#define FL_READER_H

#include "faultline.h"
#include <stdbool.h>
#include <stddef.h>

#define READ_CHUNK (1u << 20)
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

/* Backends: each feeds the scanner and fills err with a message naming the source on failure. */
enum fl_status reader_plain(struct fl_scanner *s, struct input *in, char *buf, struct fl_error *err);
enum fl_status reader_gz(struct fl_scanner *s, struct input *in, char *buf, struct fl_error *err);
enum fl_status reader_zstd(struct fl_scanner *s, struct input *in, char *buf, struct fl_error *err);
enum fl_status reader_archive(struct fl_scanner *s, struct input *in, char *buf,
                              struct fl_error *err);

#endif
