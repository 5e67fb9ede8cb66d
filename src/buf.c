/*
 * buf.c — bounded growable buffers and arrays. See buf.h for why every buffer has a maximum.
 */
#include "buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void buf_init(struct buf *b, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max;
}

void buf_free(struct buf *b)
{
    free(b->data);
    buf_init(b, b->max);
}

void buf_reset(struct buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static enum fl_status reserve(struct buf *b, size_t need)
{
    if (need + 1 <= b->cap)
        return FL_OK;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need + 1)
        cap *= 2;
    if (cap > b->max + 1)
        cap = b->max + 1;
    char *p = realloc(b->data, cap);
    if (p == NULL)
        return FL_ERR_NOMEM;
    b->data = p;
    b->cap = cap;
    return FL_OK;
}

enum fl_status buf_append(struct buf *b, const void *p, size_t n)
{
    enum fl_status st = FL_OK;
    if (n > b->max - b->len) {
        n = b->max - b->len;
        st = FL_ERR_LIMIT;
    }
    enum fl_status rs = reserve(b, b->len + n);
    if (rs != FL_OK)
        return rs;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return st;
}

enum fl_status buf_putc(struct buf *b, char c)
{
    return buf_append(b, &c, 1);
}

enum fl_status buf_printf(struct buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return FL_ERR_INTERNAL;
    if ((size_t)n < sizeof small)
        return buf_append(b, small, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (big == NULL)
        return FL_ERR_NOMEM;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    enum fl_status st = buf_append(b, big, (size_t)n);
    free(big);
    return st;
}

char *buf_steal(struct buf *b)
{
    char *p = b->data;
    if (p == NULL)
        p = calloc(1, 1);
    buf_init(b, b->max);
    return p;
}

enum fl_status grow_array(void **arr, size_t *cap, size_t n, size_t item_size, size_t max_items)
{
    if (n < *cap)
        return FL_OK;
    if (n >= max_items)
        return FL_ERR_LIMIT;
    size_t nc = *cap ? *cap * 2 : 8;
    if (nc > max_items)
        nc = max_items;
    if (nc > SIZE_MAX / item_size)
        return FL_ERR_NOMEM;
    void *p = realloc(*arr, nc * item_size);
    if (p == NULL)
        return FL_ERR_NOMEM;
    *arr = p;
    *cap = nc;
    return FL_OK;
}

char *xstrdup(const char *s)
{
    return s ? xstrndup(s, strlen(s)) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

const char *buf_find(const char *hay, size_t n, const char *needle, size_t k)
{
    if (k == 0)
        return hay;
    size_t j = 0;
    while (j + 1 < k && needle[j] == ' ')
        j++;
    for (const char *p = hay + j, *end = hay + n; k <= n && p + (k - j) <= end; p++) {
        p = memchr(p, needle[j], (size_t)(end - p) - (k - j) + 1);
        if (p == NULL)
            return NULL;
        if (memcmp(p - j, needle, k) == 0)
            return p - j;
    }
    return NULL;
}
