/*
 * prefix.c — the line-prefix formats faultline understands, as a static table.
 *
 * Each format parses at the current position and returns how far it got; prefix_parse applies
 * the table repeatedly because real prefixes stack: pdsh adds the host in front of torchrun's
 * rank, which is in front of c10's glog-style time. A format that does not recognise the text
 * leaves everything untouched, so the order of the table only matters for ambiguous text, and
 * the most specific formats come first.
 *
 * Times become milliseconds since the epoch in UTC. Formats without a year (glog, syslog) take
 * the year the caller passes (the first dated line of the run, or the current year); formats
 * without a zone are read as UTC, which keeps ordering right between ranks of one cluster, and
 * are marked (ts_no_zone) so that a report does not print a zone the log never gave.
 */
#include "prefix.h"
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ASCII classes, inline: <ctype.h>'s look up the locale's table through a call, and prefix
 * parsers run on every matched line and on the lines the time look-back passes over. A prefix is
 * read as bytes, the same whatever locale a program using the library has set (faultline sets
 * none: these are the C locale's answers). */
static inline bool ascii_digit(unsigned char c)
{
    return (unsigned)(c - '0') < 10;
}

static inline bool ascii_lower(unsigned char c)
{
    return (unsigned)(c - 'a') < 26;
}

static inline bool ascii_alpha(unsigned char c)
{
    return ascii_lower(c) || (unsigned)(c - 'A') < 26;
}

static inline bool ascii_alnum(unsigned char c)
{
    return ascii_alpha(c) || ascii_digit(c);
}

int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* Reads exactly n digits. */
static bool digits(const char *s, size_t len, size_t pos, size_t n, int *out)
{
    if (pos + n > len)
        return false;
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ascii_digit((unsigned char)s[pos + i]))
            return false;
        v = v * 10 + (s[pos + i] - '0');
    }
    *out = v;
    return true;
}

/* Reads a run of 1..max digits. */
static size_t number(const char *s, size_t len, size_t pos, size_t max, long *out)
{
    size_t i = 0;
    long v = 0;
    while (pos + i < len && i < max && ascii_digit((unsigned char)s[pos + i]))
        v = v * 10 + (s[pos + i++] - '0');
    *out = v;
    return i;
}

/* hh:mm:ss[.frac] at pos; returns the length read, 0 if none. */
static size_t clock_time(const char *s, size_t len, size_t pos, int64_t *ms)
{
    int h, m, sec;
    if (!digits(s, len, pos, 2, &h) || pos + 2 >= len || s[pos + 2] != ':' ||
        !digits(s, len, pos + 3, 2, &m) || pos + 5 >= len || s[pos + 5] != ':' ||
        !digits(s, len, pos + 6, 2, &sec) || h > 23 || m > 59 || sec > 60)
        return 0;
    size_t i = pos + 8;
    int64_t frac = 0;
    if (i < len && (s[i] == '.' || s[i] == ',')) {
        size_t j = i + 1, k = 0;
        int64_t scale = 100;
        while (j < len && ascii_digit((unsigned char)s[j])) {
            if (k++ < 3) {
                frac += (s[j] - '0') * scale;
                scale /= 10;
            }
            j++;
        }
        if (j > i + 1)
            i = j;
    }
    *ms = ((int64_t)h * 3600 + m * 60 + sec) * 1000 + frac;
    return i - pos;
}

static void skip_spaces(const char *s, size_t len, size_t *pos)
{
    while (*pos < len && (s[*pos] == ' ' || s[*pos] == '\t'))
        (*pos)++;
}

/* [rank3]: and [default3]: — torchrun's --tee / local_ranks_filter prefixes. At s[p]: where
 * what follows starts, or 0 when it is not one. One separating space at most is part of the
 * prefix: the line's own indentation (traceback frames, py-spy frames) follows and must survive. */
static size_t torchrun_head(const char *s, size_t len, size_t p, long *rank, bool *local)
{
    size_t kw;
    if (len - p > 6 && memcmp(s + p, "[rank", 5) == 0)
        kw = 5;
    else if (len - p > 9 && memcmp(s + p, "[default", 8) == 0)
        kw = 8;
    else
        return 0;
    size_t n = number(s, len, p + kw, 7, rank);
    if (n == 0 || p + kw + n + 1 >= len || s[p + kw + n] != ']' || s[p + kw + n + 1] != ':')
        return 0;
    size_t end = p + kw + n + 2;
    if (local)
        *local = kw == 8;
    return end < len && s[end] == ' ' ? end + 1 : end;
}

