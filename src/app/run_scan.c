/*
 * run_scan.c — reading every PATH into one scanner, for the commands that report on logs.
 * Messages about unreadable inputs go to stderr, masked like the report (a path can hold a user
 * or host name); a NULL report means nothing could be read.
 */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void warn(struct fl_masker *m, const char *path, const char *msg)
{
    char line[1200], *masked = NULL;
    snprintf(line, sizeof line, "%s: %s", path, msg);
    if (m && fl_masker_apply(m, line, strlen(line), &masked, NULL) != FL_OK) {
        fprintf(stderr, "faultline: an input could not be read (message not maskable)\n");
        return;
    }
    fprintf(stderr, "faultline: %s\n", masked ? masked : line);
    free(masked);
}

struct warn_ctx {
    struct fl_masker *m;
};

static void on_error(void *ctx, const struct fl_error *e)
{
    warn(((struct warn_ctx *)ctx)->m, e->file, e->msg);
}

struct fl_report *app_scan(const struct fl_kb *kb, const struct fl_scan_options *so,
                           const char *const *paths, int npaths, unsigned threads,
                           struct fl_masker *m)
{
    struct fl_scanner *s = NULL;
    struct fl_report *r = NULL;
    if (fl_scanner_new(kb, so, &s) != FL_OK) {
        fprintf(stderr, "faultline: cannot create a scanner\n");
        return NULL;
    }
    struct warn_ctx ctx = {m};
    enum fl_status st = fl_scan_paths(s, paths, (size_t)npaths, threads, on_error, &ctx);
    if (st == FL_OK && fl_scanner_finish(s, &r) != FL_OK)
        fprintf(stderr, "faultline: analysis failed\n");
    else if (st == FL_ERR_NOMEM)
        fprintf(stderr, "faultline: out of memory\n");
    fl_scanner_free(s);
    return r;
}

unsigned app_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (unsigned)n;
}
