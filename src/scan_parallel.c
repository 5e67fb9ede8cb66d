/*
 * scan_parallel.c — fl_scan_paths: many files on several threads, with the same report as one.
 *
 * The files are listed first (folders walked in sorted order), then cut into contiguous runs of
 * about equal size, one per thread. Each thread reads its run into a scanner of its own; at the
 * end the scanners are merged into the caller's in run order. Because a run's files all come
 * after the previous run's, the merge reproduces exactly what one scanner reading the files in
 * order would have seen ("first value wins", first evidence lines, arrival order without
 * timestamps), so the report does not depend on the number of threads.
 *
 * Why not one shared scanner with a lock: the scan itself needs no sharing, and merging once at
 * the end costs nothing next to reading gigabytes, while a lock on every matched line would make
 * the result depend on thread timing.
 *
 * One large file would keep one thread busy and the others idle, so plain files of at least
 * twice the segment size are first cut into segments of about total/threads bytes, which become
 * jobs like files (scan_segment.c). A run that starts with a file's second or later segment
 * continues the previous run's last source, and is merged as such.
 */
#include "buf.h"
#include "reader.h"
#include "scan.h"
#include "status.h"
#include "walk.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define JOBS_MAX 1000000
#define THREADS_MAX 64

struct job {
    char *path;      /* a file, or "-" */
    uint64_t size;
    bool segment;    /* the bytes [from, to) of a plain file cut into segments */
    uint64_t from, to;
    struct fl_error walk_error; /* msg set: the walk could not read this path */
};

struct job_list {
    struct job *jobs;
    size_t n, cap;
};

static enum fl_status add_job(struct job_list *l, const char *path, uint64_t size,
                              const char *walk_msg)
{
    enum fl_status st = GROW(l->jobs, l->cap, l->n, JOBS_MAX);
    if (st != FL_OK)
        return st;
    struct job *j = &l->jobs[l->n];
    memset(j, 0, sizeof *j);
    if ((j->path = xstrdup(path)) == NULL)
        return FL_ERR_NOMEM;
    j->size = size;
    if (walk_msg)
        error_set(&j->walk_error, FL_ERR_IO, path, 0, 0, "%s", walk_msg);
    l->n++;
    return FL_OK;
}

static enum fl_status on_file(void *ctx, const char *path)
{
    struct stat sb;
    if (walk_dir_skips(path))
        return FL_OK;
    return add_job(ctx, path, stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0, NULL);
}

static void on_walk_error(void *ctx, const char *path, const char *msg)
{
    add_job(ctx, path, 0, msg);
}

static enum fl_status list_jobs(struct job_list *l, const char *const *paths, size_t n)
{
    enum fl_status st = FL_OK;
    for (size_t i = 0; i < n && st == FL_OK; i++) {
        struct stat sb;
        if (strcmp(paths[i], "-") == 0)
            st = add_job(l, "-", 0, NULL);
        else if (stat(paths[i], &sb) != 0)
            st = add_job(l, paths[i], 0, strerror(errno));
        else if (S_ISDIR(sb.st_mode))
            st = walk_dir(paths[i], on_file, on_walk_error, l);
        else
            st = add_job(l, paths[i], (uint64_t)sb.st_size, NULL);
    }
    return st;
}

static void free_jobs(struct job_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->jobs[i].path);
    free(l->jobs);
    memset(l, 0, sizeof *l);
}

static uint64_t total_bytes(const struct job_list *l)
{
    uint64_t total = 0;
    for (size_t i = 0; i < l->n; i++)
        total += l->jobs[i].size;
    return total;
}

/* Cuts plain files of at least two shares into segments of about one share (total/threads
 * bytes, at least segment_min) each, in place in the list. */
static enum fl_status cut_segments(struct job_list *l, uint64_t total, unsigned threads,
                                   uint64_t segment_min)
{
    uint64_t share = total / threads > segment_min ? total / threads : segment_min;
    struct job_list out = {0};
    enum fl_status st = FL_OK;
    for (size_t i = 0; i < l->n && st == FL_OK; i++) {
        const struct job *j = &l->jobs[i];
        uint64_t pieces = (j->size + share / 2) / share;
        if (pieces > threads)
            pieces = threads;
        if (pieces < 2 || j->walk_error.msg[0] || !reader_plain_file(j->path))
            pieces = 1;
        for (uint64_t k = 0; k < pieces && st == FL_OK; k++) {
            if ((st = add_job(&out, j->path, j->size, NULL)) != FL_OK)
                break;
            struct job *q = &out.jobs[out.n - 1];
            q->walk_error = j->walk_error;
            if (pieces > 1) {
                q->segment = true;
                q->from = j->size * k / pieces;
                q->to = j->size * (k + 1) / pieces;
                q->size = q->to - q->from;
                if (k == pieces - 1)
                    q->to = UINT64_MAX; /* to the end, should the file have grown since */
            }
        }
    }
    if (st != FL_OK) {
        free_jobs(&out);
        return st;
    }
    free_jobs(l);
    *l = out;
    return FL_OK;
}

struct run {
    struct fl_scanner *s;
    struct job *jobs;
    size_t njobs;
    struct fl_error *errors;   /* one per job: msg set when it failed */
    size_t readable;
    enum fl_status st;
};