static bool parse_torchrun(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    (void)year;
    long r;
    bool local;
    size_t end = torchrun_head(s, len, *pos, &r, &local);
    if (end == 0)
        return false;
    m->rank = r;
    m->rank_local = local;
    *pos = end;
    return true;
}

/* [1,3]<stderr>: — OpenMPI --tag-output */
static bool parse_openmpi(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    (void)year;
    size_t p = *pos;
    long job, r;
    if (p >= len || s[p] != '[')
        return false;
    size_t n = number(s, len, p + 1, 9, &job);
    if (n == 0 || p + 1 + n >= len || s[p + 1 + n] != ',')
        return false;
    size_t q = p + 2 + n;
    size_t n2 = number(s, len, q, 7, &r);
    if (n2 == 0 || q + n2 >= len || s[q + n2] != ']')
        return false;
    q += n2 + 1;
    if (len - q >= 9 && (memcmp(s + q, "<stderr>:", 9) == 0 || memcmp(s + q, "<stdout>:", 9) == 0))
        q += 9;
    else
        return false;
    m->rank = r;
    *pos = q;
    skip_spaces(s, len, pos);
    return true;
}

/* host:pid:tid [dev] NCCL INFO — NCCL's debug prefix. The bracket is the CUDA device. */
static bool parse_nccl(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    (void)year;
    size_t p = *pos, h = p;
    while (h < len && (ascii_alnum((unsigned char)s[h]) || s[h] == '-' || s[h] == '.' || s[h] == '_'))
        h++;
    if (h == p || h >= len || s[h] != ':')
        return false;
    long pid, tid, dev;
    size_t n1 = number(s, len, h + 1, 10, &pid);
    if (n1 == 0 || h + 1 + n1 >= len || s[h + 1 + n1] != ':')
        return false;
    size_t q = h + 2 + n1;
    size_t n2 = number(s, len, q, 10, &tid);
    if (n2 == 0 || q + n2 + 2 >= len || s[q + n2] != ' ' || s[q + n2 + 1] != '[')
        return false;
    q += n2 + 2;
    size_t n3 = number(s, len, q, 4, &dev);
    if (n3 == 0 || q + n3 >= len || s[q + n3] != ']')
        return false;
    size_t hl = h - p < HOST_MAX - 1 ? h - p : HOST_MAX - 1;
    memcpy(m->host, s + p, hl);
    m->host[hl] = '\0';
    m->pid = pid;
    *pos = q + n3 + 1;
    skip_spaces(s, len, pos);
    return true;
}

/* I0501 12:00:00.123456 and [E501 12:00:00.123456 file.cpp:12] — glog, and c10's logging */
static bool parse_glog(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    size_t p = *pos;
    bool bracket = p < len && s[p] == '[';
    if (bracket)
        p++;
    if (p >= len || (s[p] != 'I' && s[p] != 'W' && s[p] != 'E' && s[p] != 'F'))
        return false;
    /* c10 writes M + (month without zero) + dd: E501 is May 1st, E1201 is December 1st */
    long md;
    size_t n = number(s, len, p + 1, 4, &md);
    if ((n != 3 && n != 4) || p + 1 + n >= len || s[p + 1 + n] != ' ')
        return false;
    bool error = s[p] == 'E' || s[p] == 'F';
    unsigned month = (unsigned)(md / 100), day = (unsigned)(md % 100);
    int64_t ms;
    size_t t = clock_time(s, len, p + 2 + n, &ms);
    if (month < 1 || month > 12 || day < 1 || day > 31 || t == 0)
        return false;
    m->ts_ms = days_from_civil(year, month, day) * 86400000 + ms;
    m->ts_no_year = true;
    m->ts_no_zone = true;
    size_t q = p + 2 + n + t;
    if (bracket) {
        const char *close = memchr(s + q, ']', len - q);
        if (close == NULL)
            return false;
        q = (size_t)(close - s) + 1;
    } else {
        /* glog: thread id and file:line] follow */
        const char *close = memchr(s + q, ']', len - q < 200 ? len - q : 200);
        if (close)
            q = (size_t)(close - s) + 1;
    }
    m->level_error = error;
    *pos = q;
    skip_spaces(s, len, pos);
    return true;
}

