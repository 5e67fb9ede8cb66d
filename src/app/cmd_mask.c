/*
 * cmd_mask.c — `faultline mask`: the logs themselves, with secrets and private details masked,
 * so that they can be attached to a ticket. The same reading rules as diagnose (folders,
 * compressed files, tar archives); sources are written one after the other, like cat.
 *
 * Exit status: 0 when every PATH was read, 1 when some could be read only in part, 2 for usage
 * errors or when nothing could be read.
 */
#include "app.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *out)
{
    fputs("usage: faultline mask [options] [PATH...]\n"
          "\n"
          "Writes PATH (a file, a folder, a .gz or .zst file, a tar archive, or - for standard\n"
          "input; standard input when no PATH is given) to standard output with secrets replaced\n"
          "by placeholders (<hf-token>, <api-key>, <secret>, ...) and, by default, private details\n"
          "(addresses, host names, e-mails, user names in home paths) by consistent pseudonyms.\n"
          "\n"
          "options:\n"
          "  --mask MODE    all (default): secrets and private details; secrets: secrets only\n"
          "  -h, --help     this help\n",
          out);
}

int app_mask_option(int argc, char **argv, int *i, int *mode)
{
    const char *a = argv[*i];
    if (strcmp(a, "--no-mask") == 0) {
        *mode = -1;
        return 1;
    }
    if (strcmp(a, "--mask") != 0 && strncmp(a, "--mask=", 7) != 0)
        return 0;
    const char *val = a[6] == '=' ? a + 7 : *i + 1 < argc ? argv[*i + 1] : NULL;
    if (val == NULL) {
        fprintf(stderr, "faultline: --mask needs all or secrets\n");
        return -1;
    }
    if (a[6] != '=')
        (*i)++;
    if (strcmp(val, "all") == 0)
        *mode = FL_MASK_ALL;
    else if (strcmp(val, "secrets") == 0)
        *mode = FL_MASK_SECRETS;
    else {
        fprintf(stderr, "faultline: unknown --mask mode '%s' (all, secrets)\n", val);
        return -1;
    }
    return 1;
}

int cmd_mask(int argc, char **argv)
{
    int mode;
    int rc = app_mask_command_options(argc, argv, 0, help, &mode);
    if (rc >= 0)
        return rc;
    const char *stdin_path[] = {"-"};
    const char *const *paths = (const char *const *)argv + optind;
    int npaths = argc - optind;
    if (npaths == 0) {
        paths = stdin_path;
        npaths = 1;
    }
    struct fl_masker *m = NULL;
    if (fl_masker_new((enum fl_mask_mode)mode, &m) != FL_OK) {
        fprintf(stderr, "faultline: cannot create the masker\n");
        return 2;
    }
    int full = 0, partial = 0;
    for (int i = 0; i < npaths; i++) {
        struct fl_error err = {0};
        enum fl_status st = fl_mask_path(m, paths[i], stdout, &err);
        if (st != FL_OK) {
            /* the message names a path: it is masked like the log */
            app_warn(m, err.file[0] ? err.file : paths[i], err.msg[0] ? err.msg : fl_strerror(st));
        }
        if (st == FL_ERR_NOMEM || st == FL_ERR_USAGE)
            break;
        full += st == FL_OK;
        partial += st == FL_ERR_FORMAT;
    }
    rc = full == npaths ? 0 : full + partial > 0 ? 1 : 2;
    if (fflush(stdout) != 0) {
        fprintf(stderr, "faultline: cannot write the output\n");
        rc = 2;
    }
    fl_masker_free(m);
    return rc;
}
