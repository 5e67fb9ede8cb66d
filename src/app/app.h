/* app.h — the faultline program's commands. Each returns the process exit code. */
#ifndef FL_APP_H
#define FL_APP_H

#include "faultline.h"

int cmd_diagnose(int argc, char **argv);
int cmd_kb(int argc, char **argv);
int cmd_stacks(int argc, char **argv);
int cmd_mask(int argc, char **argv);
int cmd_kb_export(int argc, char **argv); /* src/server/cmd_kb_export.c */
int cmd_watch(int argc, char **argv); /* cmd_watch.c, src/watch/ */

/* --no-mask / --mask MODE: returns 1 when argv[*i] was one (and advances *i past a value), -1 on
 * a bad value (message printed), 0 when it is another argument. *mode is -1 for no masking. */
int app_mask_option(int argc, char **argv, int *i, int *mode);

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
/* Threads to read with when the user does not say: the online CPUs, at most 16. */
unsigned app_default_threads(void);

#endif
