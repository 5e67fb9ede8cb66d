/*
 * walk.c — sorted recursive folder walk with loop detection. See walk.h.
 */
#include "walk.h"
#include "buf.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WALK_MAX_DEPTH 64
#define WALK_MAX_NAMES 1000000

struct ancestor {
    dev_t dev;
    ino_t ino;
};

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum fl_status walk(const char *dir, struct ancestor *stack, int depth, walk_file_cb on_file,
                           walk_error_cb on_error, void *ctx)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        on_error(ctx, dir, strerror(errno));
        return FL_OK;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    enum fl_status st = FL_OK;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
                                     (de->d_name[1] == '.' && de->d_name[2] == '\0')))
            continue;
        if ((st = GROW(names, cap, n, WALK_MAX_NAMES)) != FL_OK)
            break;
        if ((names[n] = xstrdup(de->d_name)) == NULL) {
            st = FL_ERR_NOMEM;
            break;
        }
        n++;
    }
    closedir(d);
    if (st == FL_OK && n > 1) /* an empty folder has no array: qsort may not be given NULL */
        qsort(names, n, sizeof *names, cmp_names);
    struct buf path;
    buf_init(&path, 8192);
    for (size_t i = 0; i < n && st == FL_OK; i++) {
        buf_reset(&path);
        buf_printf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
        struct stat sb;
        if (stat(path.data, &sb) != 0) {
            on_error(ctx, path.data, strerror(errno));
            continue;
        }
        if (S_ISDIR(sb.st_mode)) {
            bool loop = false;
            for (int j = 0; j <= depth; j++)
                loop |= stack[j].dev == sb.st_dev && stack[j].ino == sb.st_ino;
            if (loop) {
                on_error(ctx, path.data, "symbolic link loop, skipped");
                continue;
            }
            if (depth + 1 >= WALK_MAX_DEPTH) {
                on_error(ctx, path.data, "folders nested too deeply, skipped");
                continue;
            }
            stack[depth + 1] = (struct ancestor){sb.st_dev, sb.st_ino};
            st = walk(path.data, stack, depth + 1, on_file, on_error, ctx);
        } else if (S_ISREG(sb.st_mode)) {
            st = on_file(ctx, path.data);
        }
    }
    buf_free(&path);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return st;
}

enum fl_status walk_dir(const char *dir, walk_file_cb on_file, walk_error_cb on_error, void *ctx)
{
    struct ancestor stack[WALK_MAX_DEPTH];
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        on_error(ctx, dir, strerror(errno));
        return FL_ERR_IO;
    }
    stack[0] = (struct ancestor){sb.st_dev, sb.st_ino};
    return walk(dir, stack, 0, on_file, on_error, ctx);
}

bool walk_dir_skips(const char *path)
{
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    static const char *const prefixes[] = {"faultline-rank", "faultline-pid"};
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
        size_t pl = strlen(prefixes[k]);
        if (strncmp(name, prefixes[k], pl) != 0)
            continue;
        const char *p = name + pl, *digits = p;
        while (*p >= '0' && *p <= '9')
            p++;
        return p > digits && strcmp(p, ".json") == 0;
    }
    return false;
}