/* 2026-05-01T12:00:00.123Z, 2026-05-01 12:00:00,123 (Python logging), RFC 3339 (Kubernetes) */
static bool parse_iso(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    (void)year;
    size_t p = *pos;
    if (p < len && s[p] == '[')
        p++;
    int y, mo, d;
    if (!digits(s, len, p, 4, &y) || p + 4 >= len || s[p + 4] != '-' ||
        !digits(s, len, p + 5, 2, &mo) || p + 7 >= len || s[p + 7] != '-' ||
        !digits(s, len, p + 8, 2, &d) || p + 10 >= len || (s[p + 10] != 'T' && s[p + 10] != ' ') ||
        mo < 1 || mo > 12 || d < 1 || d > 31)
        return false;
    int64_t ms;
    size_t t = clock_time(s, len, p + 11, &ms);
    if (t == 0)
        return false;
    size_t q = p + 11 + t;
    int64_t offset_min = 0;
    bool zone = false;
    if (q < len && s[q] == 'Z') {
        q++;
        zone = true;
    } else if (q + 5 < len && (s[q] == '+' || s[q] == '-')) {
        int oh, om;
        size_t colon = s[q + 3] == ':';
        if (digits(s, len, q + 1, 2, &oh) && digits(s, len, q + 3 + colon, 2, &om)) {
            offset_min = (oh * 60 + om) * (s[q] == '+' ? 1 : -1);
            q += 5 + colon;
            zone = true;
        }
    }
    m->ts_ms = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400000 + ms - offset_min * 60000;
    m->ts_no_year = false;
    m->ts_no_zone = !zone;
    if (q < len && s[q] == ']')
        q++;
    if (q < len && s[q] == ':')
        q++;
    *pos = q;
    skip_spaces(s, len, pos);
    return true;
}

/* May  1 12:00:03 node-1 kernel: — syslog and journalctl's short format */
static bool parse_syslog(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    size_t p = *pos;
    if (len - p < 16 || s[p + 3] != ' ')
        return false;
    const char *mp = NULL;
    for (int i = 0; i < 12 && !mp; i++)
        if (memcmp(s + p, months + i * 3, 3) == 0)
            mp = months + i * 3;
    if (mp == NULL)
        return false;
    unsigned month = (unsigned)((mp - months) / 3 + 1);
    size_t q = p + 4;
    if (s[q] == ' ')
        q++;
    long day;
    size_t n = number(s, len, q, 2, &day);
    if (n == 0 || q + n >= len || s[q + n] != ' ' || day < 1 || day > 31)
        return false;
    int64_t ms;
    size_t t = clock_time(s, len, q + n + 1, &ms);
    if (t == 0)
        return false;
    q += n + 1 + t;
    skip_spaces(s, len, &q);
    size_t h = q;
    while (h < len && s[h] != ' ' && s[h] != ':')
        h++;
    if (h == q || h >= len || s[h] != ' ')
        return false;
    size_t hl = h - q < HOST_MAX - 1 ? h - q : HOST_MAX - 1;
    memcpy(m->host, s + q, hl);
    m->host[hl] = '\0';
    m->ts_ms = days_from_civil(year, month, (unsigned)day) * 86400000 + ms;
    m->ts_no_year = true;
    m->ts_no_zone = true;
    *pos = h + 1;
    return true;
}

/* [12345.678901] — dmesg's seconds since boot: not a wall-clock time, only skipped */
static bool parse_dmesg(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    (void)m;
    (void)year;
    size_t p = *pos;
    if (p >= len || s[p] != '[')
        return false;
    size_t q = p + 1;
    skip_spaces(s, len, &q);
    long secs, frac;
    size_t n = number(s, len, q, 10, &secs);
    if (n == 0 || q + n >= len || s[q + n] != '.')
        return false;
    size_t n2 = number(s, len, q + n + 1, 9, &frac);
    if (n2 == 0 || q + n + 1 + n2 >= len || s[q + n + 1 + n2] != ']')
        return false;
    *pos = q + n + 2 + n2;
    skip_spaces(s, len, pos);
    return true;
}

/* 3: — Slurm's srun --label */
static bool parse_slurm(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    (void)year;
    size_t p = *pos;
    skip_spaces(s, len, &p);
    long r;
    size_t n = number(s, len, p, 6, &r);
    if (n == 0 || p + n + 1 >= len || s[p + n] != ':' || s[p + n + 1] != ' ')
        return false;
    m->rank = r;
    *pos = p + n + 2;
    return true;
}

