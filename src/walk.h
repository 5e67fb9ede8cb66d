/*
 * walk.h — recursive directory listing in a stable order (internal).
 *
 * Logs and KB folders are read in sorted order so that two runs over the same folder give the
 * same report. Symbolic links to folders are followed once: a folder already on the current path
 * (same device and inode) is skipped, so a symlink loop ends instead of recursing forever.
 */
#ifndef FL_WALK_H
#define FL_WALK_H

#include "faultline.h"

#include <stdbool.h>

/* Called for every regular file, in sorted order. A non-OK return stops the walk. */
typedef enum fl_status (*walk_file_cb)(void *ctx, const char *path);
/* Called for what cannot be read (a folder without permission, a dangling link, a loop). */
typedef void (*walk_error_cb)(void *ctx, const char *path, const char *msg);

enum fl_status walk_dir(const char *dir, walk_file_cb on_file, walk_error_cb on_error, void *ctx);

/* Whether path names one of faultline's own per-rank diagnoses, faultline-rank<N>.json or
 * faultline-pid<N>.json, which the Python module writes beside a rank's logs (next to
 * torchelastic's error.json). They are reports, not logs: read as logs they would repeat their
 * evidence as if the run had printed it, so walks of log folders skip them (a file named
 * explicitly is still read). */
bool walk_dir_skips(const char *path);

#endif
