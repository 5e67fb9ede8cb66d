/*
 * reader.c — fl_scan_path: what a path is, and which backend reads it.
 *
 * The format is decided by content, not by name: the first 512 bytes tell gzip (1f 8b),
 * zstd (28 b5 2f fd), xz, bzip2 and tar ("ustar" at offset 257) apart. The name only says
 * whether a compressed stream holds a tar archive (.tar.gz, .tgz, .tar.zst), because telling
 * that from content would need decompressing ahead. Compressed stdin goes to libarchive, which
 * tells a compressed tar from a compressed log by itself.
 */
#include "reader.h"
#include "status.h"
#include "walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

long input_read(struct input *in, void *buf, size_t n)
{
    size_t k = 0;
    if (in->head_pos < in->head_len) {
        k = in->head_len - in->head_pos;
        if (k > n)
            k = n;
        memcpy(buf, in->head + in->head_pos, k);
        in->head_pos += k;
    }
    /* fill the rest of the buffer too: the first chunk is not cut at the sniffed length */
    while (k < n) {
        ssize_t r = read(in->fd, (char *)buf + k, n - k);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return k ? (long)k : -1;
        if (r == 0)
            break;
        k += (size_t)r;
        if (in->head_len == 0 || k >= n / 2)
            break;
    }
    return (long)k;
}

enum fl_status reader_plain(const struct sink *s, struct input *in, char *buf, struct fl_error *err)
{
    int src;
    enum fl_status st = s->open(s->ctx, in->name, &src);
    if (st != FL_OK)
        return error_set(err, st, in->name, 0, 0, "%s", fl_strerror(st));
    long n;
    while ((n = input_read(in, buf, READ_CHUNK)) > 0)
        if ((st = s->feed(s->ctx, src, buf, (size_t)n)) != FL_OK)
            break;
    if (n < 0)
        st = error_set(err, FL_ERR_IO, in->name, 0, 0, "read error: %s", strerror(errno));
    enum fl_status cs = s->close(s->ctx, src);
    return st != FL_OK ? st : cs;
}

enum compression { COMP_NONE, COMP_GZIP, COMP_ZSTD, COMP_OTHER };

static enum compression sniff_compression(const unsigned char *h, size_t n)
{
    if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
        return COMP_GZIP;
    if (n >= 4 && h[0] == 0x28 && h[1] == 0xb5 && h[2] == 0x2f && h[3] == 0xfd)
        return COMP_ZSTD;
    if (n >= 6 && memcmp(h, "\xfd" "7zXZ\0", 6) == 0)
        return COMP_OTHER;
    if (n >= 3 && memcmp(h, "BZh", 3) == 0)
        return COMP_OTHER;
    return COMP_NONE;
}

static bool is_tar(const unsigned char *h, size_t n)
{
    return n >= 262 && memcmp(h + 257, "ustar", 5) == 0;
}

static bool tar_name(const char *name)
{
    static const char *const ends[] = {".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar.xz",
                                        ".txz", ".tar.bz2", ".tbz2", NULL};
    size_t n = strlen(name);
    for (int i = 0; ends[i]; i++) {
        size_t e = strlen(ends[i]);
        if (n >= e && strcmp(name + n - e, ends[i]) == 0)
            return true;
    }
    return false;
}

static enum fl_status read_input(const struct sink *s, struct input *in, bool is_stdin,
                                 struct fl_error *err)
{
    char *buf = malloc(READ_CHUNK);
    if (buf == NULL)
        return FL_ERR_NOMEM;
    long n;
    while (in->head_len < SNIFF_LEN &&
           (n = read(in->fd, in->head + in->head_len, SNIFF_LEN - in->head_len)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            free(buf);
            return error_set(err, FL_ERR_IO, in->name, 0, 0, "read error: %s", strerror(errno));
        }
        in->head_len += (size_t)n;
    }
    enum compression c = sniff_compression(in->head, in->head_len);
    enum fl_status st;
    if (is_tar(in->head, in->head_len) || c == COMP_OTHER ||
        (c != COMP_NONE && (is_stdin || tar_name(in->name))))
        st = reader_archive(s, in, buf, err);
    else if (c == COMP_GZIP)
        st = reader_gz(s, in, buf, err);
    else if (c == COMP_ZSTD)
        st = reader_zstd(s, in, buf, err);
    else
        st = reader_plain(s, in, buf, err);
    free(buf);
    return st;
}