/* Exception and logger names look like hosts ("RuntimeError: "); hosts have a digit, '-' or '.' */
static bool looks_like_host(const char *s, size_t n)
{
    bool mark = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        /* upper case: a Python qualified name (torch.OutOfMemoryError), not a host */
        if (!(ascii_lower(c) || ascii_digit(c) || c == '-' || c == '.' || c == '_'))
            return false;
        mark |= ascii_digit(c) || c == '-' || c == '.';
    }
    if (!mark || !ascii_alpha((unsigned char)s[0]))
        return false;
    /* ...and the standard library's lower-case classes (socket.timeout, socket.gaierror,
     * zlib.error, struct.error) end in names no host name ends in */
    static const char *const exc_tails[] = {".error", ".timeout", ".gaierror", ".herror", NULL};
    for (const char *const *t = exc_tails; *t; t++) {
        size_t tl = strlen(*t);
        if (n > tl && memcmp(s + n - tl, *t, tl) == 0)
            return false;
    }
    return true;
}

/* node-1: — pdsh, and DeepSpeed's multi-node runner. It writes the outermost prefix, at the line's
 * start: after a time, "name: " is a logging record's logger ("[2023-10-13 17:40:02,544]
 * torch.distributed.elastic.multiprocessing.api: [ERROR] failed ..."), not a host. */
static bool parse_pdsh(const char *s, size_t len, size_t *pos, struct line_meta *m, int year)
{
    (void)year;
    size_t p = *pos, h = p;
    if (p > 0)
        return false;
    while (h < len && h - p < HOST_MAX - 1 && s[h] != ':' && s[h] != ' ')
        h++;
    if (h == p || h + 1 >= len || s[h] != ':' || s[h + 1] != ' ' || !looks_like_host(s + p, h - p))
        return false;
    memcpy(m->host, s + p, h - p);
    m->host[h - p] = '\0';
    *pos = h + 2;
    return true;
}

/* The first bytes each format may start with (struct prefix_format's starts). */
static bool starts_bracket(unsigned char c)
{
    return c == '[';
}

static bool starts_nccl(unsigned char c)
{
    return ascii_alnum(c) || c == '-' || c == '.' || c == '_';
}

static bool starts_iso(unsigned char c)
{
    return c == '[' || ascii_digit(c);
}

static bool starts_glog(unsigned char c)
{
    return c == '[' || c == 'I' || c == 'W' || c == 'E' || c == 'F';
}

static bool starts_syslog(unsigned char c)
{
    /* the months' initials, inline: a strchr call for every prefix tried was 1.5% of a log of
     * many small files */
    switch (c) {
    case 'J': case 'F': case 'M': case 'A': case 'S': case 'O': case 'N': case 'D': return true;
    default: return false;
    }
}

static bool starts_slurm(unsigned char c)
{
    return c == ' ' || c == '\t' || ascii_digit(c);
}

static bool starts_pdsh(unsigned char c)
{
    return ascii_lower(c); /* looks_like_host: lower case, a letter first */
}

static const struct prefix_format formats[] = {
    {"torchrun", "torchrun --tee/--local-ranks-filter rank prefix",
     "[rank3]:[E501 12:00:00.123456 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout",
     parse_torchrun, starts_bracket},
    {"openmpi", "OpenMPI --tag-output", "[1,3]<stderr>:Traceback (most recent call last):",
     parse_openmpi, starts_bracket},
    {"nccl", "NCCL debug prefix host:pid:tid [device]",
     "node-1:2345:2400 [3] NCCL INFO NCCL version 2.21.5+cuda12.4", parse_nccl, starts_nccl},
    {"iso8601", "ISO 8601, RFC 3339 (Kubernetes) and Python logging times",
     "2026-05-01 12:00:03,123 - train - INFO - step 10", parse_iso, starts_iso},
    {"glog", "glog and c10 logging times", "[E501 12:00:03.123456 ProcessGroupNCCL.cpp:1] boom",
     parse_glog, starts_glog},
    {"syslog", "syslog / journalctl short format with host",
     "May  1 12:00:03 node-1 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1234", parse_syslog, starts_syslog},
    {"dmesg", "dmesg seconds since boot", "[ 1234.567890] NVRM: Xid (PCI:0000:3b:00): 79",
     parse_dmesg, starts_bracket},
    {"slurm", "Slurm srun --label task prefix", "3: Traceback (most recent call last):",
     parse_slurm, starts_slurm},
    {"pdsh", "pdsh / DeepSpeed runner host prefix", "node-1: [rank3]: RuntimeError: boom",
     parse_pdsh, starts_pdsh},
};

