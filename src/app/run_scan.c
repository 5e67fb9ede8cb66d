/*
 * run_scan.c — reading every PATH into one scanner, for the commands that report on logs.
 * Messages about unreadable inputs go to stderr, masked like the report (a path can hold a user
 * or host name); a NULL report means nothing could be read.
 */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct fl_report *app_scan(const struct fl_kb *kb, const struct fl_scan_options *so,
                           const char *const *paths, int npaths, struct fl_masker *m)
{
    struct fl_scanner *s = NULL;
    struct fl_report *r = NULL;
    if (fl_scanner_new(kb, so, &s) != FL_OK) {
        fprintf(stderr, "faultline: cannot create a scanner\n");
        return NULL;
    }
    int readable = 0;
    for (int i = 0; i < npaths; i++) {
        struct fl_error err = {0};
        enum fl_status st = fl_scan_path(s, paths[i], &err);
        if (err.msg[0] || st != FL_OK)
            warn(m, err.file[0] ? err.file : paths[i], err.msg[0] ? err.msg : fl_strerror(st));
        if (st == FL_ERR_NOMEM)
            goto out;
        /* FL_ERR_FORMAT: a truncated stream whose readable part was analysed */
        readable += st == FL_OK || st == FL_ERR_FORMAT;
    }
    if (readable > 0 && fl_scanner_finish(s, &r) != FL_OK)
        fprintf(stderr, "faultline: analysis failed\n");
out:
    fl_scanner_free(s);
    return r;
}
