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

/* Called for every regular file, in sorted order. A non-OK return stops the walk. */
typedef enum fl_status (*walk_file_cb)(void *ctx, const char *path);
/* Called for what cannot be read (a folder without permission, a dangling link, a loop). */
typedef void (*walk_error_cb)(void *ctx, const char *path, const char *msg);

enum fl_status walk_dir(const char *dir, walk_file_cb on_file, walk_error_cb on_error, void *ctx);

#endif
