/*
 * kbgen.c — build-time generator of kb_embedded.c.
 *
 * Usage: kbgen OUT.c KBDIR
 *
 * Loads and compiles every entry under KBDIR exactly as the library does at run time, and writes
 * the result as C data: the entries already parsed (their strings, lists, signals, condition
 * programs and Markdown texts, in tables that refer to each other by offsets, not pointers:
 * struct kb_entry_image), the pattern table, and the Vectorscan database compiled from it, as
 * its image. Start-up then neither parses YAML nor builds patterns for the
 * shipped entries. An invalid entry fails the build with its file:line message.
 */
#include "kb.h"
#include "db_image.h"
#include "walk.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_bytes(FILE *out, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%u,", i % 24 == 0 ? "\n" : "", p[i]);
}

/* The shipped entries as kb_embedded.c holds them, gathered before any is written: every
 * pointer of struct entry and struct signal becomes an offset (kb.h, struct signal), so that
 * the tables are read-only data which the dynamic loader of a position-independent program does
 * not relocate at every start, copying every page it writes. */
struct tables {
    struct buf strings;   /* every entry's texts, each NUL-terminated, after an empty one */
    uint32_t *lists;      /* every entry's list items, as offsets into strings */
    size_t nlists, lists_cap;
    struct signal *signals; /* every entry's signals, their texts as offsets into strings */
    size_t nsignals, signals_cap;
    size_t nconds;        /* condition instructions of the entries before */
    struct kb_entry_image *images;
    enum fl_status st;    /* the first failure (out of memory, or past a table's limit) */
};

/* s's offset in the shipped strings, 0 for NULL (no text). */
static uint32_t put_str(struct tables *t, const char *s)
{
    if (s == NULL || t->st != FL_OK)
        return 0;
    if (t->strings.len == 0 && (t->st = buf_putc(&t->strings, '\0')) != FL_OK)
        return 0;
    uint32_t off = (uint32_t)t->strings.len;
    t->st = buf_append(&t->strings, s, strlen(s) + 1);
    return off;
}

/* One of e's lists: where its items start in the shipped lists. */
static uint32_t put_list(struct tables *t, const struct entry *e, const uint32_t *v, size_t n)
{
    uint32_t first = (uint32_t)t->nlists;
    for (size_t k = 0; k < n && t->st == FL_OK; k++) {
        uint32_t off = put_str(t, entry_str(e, v[k]));
        if (t->st == FL_OK &&
            (t->st = GROW(t->lists, t->lists_cap, t->nlists, SIZE_MAX / sizeof off)) == FL_OK)
            t->lists[t->nlists++] = off;
    }
    return first;
}

static uint32_t put_signals(struct tables *t, const struct entry *e)
{
    uint32_t first = (uint32_t)t->nsignals;
    for (size_t k = 0; k < e->nsignals && t->st == FL_OK; k++) {
        struct signal g = e->signals[k];
        g.name = put_str(t, entry_str(e, g.name));
        g.text = put_str(t, entry_str(e, g.text));
        g.prefilter = put_str(t, entry_str(e, g.prefilter));
        g.cfg.fact = put_str(t, entry_str(e, g.cfg.fact));
        g.cfg.value = put_str(t, entry_str(e, g.cfg.value));
        if (t->st == FL_OK &&
            (t->st = GROW(t->signals, t->signals_cap, t->nsignals, SIZE_MAX / sizeof g)) == FL_OK)
            t->signals[t->nsignals++] = g;
    }
    return first;
}

static void put_entry(struct tables *t, const struct entry *e, size_t i, const char *kbdir)
{
    /* the path relative to the KB folder, as "kb/<category>/<id>.md" */
    const char *rel = e->path + strlen(kbdir);
    while (*rel == '/')
        rel++;
    struct buf path;
    buf_init(&path, 4096);
    if (t->st == FL_OK)
        t->st = buf_printf(&path, "kb/%s", rel);
    struct kb_entry_image *m = &t->images[i];
    m->id = put_str(t, e->id);
    m->title = put_str(t, e->title);
    m->category = put_str(t, e->category);
    m->severity = put_str(t, e->severity);
    m->path = put_str(t, path.data);
    m->markdown = put_str(t, e->markdown);
    m->body_offset = (uint32_t)e->body_offset;
    m->collateral = e->collateral;
    m->tags = put_list(t, e, e->tags, m->ntags = (uint32_t)e->ntags);
    m->systems = put_list(t, e, e->systems, m->nsystems = (uint32_t)e->nsystems);
    m->related = put_list(t, e, e->related, m->nrelated = (uint32_t)e->nrelated);
    m->references = put_list(t, e, e->references, m->nreferences = (uint32_t)e->nreferences);
    m->differential = put_list(t, e, e->differential, m->ndifferential = (uint32_t)e->ndifferential);
    m->signals = put_signals(t, e);
    m->nsignals = (uint32_t)e->nsignals;
    m->cond = (uint32_t)t->nconds;
    m->cond_len = (uint32_t)e->cond.len;
    t->nconds += e->cond.len;
    buf_free(&path);
}

