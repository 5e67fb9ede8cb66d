/*
 * reader_gz.c — gzip streams with zlib's inflate, one fixed output buffer at a time.
 * Concatenated gzip members (what `cat a.gz b.gz` and logrotate produce) are read as one stream.
 * A stream that ends early keeps what was read and reports "truncated".
 */
#include "reader.h"
#include "status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define GZ_IN (1u << 16)

enum fl_status reader_gz(const struct sink *s, struct input *in, char *buf, struct fl_error *err)
{
    int src;
    enum fl_status st = s->open(s->ctx, in->name, &src);
    if (st != FL_OK)
        return st;
    unsigned char *inbuf = malloc(GZ_IN);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inbuf == NULL || inflateInit2(&z, 15 + 32) != Z_OK) {
        free(inbuf);
        s->close(s->ctx, src);
        return FL_ERR_NOMEM;
    }
    int zr = Z_OK;
    bool eof = false, any = false;
    while (st == FL_OK) {
        if (z.avail_in == 0 && !eof) {
            long n = input_read(in, inbuf, GZ_IN);
            if (n < 0) {
                st = error_set(err, FL_ERR_IO, in->name, 0, 0, "read error: %s", strerror(errno));
                break;
            }
            eof = n == 0;
            z.next_in = inbuf;
            z.avail_in = (uInt)n;
        }
        if (z.avail_in == 0 && eof)
            break;
        z.next_out = (Bytef *)buf;
        z.avail_out = READ_CHUNK;
        zr = inflate(&z, Z_NO_FLUSH);
        size_t produced = READ_CHUNK - z.avail_out;
        if (produced)
            st = s->feed(s->ctx, src, buf, produced);
        any = true;
        if (zr == Z_STREAM_END) {
            if (z.avail_in == 0 && !eof) {
                long n = input_read(in, inbuf, GZ_IN);
                eof = n <= 0;
                z.next_in = inbuf;
                z.avail_in = n > 0 ? (uInt)n : 0;
            }
            if (z.avail_in == 0)
                break;
            inflateReset(&z); /* another member follows */
        } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0, "corrupt gzip data: %s",
                           z.msg ? z.msg : "inflate failed");
        } else if (zr == Z_BUF_ERROR && eof && z.avail_in == 0) {
            break;
        }
    }
    if (st == FL_OK && zr != Z_STREAM_END)
        st = error_set(err, FL_ERR_FORMAT, in->name, 0, 0,
                       any ? "truncated gzip stream (the data before the cut was read)"
                           : "empty gzip stream");
    inflateEnd(&z);
    free(inbuf);
    enum fl_status cs = s->close(s->ctx, src);
    return st != FL_OK ? st : cs;
}