const struct prefix_format *prefix_formats(size_t *n)
{
    *n = sizeof formats / sizeof formats[0];
    return formats;
}

/* ---------------------------------------------------------------- a program's own rank */

/* Python logging's level names as %(levelname)s prints them (logging.getLevelName); *error for
 * ERROR and CRITICAL (FATAL and WARN are aliases, printed as CRITICAL and WARNING). */
static bool level_name(const char *s, size_t n, bool *error)
{
    /* by length first: this runs on the first token of every parsed line's message */
    const char *name;
    switch (n) {
    case 4: name = "INFO"; break;
    case 5: name = s[0] == 'E' ? "ERROR" : "DEBUG"; break;
    case 7: name = "WARNING"; break;
    case 8: name = "CRITICAL"; break;
    default: return false;
    }
    if (memcmp(s, name, n) != 0)
        return false;
    *error = name[0] == 'E' || name[0] == 'C';
    return true;
}

/* What a logging format puts before the message after its time: the level name and fields such
 * as "pid=4104 rank=2", each maybe in brackets or between " - " or " | " separators
 * ("%(asctime)s %(levelname)s pid=%(process)d rank=%(rank)s %(name)s: %(message)s"). */
struct record_header {
    bool level;      /* a level name is among its tokens */
    bool error;      /* that level is ERROR or CRITICAL */
    long rank;       /* its rank=N field (any case), or -1 */
    size_t rank_end; /* where that field's number ends */
};

#define HEADER_TOKENS 8

/* Reads s[0..len) token by token up to the first that is neither a level name nor a key=value
 * field; a token ending in ':' is the header's last. */
static void read_header(const char *s, size_t len, struct record_header *h)
{
    *h = (struct record_header){.rank = -1};
    size_t p = 0;
    for (int t = 0; t < HEADER_TOKENS; t++) {
        skip_spaces(s, len, &p);
        size_t q = p;
        /* "[%(levelname)s][rank=%(rank)s]": a bracketed token ends at its bracket */
        while (q < len && s[q] != ' ' && s[q] != '\t' && (s[p] != '[' || q == p || s[q - 1] != ']'))
            q++;
        size_t a = p, b = q;
        p = q;
        bool last = b > a && s[b - 1] == ':';
        b -= last;
        if (b > a && s[a] == '[' && s[b - 1] == ']') {
            a++;
            b--;
        }
        if (b == a + 1 && (s[a] == '-' || s[a] == '|'))
            continue;
        bool error;
        const char *eq = b > a ? memchr(s + a, '=', b - a) : NULL;
        if (level_name(s + a, b - a, &error)) {
            h->level = true;
            h->error |= error;
        } else if (eq == NULL || eq == s + a || (size_t)(eq - s) + 1 == b) {
            return;
        } else if (eq == s + a + 4 && strncasecmp(s + a, "rank", 4) == 0 && h->rank < 0) {
            long r;
            size_t n = number(s, len, a + 5, 7, &r);
            if (n == b - a - 5) {
                h->rank = r;
                h->rank_end = a + 5 + n;
            }
        }
        if (last)
            return;
    }
}

bool prefix_may_be_error_record(const char *line, size_t n)
{
    /* a superset of what parse_glog and read_header take for ERROR or worse, found with memchr:
     * an E or F followed by a digit (glog's level letter), ERROR, CRITICAL */
    const char *end = line + n;
    for (const char *p = line; (p = memchr(p, 'E', (size_t)(end - p))) != NULL; p++)
        if (end - p > 1 && (ascii_digit((unsigned char)p[1]) || (end - p >= 5 && memcmp(p, "ERROR", 5) == 0)))
            return true;
    for (const char *p = line; (p = memchr(p, 'F', (size_t)(end - p))) != NULL; p++)
        if (end - p > 1 && ascii_digit((unsigned char)p[1]))
            return true;
    return buf_find(line, n, "CRITICAL", 8) != NULL;
}

