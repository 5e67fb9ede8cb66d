/*
 * fuzz_segments.c — differential: the input, written to a file, is read once whole on one thread
 * and once cut into three segments (the smallest segment size) on three threads. The two JSON
 * reports must be the same; a difference aborts. This is what lets one large file use every core
 * (scan_segment.c), checked on inputs no one wrote by hand.
 */
#include "faultline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fl_kb *kb;
static char path[] = "/tmp/fuzz_segments.XXXXXX";

static void setup(void)
{
    if (fl_kb_new(&kb) != FL_OK || fl_kb_add_embedded(kb, NULL) != FL_OK ||
        fl_kb_compile(kb, NULL) != FL_OK)
        abort();
    int fd = mkstemp(path);
    if (fd < 0)
        abort();
    close(fd);
}

static char *report(unsigned threads, size_t *len)
{
    struct fl_scan_options opts = {.segment_bytes = 1};
    struct fl_scanner *s;
    char *json = NULL;
    *len = 0;
    if (fl_scanner_new(kb, &opts, &s) != FL_OK)
        abort();
    const char *paths[] = {path};
    struct fl_report *r;
    if (fl_scan_paths(s, paths, 1, threads, NULL, NULL) == FL_OK && fl_scanner_finish(s, &r) == FL_OK) {
        FILE *out = open_memstream(&json, len);
        struct fl_report_options ro = {.format = FL_FORMAT_JSON};
        if (out == NULL)
            abort();
        fl_report_write(r, &ro, out);
        fclose(out);
        fl_report_free(r);
    }
    fl_scanner_free(s);
    return json;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (kb == NULL)
        setup();
    FILE *f = fopen(path, "wb");
    if (f == NULL || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    size_t la, lb;
    char *a = report(1, &la), *b = report(3, &lb);
    if ((a == NULL) != (b == NULL) || (a && (la != lb || memcmp(a, b, la) != 0))) {
        fprintf(stderr, "one thread:\n%s\nthree segments:\n%s\n", a ? a : "(none)", b ? b : "(none)");
        abort();
    }
    free(a);
    free(b);
    return 0;
}
