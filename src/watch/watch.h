/*
 * watch.h — `faultline watch`: the modules of the live watcher (program side; it sees only the
 * public API in include/faultline.h, like the rest of the program).
 *
 *   follow.c   which files to read and how far: inotify where it works, a stat poll everywhere
 *              (NFS and Lustre show inotify nothing written on other nodes), new files, rotation,
 *              copytruncate, deletion; reads with pread, feeds whole lines to one scanner
 *   alerts.c   once per diagnosis id, after a drain window: stderr, --events JSON Lines, --exec
 *   webhook.c  --webhook: JSON POSTs on a thread of their own, retried with backoff
 *   stall.c    each rank's step cadence, and the hang alert when ranks go quiet
 *   metrics.c  Prometheus text: --metrics-listen (libmicrohttpd) and --metrics-textfile
 *   watch.c    the loop that ties them together
 *
 * Time is CLOCK_MONOTONIC milliseconds (watch_now_ms) everywhere except in what is written out.
 * Ownership: each module's *_new result is released by its *_free.
 */
#ifndef FL_WATCH_H
#define FL_WATCH_H

#include "faultline.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How events are serialised: compact, and reals with the few digits the report prints, not
 * the 17 a parsed double would otherwise show (0.81, not 0.81000000000000005). */
#define EVENT_JSON (JSON_COMPACT | JSON_REAL_PRECISION(6))

int64_t watch_now_ms(void);
/* The wall-clock time as ISO 8601 UTC with milliseconds, into out. */
void watch_iso_time(char *out, size_t n);
/* Makes room for one more item in *arr (n items of size bytes, *cap allocated), doubling it;
 * FL_ERR_LIMIT once max items are held, FL_ERR_NOMEM when realloc fails (*arr is kept). */
enum fl_status watch_grow(void **arr, size_t *cap, size_t n, size_t size, size_t max);

/* ------------------------------------------------------------------ follow.c */

struct follower;

struct follow_stats {
    size_t files;       /* followed now */
    uint64_t bytes;     /* fed so far */
    uint64_t lines;     /* '\n' fed so far */
    unsigned rotations, truncations, deletions;
};

/* Follows every PATH (files and folders, recursively), feeding s. Paths in `skip` (the
 * watcher's own outputs) are never read. With use_inotify false, only the stat poll sees
 * changes. Fails when a PATH does not exist (message in err). */
enum fl_status follower_new(struct fl_scanner *s, const char *const *paths, size_t npaths,
                            const char *const *skip, size_t nskip, bool use_inotify,
                            struct follower **out, char *err, size_t errlen);
void follower_free(struct follower *f);
/* Blocks until a file may have changed or timeout_ms passed (-1: stdin-less wait forever is
 * never used). Returns false when interrupted by a signal. */
bool follower_wait(struct follower *f, int timeout_ms);
/* Reads what was added since the last call. With full, checks every file and folder (the stat
 * poll: new files, rotation, truncation, deletion); without, only the files inotify named.
 * Returns the bytes fed. */
uint64_t follower_read(struct follower *f, bool full);
/* Reads everything that is left, including a last line without '\n'. */
void follower_drain(struct follower *f);
void follower_stats(const struct follower *f, struct follow_stats *out);

/* ------------------------------------------------------------------ webhook.c */

struct webhook;

/* Starts the sender thread. retries: attempts after the first; backoff_ms: the first wait,
 * doubled after each failure. */
enum fl_status webhook_new(const char *const *urls, size_t nurls, unsigned retries,
                           unsigned backoff_ms, struct webhook **out);
/* Queues the event (copied) for every URL; never blocks. A full queue drops it with a message. */
void webhook_send(struct webhook *w, const json_t *event, const char *summary);
/* Waits up to wait_ms for the queue to empty, then stops the thread. */
void webhook_free(struct webhook *w, unsigned wait_ms);

/* ------------------------------------------------------------------ alerts.c */

struct alert_opts {
    const char *events_path;  /* --events: JSON Lines, appended */
    const char *exec_cmd;     /* --exec: /bin/sh -c, event JSON on stdin */
    const char *on_hang_cmd;  /* --on-hang */
    struct webhook *webhook;  /* may be NULL */
    bool quiet;               /* no stderr line */
};

struct alerts;

enum fl_status alerts_new(const struct alert_opts *o, struct alerts **out, char *err, size_t errlen);
void alerts_free(struct alerts *a);
/* Delivers one event (a diagnosis object with "event" and "time") to every sink. */
void alerts_emit(struct alerts *a, json_t *event);
/* Reaps finished --exec / --on-hang children (never waits). */
void alerts_reap(struct alerts *a);
unsigned long alerts_count(const struct alerts *a, const char *event);

/* ------------------------------------------------------------------ stall.c */

struct stall_opts {
    int64_t min_quiet_ms;     /* --hang-after: never call a hang before this much quiet */
    unsigned cadence_factor;  /* quiet longer than factor x the median step time */
};

struct stall;

enum fl_status stall_new(const struct stall_opts *o, struct stall **out);
void stall_free(struct stall *st);
/* Takes each rank's progress from the scanner at time now. */
void stall_observe(struct stall *st, const struct fl_scanner *s, int64_t now);
/* A hang event when ranks went quiet past their threshold (once, until progress resumes), a
 * "recovered" event when a hang's ranks move again, else NULL. report: the latest snapshot,
 * for suspects (borrowed). The event is the caller's (json_decref). */
json_t *stall_check(struct stall *st, const struct fl_scanner *s, const json_t *report, int64_t now);
/* Milliseconds until stall_check may have something to say (for the wait), or -1. */
int64_t stall_next_ms(const struct stall *st, int64_t now);
bool stall_hung(const struct stall *st);

/* Per rank: age of the last progress line in seconds (-1: none yet) and the last step. */
struct rank_metric {
    long rank;
    double age_s;
    long long last_step;
};
size_t stall_ranks(const struct stall *st, int64_t now, struct rank_metric *out, size_t max);

/* ------------------------------------------------------------------ metrics.c */

struct metrics;

/* listen: "ADDR:PORT" or NULL; textfile: a path or NULL. */
enum fl_status metrics_new(const char *listen, const char *textfile, struct metrics **out,
                           char *err, size_t errlen);
void metrics_free(struct metrics *m);
/* Replaces the exposition text served and written (copied). */
void metrics_publish(struct metrics *m, const char *text, size_t len);

/* ------------------------------------------------------------------ watch.c */

struct watch_opts {
    const char *const *paths;
    size_t npaths;
    int64_t drain_ms;          /* --drain: wait this long after a diagnosis first shows */
    int64_t poll_ms;           /* --poll: the stat poll's period */
    int64_t snapshot_ms;       /* at most one snapshot per this while lines come in */
    int64_t exit_idle_ms;      /* --exit-after-idle: 0 = run until a signal */
    bool inotify;
    struct alert_opts alerts;  /* its webhook is made here */
    const char *const *webhooks;
    size_t nwebhooks;
    unsigned webhook_retries, webhook_backoff_ms;
    struct stall_opts stall;
    const char *metrics_listen, *metrics_textfile;
    bool final_report;         /* print the report at exit, as diagnose does */
    struct fl_report_options report;
    int mask;                  /* enum fl_mask_mode, or -1: no masking */
    struct fl_scan_options scan;
};

/* Runs until SIGINT/SIGTERM (or --exit-after-idle); returns the exit status: 0 no diagnosis,
 * 1 at least one, 2 when it could not start. */
int watch_run(const struct fl_kb *kb, const struct watch_opts *o);

#endif