static enum fl_status gather_tables(struct tables *t, const struct fl_kb *kb, const char *kbdir)
{
    buf_init(&t->strings, UINT32_MAX);
    t->images = calloc(kb->nentries ? kb->nentries : 1, sizeof *t->images);
    if (t->images == NULL)
        return FL_ERR_NOMEM;
    for (size_t i = 0; i < kb->nentries; i++)
        put_entry(t, &kb->entries[i], i, kbdir);
    return t->st;
}

static void free_tables(struct tables *t)
{
    buf_free(&t->strings);
    free(t->lists);
    free(t->signals);
    free(t->images);
}

/* Each table ends with a zero item, which no entry refers to, so that none is empty (ISO C). */
static void write_tables(FILE *out, const struct tables *t, const struct fl_kb *kb)
{
    fputs("const char kb_embedded_strings[] = {", out);
    write_bytes(out, (const unsigned char *)t->strings.data, t->strings.len);
    fputs("0};\nconst uint32_t kb_embedded_lists[] = {", out);
    for (size_t k = 0; k < t->nlists; k++)
        fprintf(out, "%s%uU,", k % 12 == 0 ? "\n" : "", t->lists[k]);
    fputs("0};\nconst struct signal kb_embedded_signals[] = {\n", out);
    for (size_t k = 0; k < t->nsignals; k++) {
        const struct signal *g = &t->signals[k];
        fprintf(out,
                "    {.name = %uU, .kind = (enum signal_kind)%d, .text = %uU, .prefilter = %uU, "
                ".nocase = %d, .positive = %d, .supporting = %d, .observer = %d, "
                ".cfg = {.fact = %uU, .op = (enum cmp_op)%d, .value = %uU}, .pattern = %d, "
                ".line = %u},\n",
                g->name, (int)g->kind, g->text, g->prefilter, g->nocase, g->positive,
                g->supporting, g->observer, g->cfg.fact, (int)g->cfg.op, g->cfg.value, g->pattern, g->line);
    }
    fputs("    {0}};\nconst struct cond_insn kb_embedded_conds[] = {\n", out);
    for (size_t i = 0; i < kb->nentries; i++)
        for (size_t k = 0; k < kb->entries[i].cond.len; k++) {
            const struct cond_insn *c = &kb->entries[i].cond.code[k];
            fprintf(out, "    {(enum cond_op)%d, %d, (enum cmp_op)%d, %ldL},\n", (int)c->op,
                    c->signal, (int)c->cmp, c->n);
        }
    fputs("    {0}};\nconst struct kb_entry_image kb_embedded_images[] = {\n", out);
    for (size_t i = 0; i < kb->nentries; i++) {
        const struct kb_entry_image *m = &t->images[i];
        fprintf(out,
                "  {.id = %uU, .title = %uU, .category = %uU, .severity = %uU, .path = %uU, "
                ".markdown = %uU, .body_offset = %uU, .collateral = %d,\n"
                "    .tags = %uU, .systems = %uU, .related = %uU, .references = %uU, "
                ".ntags = %uU, .nsystems = %uU, .nrelated = %uU, .nreferences = %uU,\n"
                "    .differential = %uU, .ndifferential = %uU,\n"
                "    .signals = %uU, .nsignals = %uU, .cond = %uU, .cond_len = %uU},\n",
                m->id, m->title, m->category, m->severity, m->path, m->markdown, m->body_offset,
                m->collateral, m->tags, m->systems, m->related, m->references, m->ntags,
                m->nsystems, m->nrelated, m->nreferences, m->differential, m->ndifferential,
                m->signals, m->nsignals, m->cond, m->cond_len);
    }
    fprintf(out, "  {0}};\nconst size_t kb_embedded_count = %zu;\n", kb->nentries);
}

/* The pattern table the database was compiled from, in its order (pattern id = index), and
 * the texts its offsets point into. */
