/*
 * kbindex.c — front matter, bodies and the FTS5 search index of the encyclopedia (kbindex.h).
 *
 * Search runs in SQLite's FTS5 rather than in a scan of the entries: bm25 ranking, prefix
 * queries and a tokenizer that folds case and diacritics come with it. User words are quoted
 * one by one before they reach MATCH, so no input is ever read as FTS5 query syntax.
 */
#include "kbindex.h"

#include <ctype.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static void strlist_free(struct strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

static int strlist_from_node(yaml_document_t *doc, yaml_node_t *node, struct strlist *out)
{
    if (node == NULL || node->type != YAML_SEQUENCE_NODE)
        return 0;
    size_t n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
    out->v = calloc(n ? n : 1, sizeof *out->v);
    if (out->v == NULL)
        return -1;
    for (yaml_node_item_t *it = node->data.sequence.items.start;
         it < node->data.sequence.items.top; it++) {
        yaml_node_t *v = yaml_document_get_node(doc, *it);
        if (v && v->type == YAML_SCALAR_NODE &&
            (out->v[out->n] = strndup((const char *)v->data.scalar.value, v->data.scalar.length)))
            out->n++;
    }
    return 0;
}

/* The front matter is between a first line "---" and the next line "---". */
static int parse_front(struct kb_meta *m)
{
    const char *md = m->info.markdown;
    m->body = md;
    if (strncmp(md, "---\n", 4) != 0)
        return 0;
    const char *end = strstr(md + 3, "\n---");
    if (end == NULL)
        return 0;
    const char *after = strchr(end + 1, '\n');
    m->body = after ? after + 1 : end + strlen(end);
    yaml_parser_t p;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&p))
        return -1;
    yaml_parser_set_input_string(&p, (const unsigned char *)md + 4, (size_t)(end - md - 3));
    int rc = 0;
    if (!yaml_parser_load(&p, &doc)) {
        yaml_parser_delete(&p);
        return 0; /* the library validated the entry already; nothing more to read */
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root && root->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
             pr < root->data.mapping.pairs.top && rc == 0; pr++) {
            yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
            yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
            if (k == NULL || k->type != YAML_SCALAR_NODE)
                continue;
            const char *key = (const char *)k->data.scalar.value;
            if (strcmp(key, "tags") == 0)
                rc = strlist_from_node(&doc, v, &m->tags);
            else if (strcmp(key, "systems") == 0)
                rc = strlist_from_node(&doc, v, &m->systems);
            else if (strcmp(key, "related") == 0)
                rc = strlist_from_node(&doc, v, &m->related);
            else if (strcmp(key, "references") == 0)
                rc = strlist_from_node(&doc, v, &m->references);
            else if (strcmp(key, "differential") == 0)
                rc = strlist_from_node(&doc, v, &m->differential);
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    return rc;
}

static char *joined(const struct strlist *l)
{
    size_t n = 1;
    for (size_t i = 0; i < l->n; i++)
        n += strlen(l->v[i]) + 1;
    char *s = malloc(n), *p = s;
    if (s == NULL)
        return NULL;
    *p = '\0';
    for (size_t i = 0; i < l->n; i++)
        p += sprintf(p, "%s%s", i ? " " : "", l->v[i]);
    return s;
}

