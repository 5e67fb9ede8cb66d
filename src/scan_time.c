/*
 * scan_time.c — the time of undated lines and the year of year-less ones (see scan_time.h).
 *
 * Only line prefixes are parsed, and only of lines that might be the nearest dated line of a
 * matched one: scanning back from an undated matched line stops at the first dated line, at
 * TIME_LOOKBACK bytes, or at lines looked at before (time_from). A chunk's end looks at the lines
 * since time_from once, so that the next chunk can rely on what is remembered. Each line is
 * looked at at most once, whatever the input.
 */
#include "scan_time.h"
#include "framer.h"

#include <string.h>
#include <time.h>

#define PREFIX_MAX SCANNER_TIME_PREFIX

void scanner_time_init(struct source_time *t, int current_year)
{
    memset(t, 0, sizeof *t);
    buf_init(&t->scratch, PREFIX_MAX * 2);
    t->year = current_year;
    t->dated_ts = TS_UNKNOWN;
}

void scanner_time_free(struct source_time *t)
{
    buf_free(&t->scratch);
}

/* Whether p[0..n) holds hh:mm:ss, two digits each: every dated prefix format has one (glog, ISO
 * 8601, syslog, through clock_time in prefix.c). Most lines the look-back passes over (NCCL INFO,
 * stack frames, tracebacks) have none, and this, by their colons, costs far less than parsing
 * their prefixes to find no time. */
static bool has_clock(const char *p, size_t n)
{
#define D(i) ((unsigned)(p[i] - '0') < 10)
    for (const char *c = n > 5 ? memchr(p + 2, ':', n - 5) : NULL; c != NULL;
         c = (size_t)(c + 1 - p) < n - 3 ? memchr(c + 1, ':', n - 3 - (size_t)(c + 1 - p)) : NULL) {
        size_t k = (size_t)(c - p);
        if (D(k - 2) && D(k - 1) && D(k + 1) && D(k + 2) && p[k + 3] == ':' && k + 5 < n && D(k + 4) && D(k + 5))
            return true;
    }
    return false;
#undef D
}

bool scanner_time_of_line(struct source_time *t, const char *p, size_t n, struct line_meta *m)
{
    if (n > PREFIX_MAX)
        n = PREFIX_MAX;
    if (!framer_is_clean(p, n)) {
        /* what a matched line's cleaning would keep of its start, whatever matched in it */
        framer_clean(p, n, 0, &t->scratch);
        p = t->scratch.data ? t->scratch.data : "";
        n = t->scratch.len;
    }
    *m = (struct line_meta){.rank = -1, .ts_ms = TS_UNKNOWN};
    if (!has_clock(p, n))
        return false; /* callers read only the time */
    prefix_parse_time(p, n, m, t->year);
    return m->ts_ms != TS_UNKNOWN;
}

void scanner_time_probe_year(struct source_time *t, const char *head, size_t n)
{
    t->year_probed = true;
    if (n > TIME_YEAR_PROBE)
        n = TIME_YEAR_PROBE;
    for (const char *p = head, *end = head + n; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            return; /* a line cut by the probe's end is not looked at */
        struct line_meta m;
        if (scanner_time_of_line(t, p, (size_t)(nl - p), &m) && !m.ts_no_year) {
            time_t secs = (time_t)(m.ts_ms / 1000);
            struct tm tm;
            gmtime_r(&secs, &tm);
            t->year = tm.tm_year + 1900;
            return;
        }
        p = nl + 1;
    }
}

static void remember(struct source_time *t, int64_t at, const struct line_meta *m)
{
    t->dated = true;
    t->dated_at = at;
    t->dated_ts = m->ts_ms;
    t->dated_no_year = m->ts_no_year;
    t->dated_no_zone = m->ts_no_zone;
}

void scanner_time_dated(struct source_time *t, uint64_t ls, uint64_t le, const struct line_meta *m)
{
    remember(t, (int64_t)ls, m);
    t->time_from = le + 1;
}

bool scanner_time_of_span(struct source_time *t, const struct time_view *v, uint64_t start,
                          uint64_t end, struct line_meta *m)
{
    if (start >= v->base)
        return scanner_time_of_line(t, v->chunk + (start - v->base), (size_t)(end - start), m);
    /* the line began in an earlier chunk: its start is in the carry */
    char line[PREFIX_MAX];
    size_t n = v->carry_len < PREFIX_MAX ? v->carry_len : PREFIX_MAX;
    memcpy(line, v->carry, n);
    size_t in_chunk = end > v->base ? (size_t)(end - v->base) : 0;
    size_t more = in_chunk < PREFIX_MAX - n ? in_chunk : PREFIX_MAX - n;
    memcpy(line + n, v->chunk, more);
    return scanner_time_of_line(t, line, n + more, m);
}

/* The nearest dated line that starts in [from, to), looking back from `to` (a line start):
 * complete lines of the chunk, then the line that began before it. */
static bool nearest_dated(struct source_time *t, const struct time_view *v, uint64_t from,
                          uint64_t to, struct line_meta *m, uint64_t *at)
{
    for (uint64_t end = to; end > from && end > v->base;) {
        size_t k = (size_t)(end - 1 - v->base); /* the '\n' that ends the line */
        const char *nl = k ? memrchr(v->chunk, '\n', k) : NULL;
        uint64_t start = nl ? v->base + (uint64_t)(nl - v->chunk) + 1 : v->carry_start;
        if (start < from)
            return false;
        if (scanner_time_of_span(t, v, start, end - 1, m)) {
            *at = start;
            return true;
        }
        end = start;
    }
    return false;
}

void scanner_time_inherit(struct source_time *t, const struct time_view *v, uint64_t ls,
                         uint64_t le, struct line_meta *m)
{
    int64_t lo = (int64_t)ls - TIME_LOOKBACK;
    uint64_t from = lo > (int64_t)t->time_from ? (uint64_t)lo : t->time_from;
    struct line_meta d;
    uint64_t at;
    if (from < ls && nearest_dated(t, v, from, ls, &d, &at))
        remember(t, (int64_t)at, &d);
    if (t->dated && t->dated_at >= lo) {
        m->ts_ms = t->dated_ts;
        m->ts_no_year = t->dated_no_year;
        m->ts_no_zone = t->dated_no_zone;
        m->ts_inherited = true;
    } else {
        m->ts_ms = TS_UNKNOWN;
    }
    t->time_from = le + 1;
}

void scanner_time_chunk_end(struct source_time *t, const struct time_view *v, uint64_t to)
{
    if (to <= t->time_from)
        return;
    int64_t lo = (int64_t)to - TIME_LOOKBACK;
    uint64_t from = lo > (int64_t)t->time_from ? (uint64_t)lo : t->time_from;
    struct line_meta d;
    uint64_t at;
    if (nearest_dated(t, v, from, to, &d, &at))
        remember(t, (int64_t)at, &d);
    t->time_from = to;
}

void scanner_time_context(struct source_time *t, const char *before, size_t n, bool file_start)
{
    /* the bytes before the segment, as a chunk at offset 0 with nothing carried: a line that
     * begins at 0 is whole only when the file starts there */
    struct time_view v = {before, n, 0, NULL, 0, 0};
    size_t lo = n > TIME_LOOKBACK ? n - TIME_LOOKBACK : 0;
    if (!file_start && lo == 0)
        lo = 1;
    struct line_meta m;
    uint64_t at;
    if (lo < n && nearest_dated(t, &v, lo, n, &m, &at))
        remember(t, -(int64_t)(n - at), &m);
}
