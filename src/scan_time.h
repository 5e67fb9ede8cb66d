/*
 * scan_time.h — when an undated line was written, and which year a year-less time is in
 * (internal, used by the scanner).
 *
 * Many lines carry no time (traceback frames, a launcher's summary, py-spy output), yet the
 * correlator orders failures by time. A matched line without one takes the time of the nearest
 * earlier dated line of its source that starts at most TIME_LOOKBACK bytes before it; beyond that
 * it has none, and arrival order decides. Formats without a year (glog, syslog) take the year of
 * the first full date in the source's first TIME_YEAR_PROBE bytes (of the first chunk fed:
 * a file's first 64 KiB, an archive member's first block), else the current year.
 *
 * Both rules depend only on the bytes of the source, not on how they were cut into chunks or
 * segments: that is what lets a large file be read by several threads with the same report.
 * The state below lets each line be looked at once: lines before time_from have been, and the
 * nearest dated one among them is remembered.
 */
#ifndef FL_SCAN_TIME_H
#define FL_SCAN_TIME_H

#include "buf.h"
#include "prefix.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIME_LOOKBACK 16384
/* Only the start of a line holds its time: parsing at most this much keeps every path alike. */
#define SCANNER_TIME_PREFIX 1024
#define TIME_YEAR_PROBE 65536

/* The bytes a scanner holds of a source: a chunk, and the start of the line that began before
 * it. */
struct time_view {
    const char *chunk;
    size_t len;
    uint64_t base;          /* the chunk's offset in the source */
    const char *carry;      /* the bytes of that line held from earlier chunks (may be cut) */
    size_t carry_len;
    uint64_t carry_start;   /* where that line starts; == base when the chunk starts a line */
};

struct source_time {
    struct buf scratch;     /* a line cleaned for its prefix */
    int year;               /* for formats without one */
    bool year_probed;
    uint64_t time_from;     /* lines that start before this were looked at */
    bool dated;             /* the nearest dated line among them: */
    int64_t dated_at;       /* its start (negative: before the segment being read) */
    int64_t dated_ts;
    bool dated_no_year;
    bool dated_no_zone;
};

void scanner_time_init(struct source_time *t, int current_year);
void scanner_time_free(struct source_time *t);
/* The time of line p[0..n) by the rule every path shares: the prefix of its first 1 KiB, cleaned
 * (ANSI escapes out, the carriage-return segment it starts with) when it needs it. Only m's time
 * is to be read: a line with no hh:mm:ss is not parsed further. */
bool scanner_time_of_line(struct source_time *t, const char *p, size_t n, struct line_meta *m);
/* The same for the line [start, end) of the source, which may have begun in an earlier chunk. */
bool scanner_time_of_span(struct source_time *t, const struct time_view *v, uint64_t start,
                          uint64_t end, struct line_meta *m);
/* Takes the year from the first full date in head[0..n) (the source's first bytes). */
void scanner_time_probe_year(struct source_time *t, const char *head, size_t n);
/* A line [ls, le) with a time of its own (in m). */
void scanner_time_dated(struct source_time *t, uint64_t ls, uint64_t le, const struct line_meta *m);
/* A matched line [ls, le) without one: gives m the time it inherits, or leaves it unknown. */
void scanner_time_inherit(struct source_time *t, const struct time_view *v, uint64_t ls,
                         uint64_t le, struct line_meta *m);
/* The chunk ends; the complete lines end before `to` (the start of the carried partial line). */
void scanner_time_chunk_end(struct source_time *t, const struct time_view *v, uint64_t to);
/* A segment starts here; before[0..n) are the bytes just before it, at least TIME_LOOKBACK + 1
 * of them unless the file starts there (file_start). */
void scanner_time_context(struct source_time *t, const char *before, size_t n, bool file_start);

#endif