static void write_patterns(FILE *out, const struct fl_kb *kb)
{
    fputs("static const char pattern_text[] = {", out);
    write_bytes(out, (const unsigned char *)kb->pattern_text.data, kb->pattern_text.len);
    fputs("0};\nstatic const struct pattern patterns[] = {\n", out);
    for (size_t i = 0; i < kb->npatterns; i++) {
        const struct pattern *p = &kb->patterns[i];
        fprintf(out,
                "    {.entry = %d, .signal = %d, .builtin = (enum builtin)%d, .hs_expr = %uU, "
                ".hs_flags = %uU, .pcre_expr = %uU, .nocase = %d, .names_location = %d, "
                ".confirm = %d, .literal = %uU, .literal_len = %uU, .window_end = %uU},\n",
                p->entry, p->signal, (int)p->builtin, p->hs_expr, p->hs_flags, p->pcre_expr,
                p->nocase, p->names_location, p->confirm, p->literal, p->literal_len,
                p->window_end);
    }
    fputs("};\n", out);
}

/* An entry that does not load or whose patterns do not compile is left out with a warning, so
 * that one broken file does not stop the build; `faultline kb lint` (run by the tests and CI)
 * is the gate that rejects it. */
static enum fl_status add_file(void *vkb, const char *path)
{
    struct fl_kb *kb = vkb;
    size_t n = strlen(path);
    if (n < 3 || strcmp(path + n - 3, ".md") != 0 || strstr(path, "README.md"))
        return FL_OK;
    struct fl_error err = {0};
    char *text;
    size_t len;
    struct entry e;
    if (kb_read_file(path, &text, &len, &err) != FL_OK)
        goto skip;
    enum fl_status st = kb_parse_entry(path, text, len, &e, &err);
    if (st == FL_OK) {
        /* try the entry's patterns alone */
        struct fl_kb *one;
        struct entry copy;
        free(text);
        text = NULL;
        if (fl_kb_new(&one) != FL_OK)
            return FL_ERR_NOMEM;
        kb_parse_entry(path, e.markdown, strlen(e.markdown), &copy, &err);
        kb_add_entry(one, &copy);
        st = kb_build_patterns(one, &err);
        if (st == FL_OK)
            st = kb_compile_pattern_db(one, &err);
        fl_kb_free(one);
        if (st == FL_OK)
            return kb_add_entry(kb, &e);
        kb_entry_free(&e);
    }
    free(text);
skip:
    fprintf(stderr, "kbgen: warning: entry left out: %s:%u:%u: %s\n", err.file, err.line, err.col,
            err.msg);
    return FL_OK;
}

static void walk_error(void *ctx, const char *path, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "kbgen: warning: %s: %s\n", path, msg);
}

static enum fl_status add_valid_entries(struct fl_kb *kb, const char *dir)
{
    struct fl_error err = {0};
    if (kb_load_common_lines(kb, dir, &err) != FL_OK) {
        fprintf(stderr, "kbgen: %s: %s\n", err.file, err.msg);
        return FL_ERR_IO;
    }
    return walk_dir(dir, add_file, walk_error, kb);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: kbgen OUT.c KBDIR\n");
        return 2;
    }
    struct fl_kb *kb;
    struct fl_error err = {0};
    if (fl_kb_new(&kb) != FL_OK)
        return 1;
    if (add_valid_entries(kb, argv[2]) != FL_OK || fl_kb_compile(kb, &err) != FL_OK) {
        fprintf(stderr, "%s:%u:%u: %s\n", err.file, err.line, err.col, err.msg);
        fl_kb_free(kb);
        return 1;
    }
    struct tables t = {0};
    if (gather_tables(&t, kb, argv[2]) != FL_OK) {
        fprintf(stderr, "kbgen: the knowledge base does not fit its tables\n");
        free_tables(&t);
        fl_kb_free(kb);
        return 1;
    }
    FILE *out = fopen(argv[1], "w");
    if (out == NULL) {
        perror(argv[1]);
        free_tables(&t);
        fl_kb_free(kb);
        return 1;
    }
    fprintf(out, "/* Generated by tools/kbgen.c from kb/: do not edit. */\n#include \"kb.h\"\n\n");
    write_tables(out, &t, kb);
    free_tables(&t);
    write_patterns(out, kb);
    size_t image_len;
    if (db_image_write(out, "db_image", kb->db, &image_len) != 0) {
        fprintf(stderr, "kbgen: cannot write the database's image\n");
        fclose(out);
        fl_kb_free(kb);
        return 1;
    }
    fprintf(out,
            "const struct kb_prebuilt kb_embedded_prebuilt = {patterns, %zu, pattern_text, "
            "db_image, %zu};\n",
            kb->npatterns, image_len);
    fprintf(out, "const char kb_embedded_common[] = {");
    const char *common = kb->common_lines ? kb->common_lines : "";
    write_bytes(out, (const unsigned char *)common, strlen(common));
    fprintf(out, "0};\n");
    fl_kb_free(kb);
    return fclose(out) == 0 ? 0 : 1;
}
