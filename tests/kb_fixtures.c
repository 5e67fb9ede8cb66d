/*
 * kb_fixtures.c — one knowledge-base entry proves itself on its fixtures.
 *
 * Usage: kb_fixtures FIXTURES_DIR ID
 *
 * Every pos-* file or folder under FIXTURES_DIR/ID must be diagnosed with ID first, or, for a
 * collateral entry (a launcher's summary, a closed connection), be folded under the first
 * diagnosis as its consequence: where a rank raised the cause, the cause leads. Every neg-*
 * must not produce ID at all. expect.yaml may name, per fixture, the initiating_rank and
 * initiating_host that the first diagnosis must carry. Uses the knowledge base compiled into the
 * library, so an entry that the build left out fails here.
 */
#include "faultline.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct expect {
    char name[256];
    long rank; /* -2: not given */
    char host[128];
};

static size_t load_expect(const char *path, struct expect *ex, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    yaml_parser_t p;
    yaml_document_t doc;
    size_t n = 0;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, f);
    if (!yaml_parser_load(&p, &doc)) {
        fprintf(stderr, "%s: YAML error: %s\n", path, p.problem ? p.problem : "?");
        exit(1);
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root && root->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *it = root->data.mapping.pairs.start;
             it < root->data.mapping.pairs.top && n < max; it++) {
            yaml_node_t *k = yaml_document_get_node(&doc, it->key);
            yaml_node_t *v = yaml_document_get_node(&doc, it->value);
            struct expect *e = &ex[n++];
            memset(e, 0, sizeof *e);
            e->rank = -2;
            snprintf(e->name, sizeof e->name, "%s", (char *)k->data.scalar.value);
            if (v->type != YAML_MAPPING_NODE)
                continue;
            for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
                const char *key = (char *)yaml_document_get_node(&doc, q->key)->data.scalar.value;
                const char *val = (char *)yaml_document_get_node(&doc, q->value)->data.scalar.value;
                if (strcmp(key, "initiating_rank") == 0)
                    e->rank = strtol(val, NULL, 10);
                else if (strcmp(key, "initiating_host") == 0)
                    snprintf(e->host, sizeof e->host, "%s", val);
            }
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    fclose(f);
    return n;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: kb_fixtures FIXTURES_DIR ID\n");
        return 2;
    }
    const char *id = argv[2];
    struct fl_kb *kb;
    struct fl_error err = {0};
    fl_kb_new(&kb);
    if (fl_kb_add_embedded(kb, &err) != FL_OK || fl_kb_compile(kb, &err) != FL_OK) {
        fprintf(stderr, "knowledge base: %s:%u: %s\n", err.file, err.line, err.msg);
        return 1;
    }
    if (fl_kb_find(kb, id) < 0) {
        fprintf(stderr, "FAIL %s: the entry is not in the compiled knowledge base (see the build's kbgen warnings)\n", id);
        return 1;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/%s", argv[1], id);
    char exp_path[2100];
    snprintf(exp_path, sizeof exp_path, "%s/expect.yaml", dir);
    struct expect ex[64];
    size_t nex = load_expect(exp_path, ex, 64);
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "FAIL %s: no fixtures folder %s\n", id, dir);
        return 1;
    }
    char *names[256];
    size_t nn = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && nn < 256)
        if (strncmp(de->d_name, "pos-", 4) == 0 || strncmp(de->d_name, "neg-", 4) == 0)
            names[nn++] = strdup(de->d_name);
    closedir(d);
    qsort(names, nn, sizeof *names, cmp);
    int failures = 0, pos = 0, neg = 0;
    for (size_t i = 0; i < nn; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct fl_scanner *s;
        struct fl_report *r = NULL;
        fl_scanner_new(kb, NULL, &s);
        enum fl_status st = fl_scan_path(s, path, &err);
        if (st == FL_OK || st == FL_ERR_FORMAT)
            st = fl_scanner_finish(s, &r);
        fl_scanner_free(s);
        if (st != FL_OK) {
            printf("FAIL %s/%s: %s %s\n", id, names[i], fl_strerror(st), err.msg);
            failures++;
            continue;
        }
        bool positive = names[i][0] == 'p';
        const char *top = fl_report_diagnosis_id(r, 0);
        bool ok;
        if (positive) {
            pos++;
            ok = top && strcmp(top, id) == 0;
            for (size_t k = 0; top && !ok && fl_report_collateral_id(r, 0, k); k++)
                ok = strcmp(fl_report_collateral_id(r, 0, k), id) == 0;
            if (!ok)
                printf("FAIL %s/%s: first diagnosis is %s, expected %s\n", id, names[i],
                       top ? top : "(none)", id);
            char stem[256];
            snprintf(stem, sizeof stem, "%s", names[i]);
            char *dot = strrchr(stem, '.');
            if (dot)
                *dot = '\0';
            for (size_t k = 0; ok && k < nex; k++) {
                if (strcmp(ex[k].name, stem) != 0)
                    continue;
                long rank = fl_report_diagnosis_rank(r, 0);
                const char *host = fl_report_diagnosis_host(r, 0);
                if (ex[k].rank != -2 && rank != ex[k].rank) {
                    printf("FAIL %s/%s: initiating rank %ld, expected %ld\n", id, names[i], rank,
                           ex[k].rank);
                    ok = false;
                }
                if (ex[k].host[0] && (host == NULL || strcmp(host, ex[k].host) != 0)) {
                    printf("FAIL %s/%s: initiating host %s, expected %s\n", id, names[i],
                           host ? host : "(none)", ex[k].host);
                    ok = false;
                }
            }
        } else {
            neg++;
            ok = true;
            /* a differential is listed as not matched: only a matched diagnosis is a near miss */
            for (size_t k = 0; k < fl_report_diagnosis_count(r); k++)
                if (strcmp(fl_report_diagnosis_id(r, k), id) == 0 &&
                    fl_report_diagnosis_differential_of(r, k) == NULL)
                    ok = false;
            if (!ok)
                printf("FAIL %s/%s: near miss diagnosed as %s\n", id, names[i], id);
        }
        if (ok)
            printf("ok   %s/%s\n", id, names[i]);
        failures += !ok;
        fl_report_free(r);
        free(names[i]);
    }
    if (pos == 0 || neg == 0) {
        printf("FAIL %s: needs at least one pos- and one neg- fixture\n", id);
        failures++;
    }
    fl_kb_free(kb);
    return failures ? 1 : 0;
}