static int build_fts(struct kbindex *x, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_open_v2(":memory:", &db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db,
                          "CREATE VIRTUAL TABLE entry USING fts5(id, title, category, tags, systems, body,"
                          " tokenize = 'unicode61 remove_diacritics 2');",
                          NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "INSERT INTO entry(rowid, id, title, category, tags, systems, body)"
                                    " VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < x->n; i++) {
        const struct kb_meta *m = &x->e[i];
        char *tags = joined(&m->tags), *systems = joined(&m->systems);
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        sqlite3_bind_text(st, 2, m->info.id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, m->info.title, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, m->info.category, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, tags ? tags : "", -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 6, systems ? systems : "", -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 7, m->body, -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        sqlite3_reset(st);
        free(tags);
        free(systems);
    }
    if (rc != SQLITE_OK)
        snprintf(err, errlen, "search index: %s", db ? sqlite3_errmsg(db) : "cannot open SQLite");
    sqlite3_finalize(st);
    if (rc != SQLITE_OK) {
        sqlite3_close(db);
        return -1;
    }
    x->fts = db;
    return 0;
}

int kbindex_new(const struct fl_kb *kb, struct kbindex **out, char *err, size_t errlen)
{
    struct kbindex *x = calloc(1, sizeof *x);
    size_t n = fl_kb_count(kb);
    if (x == NULL || (x->e = calloc(n ? n : 1, sizeof *x->e)) == NULL) {
        free(x);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        fl_kb_entry_at(kb, i, &x->e[i].info);
        x->n++;
        if (parse_front(&x->e[i]) != 0) {
            snprintf(err, errlen, "%s: cannot read its front matter", x->e[i].info.path);
            kbindex_free(x);
            return -1;
        }
    }
    if (build_fts(x, err, errlen) != 0) {
        kbindex_free(x);
        return -1;
    }
    *out = x;
    return 0;
}

void kbindex_free(struct kbindex *x)
{
    if (x == NULL)
        return;
    for (size_t i = 0; i < x->n; i++) {
        strlist_free(&x->e[i].tags);
        strlist_free(&x->e[i].systems);
        strlist_free(&x->e[i].related);
        strlist_free(&x->e[i].references);
        strlist_free(&x->e[i].differential);
    }
    free(x->e);
    sqlite3_close(x->fts);
    free(x);
}

const struct kb_meta *kbindex_find(const struct kbindex *x, const char *id)
{
    for (size_t i = 0; i < x->n; i++)
        if (strcmp(x->e[i].info.id, id) == 0)
            return &x->e[i];
    return NULL;
}

/* Each run of letters and digits of q becomes "word"*: quoted, so that nothing in it is syntax. */
static char *fts_query(const char *q)
{
    size_t n = strlen(q);
    char *out = malloc(n * 4 + 8), *p = out;
    if (out == NULL)
        return NULL;
    for (const unsigned char *s = (const unsigned char *)q; *s;) {
        while (*s && !(isalnum(*s) || *s >= 0x80))
            s++;
        if (!*s)
            break;
        if (p != out)
            *p++ = ' ';
        *p++ = '"';
        while (*s && (isalnum(*s) || *s >= 0x80))
            *p++ = (char)*s++;
        *p++ = '"';
        *p++ = '*';
    }
    *p = '\0';
    return out;
}

size_t kbindex_search(const struct kbindex *x, const char *q, size_t *hits, size_t max)
{
    char *m = fts_query(q);
    size_t k = 0;
    sqlite3_stmt *st = NULL;
    if (m && *m &&
        sqlite3_prepare_v2(x->fts, "SELECT rowid FROM entry WHERE entry MATCH ?"
                                   " ORDER BY bm25(entry, 8.0, 10.0, 2.0, 4.0, 3.0, 1.0) LIMIT ?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, m, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)max);
        while (k < max && sqlite3_step(st) == SQLITE_ROW) {
            sqlite3_int64 row = sqlite3_column_int64(st, 0);
            if (row >= 0 && (size_t)row < x->n)
                hits[k++] = (size_t)row;
        }
    }
    sqlite3_finalize(st);
    free(m);
    return k;
}

/* n bytes of s as a new string on one line: its line breaks become spaces. */
static char *one_line(const char *s, size_t n)
{
    char *out = strndup(s, n);
    for (char *c = out; c && *c; c++)
        if (*c == '\n')
            *c = ' ';
    return out;
}

char *kbindex_section_para(const struct kb_meta *m, const char *name)
{
    size_t n;
    const char *s = kbindex_section(m, name, &n);
    if (s == NULL)
        return NULL;
    for (; n > 0 && *s == '\n'; n--)
        s++;
    const char *e = memmem(s, n, "\n\n", 2);
    return one_line(s, e ? (size_t)(e - s) : n);
}

/* Each run of digits becomes one '0': "expected 4683 more bytes" written in a symptom then
 * matches "expected 120 more bytes" in a log. out has room for n + 1 bytes. */
static size_t squash_digits(const char *s, size_t n, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (isdigit((unsigned char)s[i])) {
            if (k == 0 || out[k - 1] != '0' || i == 0 || !isdigit((unsigned char)s[i - 1]))
                out[k++] = '0';
        } else {
            out[k++] = s[i];
        }
    }
    out[k] = '\0';
    return k;
}

/* The longest piece of the bullet's code spans found in the line: spans are cut at the "..."
 * and "…" an entry writes for the parts of a message that vary. */
static size_t bullet_score(const char *b, size_t n, const char *line)
{
    size_t best = 0;
    char piece[512];
    for (const char *p = memchr(b, '`', n); p; ) {
        const char *e = memchr(p + 1, '`', (size_t)(b + n - p - 1));
        if (e == NULL)
            break;
        for (const char *s = p + 1; s < e;) {
            const char *cut = s;
            while (cut < e && strncmp(cut, "...", 3) != 0 && strncmp(cut, "\xe2\x80\xa6", 3) != 0)
                cut++;
            size_t len = (size_t)(cut - s);
            if (len >= 10 && len < sizeof piece) {
                size_t k = squash_digits(s, len, piece);
                if (k > best && strstr(line, piece))
                    best = k;
            }
            s = cut < e ? cut + 3 : e;
        }
        size_t rest = (size_t)(b + n - e - 1);
        p = rest ? memchr(e + 1, '`', rest) : NULL;
    }
    return best;
}

char *kbindex_symptom_for(const struct kb_meta *m, const char *line)
{
    size_t sec_len;
    const char *sec = kbindex_section(m, "Symptoms", &sec_len), *end = sec + sec_len;
    if (sec == NULL)
        return NULL;
    size_t ln = strlen(line);
    char *sq = malloc(ln + 1);
    if (sq == NULL)
        return NULL;
    squash_digits(line, ln, sq);
    const char *best = NULL, *best_end = NULL;
    size_t best_score = 11; /* shorter pieces ("Killed", "NCCL WARN") say too little */
    for (const char *b = sec; b < end;) {
        const char *next = b;
        do {
            next = memchr(next, '\n', (size_t)(end - next));
            next = next ? next + 1 : end;
        } while (next < end && strncmp(next, "- ", 2) != 0 && *next != '\n');
        if (strncmp(b, "- ", 2) == 0) {
            size_t sc = bullet_score(b, (size_t)(next - b), sq);
            if (sc > best_score) {
                best_score = sc;
                best = b + 2;
                best_end = next;
            }
        }
        b = next;
    }
    free(sq);
    if (best == NULL)
        return NULL;
    while (best_end > best && (best_end[-1] == '\n' || best_end[-1] == ' '))
        best_end--;
    return one_line(best, (size_t)(best_end - best));
}

const char *kbindex_section(const struct kb_meta *m, const char *name, size_t *len)
{
    size_t nl = strlen(name);
    bool fence = false;
    const char *start = NULL;
    for (const char *p = m->body; p && *p;) {
        if (strncmp(p, "```", 3) == 0)
            fence = !fence;
        if (!fence && strncmp(p, "## ", 3) == 0) {
            if (start) {
                *len = (size_t)(p - start);
                return start;
            }
            if (strncmp(p + 3, name, nl) == 0 && p[3 + nl] == '\n')
                start = p + 4 + nl;
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    if (start)
        *len = strlen(start);
    return start;
}

char *kbindex_quick(const struct kb_meta *m, const char *label)
{
    size_t n, ll = strlen(label);
    const char *s = kbindex_section(m, "Quick answer", &n), *end = s ? s + n : NULL;
    for (const char *p = s; p && p < end;) {
        if (strncmp(p, "- **", 4) == 0 && strncmp(p + 4, label, ll) == 0 && strncmp(p + 4 + ll, ":**", 3) == 0) {
            const char *b = p + 7 + ll, *e = b;
            while (e < end && !(e[0] == '\n' && (e + 1 == end || e[1] == '-' || e[1] == '\n')))
                e++;
            while (b < e && *b == ' ')
                b++;
            return one_line(b, (size_t)(e - b));
        }
        p = memchr(p, '\n', (size_t)(end - p));
        p = p ? p + 1 : NULL;
    }
    return NULL;
}
