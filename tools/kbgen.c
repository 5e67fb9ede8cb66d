/*
 * kbgen.c — build-time generator of kb_embedded.c.
 *
 * Usage: kbgen OUT.c KBDIR
 *
 * Loads and compiles every entry under KBDIR exactly as the library does at run time, and writes
 * the result as C data: the entries already parsed (struct entry initialisers: strings, signals,
 * condition programs, the Markdown texts), the pattern table, and the Vectorscan database
 * compiled from it, serialised. Start-up then neither parses YAML nor builds patterns for the
 * shipped entries. An invalid entry fails the build with its file:line message.
 */
#include "kb.h"
#include "db_image.h"
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_bytes(FILE *out, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%u,", i % 24 == 0 ? "\n" : "", p[i]);
}

/* A C string literal, or NULL. Printable ASCII stays readable; quotes, backslashes, '?' (no
 * trigraphs) and every other byte become three-digit octal escapes, which unlike \x cannot run
 * into the next character. */
static void write_str(FILE *out, const char *s)
{
    if (s == NULL) {
        fputs("NULL", out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?')
            fputc(c, out);
        else
            fprintf(out, "\\%03o", c);
    }
    fputc('"', out);
}

/* A NULL-terminated list as get_list makes it (kb_load.c); its name, or NULL when absent. */
static void write_list(FILE *out, const char *name, size_t i, char **v, size_t n)
{
    if (v == NULL)
        return;
    fprintf(out, "static const char *const %s_%zu[] = {", name, i);
    for (size_t k = 0; k < n; k++) {
        write_str(out, v[k]);
        fputs(", ", out);
    }
    fputs("NULL};\n", out);
}

static void write_list_ref(FILE *out, const char *field, const char *name, size_t i, char **v,
                           size_t n)
{
    if (v)
        fprintf(out, "    .%s = (char **)%s_%zu, .n%s = %zu,\n", field, name, i, field, n);
}

/* Everything of entry i but its Markdown text (text_i), as static data and one initialiser. */
static void write_entry_data(FILE *out, const struct entry *e, size_t i)
{
    write_list(out, "tags", i, e->tags, e->ntags);
    write_list(out, "systems", i, e->systems, e->nsystems);
    write_list(out, "related", i, e->related, e->nrelated);
    write_list(out, "references", i, e->references, e->nreferences);
    fprintf(out, "static const struct signal signals_%zu[] = {\n", i);
    for (size_t k = 0; k < e->nsignals; k++) {
        const struct signal *g = &e->signals[k];
        fputs("    {.name = ", out);
        write_str(out, g->name);
        fprintf(out, ", .kind = (enum signal_kind)%d, .text = ", (int)g->kind);
        write_str(out, g->text);
        fputs(", .prefilter = ", out);
        write_str(out, g->prefilter);
        fprintf(out, ", .nocase = %d, .positive = %d, .supporting = %d, .cfg = {.fact = ",
                g->nocase, g->positive, g->supporting);
        write_str(out, g->cfg.fact);
        fprintf(out, ", .op = (enum cmp_op)%d, .value = ", (int)g->cfg.op);
        write_str(out, g->cfg.value);
        fprintf(out, "}, .pattern = %d, .line = %u},\n", g->pattern, g->line);
    }
    fputs("};\n", out);
    if (e->cond.len) {
        fprintf(out, "static const struct cond_insn cond_%zu[] = {\n", i);
        for (size_t k = 0; k < e->cond.len; k++) {
            const struct cond_insn *c = &e->cond.code[k];
            fprintf(out, "    {(enum cond_op)%d, %d, (enum cmp_op)%d, %ldL},\n", (int)c->op,
                    c->signal, (int)c->cmp, c->n);
        }
        fputs("};\n", out);
    }
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

static void write_entry(FILE *out, const struct entry *e, size_t i, const char *kbdir)
{
    /* the path relative to the KB folder, as "kb/<category>/<id>.md" */
    const char *rel = e->path + strlen(kbdir);
    while (*rel == '/')
        rel++;
    fputs("  {.id = ", out);
    write_str(out, e->id);
    fputs(", .title = ", out);
    write_str(out, e->title);
    fputs(",\n    .category = ", out);
    write_str(out, e->category);
    fputs(", .severity = ", out);
    write_str(out, e->severity);
    fputs(", .path = \"kb/\" ", out);
    write_str(out, rel);
    fprintf(out, ", .collateral = %d,\n", e->collateral);
    write_list_ref(out, "tags", "tags", i, e->tags, e->ntags);
    write_list_ref(out, "systems", "systems", i, e->systems, e->nsystems);
    write_list_ref(out, "related", "related", i, e->related, e->nrelated);
    write_list_ref(out, "references", "references", i, e->references, e->nreferences);
    fprintf(out, "    .signals = (struct signal *)signals_%zu, .nsignals = %zu,\n", i, e->nsignals);
    if (e->cond.len)
        fprintf(out, "    .cond = {(struct cond_insn *)cond_%zu, %zu},\n", i, e->cond.len);
    fprintf(out, "    .markdown = (char *)text_%zu, .body_offset = %zu, .embedded = true},\n", i,
            e->body_offset);
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
    FILE *out = fopen(argv[1], "w");
    if (out == NULL) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "/* Generated by tools/kbgen.c from kb/: do not edit. */\n#include \"kb.h\"\n\n");
    for (size_t i = 0; i < kb->nentries; i++) {
        const struct entry *e = &kb->entries[i];
        fprintf(out, "static const char text_%zu[] = {", i);
        write_bytes(out, (const unsigned char *)e->markdown, strlen(e->markdown));
        fprintf(out, "0};\n");
        write_entry_data(out, e, i);
    }
    fprintf(out, "const struct entry kb_embedded_entries[] = {\n");
    for (size_t i = 0; i < kb->nentries; i++)
        write_entry(out, &kb->entries[i], i, argv[2]);
    fprintf(out, "};\nconst size_t kb_embedded_count = %zu;\n", kb->nentries);
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