static enum fl_status scan_file(const struct sink *s, const char *path, struct fl_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return error_set(err, FL_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    struct input in = {.fd = fd, .name = path};
    enum fl_status st = read_input(s, &in, false, err);
    close(fd);
    return st;
}

struct walk_ctx {
    const struct sink *s;
    struct fl_error *err;
    size_t read, failed;
};

static enum fl_status walk_file(void *vctx, const char *path)
{
    struct walk_ctx *ctx = vctx;
    struct fl_error e = {0};
    if (walk_dir_skips(path))
        return FL_OK;
    enum fl_status st = scan_file(ctx->s, path, &e);
    if (st == FL_OK) {
        ctx->read++;
        return FL_OK;
    }
    ctx->failed++;
    ctx->s->note_error(ctx->s->ctx, e.file[0] ? e.file : path, e.msg);
    if (ctx->err)
        *ctx->err = e;
    /* a partial source was still scanned; keep going with the others */
    return st == FL_ERR_NOMEM ? st : FL_OK;
}

static void walk_error(void *vctx, const char *path, const char *msg)
{
    struct walk_ctx *ctx = vctx;
    ctx->failed++;
    ctx->s->note_error(ctx->s->ctx, path, msg);
    error_set(ctx->err, FL_ERR_IO, path, 0, 0, "%s", msg);
}

enum fl_status reader_path(const struct sink *s, const char *path, struct fl_error *err)
{
    if (strcmp(path, "-") == 0) {
        struct input in = {.fd = STDIN_FILENO, .name = "-"};
        enum fl_status st = read_input(s, &in, true, err);
        if (st != FL_OK)
            s->note_error(s->ctx, "-", err ? err->msg : fl_strerror(st));
        return st;
    }
    struct stat sb;
    if (stat(path, &sb) != 0)
        return error_set(err, FL_ERR_IO, path, 0, 0, "%s", strerror(errno));
    if (S_ISDIR(sb.st_mode)) {
        struct walk_ctx ctx = {s, err, 0, 0};
        enum fl_status st = walk_dir(path, walk_file, walk_error, &ctx);
        if (st != FL_OK)
            return st;
        if (ctx.read == 0 && ctx.failed > 0)
            return FL_ERR_IO;
        return FL_OK;
    }
    enum fl_status st = scan_file(s, path, err);
    if (st != FL_OK && st != FL_ERR_NOMEM)
        s->note_error(s->ctx, path, err ? err->msg : fl_strerror(st));
    return st;
}

/* The scanner as a sink */
static enum fl_status scanner_open(void *ctx, const char *name, int *src)
{
    return fl_scanner_open_source(ctx, name, src);
}

static enum fl_status scanner_feed(void *ctx, int src, const void *buf, size_t len)
{
    return fl_scanner_feed(ctx, src, buf, len);
}

static enum fl_status scanner_close(void *ctx, int src)
{
    return fl_scanner_close_source(ctx, src);
}

static void scanner_note(void *ctx, const char *name, const char *msg)
{
    fl_scanner_note_error(ctx, name, msg);
}

enum fl_status fl_scan_path(struct fl_scanner *s, const char *path, struct fl_error *err)
{
    const struct sink sink = {s, scanner_open, scanner_feed, scanner_close, scanner_note};
    return reader_path(&sink, path, err);
}

enum fl_status fl_scan_fd(struct fl_scanner *s, int fd, const char *name, struct fl_error *err)
{
    const struct sink sink = {s, scanner_open, scanner_feed, scanner_close, scanner_note};
    struct input in = {.fd = fd, .name = name};
    /* "-" reads like standard input: compressed streams go to libarchive, which tells a
     * compressed tar from a compressed log by itself */
    enum fl_status st = read_input(&sink, &in, strcmp(name, "-") == 0, err);
    if (st != FL_OK && st != FL_ERR_NOMEM)
        fl_scanner_note_error(s, name, err ? err->msg : fl_strerror(st));
    return st;
}

bool reader_plain_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    unsigned char head[SNIFF_LEN];
    ssize_t n = pread(fd, head, sizeof head, 0);
    close(fd);
    return n >= 0 && !is_tar(head, (size_t)n) && sniff_compression(head, (size_t)n) == COMP_NONE;
}
