/*
 * reader_archive.c — tar archives (plain or compressed) and compressed stdin, with libarchive.
 *
 * Each regular member becomes a source named "archive:member", so that rank and host hints in
 * the member's path (attempt_0/3/stderr.log, node-2/rank_5.log) work as they do on disk.
 * libarchive reads through our input (the sniffed head first, then the descriptor), in blocks:
 * the archive is never held in memory. A member or archive that ends early keeps what was read.
 */
#include "reader.h"
#include "buf.h"
#include "status.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>
#include <string.h>

struct arc_ctx {
    struct input *in;
    char block[65536];
};

static la_ssize_t arc_read(struct archive *a, void *vctx, const void **out)
{
    (void)a;
    struct arc_ctx *ctx = vctx;
    long n = input_read(ctx->in, ctx->block, sizeof ctx->block);
    *out = ctx->block;
    return n;
}

enum fl_status reader_archive(const struct sink *s, struct input *in, char *buf,
                              struct fl_error *err)
{
    struct archive *a = archive_read_new();
    struct arc_ctx *ctx = malloc(sizeof *ctx);
    if (a == NULL || ctx == NULL) {
        archive_read_free(a);
        free(ctx);
        return FL_ERR_NOMEM;
    }
    ctx->in = in;
    archive_read_support_filter_all(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    archive_read_support_format_raw(a);
    enum fl_status st = FL_OK;
    if (archive_read_open(a, ctx, NULL, arc_read, NULL) != ARCHIVE_OK) {
        st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0, "cannot read archive: %s",
                       archive_error_string(a));
        goto out;
    }
    struct archive_entry *e;
    size_t members = 0;
    struct buf name;
    buf_init(&name, 8192);
    int r;
    while (st == FL_OK && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        if (archive_entry_filetype(e) != AE_IFREG && archive_format(a) != ARCHIVE_FORMAT_RAW)
            continue;
        buf_reset(&name);
        bool raw = archive_format(a) == ARCHIVE_FORMAT_RAW;
        if (raw)
            buf_printf(&name, "%s", in->name);
        else
            buf_printf(&name, "%s:%s", in->name, archive_entry_pathname(e));
        int src;
        if ((st = s->open(s->ctx, name.data, &src)) != FL_OK)
            break;
        members++;
        la_ssize_t n;
        while ((n = archive_read_data(a, buf, READ_CHUNK)) > 0)
            if ((st = s->feed(s->ctx, src, buf, (size_t)n)) != FL_OK)
                break;
        if (st == FL_OK && n < 0)
            st = error_set(err, FL_ERR_FORMAT, name.data, 0, 0,
                           "truncated or corrupt archive member: %s (the data before was read)",
                           archive_error_string(a));
        enum fl_status cs = s->close(s->ctx, src);
        if (st == FL_OK)
            st = cs;
    }
    if (st == FL_OK && r != ARCHIVE_EOF)
        st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0, "truncated or corrupt archive: %s",
                       archive_error_string(a));
    if (st == FL_OK && members == 0)
        st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0, "archive holds no file");
    buf_free(&name);
out:
    archive_read_free(a);
    free(ctx);
    return st;
}
