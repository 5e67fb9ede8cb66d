/*
 * cmd_diagnose.c — `faultline diagnose`: read every PATH into one scanner, print one report.
 *
 * Exit status (README "Exit status" has the table):
 *   0  every source was read and no known failure was found;
 *   1  at least one diagnosis (even when some source could be read only in part);
 *   2  usage errors; no source readable, or nothing to read (an empty folder): a message on
 *      stderr and no report; or a source read only in part and nothing found: the report says
 *      the input is incomplete, in every format, because "healthy" would be a guess.
 * A source that could only be read in part (a corrupt .zst, a truncated .gz) is named on stderr
 * and in the report; the others are still analysed.
 *
 * The report is masked before it is written (secrets and private details, see faultline.h):
 * the scanner saw the original text, so the diagnosis does not depend on the mask mode.
 * Messages about unreadable inputs are masked with the same pseudonyms as the report.
 */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_KB_DIRS 16

static void help(FILE *out)
{
    fputs("usage: faultline diagnose [options] PATH...\n"
          "\n"
          "PATH is a file, a folder (read recursively, in sorted order), a .gz or .zst file, a tar\n"
          "archive (.tar, .tar.gz, .tgz, .tar.zst, ...), or - for standard input.\n"
          "\n"
          "options:\n"
          "  --format FMT   text (default), json or markdown\n"
          "  --kb DIR       add the knowledge-base entries under DIR (same id: DIR wins); repeatable\n"
          "  --explain      text format: which signals matched and why the first diagnosis won\n"
          "  --evidence N   evidence lines per diagnosis (default 8)\n"
          "  --threads N    read files on N threads (default: the CPUs, at most 16); the report\n"
          "                 is the same for any N\n"
          "  --color WHEN   auto (default), always or never\n"
          "  --mask MODE    all (default): mask secrets and private details (addresses, hosts,\n"
          "                 e-mails, home folders); secrets: mask secrets only\n"
          "  --no-mask      print evidence, facts and hosts as they are in the logs\n"
          "  -h, --help     this help\n",
          out);
}

/* "faultline: PATH: message" on stderr, masked when m is not NULL */
int cmd_diagnose(int argc, char **argv)
{
    struct fl_report_options ro = {.format = FL_FORMAT_TEXT};
    struct fl_scan_options so = {0};
    const char *kb_dirs[MAX_KB_DIRS];
    unsigned threads = app_default_threads();
    int nkb = 0, color = -1, mask = FL_MASK_ALL, mr;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    int npaths = 0;
    if (paths == NULL)
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            help(stdout);
            free(paths);
            return 0;
        } else if (strcmp(a, "--format") == 0 && val) {
            if (strcmp(val, "json") == 0)
                ro.format = FL_FORMAT_JSON;
            else if (strcmp(val, "markdown") == 0 || strcmp(val, "md") == 0)
                ro.format = FL_FORMAT_MARKDOWN;
            else if (strcmp(val, "text") == 0)
                ro.format = FL_FORMAT_TEXT;
            else {
                fprintf(stderr, "faultline: unknown format '%s' (text, json, markdown)\n", val);
                free(paths);
                return 2;
            }
            i++;
        } else if (strcmp(a, "--kb") == 0 && val) {
            if (nkb == MAX_KB_DIRS) {
                fprintf(stderr, "faultline: at most %d --kb folders\n", MAX_KB_DIRS);
                free(paths);
                return 2;
            }
            kb_dirs[nkb++] = val;
            i++;
        } else if (strcmp(a, "--threads") == 0 && val) {
            long t = strtol(val, NULL, 10);
            if (t < 1 || t > 64) {
                fprintf(stderr, "faultline: --threads takes 1 to 64\n");
                free(paths);
                return 2;
            }
            threads = (unsigned)t;
            i++;
        } else if (strcmp(a, "--explain") == 0) {
            ro.explain = 1;
        } else if (strcmp(a, "--evidence") == 0 && val) {
            so.max_evidence = (unsigned)strtoul(val, NULL, 10);
            if (so.max_evidence == 0 || so.max_evidence > 32) {
                fprintf(stderr, "faultline: --evidence takes 1 to 32\n");
                free(paths);
                return 2;
            }
            i++;
        } else if ((mr = app_mask_option(argc, argv, &i, &mask)) != 0) {
            if (mr < 0) {
                free(paths);
                return 2;
            }
        } else if (strcmp(a, "--color") == 0 && val) {
            color = strcmp(val, "always") == 0 ? 1 : strcmp(val, "never") == 0 ? 0 : -1;
            i++;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "faultline: unknown or incomplete option '%s'\n", a);
            help(stderr);
            free(paths);
            return 2;
        } else {
            paths[npaths++] = a;
        }
    }
    if (npaths == 0) {
        fprintf(stderr, "faultline: diagnose needs at least one PATH (or - for stdin)\n");
        help(stderr);
        free(paths);
        return 2;
    }
    ro.color = color >= 0 ? color : (isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL);
    int rc = 2;
    struct fl_kb *kb = app_load_kb(kb_dirs, nkb);
    struct fl_report *r = NULL;
    struct fl_masker *m = NULL;
    if (kb == NULL)
        goto out;
    if (mask >= 0 && fl_masker_new((enum fl_mask_mode)mask, &m) != FL_OK) {
        fprintf(stderr, "faultline: cannot create the masker\n");
        goto out;
    }
    if ((r = app_scan(kb, &so, paths, npaths, threads, m)) == NULL)
        goto out;
    if (m && fl_report_mask(r, m) != FL_OK) {
        fprintf(stderr, "faultline: cannot mask the report (use --no-mask to print it as is)\n");
        goto out;
    }
    if (fl_report_write(r, &ro, stdout) != FL_OK) {
        fprintf(stderr, "faultline: cannot write the report\n");
        goto out;
    }
    /* a diagnosis in what could be read stands; "nothing found" in partly read input does not */
    rc = fl_report_diagnosis_count(r) > 0 ? 1 : fl_report_error_count(r) > 0 ? 2 : 0;
out:
    fl_masker_free(m);
    fl_report_free(r);
    fl_kb_free(kb);
    free(paths);
    return rc;
}
