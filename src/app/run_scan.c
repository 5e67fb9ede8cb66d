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

void app_warn(struct fl_masker *m, const char *path, const char *msg)
{
    /* the path and the message are masked apart: "trian.log: No such file" read as one line
     * looks like a pdsh "host: text" prefix, and the file name would be called host-1 */
    char *mp = NULL, *mm = NULL;
    if (m && (fl_masker_apply(m, path, strlen(path), &mp, NULL) != FL_OK ||
              fl_masker_apply(m, msg, strlen(msg), &mm, NULL) != FL_OK)) {
        fprintf(stderr, "faultline: an input could not be read (message not maskable)\n");
    } else {
        fprintf(stderr, "faultline: %s: %s\n", mp ? mp : path, mm ? mm : msg);
    }
    free(mp);
    free(mm);
}

struct warn_ctx {
    struct fl_masker *m;
    size_t nerrors;
};

static void on_error(void *ctx, const struct fl_error *e)
{
    struct warn_ctx *w = ctx;
    w->nerrors++;
    app_warn(w->m, e->file, e->msg);
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
    struct warn_ctx ctx = {m, 0};
    enum fl_status st = fl_scan_paths(s, paths, (size_t)npaths, threads, on_error, &ctx);
    if (st == FL_OK && fl_scanner_finish(s, &r) != FL_OK) {
        fprintf(stderr, "faultline: analysis failed\n");
    } else if (st == FL_ERR_NOMEM) {
        fprintf(stderr, "faultline: out of memory\n");
    } else if (st != FL_OK && ctx.nerrors == 0) {
        /* nothing unreadable, and nothing read: empty folders (or folders of empty names) */
        for (int i = 0; i < npaths; i++)
            app_warn(m, paths[i], "no log to read (an empty folder?)");
    } else if (st != FL_OK) {
        fprintf(stderr, "faultline: no input could be read\n");
    }
    fl_scanner_free(s);
    return r;
}

unsigned app_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (unsigned)n;
}
