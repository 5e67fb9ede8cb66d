/*
 * jsoncmp.c — compares two JSON documents as data (key order and whitespace do not matter).
 * The "version" field is blanked in both, so a version bump does not rewrite every expectation.
 * With --ignore-sources, source names are blanked too (evidence "source", input "errors"), so
 * the same log read from a file, an archive or stdin compares equal.
 * Usage: jsoncmp [--ignore-sources] EXPECTED ACTUAL; exit 0 when equal, 1 otherwise.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int ignore_sources;

static void blank_sources(json_t *root)
{
    json_t *diags = json_object_get(root, "diagnoses");
    size_t i, j;
    json_t *d, *e;
    json_array_foreach(diags, i, d) {
        json_array_foreach(json_object_get(d, "evidence"), j, e)
            json_object_set_new(e, "source", json_string(""));
    }
}

static json_t *load(const char *path)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (j == NULL) {
        fprintf(stderr, "%s:%d: %s\n", path, e.line, e.text);
        return NULL;
    }
    if (json_is_object(j))
        json_object_set_new(j, "version", json_string(""));
    if (ignore_sources)
        blank_sources(j);
    return j;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--ignore-sources") == 0) {
        ignore_sources = 1;
        argv++;
        argc--;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: jsoncmp [--ignore-sources] EXPECTED ACTUAL\n");
        return 2;
    }
    json_t *a = load(argv[1]), *b = load(argv[2]);
    if (a == NULL || b == NULL)
        return 2;
    int same = json_equal(a, b);
    if (!same) {
        fprintf(stderr, "JSON differs.\n--- expected %s\n", argv[1]);
        json_dumpf(a, stderr, JSON_INDENT(2) | JSON_SORT_KEYS);
        fprintf(stderr, "\n+++ actual %s\n", argv[2]);
        json_dumpf(b, stderr, JSON_INDENT(2) | JSON_SORT_KEYS);
        fputc('\n', stderr);
    }
    json_decref(a);
    json_decref(b);
    return same ? 0 : 1;
}
