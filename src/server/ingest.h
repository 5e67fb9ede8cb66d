/*
 * ingest.h — a request body, pushed by libmicrohttpd in pieces, read by the library's reader.
 *
 * The reader pulls bytes from a file descriptor (it sniffs gzip, zstd and tar from the first
 * bytes and streams each through a fixed buffer), and libmicrohttpd pushes bytes as they arrive.
 * A pipe joins the two: for each source (a raw body, a form's text field, one uploaded file) a
 * thread runs fl_scan_fd on the read end while the connection's thread writes into the other.
 * A full pipe blocks the writer, so a 1 GB upload holds a pipe's worth of memory, never the body.
 * Sources of one scanner are read one after the other: a source's thread is joined before the
 * next begins, so the scanner is never used by two threads at once.
 */
#ifndef FL_SERVER_INGEST_H
#define FL_SERVER_INGEST_H

#include "faultline.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ingest {
    struct fl_scanner *s;
    int wfd, rfd;
    bool running;
    pthread_t thread;
    char name[256];
    unsigned sources;     /* sources begun */
    unsigned failed;      /* sources that could not be read at all */
    uint64_t bytes;       /* bytes written, all sources */
    enum fl_status st;    /* first error of a reader thread */
    struct fl_error err;
};

/* Starts an ingest into a new scanner over kb. */
enum fl_status ingest_init(struct ingest *in, const struct fl_kb *kb);
/* Begins a source; ends the current one first. `name` is copied. */
enum fl_status ingest_begin(struct ingest *in, const char *name);
/* Writes bytes to the current source (blocks while the reader is behind). */
enum fl_status ingest_write(struct ingest *in, const void *buf, size_t len);
/* Ends the current source, if any, and waits for its reader. */
enum fl_status ingest_end(struct ingest *in);
/* Ends everything and frees the scanner (after fl_scanner_finish, or on failure). */
void ingest_free(struct ingest *in);

#endif
