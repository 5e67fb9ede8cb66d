/*
 * follow.c — following the files of a running job, and feeding their whole lines to one scanner.
 *
 * Two ways to learn that something changed, and both are needed. inotify wakes the watcher the
 * moment a local writer appends, so an alert can leave within a second. But on NFS or Lustre a
 * write made on another node raises no inotify event here: a stat poll (every --poll interval)
 * checks every followed file's size and inode and walks the folders for new files. The poll is
 * also what makes rotation and deletion reliable, since inotify events can be coalesced or lost
 * when its queue overflows.
 *
 * What happens to a file:
 *   - new (a rank that starts late, a file created by a --on-hang hook): read from its start;
 *   - grows: the new bytes are read with pread; whole lines are fed, the partial last line
 *     waits (up to LINE_WAIT bytes, then it is fed as it is: the scanner caps lines anyway);
 *   - rotated (renamed, a new file created under the old name): the old file is read to its end
 *     through the descriptor still open, its source closed, and the new file read from 0; the
 *     old file, if it shows up under its new name in a watched folder, is known by its inode
 *     and not read twice;
 *   - copytruncate (the same inode, smaller than what was read): the source is closed and the
 *     file read again from 0 as a new source;
 *   - deleted: read to its end through the open descriptor, then closed.
 * Never mmap: a file truncated under a mapping raises SIGBUS.
 */
#include "watch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK (1u << 20)
#define LINE_WAIT (64u << 10)  /* a partial line longer than this is fed without its end */
#define FILES_MAX 100000
#define RETIRED_MAX 4096
#define DEPTH_MAX 32
#define DIR_MASK (IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MODIFY | IN_DELETE_SELF)

struct ffile {
    char *path;       /* as the source is named: the PATH given, or folder/relative path */
    int fd;
    dev_t dev;
    ino_t ino;
    uint64_t offset;  /* read up to here */
    int src;          /* scanner source */
    char *partial;    /* the last line, not yet complete */
    size_t npartial;
    bool dirty;       /* inotify said it changed */
};

/* A rotated file: read up to offset under its old name. Inodes are reused once a file is
 * deleted, so a file found later counts as this one only if its name also starts with the old
 * name's stem (rank_0.log -> rank_0.log.1, rank_0-20260501.log), as rotations name them. */
struct retired {
    dev_t dev;
    ino_t ino;
    uint64_t offset;
    char stem[128];
};

struct wdir {
    int wd;
    char *path;
};

struct follower {
    struct fl_scanner *s;
    char **roots;
    size_t nroots;
    char **skip;      /* canonical paths */
    size_t nskip;
    struct ffile *files;
    size_t nfiles, files_cap;
    struct retired *retired;
    size_t nretired, retired_next;
    int ino_fd;       /* -1 without inotify */
    struct wdir *dirs;
    size_t ndirs, dirs_cap;
    bool rescan;      /* inotify saw a file come or go */
    char *chunk;      /* READ_CHUNK + LINE_WAIT */
    struct follow_stats stats;
};

/* The watcher's own outputs, by canonical path: not by inode, since the metrics textfile is
 * replaced by a rename at each update, and the inode it had is soon another file's. */
static bool skipped(const struct follower *f, const char *path)
{
    char real[PATH_MAX];
    if (f->nskip == 0 || realpath(path, real) == NULL)
        return false;
    for (size_t i = 0; i < f->nskip; i++)
        if (strcmp(f->skip[i], real) == 0)
            return true;
    return false;
}

/* Compressed files and archives cannot be followed; hidden files are temporaries (a metrics
 * textfile being written, an editor's swap file). */
static bool followable_name(const char *name)
{
    static const char *const exts[] = {".gz", ".zst", ".tar", ".tgz", ".xz", ".bz2", ".zip",
                                       ".swp", ".tmp", NULL};
    if (name[0] == '.')
        return false;
    size_t n = strlen(name);
    for (int i = 0; exts[i]; i++) {
        size_t k = strlen(exts[i]);
        if (n > k && strcmp(name + n - k, exts[i]) == 0)
            return false;
    }
    return true;
}