static void *run_jobs(void *arg)
{
    struct run *r = arg;
    for (size_t i = 0; i < r->njobs && r->st == FL_OK; i++) {
        struct job *j = &r->jobs[i];
        if (j->walk_error.msg[0]) {
            r->errors[i] = j->walk_error;
            fl_scanner_note_error(r->s, j->path, j->walk_error.msg);
            continue;
        }
        enum fl_status st;
        size_t last = i;
        if (j->segment) {
            /* consecutive segments of one file in one run are read as one */
            while (last + 1 < r->njobs && r->jobs[last + 1].segment && r->jobs[last + 1].from > 0 &&
                   strcmp(r->jobs[last + 1].path, j->path) == 0)
                last++;
            st = scanner_read_segment(r->s, j->path, j->from, r->jobs[last].to, &r->errors[i]);
            if (st != FL_OK && st != FL_ERR_NOMEM)
                fl_scanner_note_error(r->s, j->path, r->errors[i].msg[0] ? r->errors[i].msg
                                                                         : fl_strerror(st));
        } else {
            st = fl_scan_path(r->s, j->path, &r->errors[i]);
        }
        if (st != FL_OK && !r->errors[i].msg[0])
            error_set(&r->errors[i], st, j->path, 0, 0, "%s", fl_strerror(st));
        if (st == FL_ERR_NOMEM)
            r->st = st;
        /* FL_ERR_FORMAT: a truncated stream whose readable part was analysed */
        r->readable += st == FL_OK || st == FL_ERR_FORMAT;
        i = last;
    }
    return NULL;
}

enum fl_status fl_scan_paths(struct fl_scanner *s, const char *const *paths, size_t npaths,
                             unsigned threads, fl_scan_error_cb on_error, void *ctx)
{
    struct job_list l = {0};
    struct run runs[THREADS_MAX];
    pthread_t tids[THREADS_MAX];
    size_t nruns = 0;
    struct fl_error *errors = NULL;
    if (threads < 1)
        threads = 1;
    if (threads > THREADS_MAX)
        threads = THREADS_MAX;
    enum fl_status st = list_jobs(&l, paths, npaths);
    /* fewer threads for a small input: starting one costs more than it would read */
    /* cutting into segments keeps the sum of the sizes: one total serves every step below */
    uint64_t total = total_bytes(&l);
    uint64_t least = scanner_thread_bytes(s), afford = least ? total / least : threads;
    if (afford < threads)
        threads = afford > 1 ? (unsigned)afford : 1;
    if (st == FL_OK && threads > 1)
        st = cut_segments(&l, total, threads, scanner_segment_bytes(s));
    if (st == FL_OK && (errors = calloc(l.n ? l.n : 1, sizeof *errors)) == NULL)
        st = FL_ERR_NOMEM;
    if (st != FL_OK)
        goto out;
    if (threads > l.n)
        threads = l.n ? (unsigned)l.n : 1;
    /* contiguous runs of about total/threads bytes each */
    size_t start = 0;
    for (unsigned t = 0; t < threads && start < l.n; t++) {
        size_t end = start + 1;
        uint64_t bytes = l.jobs[start].size, share = total / threads;
        while (end < l.n && (t == threads - 1 || bytes + l.jobs[end].size / 2 <= share) &&
               l.n - end > threads - 1 - t) {
            bytes += l.jobs[end].size;
            end++;
        }
        if (t == threads - 1)
            end = l.n;
        struct run *r = &runs[nruns];
        *r = (struct run){.jobs = l.jobs + start, .njobs = end - start, .errors = errors + start};
        if (nruns == 0) {
            r->s = s;
        } else if ((st = scanner_new_like(s, &r->s)) != FL_OK) {
            break;
        }
        nruns++;
        start = end;
    }
    size_t started = 0;
    for (size_t i = 1; i < nruns && st == FL_OK; i++) {
        if (pthread_create(&tids[i], NULL, run_jobs, &runs[i]) != 0) {
            runs[i].st = FL_ERR_INTERNAL;
            break;
        }
        started = i;
    }
    if (nruns > 0)
        run_jobs(&runs[0]);
    for (size_t i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);
    for (size_t i = 1; i <= started; i++)
        if (runs[i].st != FL_OK)
            runs[0].st = runs[i].st;
    /* runs that did not start read nothing: read them here, in order, before merging */
    for (size_t i = started + 1; i < nruns && runs[0].st == FL_OK; i++)
        run_jobs(&runs[i]);
    size_t readable = 0;
    for (size_t i = 0; i < nruns; i++) {
        readable += runs[i].readable;
        if (i > 0) {
            if (st == FL_OK && runs[0].st == FL_OK)
                st = scanner_merge(s, runs[i].s,
                                   runs[i].jobs[0].segment && runs[i].jobs[0].from > 0);
            fl_scanner_free(runs[i].s);
        }
    }
    if (st == FL_OK)
        st = runs[0].st;
    for (size_t i = 0; i < l.n && on_error; i++)
        if (errors[i].msg[0])
            on_error(ctx, &errors[i]);
    if (st == FL_OK && readable == 0)
        st = FL_ERR_IO;
out:
    free_jobs(&l);
    free(errors);
    return st;
}
