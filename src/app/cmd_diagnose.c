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

#include <getopt.h>
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
          "archive (.tar, .tar.gz, .tgz, .tar.zst, ...), or - for standard input (read when no\n"
          "PATH is given and standard input is not a terminal). A value may follow '='\n"
          "(--format=json); -- ends the options.\n"
          "\n"
          "options:\n"
          "  --format FMT   text (default), json or markdown\n"
          "  --kb DIR       add the knowledge-base entries under DIR (same id: DIR wins); repeatable\n"
          "  --explain      text format: which signals matched and why the first diagnosis won\n"
          "  --evidence N   evidence lines per diagnosis (default 8)\n"
          "  --threads N    read files on N threads (default: the CPUs, at most 16, and one per\n"
          "                 MiB of input); the report is the same for any N\n"
          "  --color WHEN   auto (default: on a terminal, unless NO_COLOR is set or TERM=dumb),\n"
          "                 always or never\n"
          "  --mask MODE    all (default): mask secrets and private details (addresses, hosts,\n"
          "                 e-mails, home folders); secrets: mask secrets only\n"
          "  --no-mask      print evidence, facts and hosts as they are in the logs (not with --mask)\n"
          "  -h, --help     this help\n",
          out);
}

static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'},  {"kb", required_argument, NULL, 'k'},
    {"explain", no_argument, NULL, 'x'},       {"evidence", required_argument, NULL, 'e'},
    {"threads", required_argument, NULL, 't'}, {"color", required_argument, NULL, 'c'},
    {"mask", required_argument, NULL, 'm'},    {"no-mask", no_argument, NULL, 'M'},
    {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
};

int cmd_diagnose(int argc, char **argv)
{
    static const char *const formats[] = {"text", "json", "markdown", "md", NULL};
    static const char *const whens[] = {"never", "always", "auto", NULL};
    static const enum fl_format format_of[] = {FL_FORMAT_TEXT, FL_FORMAT_JSON, FL_FORMAT_MARKDOWN,
                                               FL_FORMAT_MARKDOWN};
    struct fl_report_options ro = {.format = FL_FORMAT_TEXT};
    struct fl_scan_options so = {.thread_bytes = APP_THREAD_BYTES};
    const char *kb_dirs[MAX_KB_DIRS];
    unsigned threads = app_default_threads();
    int nkb = 0, color = -1, c, v;
    struct app_mask mask = {FL_MASK_ALL, 0};
    optind = 0; /* GNU getopt: start afresh (and permute: options may follow paths, until --) */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            help(stdout);
            return 0;
        case 'f':
            if (app_enum_option("--format", optarg, formats, &v) != 0)
                return 2;
            ro.format = format_of[v];
            break;
        case 'k':
            if (nkb == MAX_KB_DIRS) {
                fprintf(stderr, "faultline: at most %d --kb folders\n", MAX_KB_DIRS);
                return 2;
            }
            kb_dirs[nkb++] = optarg;
            break;
        case 't':
            if (app_uint_option("--threads", optarg, 1, 64, &threads) != 0)
                return 2;
            so.thread_bytes = 0; /* as many as asked, however small the input */
            break;
        case 'x':
            ro.explain = 1;
            break;
        case 'e':
            if (app_uint_option("--evidence", optarg, 1, 32, &so.max_evidence) != 0)
                return 2;
            break;
        case 'm':
        case 'M':
            if (app_set_mask(&mask, c == 'm' ? optarg : NULL) != 0)
                return 2;
            break;
        case 'c':
            if (app_enum_option("--color", optarg, whens, &v) != 0)
                return 2;
            color = v == 2 ? -1 : v;
            break;
        default:
            app_getopt_error(c, optopt, argv, optind);
            help(stderr);
            return 2;
        }
    }
    const char *stdin_path[] = {"-"};
    const char *const *paths = (const char *const *)argv + optind;
    int npaths = argc - optind;
    if (npaths == 0 && !isatty(STDIN_FILENO)) {
        paths = stdin_path; /* piped: `pbpaste | faultline diagnose` */
        npaths = 1;
    }
    if (npaths == 0) {
        fprintf(stderr, "faultline: diagnose needs at least one PATH (or - for stdin)\n");
        help(stderr);
        return 2;
    }
    ro.color = app_color(color, STDOUT_FILENO);
    int rc = 2;
    struct fl_kb *kb = app_load_kb(kb_dirs, nkb);
    struct fl_report *r = NULL;
    struct fl_masker *m = NULL;
    if (kb == NULL)
        goto out;
    if (mask.mode >= 0 && fl_masker_new((enum fl_mask_mode)mask.mode, &m) != FL_OK) {
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
    return rc;
}
