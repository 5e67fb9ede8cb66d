/*
 * cmd_stacks.c — `faultline stacks`: where each rank of a hung job waits.
 *
 * Reads py-spy dumps (`py-spy dump --pid`, with or without --locals) and faulthandler dumps,
 * one per rank (separate files, or one file with rank prefixes), groups ranks whose main-thread
 * stacks are the same, and prints the groups largest first: the ranks outside the majority are
 * where to look. Exit status: 0 when all ranks agree (or no dump), 1 when they differ, 2 on error.
 */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *out)
{
    fputs("usage: faultline stacks PATH...\n"
          "\n"
          "Groups ranks by the main-thread stack of their py-spy or faulthandler dumps and prints\n"
          "the groups, largest first. PATH is read as by diagnose (files, folders, archives, -).\n"
          "\n"
          "options:\n"
          "  --mask MODE   all (default: secrets and private details) or secrets\n"
          "  --no-mask     print frames as read\n",
          out);
}

int cmd_stacks(int argc, char **argv)
{
    const char **paths = calloc((size_t)argc, sizeof *paths);
    int npaths = 0, mask = FL_MASK_ALL, mr;
    if (paths == NULL)
        return 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            help(stdout);
            free(paths);
            return 0;
        }
        if ((mr = app_mask_option(argc, argv, &i, &mask)) != 0) {
            if (mr < 0) {
                free(paths);
                return 2;
            }
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "faultline: unknown option '%s'\n", argv[i]);
            free(paths);
            return 2;
        }
        paths[npaths++] = argv[i];
    }
    if (npaths == 0) {
        help(stderr);
        free(paths);
        return 2;
    }
    int rc = 2;
    struct fl_masker *m = NULL;
    if (mask >= 0 && fl_masker_new((enum fl_mask_mode)mask, &m) != FL_OK) {
        fprintf(stderr, "faultline: cannot create the masker\n");
        free(paths);
        return 2;
    }
    struct fl_kb *kb = app_load_kb(NULL, 0);
    struct fl_report *r = kb ? app_scan(kb, NULL, paths, npaths, app_default_threads(), m) : NULL;
    if (r && (m == NULL || fl_report_mask(r, m) == FL_OK) && fl_report_write_stacks(r, stdout) == FL_OK)
        rc = fl_report_stack_group_count(r) > 1 ? 1 : 0;
    fl_report_free(r);
    fl_masker_free(m);
    fl_kb_free(kb);
    free(paths);
    return rc;
}
