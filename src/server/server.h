/*
 * server.h — `faultline serve`: the team's diagnosis page and API (internal to the program).
 *
 * One process serves everything: libmicrohttpd runs a thread per connection (http.c), the
 * routes (routes.c) call the library through include/faultline.h only, exactly as the CLI does:
 * a request's log is streamed through the library's reader into a fresh scanner (ingest.c), and
 * the masked report is written by fl_report_write (diagnose.c), so the JSON a page offers for
 * download is the CLI's, byte for byte. Pages are rendered in C with every byte that came from a
 * log escaped (render.c); the encyclopedia comes from the KB's Markdown through md4c
 * (kbpages.c). SQLite keeps masked reports of token holders, hashed tokens and daily usage
 * (store.c); nothing that was pasted ever reaches the disk or the server's log.
 *
 * Ownership: the struct server owns the KB, the KB index, the store and the log; it is
 * read-only after start-up except for its atomic counters and the store, which locks itself.
 */
#ifndef FL_SERVER_H
#define FL_SERVER_H

#include "faultline.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SERVE_MAX_KB_DIRS 16

struct serve_config {
    char listen[128];          /* ADDR:PORT */
    const char *db_path;       /* SQLite history, tokens and usage; NULL: no history, in-memory usage */
    const char *kb_dirs[SERVE_MAX_KB_DIRS];
    int nkb;
    unsigned anon_per_day;     /* diagnoses per day per address without a token (0: none) */
    unsigned token_per_day;    /* default daily quota of a new token */
    uint64_t max_body;         /* bytes of one request body (413 past it) */
    unsigned max_connections;
    unsigned connection_timeout_s; /* idle time before a connection is closed */
    unsigned request_timeout_s;    /* whole time one request may take */
    unsigned threads;              /* reader threads per diagnosis (1: the server is concurrent) */
    char access_log[512];          /* path, or "-" for standard error, or "" for none */
};

/* Prometheus counters; every field is updated atomically from any thread. */
#define LATENCY_BUCKETS 12
struct serve_metrics {
    atomic_uint_fast64_t by_status[600];
    atomic_uint_fast64_t latency[LATENCY_BUCKETS + 1]; /* last: +Inf */
    atomic_uint_fast64_t latency_sum_us;
    atomic_uint_fast64_t bytes_diagnosed;
    atomic_uint_fast64_t *by_diagnosis; /* one per KB entry, then one for "unclassified" */
    atomic_uint_fast64_t rejected_quota;
};
extern const double latency_bounds_ms[LATENCY_BUCKETS];

struct kbindex;
struct store;

struct server {
    struct serve_config cfg;
    struct fl_kb *kb;
    struct kbindex *idx;
    struct store *store;
    struct serve_metrics metrics;
    FILE *log;
    pthread_mutex_t log_lock;
    atomic_int in_flight;    /* requests begun and not yet completed */
    atomic_int conns_fresh;  /* connections that have not begun a request yet */
};

/* cmd_serve.c */
int cmd_serve(int argc, char **argv);

/* http.c: runs until SIGTERM or SIGINT, then finishes the requests in flight. */
int http_run(struct server *srv);

/* metrics.c */
void serve_metrics_init(struct serve_metrics *m, size_t nentries);
void serve_metrics_free(struct serve_metrics *m);
void serve_metrics_request(struct serve_metrics *m, unsigned status, uint64_t micros);
void serve_metrics_diagnosis(struct serve_metrics *m, const struct fl_kb *kb, const char *id);
/* The Prometheus text exposition; a string owned by the caller. */
char *serve_metrics_text(const struct server *srv, size_t *len);

#endif
