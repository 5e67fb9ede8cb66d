/* scan.h — scanner internals shared with tests (internal). */
#ifndef FL_SCAN_H
#define FL_SCAN_H

#include "faultline.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Lines read so far, over every source. */
uint64_t scanner_lines(const struct fl_scanner *s);

/* The smallest segment fl_scan_paths cuts a file into (the options' segment_bytes). */
uint64_t scanner_segment_bytes(const struct fl_scanner *s);
/* The least input per thread fl_scan_paths starts a thread for (the options' thread_bytes). */
uint64_t scanner_thread_bytes(const struct fl_scanner *s);
/* A new scanner with s's knowledge base and options. */
enum fl_status scanner_new_like(const struct fl_scanner *s, struct fl_scanner **out);
/* Moves everything src read into dst, as if dst had read src's sources after its own. With
 * continues, src's first source is the rest of dst's last one (a file cut into segments): its
 * lines are numbered on from dst's. src's sources must be closed; free src afterwards. */
enum fl_status scanner_merge(struct fl_scanner *dst, struct fl_scanner *src, bool continues);

/* A file cut into segments at line starts, each read by a scanner of its own (scan_segment.c). */

/* Before the first feed of a segment: `before` ends where the segment starts (at least
 * TIME_LOOKBACK + 1 bytes of it, unless file_start: it starts the file), `head` is the file's
 * start. The segment's lines then inherit what they would have from the
 * lines before them (scan_time.h): the time of the nearest dated line, the file's year. */
void scanner_segment_context(struct fl_scanner *s, int src, const char *before, size_t nbefore,
                             bool file_start, const char *head, size_t nhead);
/* After the last feed of a segment that does not end its file: the bytes that follow it, fed
 * for the extractors only while a traceback or stack dump is still open (*more: still open).
 * They are not scanned for patterns nor counted: the next segment is read by another scanner. */
enum fl_status scanner_feed_tail(struct fl_scanner *s, int src, const void *buf, size_t len,
                                 bool *more);
/* Reads the segment of the plain file `path` cut at [from, to) as one source of s (scan_segment.c);
 * to is the file's size for the last segment. */
enum fl_status scanner_read_segment(struct fl_scanner *s, const char *path, uint64_t from,
                                    uint64_t to, struct fl_error *err);

#endif
