/*
 * ingest.c — request bodies into the library's reader, through a pipe per source (ingest.h).
 */
#include "ingest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum fl_status ingest_init(struct ingest *in, const struct fl_kb *kb)
{
    memset(in, 0, sizeof *in);
    in->wfd = in->rfd = -1;
    return fl_scanner_new(kb, NULL, &in->s);
}

static void *reader_main(void *arg)
{
    struct ingest *in = arg;
    struct fl_error e = {0};
    enum fl_status st = fl_scan_fd(in->s, in->rfd, in->name, &e);
    if (st != FL_OK && st != FL_ERR_FORMAT && in->st == FL_OK) {
        in->st = st;
        in->err = e;
    }
    if (st != FL_OK && st != FL_ERR_FORMAT)
        in->failed++;
    /* the reader may stop early (a broken archive): drain, so that the writer never blocks */
    char sink[16384];
    ssize_t n;
    while ((n = read(in->rfd, sink, sizeof sink)) != 0)
        if (n < 0 && errno != EINTR)
            break;
    return NULL;
}

enum fl_status ingest_begin(struct ingest *in, const char *name)
{
    enum fl_status st = ingest_end(in);
    if (st != FL_OK)
        return st;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return FL_ERR_IO;
    /* a larger pipe means fewer wake-ups between writer and reader; the default is 64 KiB */
    (void)fcntl(fds[1], F_SETPIPE_SZ, 1 << 18);
    in->rfd = fds[0];
    in->wfd = fds[1];
    snprintf(in->name, sizeof in->name, "%s", name);
    if (pthread_create(&in->thread, NULL, reader_main, in) != 0) {
        close(fds[0]);
        close(fds[1]);
        in->rfd = in->wfd = -1;
        return FL_ERR_NOMEM;
    }
    in->running = true;
    in->sources++;
    return FL_OK;
}

enum fl_status ingest_write(struct ingest *in, const void *buf, size_t len)
{
    const char *p = buf;
    if (in->wfd < 0)
        return FL_ERR_USAGE;
    while (len > 0) {
        ssize_t n = write(in->wfd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return FL_ERR_IO;
        p += n;
        len -= (size_t)n;
        in->bytes += (uint64_t)n;
    }
    return FL_OK;
}

enum fl_status ingest_end(struct ingest *in)
{
    if (!in->running)
        return FL_OK;
    close(in->wfd);
    in->wfd = -1;
    pthread_join(in->thread, NULL);
    close(in->rfd);
    in->rfd = -1;
    in->running = false;
    return in->st == FL_ERR_NOMEM ? FL_ERR_NOMEM : FL_OK;
}

void ingest_free(struct ingest *in)
{
    ingest_end(in);
    fl_scanner_free(in->s);
    in->s = NULL;
}
