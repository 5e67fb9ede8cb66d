/*
 * segments.c — a file cut into segments read by several threads gives the report one thread
 * reading it whole gives.
 *
 * Usage: segments [--threads N,N...] PATH...
 *
 * Every regular file under each PATH (a folder or a file) is read once on one thread, then on
 * 2, 3 and 7 threads (or the --threads list; bench/run checks 2 and 16 on its logs) with
 * the smallest segment size (1 byte), so that every file is cut into as many segments as there
 * are threads: tracebacks, stack dumps and step lines then straddle the cuts, which is what the
 * cut rules (scan_segment.c) must get right. The JSON reports must be byte for byte the same.
 */
#include "faultline.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct fl_kb *kb;
static unsigned thread_list[16] = {2, 3, 7};
static size_t nthread_list = 3;

/* The JSON report of path read on `threads` threads; malloc'd, NULL on failure. */
static char *report_of(const char *path, unsigned threads)
{
    struct fl_scan_options opts = {.segment_bytes = threads > 1 ? 1 : 0};
    struct fl_scanner *s;
    struct fl_report *r = NULL;
    char *json = NULL;
    size_t len = 0;
    if (fl_scanner_new(kb, &opts, &s) != FL_OK)
        return NULL;
    const char *paths[] = {path};
    if (fl_scan_paths(s, paths, 1, threads, NULL, NULL) == FL_OK &&
        fl_scanner_finish(s, &r) == FL_OK) {
        FILE *out = open_memstream(&json, &len);
        struct fl_report_options ro = {.format = FL_FORMAT_JSON};
        if (out == NULL || fl_report_write(r, &ro, out) != FL_OK) {
            if (out)
                fclose(out);
            free(json);
            json = NULL;
        } else {
            fclose(out);
        }
    }
    fl_report_free(r);
    fl_scanner_free(s);
    return json;
}

static int check_file(const char *path)
{
    const unsigned *threads = thread_list;
    char *one = report_of(path, 1);
    if (one == NULL) {
        fprintf(stderr, "%s: cannot be read\n", path);
        return 1;
    }
    int fail = 0;
    for (size_t i = 0; i < nthread_list; i++) {
        char *other = report_of(path, threads[i]);
        if (other == NULL || strcmp(one, other) != 0) {
            fprintf(stderr, "%s: differs in %u segments\n", path, threads[i]);
            if (other && getenv("SEGMENTS_VERBOSE"))
                fprintf(stderr, "--- one\n%s\n--- %u\n%s\n", one, threads[i], other);
            fail = 1;
        }
        free(other);
    }
    free(one);
    return fail;
}

static int check_tree(const char *dir, unsigned *files)
{
    struct stat top;
    if (stat(dir, &top) == 0 && S_ISREG(top.st_mode)) {
        (*files)++;
        return check_file(dir);
    }
    DIR *d = opendir(dir);
    if (d == NULL) {
        perror(dir);
        return 1;
    }
    int fail = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode)) {
            fail |= check_tree(path, files);
        } else if (S_ISREG(sb.st_mode) && strstr(de->d_name, ".yaml") == NULL) {
            fail |= check_file(path);
            (*files)++;
        }
    }
    closedir(d);
    return fail;
}

int main(int argc, char **argv)
{
    struct fl_error err;
    if (fl_kb_new(&kb) != FL_OK || fl_kb_add_embedded(kb, &err) != FL_OK ||
        fl_kb_compile(kb, &err) != FL_OK) {
        fprintf(stderr, "knowledge base: %s\n", err.msg);
        return 2;
    }
    int fail = 0, i = 1;
    unsigned files = 0;
    if (argc > 2 && strcmp(argv[1], "--threads") == 0) {
        nthread_list = 0;
        for (char *p = argv[2], *end; *p && nthread_list < 16; p = *end ? end + 1 : end) {
            unsigned long t = strtoul(p, &end, 10);
            if (end == p || t < 1 || t > 64 || (*end && *end != ',')) {
                fprintf(stderr, "segments: --threads takes a list such as 2,16\n");
                return 2;
            }
            thread_list[nthread_list++] = (unsigned)t;
        }
        i = 3;
    }
    for (; i < argc; i++)
        fail |= check_tree(argv[i], &files);
    printf("%u files, %s\n", files, fail ? "some differ" : "all the same");
    fl_kb_free(kb);
    return fail;
}
