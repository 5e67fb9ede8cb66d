/*
 * scan_segment.c — one segment of a large plain file, read by a scanner of its own.
 *
 * fl_scan_paths cuts large uncompressed files into segments so that several threads share one
 * file (scan_parallel.c). A cut is a byte offset; the segment starts at the first line that
 * starts at or after its cut and ends where the next segment starts, so every line is read by
 * exactly one scanner, whatever the order the threads run in. Patterns match within one line,
 * so a fresh Vectorscan stream started at a line finds what one stream over the whole file
 * would. What spans lines is handled at the edges: a traceback or stack dump still open at a
 * segment's end is followed into the bytes after it (for the extractors only), the first lines
 * of a segment inherit the time and year of the lines before them, and the merge numbers its
 * lines on from the previous segment's (scanner_merge).
 */
#include "prefix.h"
#include "reader.h"
#include "scan.h"
#include "scan_time.h"
#include "status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONTEXT_BEFORE (TIME_LOOKBACK + 1) /* bytes before a segment: its lines' time */
#define CONTEXT_HEAD TIME_YEAR_PROBE         /* bytes at the file's start: its year */
#define TAIL_MAX (8u << 20)    /* bytes read past a segment's end for an open block, at most */
#define TAIL_READ 65536        /* bytes per read past it: blocks mostly close within a few lines */
#define CUT_SLIDE_MAX 65536    /* bytes a cut moves past lines that continue a block, at most */

static enum fl_status read_at(int fd, char *buf, size_t n, uint64_t at, size_t *got)
{
    *got = 0;
    while (*got < n) {
        ssize_t r = pread(fd, buf + *got, n - *got, (off_t)(at + *got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return FL_ERR_IO;
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return FL_OK;
}

/* Whether the line at p (n bytes) continues a traceback or a stack dump: indented after an
 * optional "[rankN]:" prefix, blank, or a chained exception's separator. A cut there would split
 * the block between two scanners, so cuts move past such lines. */
static bool continues_block(const char *p, size_t n)
{
    long rank;
    size_t rest;
    if (prefix_torchrun_rank(p, n, &rank, &rest, NULL)) {
        p += rest;
        n -= rest;
    }
    return n == 0 || p[0] == ' ' || p[0] == '\t' ||
           (n >= 15 && memcmp(p, "During handling", 15) == 0) ||
           (n >= 19 && memcmp(p, "The above exception", 19) == 0);
}

/* Where a segment cut at `cut` starts: the first line start at or after it (cut itself when a
 * newline precedes it), moved past lines that continue a block, within what one read holds. */
static enum fl_status line_start_at(int fd, char *buf, uint64_t cut, uint64_t size, uint64_t *at)
{
    *at = cut;
    if (cut == 0 || cut >= size) {
        *at = cut < size ? cut : size;
        return FL_OK;
    }
    for (uint64_t pos = cut - 1; pos < size;) {
        size_t got;
        if (read_at(fd, buf, READ_CHUNK, pos, &got) != FL_OK)
            return FL_ERR_IO;
        const char *nl = got ? memchr(buf, '\n', got) : NULL;
        if (nl) {
            const char *start = nl + 1, *end = buf + got;
            for (;;) {
                const char *next = memchr(start, '\n', (size_t)(end - start));
                if (next == NULL || !continues_block(start, (size_t)(next - start)) ||
                    next + 1 - (nl + 1) > CUT_SLIDE_MAX)
                    break;
                start = next + 1;
            }
            *at = pos + (uint64_t)(start - buf);
            return FL_OK;
        }
        if (got == 0)
            break;
        pos += got;
    }
    *at = size;
    return FL_OK;
}

/* Gives the segment what its lines inherit from the rest of the file: the file's year, from its
 * first bytes, and the time of the dated lines just before the segment. */
static enum fl_status give_context(struct fl_scanner *s, int src, int fd, char *buf, uint64_t start)
{
    bool file_start = start <= CONTEXT_BEFORE;
    size_t nbefore = file_start ? (size_t)start : CONTEXT_BEFORE, nhead;
    if (read_at(fd, buf, nbefore, start - nbefore, &nbefore) != FL_OK ||
        read_at(fd, buf + CONTEXT_BEFORE, CONTEXT_HEAD, 0, &nhead) != FL_OK)
        return FL_ERR_IO;
    scanner_segment_context(s, src, buf, nbefore, file_start, buf + CONTEXT_BEFORE, nhead);
    return FL_OK;
}

/* Reads the segment [start, end) of fd into source src, then what an open block still needs. */
static enum fl_status feed_segment(struct fl_scanner *s, int src, int fd, char *buf,
                                   uint64_t start, uint64_t end, uint64_t size)
{
    enum fl_status st = FL_OK;
    if ((st = give_context(s, src, fd, buf, start)) != FL_OK)
        return st;
    for (uint64_t pos = start; pos < end && st == FL_OK;) {
        size_t want = end - pos < READ_CHUNK ? (size_t)(end - pos) : READ_CHUNK, got;
        if ((st = read_at(fd, buf, want, pos, &got)) != FL_OK)
            return st;
        if (got == 0)
            break; /* the file shrank: what was read is analysed */
        st = fl_scanner_feed(s, src, buf, got);
        pos += got;
    }
    bool more = true;
    for (uint64_t pos = end; st == FL_OK && more && pos < size && pos - end < TAIL_MAX;) {
        size_t got;
        if ((st = read_at(fd, buf, TAIL_READ, pos, &got)) != FL_OK || got == 0)
            break;
        st = scanner_feed_tail(s, src, buf, got, &more);
        pos += got;
    }
    return st;
}

enum fl_status scanner_read_segment(struct fl_scanner *s, const char *path, uint64_t from,
                                    uint64_t to, struct fl_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return error_set(err, FL_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    off_t size = lseek(fd, 0, SEEK_END);
    char *buf = malloc(READ_CHUNK > CONTEXT_BEFORE + CONTEXT_HEAD ? READ_CHUNK
                                                                 : CONTEXT_BEFORE + CONTEXT_HEAD);
    uint64_t start = 0, end = 0;
    enum fl_status st = FL_OK;
    if (buf == NULL)
        st = FL_ERR_NOMEM;
    else if (size < 0 || line_start_at(fd, buf, from, (uint64_t)size, &start) != FL_OK ||
             line_start_at(fd, buf, to, (uint64_t)size, &end) != FL_OK)
        st = error_set(err, FL_ERR_IO, path, 0, 0, "read error: %s", strerror(errno));
    int src = -1;
    if (st == FL_OK && (st = fl_scanner_open_source(s, path, &src)) == FL_OK) {
        st = feed_segment(s, src, fd, buf, start, end, (uint64_t)size);
        if (st == FL_ERR_IO)
            error_set(err, st, path, 0, 0, "read error: %s", strerror(errno));
        enum fl_status cs = fl_scanner_close_source(s, src);
        if (st == FL_OK)
            st = cs;
    }
    free(buf);
    close(fd);
    return st;
}
