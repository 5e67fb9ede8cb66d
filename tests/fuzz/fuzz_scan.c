/*
 * fuzz_scan.c — the whole scanner on one source: the input is fed in two chunks cut at a point
 * taken from the data, then the report is written as JSON. Tracebacks, C++ exceptions, facts,
 * progress lines and prefixes are all reached from here.
 */
#include "faultline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fl_kb *kb;
static FILE *devnull;

static void setup(void)
{
    if (fl_kb_new(&kb) != FL_OK || fl_kb_add_embedded(kb, NULL) != FL_OK ||
        fl_kb_compile(kb, NULL) != FL_OK)
        abort();
    devnull = fopen("/dev/null", "w");
    if (devnull == NULL)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (kb == NULL)
        setup();
    size_t cut = 0;
    if (size > 0)
        cut = (size_t)data[size / 2] * size / 256;
    struct fl_scanner *s;
    if (fl_scanner_new(kb, NULL, &s) != FL_OK)
        abort();
    int src;
    const char *name = (size > 0 && (data[0] & 1)) ? "node-1/rank_3.log" : "stderr.log";
    if (fl_scanner_open_source(s, name, &src) == FL_OK) {
        fl_scanner_feed(s, src, data, cut);
        fl_scanner_feed(s, src, data + cut, size - cut);
    }
    struct fl_report *r;
    if (fl_scanner_finish(s, &r) == FL_OK) {
        struct fl_report_options ro = {.format = FL_FORMAT_JSON};
        fl_report_write(r, &ro, devnull);
        fl_report_free(r);
    }
    fl_scanner_free(s);
    return 0;
}
