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
 *   bench_floor [--read-only] [--hits N] FILE
 *
 * --hits N also lists the N patterns Vectorscan reported most often: the weak literals and
 * atoms, which cost a report each, are where a knowledge-base change buys speed.
 */
#include "faultline.h"
#include "kb.h"
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <hs/hs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
        const char *signal = p->entry < 0 ? "" : kb->entries[p->entry].signals[p->signal].name;
        printf("%12llu  %s %s  ", c->per_pattern[best], pattern_name(kb, p), signal);
        print_expr(p->hs_expr);
        c->per_pattern[best] = 0;
    }
}

int main(int argc, char **argv)
{
    bool read_only = false;
    size_t hits = 0;
    int i = 1;
    for (; i < argc - 1; i++) {
        if (strcmp(argv[i], "--read-only") == 0)
            read_only = true;
        else if (strcmp(argv[i], "--hits") == 0 && i + 2 < argc)
            hits = strtoul(argv[++i], NULL, 10);
        else
            break;
    }
    if (i != argc - 1) {
        fprintf(stderr, "usage: bench_floor [--read-only] [--hits N] FILE\n");
        return 2;
    }
    struct fl_kb *kb = NULL;
    struct fl_error err = {0};
    if (fl_kb_new(&kb) != FL_OK || fl_kb_add_embedded(kb, &err) != FL_OK ||
        fl_kb_compile(kb, &err) != FL_OK) {
        fprintf(stderr, "bench_floor: knowledge base: %s\n", err.msg);
        return 1;
    }
    int fd = open(argv[i], O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "bench_floor: %s: %s\n", argv[i], strerror(errno));
        return 1;
    }
    struct counts c = {0, calloc(kb->npatterns, sizeof *c.per_pattern)};
    char *buf = malloc(READ_CHUNK);
    hs_scratch_t *scratch = NULL;
    hs_stream_t *stream = NULL;
    if (c.per_pattern == NULL || buf == NULL || hs_alloc_scratch(kb->db, &scratch) != HS_SUCCESS ||
        hs_open_stream(kb->db, 0, &stream) != HS_SUCCESS) {
        fprintf(stderr, "bench_floor: out of memory\n");
        return 1;
    }
    double t0 = cpu_seconds();
    unsigned long long bytes = 0;
    ssize_t n;
    while ((n = read(fd, buf, READ_CHUNK)) > 0) {
        bytes += (unsigned long long)n;
        if (!read_only && hs_scan_stream(stream, buf, (unsigned)n, 0, scratch, on_match, &c) != HS_SUCCESS) {
            fprintf(stderr, "bench_floor: Vectorscan scan failed\n");
            return 1;
        }
    }
    if (n < 0) {
        fprintf(stderr, "bench_floor: %s: %s\n", argv[i], strerror(errno));
        return 1;
    }
    hs_close_stream(stream, scratch, on_match, &c);
    double cpu = cpu_seconds() - t0;
    printf("%s: %llu bytes, %.3f s CPU, %.0f MB/s, %llu matches of %zu patterns\n",
           read_only ? "read" : "read + Vectorscan", bytes, cpu, cpu > 0 ? (double)bytes / cpu / 1e6 : 0.0,
           c.total, kb->npatterns);
    print_hits(kb, &c, hits);
    hs_free_scratch(scratch);
    free(buf);
    free(c.per_pattern);
    close(fd);
    fl_kb_free(kb);
    return 0;
}
