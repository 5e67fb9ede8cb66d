/*
 * opts.c — strict values for the program's options: a number is all digits and in range
 * (`--threads 4abc` is refused, not read as 4), an enumeration is one of its words, and two
 * options that contradict each other are refused rather than the last one silently winning.
 * Every refusal names the option and what it takes, and the command exits 2.
 */
#include "app.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int app_uint_option(const char *opt, const char *val, unsigned lo, unsigned hi, unsigned *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long v = val[0] >= '0' && val[0] <= '9' ? strtoul(val, &end, 10) : 0;
    if (end == NULL || *end != '\0' || errno != 0 || v < lo || v > hi) {
        fprintf(stderr, "faultline: %s takes a whole number from %u to %u, not '%s'\n", opt, lo, hi,
                val);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

int app_enum_option(const char *opt, const char *val, const char *const *words, int *out)
{
    for (int i = 0; words[i]; i++)
        if (strcmp(val, words[i]) == 0) {
            *out = i;
            return 0;
        }
    fprintf(stderr, "faultline: %s takes ", opt);
    for (int i = 0; words[i]; i++)
        fprintf(stderr, "%s%s", i ? (words[i + 1] ? ", " : " or ") : "", words[i]);
    fprintf(stderr, ", not '%s'\n", val);
    return -1;
}

int app_set_mask(struct app_mask *m, const char *val)
{
    static const char *const modes[] = {"all", "secrets", NULL};
    int mode = -1;
    if (val && app_enum_option("--mask", val, modes, &mode) != 0)
        return -1;
    if ((m->given && m->mode != mode) || (m->given && val == NULL && m->mode >= 0)) {
        fprintf(stderr, "faultline: --mask and --no-mask contradict each other: give one\n");
        return -1;
    }
    m->given = 1;
    m->mode = val ? (mode == 0 ? FL_MASK_ALL : FL_MASK_SECRETS) : -1;
    return 0;
}

int app_color(int when, int fd)
{
    if (when >= 0)
        return when;
    const char *term = getenv("TERM");
    /* auto: a terminal that can show colour, and no NO_COLOR (https://no-color.org) */
    return isatty(fd) && getenv("NO_COLOR") == NULL && !(term && (strcmp(term, "dumb") == 0 || !*term));
}

int app_getopt_error(int c, int optopt_, char *const *argv, int optind_)
{
    const char *arg = optind_ > 0 ? argv[optind_ - 1] : "";
    if (c == ':')
        fprintf(stderr, "faultline: option '%s' needs a value\n", arg);
    else if (optopt_)
        fprintf(stderr, "faultline: unknown option '-%c'\n", optopt_);
    else
        fprintf(stderr, "faultline: unknown option '%s'\n", arg);
    return 2;
}

int app_mask_command_options(int argc, char **argv, int no_mask_ok, void (*help)(FILE *), int *mode)
{
    static const struct option longopts[] = {{"mask", required_argument, NULL, 'm'},
                                             {"no-mask", no_argument, NULL, 'M'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    struct app_mask mk = {FL_MASK_ALL, 0};
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            help(stdout);
            return 0;
        }
        if (c == 'm' || (c == 'M' && no_mask_ok)) {
            if (app_set_mask(&mk, c == 'm' ? optarg : NULL) != 0)
                return 2;
            continue;
        }
        /* a --no-mask that this command does not take is unknown to it like any other */
        app_getopt_error(c == 'M' ? '?' : c, c == 'M' ? 0 : optopt, argv, optind);
        help(stderr);
        return 2;
    }
    *mode = mk.mode;
    return -1;
}
