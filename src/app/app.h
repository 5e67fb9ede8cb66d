/* app.h — the faultline program's commands. Each returns the process exit code. */
#ifndef FL_APP_H
#define FL_APP_H

#include "faultline.h"

#include <stdio.h>

int cmd_diagnose(int argc, char **argv);
int cmd_kb(int argc, char **argv);
int cmd_stacks(int argc, char **argv);
int cmd_mask(int argc, char **argv);
/* In modules (module.c): faultline-serve.so holds src/server/ (cmd_serve, and cmd_kb_export in
 * src/server/cmd_kb_export.c), faultline-watch.so holds cmd_watch.c and src/watch/. */
int cmd_kb_export(int argc, char **argv);
int cmd_watch(int argc, char **argv);
/* Runs the command ENTRY(argc, argv) of MODULE (a file name such as "faultline-serve.so"), opened
 * from beside the program or from its installed modules' folder; 2 with a message when it cannot
 * be opened. */
int app_run_module(const char *module, const char *entry, int argc, char **argv);

/* --no-mask / --mask MODE: returns 1 when argv[*i] was one (and advances *i past a value), -1 on
 * a bad value (message printed), 0 when it is another argument. *mode is -1 for no masking. */
int app_mask_option(int argc, char **argv, int *i, int *mode);

/* Strict option values (opts.c). Each returns 0, or -1 after printing why the value is refused. */
int app_uint_option(const char *opt, const char *val, unsigned lo, unsigned hi, unsigned *out);
/* words is NULL-terminated; *out is the index of val in it */
int app_enum_option(const char *opt, const char *val, const char *const *words, int *out);
/* --mask MODE (val) or --no-mask (val NULL); a second one that contradicts the first is refused */
struct app_mask {
    int mode;  /* FL_MASK_ALL, FL_MASK_SECRETS, or -1 for no masking */
    int given;
};
int app_set_mask(struct app_mask *m, const char *val);
/* The options of `mask` and `stacks`: --mask MODE, --no-mask (when no_mask_ok) and --help.
 * Returns -1 when the command goes on (*mode set, optind at the first path), else its exit
 * status (help printed, or the refusal and the help on stderr). */
int app_mask_command_options(int argc, char **argv, int no_mask_ok, void (*help)(FILE *), int *mode);
/* Colour for --color WHEN (1 always, 0 never, -1 auto): auto is a terminal on fd, no NO_COLOR,
 * and a TERM other than dumb. */
int app_color(int when, int fd);
/* Prints getopt_long's complaint (c is '?' or ':') and returns the exit status 2. */
int app_getopt_error(int c, int optopt_, char *const *argv, int optind_);

/* The KB the program uses: the embedded entries, plus --kb folders. Prints errors itself. */
struct fl_kb *app_load_kb(const char *const *dirs, int ndirs);

/* Reads every path into one scanner and returns the report, or NULL (messages on stderr,
 * masked with m when not NULL) when nothing could be read. */
struct fl_report *app_scan(const struct fl_kb *kb, const struct fl_scan_options *so,
                           const char *const *paths, int npaths, unsigned threads,
                           struct fl_masker *m);
/* "faultline: PATH: MSG" on stderr, the path and the message masked apart with m (when not
 * NULL), so that a file name is masked as a path and not taken for a host prefix. */
void app_warn(struct fl_masker *m, const char *path, const char *msg);
/* Threads to read with when the user does not say: the online CPUs, at most 16; and at most
 * one per APP_THREAD_BYTES of input (fl_scan_options.thread_bytes): a thread and its scanner
 * take about a millisecond to start, the time one reads a few hundred KB in. */
unsigned app_default_threads(void);
#define APP_THREAD_BYTES ((uint64_t)1 << 20)

#endif
