/*
 * cmd_stacks.c — `faultline stacks`: where each rank of a hung job waits.
 *
 * Reads py-spy dumps (`py-spy dump --pid`, with or without --locals) and faulthandler dumps,
 * one per rank (separate files, or one file with rank prefixes), groups ranks whose main-thread
 * stacks are the same, and prints the groups largest first: the ranks outside the majority are
 * where to look. Exit status: 0 when all ranks agree (or no dump), 1 when they differ, 2 on error.
 */
#include "app.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    int mask;
    int rc = app_mask_command_options(argc, argv, 1, help, &mask);
    if (rc >= 0)
        return rc;
    const char *stdin_path[] = {"-"};
    const char *const *paths = (const char *const *)argv + optind;
    int npaths = argc - optind;
    if (npaths == 0 && !isatty(STDIN_FILENO)) {
        paths = stdin_path;
        npaths = 1;
    }
    if (npaths == 0) {
        help(stderr);
        return 2;
    }
    rc = 2;
    struct fl_masker *m = NULL;
    if (mask >= 0 && fl_masker_new((enum fl_mask_mode)mask, &m) != FL_OK) {
        fprintf(stderr, "faultline: cannot create the masker\n");
        return 2;
    }
    struct fl_kb *kb = app_load_kb(NULL, 0);
    struct fl_scan_options so = {.thread_bytes = APP_THREAD_BYTES};
    struct fl_report *r = kb ? app_scan(kb, &so, paths, npaths, app_default_threads(), m) : NULL;
    if (r && (m == NULL || fl_report_mask(r, m) == FL_OK) && fl_report_write_stacks(r, stdout) == FL_OK)
        rc = fl_report_stack_group_count(r) > 1 ? 1 : 0;
    fl_report_free(r);
    fl_masker_free(m);
    fl_kb_free(kb);
    return rc;
}