/* prefix_message_rank with the header h of s already read */
static long message_rank(const char *s, size_t len, size_t from, size_t *end, const struct record_header *h)
{
    long rank;
    size_t nd;
    /* strncasecmp only after its first letter matched, inline: a call for every matched line
     * (and every '[' in it) was 4% of a log of stack dumps */
    if (from == 0 && len > 7 && (s[0] | 0x20) == 'r' && strncasecmp(s, "rank ", 5) == 0 &&
        (nd = number(s, len, 5, 7, &rank)) && 5 + nd + 1 < len && s[5 + nd] == ':' && s[5 + nd + 1] == ' ') {
        *end = 5 + nd + 1;
        return rank;
    }
    bool field = h->level && h->rank >= 0 && h->rank_end > from;
    size_t scan = len < 512 ? len : 512;
    for (const char *p = s + from, *e = s + scan; p < e && (p = memchr(p, '[', (size_t)(e - p))) != NULL;
         p++) {
        size_t i = (size_t)(p - s);
        size_t n;
        if (field && i >= h->rank_end)
            break;
        if (i + 7 < scan && (p[1] | 0x20) == 'r' && strncasecmp(p + 1, "rank ", 5) == 0 &&
            (n = number(s, len, i + 6, 7, &rank)) && i + 6 + n < len && s[i + 6 + n] == ']') {
            *end = i + 6 + n + 1;
            return rank;
        }
    }
    if (!field)
        return -1;
    *end = h->rank_end;
    return h->rank;
}

long prefix_message_rank(const char *s, size_t len, size_t from, size_t *end)
{
    struct record_header h;
    read_header(s, len, &h);
    return message_rank(s, len, from, end, &h);
}

/* The rank a program names of itself in its message (prefix_message_rank), or vLLM's
 * "(VllmWorker rank=1 pid=254)" when it comes first. Every matched line without a rank prefix
 * comes here: the markers are looked for with memchr and memmem, not byte by byte. */
static void rank_in_message(const char *s, size_t len, const struct record_header *h, struct line_meta *m)
{
    size_t end = 0;
    long rank = message_rank(s, len, 0, &end, h);
    /* " rank=" after "Worker" wins when it comes first; it cannot overlap a '['. Found by its
     * '=', which few lines have many of. */
    size_t scan = len < 512 ? len : 512;
    size_t hay_end = rank >= 0 ? end : scan >= 2 ? scan - 2 : 0;
    for (const char *p = s + 5, *e = s + hay_end; p < e && (p = memchr(p, '=', (size_t)(e - p))) != NULL;
         p++) {
        size_t i = (size_t)(p - s) - 5; /* where " rank=" would start */
        long r;
        if (memcmp(s + i, " rank", 5) == 0 && i >= 10 && memmem(s, i, "Worker", 6) &&
            number(s, len, i + 6, 7, &r)) {
            m->rank = r;
            m->rank_local = false;
            return;
        }
    }
    if (rank >= 0) {
        m->rank = rank;
        m->rank_local = false;
    }
}

bool prefix_torchrun_rank(const char *line, size_t len, long *rank, size_t *rest, bool *local)
{
    size_t end = torchrun_head(line, len, 0, rank, local);
    if (end == 0)
        return false;
    if (rest)
        *rest = end;
    return true;
}

/* The stacked prefixes of the line, into m; whether one of them gave the rank. */
static bool parse_formats(const char *line, size_t len, struct line_meta *m, int year)
{
    size_t pos = 0;
    bool rank_from_prefix = false;
    for (int round = 0; round < 6; round++) {
        size_t before = pos;
        if (pos >= len)
            break; /* every format needs a byte */
        unsigned char c = (unsigned char)line[pos];
        for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
            if (!formats[i].starts(c))
                continue;
            long r = m->rank;
            bool local = m->rank_local;
            m->rank_local = false;
            if (formats[i].parse(line, len, &pos, m, year)) {
                rank_from_prefix |= m->rank != r;
                if (m->rank == r && !m->rank_local)
                    m->rank_local = local; /* this prefix said nothing of the rank */
                break;
            }
            m->rank_local = local;
        }
        if (pos == before)
            break;
    }
    m->msg_off = pos;
    return rank_from_prefix;
}

void prefix_parse_time(const char *line, size_t len, struct line_meta *m, int year)
{
    (void)parse_formats(line, len, m, year);
}