/* Where path is, or would go, in the files (kept sorted by path: the stat poll looks every
 * file of every walk up, 512 of them each second on a big job). */
static size_t file_slot(const struct follower *f, const char *path, bool *found)
{
    size_t lo = 0, hi = f->nfiles;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(f->files[mid].path, path);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = false;
    return lo;
}

static struct ffile *find_path(struct follower *f, const char *path)
{
    bool found;
    size_t i = file_slot(f, path, &found);
    return found ? &f->files[i] : NULL;
}

static void remove_file(struct follower *f, size_t i)
{
    memmove(&f->files[i], &f->files[i + 1], (f->nfiles - i - 1) * sizeof *f->files);
    f->nfiles--;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static struct retired *find_retired(struct follower *f, dev_t dev, ino_t ino, const char *path)
{
    for (size_t i = 0; i < f->nretired; i++) {
        struct retired *r = &f->retired[i];
        if (r->dev == dev && r->ino == ino &&
            (path == NULL || strncmp(base_name(path), r->stem, strlen(r->stem)) == 0))
            return r;
    }
    return NULL;
}

static void retire(struct follower *f, const struct ffile *ff)
{
    struct retired *r = find_retired(f, ff->dev, ff->ino, NULL);
    if (r == NULL) {
        r = &f->retired[f->retired_next];
        f->retired_next = (f->retired_next + 1) % RETIRED_MAX;
        if (f->nretired < RETIRED_MAX)
            f->nretired++;
    }
    *r = (struct retired){ff->dev, ff->ino, ff->offset, ""};
    const char *base = base_name(ff->path), *dot = strchr(base, '.');
    size_t n = dot ? (size_t)(dot - base) : strlen(base);
    snprintf(r->stem, sizeof r->stem, "%.*s", (int)n, base);
}

/* Feeds [p, p+n) to the file's source: whole lines, the rest kept as its partial line. */
static void feed(struct follower *f, struct ffile *ff, const char *p, size_t n, bool all)
{
    const char *nl = all ? p + n - 1 : n ? memrchr(p, '\n', n) : NULL;
    size_t whole = nl ? (size_t)(nl + 1 - p) : 0;
    if (!all && whole == 0 && n >= LINE_WAIT)
        whole = n; /* a line longer than we wait for: the scanner keeps its head */
    if (whole) {
        if (fl_scanner_feed(f->s, ff->src, p, whole) != FL_OK)
            fprintf(stderr, "faultline: %s: the scanner refused input\n", ff->path);
        f->stats.bytes += whole;
        for (const char *q = p; (q = memchr(q, '\n', (size_t)(p + whole - q))) != NULL; q++)
            f->stats.lines++;
    }
    size_t rest = n - whole;
    char *keep = rest ? realloc(ff->partial, rest) : NULL;
    if (rest && keep == NULL) {
        rest = 0; /* out of memory: the partial line is lost, the next one starts clean */
    }
    if (rest) {
        memmove(keep, p + whole, rest);
        ff->partial = keep;
    }
    ff->npartial = rest;
}

/* Reads from the file's offset to its end; returns the bytes read. */
static uint64_t read_new(struct follower *f, struct ffile *ff)
{
    uint64_t total = 0;
    for (;;) {
        size_t head = ff->npartial;
        if (head)
            memcpy(f->chunk, ff->partial, head);
        ssize_t n;
        do
            n = pread(ff->fd, f->chunk + head, READ_CHUNK, (off_t)ff->offset);
        while (n < 0 && errno == EINTR);
        if (n <= 0)
            break;
        ff->offset += (uint64_t)n;
        total += (uint64_t)n;
        feed(f, ff, f->chunk, head + (size_t)n, false);
        if ((size_t)n < READ_CHUNK)
            break;
    }
    return total;
}

static enum fl_status open_file(struct follower *f, const char *path, const struct stat *st,
                                uint64_t from)
{
    enum fl_status gs = watch_grow((void **)&f->files, &f->files_cap, f->nfiles, sizeof *f->files,
                                   FILES_MAX);
    if (gs != FL_OK)
        return gs;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return FL_ERR_IO;
    bool found;
    size_t at = file_slot(f, path, &found);
    memmove(&f->files[at + 1], &f->files[at], (f->nfiles - at) * sizeof *f->files);
    struct ffile *ff = &f->files[at];
    *ff = (struct ffile){.path = strdup(path), .fd = fd, .dev = st->st_dev, .ino = st->st_ino,
                         .offset = from};
    if (ff->path == NULL || fl_scanner_open_source(f->s, path, &ff->src) != FL_OK) {
        free(ff->path);
        close(fd);
        memmove(&f->files[at], &f->files[at + 1], (f->nfiles - at) * sizeof *f->files);
        return FL_ERR_NOMEM;
    }
    f->nfiles++;
    read_new(f, ff);
    return FL_OK;
}

/* Reads the file to its end, closes its source and descriptor, and forgets it; a rotated one
 * (renamed, not deleted) is remembered with how far it was read. */
static void close_file(struct follower *f, size_t i, bool rotated)
{
    struct ffile *ff = &f->files[i];
    read_new(f, ff);
    if (ff->npartial)
        feed(f, ff, ff->partial, ff->npartial, true);
    fl_scanner_close_source(f->s, ff->src);
    if (rotated)
        retire(f, ff);
    close(ff->fd);
    free(ff->path);
    free(ff->partial);
    remove_file(f, i);
}

static void watch_dir(struct follower *f, const char *path)
{
    if (f->ino_fd < 0)
        return;
    int wd = inotify_add_watch(f->ino_fd, path, DIR_MASK);
    if (wd < 0)
        return; /* too many watches, or gone: the stat poll still sees it */
    for (size_t i = 0; i < f->ndirs; i++)
        if (f->dirs[i].wd == wd)
            return;
    if (f->ndirs == f->dirs_cap) {
        size_t cap = f->dirs_cap ? f->dirs_cap * 2 : 16;
        struct wdir *n = realloc(f->dirs, cap * sizeof *n);
        if (n == NULL)
            return;
        f->dirs = n;
        f->dirs_cap = cap;
    }
    f->dirs[f->ndirs].wd = wd;
    if ((f->dirs[f->ndirs].path = strdup(path)) != NULL)
        f->ndirs++;
}

/* A file found by the walk: followed already, or new (perhaps an old one renamed). */
static void found_file(struct follower *f, const char *path, const struct stat *st)
{
    if (find_path(f, path) || skipped(f, path))
        return;
    for (size_t i = 0; i < f->nfiles; i++)
        if (f->files[i].dev == st->st_dev && f->files[i].ino == st->st_ino)
            return; /* a hard link, or a renamed file not yet noticed: read once */
    struct retired *r = find_retired(f, st->st_dev, st->st_ino, path);
    uint64_t from = r && (uint64_t)st->st_size >= r->offset ? r->offset : 0;
    enum fl_status rc = open_file(f, path, st, from);
    if (rc == FL_ERR_LIMIT)
        fprintf(stderr, "faultline: %s: more than %d files followed, not read\n", path, FILES_MAX);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walks dir in sorted order (as `diagnose` reads a folder), watching every folder in it. */
static void walk(struct follower *f, const char *dir, int depth)
{
    if (depth > DEPTH_MAX)
        return;
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    watch_dir(f, dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    size_t dl = strlen(dir);
    while ((e = readdir(d)) != NULL) {
        if (!followable_name(e->d_name))
            continue;
        if (e->d_type == DT_REG) {
            /* followed already: the check of every file stats it anyway */
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", e->d_name);
            if (find_path(f, path))
                continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (nn == NULL)
                break;
            names = nn;
        }
        if ((names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", names[i]);
        free(names[i]);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk(f, path, depth + 1);
        else if (S_ISREG(st.st_mode))
            found_file(f, path, &st);
    }
    free(names);
}

/* The stat poll: every root walked, every followed file checked for rotation and deletion. */
static void poll_all(struct follower *f)
{
    for (size_t r = 0; r < f->nroots; r++) {
        struct stat st;
        if (stat(f->roots[r], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk(f, f->roots[r], 0);
        } else if (S_ISREG(st.st_mode)) {
            found_file(f, f->roots[r], &st);
        }
    }
    for (size_t i = 0; i < f->nfiles;) {
        struct ffile *ff = &f->files[i];
        struct stat now, cur;
        bool exists = stat(ff->path, &now) == 0;
        if (!exists || now.st_dev != ff->dev || now.st_ino != ff->ino) {
            /* renamed (rotation: a new file may be in its place already) or deleted: read
             * what the old file still holds through its descriptor; a renamed one still has a
             * link, and is remembered so that it is not read again under its new name */
            struct stat old;
            bool renamed = fstat(ff->fd, &old) == 0 && old.st_nlink > 0;
            char *path = exists && S_ISREG(now.st_mode) ? strdup(ff->path) : NULL;
            if (renamed)
                f->stats.rotations++;
            else
                f->stats.deletions++;
            close_file(f, i, renamed);
            if (path)
                found_file(f, path, &now);
            free(path);
            continue;
        }
        bool sized = fstat(ff->fd, &cur) == 0;
        if (sized && (uint64_t)cur.st_size < ff->offset) {
            /* copytruncate: the same file, cut back: read it again from its start */
            f->stats.truncations++;
            char *path = strdup(ff->path);
            if (ff->npartial)
                feed(f, ff, ff->partial, ff->npartial, true);
            fl_scanner_close_source(f->s, ff->src);
            close(ff->fd);
            free(ff->path);
            free(ff->partial);
            remove_file(f, i);
            if (path && open_file(f, path, &cur, 0) != FL_OK)
                fprintf(stderr, "faultline: %s: cannot reopen after truncation\n", path);
            free(path);
            continue;
        }
        if (!sized || (uint64_t)cur.st_size > ff->offset)
            read_new(f, ff);
        i++;
    }
}

enum fl_status follower_new(struct fl_scanner *s, const char *const *paths, size_t npaths,
                            const char *const *skip, size_t nskip, bool use_inotify,
                            struct follower **out, char *err, size_t errlen)
{
    *out = NULL;
    struct follower *f = calloc(1, sizeof *f);
    if (f == NULL)
        return FL_ERR_NOMEM;
    f->s = s;
    f->ino_fd = -1;
    f->chunk = malloc(READ_CHUNK + LINE_WAIT);
    f->roots = calloc(npaths ? npaths : 1, sizeof *f->roots);
    f->skip = calloc(nskip ? nskip : 1, sizeof *f->skip);
    f->retired = calloc(RETIRED_MAX, sizeof *f->retired);
    if (f->chunk == NULL || f->roots == NULL || f->skip == NULL || f->retired == NULL) {
        follower_free(f);
        return FL_ERR_NOMEM;
    }
    for (size_t i = 0; i < nskip; i++)
        if (skip[i] && (f->skip[f->nskip] = realpath(skip[i], NULL)) != NULL)
            f->nskip++;
    for (size_t i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0 || (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
            snprintf(err, errlen, "%s: %s", paths[i],
                     errno == ENOENT ? "no such file or folder" : "not a file or folder");
            follower_free(f);
            return FL_ERR_NOTFOUND;
        }
        if ((f->roots[f->nroots] = strdup(paths[i])) == NULL) {
            follower_free(f);
            return FL_ERR_NOMEM;
        }
        f->nroots++;
    }
    if (use_inotify) {
        f->ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        /* a file given by name: its folder is watched, for its writes and its rotation */
        for (size_t i = 0; i < f->nroots && f->ino_fd >= 0; i++) {
            struct stat st;
            if (stat(f->roots[i], &st) == 0 && S_ISREG(st.st_mode)) {
                char dir[PATH_MAX];
                snprintf(dir, sizeof dir, "%s", f->roots[i]);
                char *slash = strrchr(dir, '/');
                if (slash == dir)
                    dir[1] = '\0';
                else if (slash)
                    *slash = '\0';
                else
                    snprintf(dir, sizeof dir, ".");
                watch_dir(f, dir);
            }
        }
    }
    poll_all(f);
    *out = f;
    return FL_OK;
}

void follower_free(struct follower *f)
{
    if (f == NULL)
        return;
    for (size_t i = 0; i < f->nfiles; i++) {
        close(f->files[i].fd);
        free(f->files[i].path);
        free(f->files[i].partial);
    }
    free(f->files);
    for (size_t i = 0; i < f->nroots; i++)
        free(f->roots[i]);
    free(f->roots);
    for (size_t i = 0; i < f->ndirs; i++)
        free(f->dirs[i].path);
    free(f->dirs);
    if (f->ino_fd >= 0)
        close(f->ino_fd);
    for (size_t i = 0; i < f->nskip; i++)
        free(f->skip[i]);
    free(f->skip);
    free(f->retired);
    free(f->chunk);
    free(f);
}

/* Marks the files inotify names as dirty; anything else (a file created, moved, deleted, or
 * an overflowed queue) asks for a walk. */
static void read_events(struct follower *f)
{
    char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(f->ino_fd, buf, sizeof buf);
        if (n <= 0)
            return;
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            p += sizeof *ev + ev->len;
            if ((ev->mask & IN_MODIFY) && ev->len) {
                const char *dir = NULL;
                for (size_t i = 0; i < f->ndirs && !dir; i++)
                    if (f->dirs[i].wd == ev->wd)
                        dir = f->dirs[i].path;
                bool known = false;
                size_t dl = dir ? strlen(dir) : 0;
                for (size_t i = 0; dir && i < f->nfiles; i++) {
                    const char *fp = f->files[i].path;
                    const char *base = strrchr(fp, '/');
                    base = base ? base + 1 : fp;
                    if (strcmp(base, ev->name) == 0 &&
                        ((size_t)(base - fp) == 0 ? strcmp(dir, ".") == 0
                                                  : strncmp(fp, dir, dl) == 0)) {
                        f->files[i].dirty = true;
                        known = true;
                    }
                }
                if (!known)
                    f->rescan = true; /* written before the walk saw it */
            } else {
                f->rescan = true;
            }
        }
    }
}

bool follower_wait(struct follower *f, int timeout_ms)
{
    struct pollfd pfd = {.fd = f->ino_fd, .events = POLLIN};
    int n = poll(f->ino_fd >= 0 ? &pfd : NULL, f->ino_fd >= 0 ? 1 : 0, timeout_ms);
    if (n < 0)
        return false;
    if (n > 0)
        read_events(f);
    return true;
}

uint64_t follower_read(struct follower *f, bool full)
{
    uint64_t before = f->stats.bytes;
    if (full || f->rescan) {
        f->rescan = false;
        poll_all(f);
    } else {
        for (size_t i = 0; i < f->nfiles; i++)
            if (f->files[i].dirty) {
                f->files[i].dirty = false;
                read_new(f, &f->files[i]);
            }
    }
    f->stats.files = f->nfiles;
    return f->stats.bytes - before;
}

void follower_drain(struct follower *f)
{
    poll_all(f);
    for (size_t i = 0; i < f->nfiles; i++) {
        struct ffile *ff = &f->files[i];
        read_new(f, ff);
        if (ff->npartial)
            feed(f, ff, ff->partial, ff->npartial, true);
    }
    f->stats.files = f->nfiles;
}

void follower_stats(const struct follower *f, struct follow_stats *out)
{
    *out = f->stats;
    out->files = f->nfiles;
}
