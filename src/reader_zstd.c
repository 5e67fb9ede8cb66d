/*
 * reader_zstd.c — zstd streams with ZSTD_decompressStream, one fixed output buffer at a time.
 * A frame that ends early keeps what was read and reports "truncated".
 */
#include "reader.h"
#include "status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum fl_status reader_zstd(const struct sink *s, struct input *in, char *buf, struct fl_error *err)
{
    int src;
    enum fl_status st = s->open(s->ctx, in->name, &src);
    if (st != FL_OK)
        return st;
    size_t in_cap = ZSTD_DStreamInSize();
    void *inbuf = malloc(in_cap);
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    if (inbuf == NULL || dctx == NULL) {
        free(inbuf);
        ZSTD_freeDCtx(dctx);
        s->close(s->ctx, src);
        return FL_ERR_NOMEM;
    }
    /* cap the window so that a hostile frame header cannot ask for gigabytes */
    ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 27);
    size_t last = 0;
    long n;
    while (st == FL_OK && (n = input_read(in, inbuf, in_cap)) > 0) {
        ZSTD_inBuffer zin = {inbuf, (size_t)n, 0};
        while (st == FL_OK && zin.pos < zin.size) {
            ZSTD_outBuffer zout = {buf, READ_CHUNK, 0};
            last = ZSTD_decompressStream(dctx, &zout, &zin);
            if (ZSTD_isError(last)) {
                st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0, "corrupt zstd data: %s",
                               ZSTD_getErrorName(last));
                break;
            }
            if (zout.pos)
                st = s->feed(s->ctx, src, buf, zout.pos);
        }
    }
    if (st == FL_OK && n < 0)
        st = error_set(err, FL_ERR_IO, in->name, 0, 0, "read error: %s", strerror(errno));
    /* flush what the decoder still holds */
    while (st == FL_OK && last != 0) {
        ZSTD_inBuffer zin = {NULL, 0, 0};
        ZSTD_outBuffer zout = {buf, READ_CHUNK, 0};
        size_t r = ZSTD_decompressStream(dctx, &zout, &zin);
        if (ZSTD_isError(r) || zout.pos == 0)
            break;
        st = s->feed(s->ctx, src, buf, zout.pos);
        last = r;
    }
    if (st == FL_OK && last != 0)
        st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0,
                       "truncated zstd stream (the data before the cut was read)");
    ZSTD_freeDCtx(dctx);
    free(inbuf);
    enum fl_status cs = s->close(s->ctx, src);
    return st != FL_OK ? st : cs;
}
