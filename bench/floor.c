/*
 * bench/floor.c — the part of a diagnosis that no change to faultline's own code can remove.
 *
 * faultline's scan is read(2) into a buffer plus one Vectorscan stream over the knowledge
 * base's database; everything else (framing matched lines, prefixes, extractors, correlation)
 * is faultline's own work. This program does only the first two, on one thread, with a match
 * callback that only counts, and prints the time of each. bench/run puts it beside faultline:
 * the gap between the two is what optimising faultline can still win, the floor is what the
 * knowledge base costs on that input.
 *
 *   bench_floor [--read-only] [--hits N] PATH...
 *
 * A PATH that is a folder is read whole (every regular file under it, one stream each, as
 * faultline reads a folder of per-rank files).
 *
 * --hits N also lists the N patterns Vectorscan reported most often: the weak literals and
 * atoms, which cost a report each, are where a knowledge-base change buys speed.
 */
#include "faultline.h"
#include "kb.h"
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <hs/hs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct counts {
    unsigned long long total;
    unsigned long long *per_pattern;
};

static int on_match(unsigned id, unsigned long long from, unsigned long long to, unsigned flags,
                    void *ctx)
{
    (void)from;
    (void)to;
    (void)flags;
    struct counts *c = ctx;
    c->total++;
    c->per_pattern[id]++;
    return 0;
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *pattern_name(const struct fl_kb *kb, const struct pattern *p)
{
    if (p->entry < 0)
        return "(built-in)";
    return kb->entries[p->entry].id;
}

/* Vectorscan's expression, with the \xHH escapes that literals are handed over in decoded. */
static void print_expr(const char *e)
{
    for (; *e; e++) {
        unsigned v;
        if (e[0] == '\\' && e[1] == 'x' && sscanf(e + 2, "%2x", &v) == 1) {
            putchar(v >= 0x20 && v < 0x7f ? (int)v : '.');
            e += 3;
        } else {
            putchar(*e);
        }
    }
    putchar('\n');
}

static void print_hits(const struct fl_kb *kb, const struct counts *c, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t best = kb->npatterns;
        for (size_t i = 0; i < kb->npatterns; i++)
            if (c->per_pattern[i] && (best == kb->npatterns || c->per_pattern[i] > c->per_pattern[best]))
                best = i;
        if (best == kb->npatterns)
            return;
        const struct pattern *p = &kb->patterns[best];
        const struct entry *e = p->entry < 0 ? NULL : &kb->entries[p->entry];
        const char *signal = e ? entry_str(e, e->signals[p->signal].name) : "";
        printf("%12llu  %s %s  ", c->per_pattern[best], pattern_name(kb, p), signal);
        print_expr(kb_text(kb, p->hs_expr));
        c->per_pattern[best] = 0;
    }
}

/* What one run reads and counts; file-tree walks reach it through `run` (nftw has no context). */
struct floor_run {
    const struct fl_kb *kb;
    bool read_only;
    char *buf;
    hs_scratch_t *scratch;
    struct counts c;
    unsigned long long bytes;
    int failed;
};
static struct floor_run *run;

/* read(2) and one Vectorscan stream over the file at path. */
static int scan_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "bench_floor: %s: %s\n", path, strerror(errno));
        return -1;
    }
    hs_stream_t *stream = NULL;
    if (hs_open_stream(run->kb->db, 0, &stream) != HS_SUCCESS) {
        fprintf(stderr, "bench_floor: out of memory\n");
        close(fd);
        return -1;
    }
    ssize_t n;
    while ((n = read(fd, run->buf, READ_CHUNK)) > 0) {
        run->bytes += (unsigned long long)n;
        if (!run->read_only &&
            hs_scan_stream(stream, run->buf, (unsigned)n, 0, run->scratch, on_match, &run->c) != HS_SUCCESS) {
            fprintf(stderr, "bench_floor: Vectorscan scan failed\n");
            n = -1;
            errno = EIO;
            break;
        }
    }
    if (n < 0)
        fprintf(stderr, "bench_floor: %s: %s\n", path, strerror(errno));
    hs_close_stream(stream, run->scratch, on_match, &run->c);
    close(fd);
    return n < 0 ? -1 : 0;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_F && scan_file(path) != 0)
        run->failed = 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct floor_run r = {0};
    size_t hits = 0;
    int i = 1;
    for (; i < argc - 1; i++) {
        if (strcmp(argv[i], "--read-only") == 0)
            r.read_only = true;
        else if (strcmp(argv[i], "--hits") == 0 && i + 2 < argc)
            hits = strtoul(argv[++i], NULL, 10);
        else
            break;
    }
    if (i >= argc || argv[i][0] == '-') {
        fprintf(stderr, "usage: bench_floor [--read-only] [--hits N] PATH...\n");
        return 2;
    }
    struct fl_kb *kb = NULL;
    struct fl_error err = {0};
    if (fl_kb_new(&kb) != FL_OK || fl_kb_add_embedded(kb, &err) != FL_OK ||
        fl_kb_compile(kb, &err) != FL_OK) {
        fprintf(stderr, "bench_floor: knowledge base: %s\n", err.msg);
        return 1;
    }
    r.kb = kb;
    r.c.per_pattern = calloc(kb->npatterns, sizeof *r.c.per_pattern);
    r.buf = malloc(READ_CHUNK);
    if (r.c.per_pattern == NULL || r.buf == NULL || hs_alloc_scratch(kb->db, &r.scratch) != HS_SUCCESS) {
        fprintf(stderr, "bench_floor: out of memory\n");
        return 1;
    }
    run = &r;
    double t0 = cpu_seconds();
    for (; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (nftw(argv[i], visit, 16, FTW_PHYS) != 0)
                r.failed = 1;
        } else if (scan_file(argv[i]) != 0) {
            r.failed = 1;
        }
    }
    double cpu = cpu_seconds() - t0;
    if (r.failed)
        return 1;
    printf("%s: %llu bytes, %.3f s CPU, %.0f MB/s, %llu matches of %zu patterns\n",
           r.read_only ? "read" : "read + Vectorscan", r.bytes, cpu, cpu > 0 ? (double)r.bytes / cpu / 1e6 : 0.0,
           r.c.total, kb->npatterns);
    print_hits(kb, &r.c, hits);
    hs_free_scratch(r.scratch);
    free(r.buf);
    free(r.c.per_pattern);
    fl_kb_free(kb);
    return 0;
}
