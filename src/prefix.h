/*
 * prefix.h — who wrote a line, and when (internal).
 *
 * Launchers and loggers put the rank, the host and the time in front of each line, in a dozen
 * formats that stack (`node-1: [rank3]:[E501 12:00:00.123 ProcessGroupNCCL.cpp:1] ...`). The
 * formats are a static table (prefix.c): each row names the format, shows a real sample line and
 * parses it. They run only on lines that matched a pattern, never on every line.
 */
#ifndef FL_PREFIX_H
#define FL_PREFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TS_UNKNOWN INT64_MIN
#define HOST_MAX 64

struct line_meta {
    long rank;             /* -1: unknown */
    char host[HOST_MAX];   /* "": unknown */
    int64_t ts_ms;         /* milliseconds since the epoch, UTC; TS_UNKNOWN */
    bool ts_no_year;       /* from a format without a year (glog, syslog): year assumed */
    bool ts_no_zone;       /* from a format without a zone (glog, syslog, Python logging): read
                              as UTC for ordering, but printed without one */
    bool ts_inherited;     /* not the line's own: an earlier line's (scan_time.h) */
    bool rank_named;       /* rank is the one the line is about (a KB capture such as stuck_rank),
                              not the one that printed it */
    bool rank_local;       /* rank is a local rank, numbered per node: torchrun's per-rank folder
                              (attempt_K/N/) or --tee prefix ([defaultN]:); rankmap.h */
    long pid;              /* the writing process, from NCCL's host:pid:tid prefix; 0: unknown */
    bool level_error;      /* the record's level is ERROR or worse: glog's E or F, or ERROR or
                              CRITICAL in a logging record's header (read by prefix_parse) */
    size_t msg_off;        /* where the message starts, after every prefix */
};

struct prefix_format {
    const char *name;
    const char *description;
    const char *sample;
    /* Parses at line[*pos]; on success fills m, advances *pos and returns true. */
    bool (*parse)(const char *line, size_t len, size_t *pos, struct line_meta *m, int year);
    /* False for a first byte with which parse can only fail: most lines are tried against every
     * format, and most formats turn a line down at its first byte. */
    bool (*starts)(unsigned char c);
};

/* The table of formats and its length (for tests and `--help` listings). */
const struct prefix_format *prefix_formats(size_t *n);

/* Parses every prefix of the line into m (fields not found are left as they are, so the caller
 * can preset them from the file name). `year` is assumed for formats that carry none. */
void prefix_parse(const char *line, size_t len, struct line_meta *m, int year);
/* prefix_parse without its look for a rank the message names ("[Rank 3]", " rank=3"): for the
 * callers that read only the time (the time look-back passes over many lines). */
void prefix_parse_time(const char *line, size_t len, struct line_meta *m, int year);

/* The first marker by which a program names its own rank in its message s[from..len) (s: what
 * follows the line's prefixes); the rank, with in *end where the marker ends, or -1. Markers:
 * "[rank N]" anywhere, in any case (c10d's "[Rank 3]", a script's print(f"[rank {rank}] ..."));
 * "rank N: " at the message's start only ("failed on rank 3: ..." in its middle is about another
 * rank); a logging record's "rank=N" field (any case) among the header fields its format puts
 * before the message, next to the level name ("INFO pid=4104 rank=2 train: ..."). */
long prefix_message_rank(const char *s, size_t len, size_t from, size_t *end);

/* Whether line[0..n) may be a logging record at ERROR level or worse, without parsing it: false
 * only where prefix_parse would not set level_error (no glog E or F level letter, no ERROR or
 * CRITICAL). For callers that parse a line only when it may be one. */
bool prefix_may_be_error_record(const char *line, size_t n);

/* The rank of a line that starts with torchrun's "[rankN]:" or "[defaultN]:", and where the
 * rest starts (*rest, may be NULL), without parsing it: for callers that only need to tell the
 * ranks of many lines apart, or to look past that prefix. *local (may be NULL): the rank is a
 * local one ("[defaultN]:", the role's name and the worker's local rank). */
bool prefix_torchrun_rank(const char *line, size_t len, long *rank, size_t *rest, bool *local);

/* Rank and host hints from a path: rank_3.log, rank3.out, attempt_0/3/stderr.log,
 * node-2/worker-5.log. */
void prefix_from_path(const char *path, struct line_meta *m);

/* torchrun's per-rank layout <run>/attempt_K/N/<file>: true, with in *len the length of the path
 * up to and including <run> (the folder one agent wrote, unique per node; 0 when the path starts
 * at attempt_K) and in *name (may be NULL) where <run>'s name starts. */
bool prefix_run_folder(const char *path, size_t *len, size_t *name);

/* Days since the epoch for a civil date (proleptic Gregorian). */
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);

#endif
