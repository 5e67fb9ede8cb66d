/*
 * buf.h — a growable byte buffer with a hard maximum (internal).
 *
 * Every piece of memory whose size comes from the input (a line, a traceback, evidence text)
 * grows through struct buf, and every buf has a cap: past it, appends fail with FL_ERR_LIMIT
 * instead of growing. This is how a 200 MB line or a million-frame traceback stays bounded.
 *
 * Ownership: the buf owns `data`; buf_free releases it; buf_steal hands it to the caller.
 */
#ifndef FL_BUF_H
#define FL_BUF_H

#include "faultline.h"
#include <stddef.h>

struct buf {
    char *data; /* NUL-terminated when len > 0 */
    size_t len;
    size_t cap;
    size_t max; /* hard maximum of len */
};

void buf_init(struct buf *b, size_t max);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
/* Appends n bytes. Returns FL_ERR_LIMIT (appending what fits) when max would be exceeded. */
enum fl_status buf_append(struct buf *b, const void *p, size_t n);
enum fl_status buf_putc(struct buf *b, char c);
enum fl_status buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns data (never NULL: "" when empty), and leaves b empty. The caller frees it. */
char *buf_steal(struct buf *b);

/* Growth of a typed array: ensures room for n+1 items in *arr of capacity *cap. */
enum fl_status grow_array(void **arr, size_t *cap, size_t n, size_t item_size, size_t max_items);
#define GROW(arr, cap, n, max) grow_array((void **)&(arr), &(cap), (n), sizeof *(arr), (max))

char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* The first occurrence of needle[0..k) in hay[0..n), or NULL; hay itself when k is 0. A memchr
 * for one of needle's bytes (its first that is not a space: logs are full of spaces), then a
 * memcmp: on a log line this costs a fraction of glibc's memmem, whose set-up for each call
 * (a shift table) is more than the search. */
const char *buf_find(const char *hay, size_t n, const char *needle, size_t k);

#endif
