/*
 * fuzz_reader.c — the readers: the input is written to a file and read with fl_scan_path, so
 * the sniffing and the gzip, zstd and libarchive backends all see it.
 */
#include "faultline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fl_kb *kb;
static char path[64];

static void cleanup(void)
{
    if (path[0])
        unlink(path);
}

static void setup(void)
{
    if (fl_kb_new(&kb) != FL_OK || fl_kb_add_embedded(kb, NULL) != FL_OK ||
        fl_kb_compile(kb, NULL) != FL_OK)
        abort();
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/fl-fuzz-reader-XXXXXX", tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        abort();
    close(fd);
    atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (kb == NULL)
        setup();
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        abort();
    if (size > 0 && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    struct fl_scanner *s;
    if (fl_scanner_new(kb, NULL, &s) != FL_OK)
        abort();
    struct fl_error err;
    fl_scan_path(s, path, &err);
    struct fl_report *r;
    if (fl_scanner_finish(s, &r) == FL_OK)
        fl_report_free(r);
    fl_scanner_free(s);
    return 0;
}
