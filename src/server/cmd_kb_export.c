/*
 * cmd_kb_export.c — `faultline kb export --html DIR [--kb DIR]`: the encyclopedia pages that
 * `faultline serve` shows, written as a static site (kbpages.h), for hosts without the server.
 */
#include "../app/app.h"
#include "kbpages.h"

#include <string.h>

int cmd_kb_export(int argc, char **argv)
{
    const char *out = NULL, *dirs[16];
    int ndirs = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--html") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--kb") == 0 && i + 1 < argc && ndirs < 16)
            dirs[ndirs++] = argv[++i];
        else {
            fprintf(stderr, "faultline: kb export: unknown or incomplete option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (out == NULL) {
        fprintf(stderr, "faultline: kb export needs --html DIR\n");
        return 2;
    }
    struct fl_kb *kb = app_load_kb(dirs, ndirs);
    if (kb == NULL)
        return 2;
    int rc = kb_export_html(kb, out) == 0 ? 0 : 2;
    fl_kb_free(kb);
    return rc;
}
