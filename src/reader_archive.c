/*
 * reader_archive.c — tar archives (plain or compressed) and compressed stdin, with libarchive.
 *
 * Each regular member becomes a source named "archive:member", so that rank and host hints in
 * the member's path (attempt_0/3/stderr.log, node-2/rank_5.log) work as they do on disk.
 * libarchive reads through our input (the sniffed head first, then the descriptor), in blocks:
 * the archive is never held in memory. A member or archive that ends early keeps what was read.
 *
 * libarchive is opened with dlopen when an archive is met, not linked: it pulls in a dozen
 * libraries (ICU, libxml2, nettle, lzma, bz2, lz4, acl) whose loading and relocation cost more
 * than diagnosing a small plain log. Its functions live in a table on the caller's stack, one per
 * call; the library stays mapped once loaded (RTLD_NODELETE), so a folder of archives loads it once.
 * The build names it by its shared-object name (FL_LIBARCHIVE_SONAME).
 */
#include "reader.h"
#include "buf.h"
#include "status.h"

#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The functions we use, typed by archive.h's own declarations. */
struct archive_api {
    void *lib;
    __typeof__(archive_read_new) *read_new;
    __typeof__(archive_read_free) *read_free;
    __typeof__(archive_read_support_filter_all) *support_filter_all;
    __typeof__(archive_read_support_format_tar) *support_format_tar;
    __typeof__(archive_read_support_format_gnutar) *support_format_gnutar;
    __typeof__(archive_read_support_format_raw) *support_format_raw;
    __typeof__(archive_read_open) *read_open;
    __typeof__(archive_read_next_header) *read_next_header;
    __typeof__(archive_read_data) *read_data;
    __typeof__(archive_format) *format;
    __typeof__(archive_error_string) *error_string;
    __typeof__(archive_entry_filetype) *entry_filetype;
    __typeof__(archive_entry_pathname) *entry_pathname;
};

/* A symbol into its typed slot; POSIX makes dlsym's void * convertible to a function pointer. */
#define API_LOAD(api, field, sym)                                                                 \
    ((api)->field = (__typeof__((api)->field))dlsym((api)->lib, sym)) != NULL

static enum fl_status api_open(struct archive_api *api, const char *name, struct fl_error *err)
{
    api->lib = dlopen(FL_LIBARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (api->lib == NULL)
        return error_set(err, FL_ERR_FORMAT, name, 0, 0, "cannot read archive: %s", dlerror());
    if (API_LOAD(api, read_new, "archive_read_new") &&
        API_LOAD(api, read_free, "archive_read_free") &&
        API_LOAD(api, support_filter_all, "archive_read_support_filter_all") &&
        API_LOAD(api, support_format_tar, "archive_read_support_format_tar") &&
        API_LOAD(api, support_format_gnutar, "archive_read_support_format_gnutar") &&
        API_LOAD(api, support_format_raw, "archive_read_support_format_raw") &&
        API_LOAD(api, read_open, "archive_read_open") &&
        API_LOAD(api, read_next_header, "archive_read_next_header") &&
        API_LOAD(api, read_data, "archive_read_data") &&
        API_LOAD(api, format, "archive_format") &&
        API_LOAD(api, error_string, "archive_error_string") &&
        API_LOAD(api, entry_filetype, "archive_entry_filetype") &&
        API_LOAD(api, entry_pathname, "archive_entry_pathname"))
        return FL_OK;
    enum fl_status st = error_set(err, FL_ERR_FORMAT, name, 0, 0, "cannot read archive: %s",
                                  dlerror());
    dlclose(api->lib);
    return st;
}

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

static enum fl_status read_members(const struct archive_api *api, const struct sink *s,
                                   struct input *in, char *buf, struct fl_error *err)
{
    struct archive *a = api->read_new();
    struct arc_ctx *ctx = malloc(sizeof *ctx);
    if (a == NULL || ctx == NULL) {
        api->read_free(a);
        free(ctx);
        return FL_ERR_NOMEM;
    }
    ctx->in = in;
    api->support_filter_all(a);
    api->support_format_tar(a);
    api->support_format_gnutar(a);
    api->support_format_raw(a);
    enum fl_status st = FL_OK;
    if (api->read_open(a, ctx, NULL, arc_read, NULL) != ARCHIVE_OK) {
        st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0, "cannot read archive: %s",
                       api->error_string(a));
        goto out;
    }
    struct archive_entry *e;
    size_t members = 0;
    struct buf name;
    buf_init(&name, 8192);
    int r;
    while (st == FL_OK && (r = api->read_next_header(a, &e)) == ARCHIVE_OK) {
        bool raw = api->format(a) == ARCHIVE_FORMAT_RAW;
        if (api->entry_filetype(e) != AE_IFREG && !raw)
            continue;
        buf_reset(&name);
        if (raw)
            buf_printf(&name, "%s", in->name);
        else
            buf_printf(&name, "%s:%s", in->name, api->entry_pathname(e));
        int src;
        if ((st = s->open(s->ctx, name.data, &src)) != FL_OK)
            break;
        members++;
        la_ssize_t n;
        while ((n = api->read_data(a, buf, READ_CHUNK)) > 0)
            if ((st = s->feed(s->ctx, src, buf, (size_t)n)) != FL_OK)
                break;
        if (st == FL_OK && n < 0)
            st = error_set(err, FL_ERR_FORMAT, name.data, 0, 0,
                           "truncated or corrupt archive member: %s (the data before was read)",
                           api->error_string(a));
        enum fl_status cs = s->close(s->ctx, src);
        if (st == FL_OK)
            st = cs;
    }
    if (st == FL_OK && r != ARCHIVE_EOF)
        st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0, "truncated or corrupt archive: %s",
                       api->error_string(a));
    if (st == FL_OK && members == 0)
        st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0, "archive holds no file");
    buf_free(&name);
out:
    api->read_free(a);
    free(ctx);
    return st;
}

enum fl_status reader_archive(const struct sink *s, struct input *in, char *buf,
                              struct fl_error *err)
{
    struct archive_api api = {0};
    enum fl_status st = api_open(&api, in->name, err);
    if (st != FL_OK)
        return st;
    st = read_members(&api, s, in, buf, err);
    dlclose(api.lib);
    return st;
}
