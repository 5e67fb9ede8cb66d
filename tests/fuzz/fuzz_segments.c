/*
 * fuzz_segments.c — differential: the input, written to a file, is read once whole on one thread
 * and once cut into three segments (the smallest segment size) on three threads.
 *
 * Lines are independent except for blocks: tracebacks, C++ terminate messages, stack dumps and
 * exception chains. A block that a cut splits is followed across the cut by the scanner before
 * it, but its state is not the one reader's exactly when other ranks' lines interleave with it
 * (which open block an unprefixed line belongs to, say). So any input must give the same input
 * summary (sources, bytes, lines, ranks, errors), and with FL_FUZZ_STRICT=1 in the environment
 * an input without any block marker must give byte-identical JSON. A difference aborts.
 *
 * The strict check is opt-in because what it finds are rules that depend on where chunks end:
 * each is worth a fix, and is not a reason to refuse an unrelated change in CI. Run it with
 * `FL_FUZZ_STRICT=1 scripts/run-fuzzers.sh 600 fuzz_segments`.
 */
#include "faultline.h"

#include <stdbool.h>
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
    if (fl_scan_paths(s, paths, 1, threads, NULL, NULL) == FL_OK &&
        fl_scanner_finish(s, &r) == FL_OK) {
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

static bool has_block_marker(const uint8_t *data, size_t size)
{
    static const char *const markers[] = {"Traceback (most recent", "most recent call first",
                                          "Thread ", "During handling", "The above exception",
                                          "terminate called", NULL};
    for (int i = 0; markers[i]; i++)
        if (memmem(data, size, markers[i], strlen(markers[i])))
            return true;
    return false;
}

/* The "input" object of a JSON report: from its key to the "diagnoses" key. */
static size_t input_part(const char *json, size_t len, const char **start)
{
    const char *a = memmem(json, len, "\"input\"", 7);
    const char *b = a ? memmem(a, len - (size_t)(a - json), "\"diagnoses\"", 11) : NULL;
    *start = a;
    return a && b ? (size_t)(b - a) : 0;
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
    bool same;
    if (a == NULL || b == NULL) {
        same = a == b;
    } else if (getenv("FL_FUZZ_STRICT") && !has_block_marker(data, size)) {
        same = la == lb && memcmp(a, b, la) == 0;
    } else {
        const char *pa, *pb;
        size_t na = input_part(a, la, &pa), nb = input_part(b, lb, &pb);
        same = na == nb && (na == 0 || memcmp(pa, pb, na) == 0);
    }
    if (!same) {
        fprintf(stderr, "one thread:\n%s\nthree segments:\n%s\n", a ? a : "(none)",
                b ? b : "(none)");
        abort();
    }
    free(a);
    free(b);
    return 0;
}