void prefix_parse(const char *line, size_t len, struct line_meta *m, int year)
{
    bool rank_from_prefix = parse_formats(line, len, m, year);
    size_t pos = m->msg_off;
    struct record_header h;
    read_header(line + pos, len - pos, &h);
    m->level_error |= h.error;
    /* a local rank (torchrun's [defaultN]: on one of several nodes) gives way to the rank the
     * program writes of itself, a global one */
    if (!rank_from_prefix || m->rank_local)
        rank_in_message(line + pos, len - pos, &h, m);
}

/* ---------------------------------------------------------------- paths */

static bool name_rank(const char *name, size_t n, long *rank)
{
    static const char *const keys[] = {"rank", "worker", "proc", "task", NULL};
    for (int k = 0; keys[k]; k++) {
        size_t kl = strlen(keys[k]);
        for (size_t i = 0; i + kl < n; i++) {
            if (strncasecmp(name + i, keys[k], kl) != 0 || (i && ascii_alpha((unsigned char)name[i - 1])))
                continue;
            size_t j = i + kl;
            if (j < n && (name[j] == '_' || name[j] == '-' || name[j] == '.'))
                j++;
            if (number(name, n, j, 7, rank) && !(j + 1 < n && ascii_alpha((unsigned char)name[j + 1]) &&
                                                 ascii_digit((unsigned char)name[j])))
                return true;
        }
    }
    return false;
}

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!ascii_digit((unsigned char)s[i]))
            return false;
    return n > 0;
}

static bool name_host(const char *s, size_t n)
{
    static const char *const keys[] = {"node", "host", "gpu-node", "compute", "nid", "worker", "ip-", NULL};
    for (int k = 0; keys[k]; k++)
        if (n > strlen(keys[k]) && strncasecmp(s, keys[k], strlen(keys[k])) == 0 &&
            ascii_digit((unsigned char)s[n - 1]))
            return true;
    return false;
}

void prefix_from_path(const char *path, struct line_meta *m)
{
    /* Walk the components; the file name gives the rank, the folders a host or, for torchrun's
     * attempt_K/N/stderr.log layout, the rank. */
    const char *comp[32];
    size_t clen[32], nc = 0;
    const char *p = path;
    while (*p && nc < 32) {
        const char *slash = strchr(p, '/');
        size_t l = slash ? (size_t)(slash - p) : strlen(p);
        if (l) {
            comp[nc] = p;
            clen[nc++] = l;
        }
        if (!slash)
            break;
        p = slash + 1;
    }
    if (nc == 0)
        return;
    long r;
    const char *file = comp[nc - 1];
    size_t fl = clen[nc - 1];
    if (name_rank(file, fl, &r)) {
        m->rank = r;
        m->rank_local = false;
    } else if (nc >= 2 && all_digits(comp[nc - 2], clen[nc - 2]) &&
               (strncmp(file, "stderr", 6) == 0 || strncmp(file, "stdout", 6) == 0 ||
                strncmp(file, "error.json", 10) == 0)) {
        /* torchrun numbers these folders by local rank: global on one node only */
        number(comp[nc - 2], clen[nc - 2], 0, 7, &r);
        m->rank = r;
        m->rank_local = true;
    }
    for (size_t i = nc - 1; i-- > 0;) {
        if (name_host(comp[i], clen[i])) {
            size_t hl = clen[i] < HOST_MAX - 1 ? clen[i] : HOST_MAX - 1;
            memcpy(m->host, comp[i], hl);
            m->host[hl] = '\0';
            break;
        }
    }
}

bool prefix_run_folder(const char *path, size_t *len, size_t *name)
{
    /* <run>/attempt_K/N/<file>: walk back over the file, N and attempt_K */
    size_t n = strlen(path);
    size_t end[3];
    size_t k = 0, i = n;
    while (k < 3 && i > 0) {
        while (i > 0 && path[i - 1] == '/')
            i--;
        end[k] = i;
        while (i > 0 && path[i - 1] != '/')
            i--;
        if (k == 1 && !all_digits(path + i, end[1] - i))
            return false;
        if (k == 2 && (end[2] - i < 9 || strncmp(path + i, "attempt_", 8) != 0 ||
                       !all_digits(path + i + 8, end[2] - i - 8)))
            return false;
        k++;
    }
    if (k < 3)
        return false;
    size_t run_end = i;
    while (run_end > 0 && path[run_end - 1] == '/')
        run_end--;
    size_t start = run_end;
    while (start > 0 && path[start - 1] != '/')
        start--;
    *len = run_end;
    if (name)
        *name = start;
    return true;
}
