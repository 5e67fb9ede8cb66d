/* test_kb_embedded.c — the KB the build wrote as C data (tools/kbgen.c) is the KB that parsing
 * the same Markdown and building its patterns at run time gives, field by field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb.h"

static void same_str(const char *what, const char *a, const char *b)
{
    if (a == NULL || b == NULL) {
        if (a != b)
            fail_msg("%s: %s vs %s", what, a ? a : "NULL", b ? b : "NULL");
        return;
    }
    if (strcmp(a, b) != 0)
        fail_msg("%s: '%s' vs '%s'", what, a, b);
}

static void same_list(const char *what, const struct entry *a, const uint32_t *va, size_t na,
                      const struct entry *b, const uint32_t *vb, size_t nb)
{
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++)
        same_str(what, entry_str(a, va[i]), entry_str(b, vb[i]));
}

static void same_entry(const struct entry *a, const struct entry *b)
{
    same_str("id", a->id, b->id);
    same_str("title", a->title, b->title);
    same_str("category", a->category, b->category);
    same_str("severity", a->severity, b->severity);
    same_str("path", a->path, b->path);
    same_str("markdown", a->markdown, b->markdown);
    assert_int_equal(a->body_offset, b->body_offset);
    assert_int_equal(a->collateral, b->collateral);
    same_list("tags", a, a->tags, a->ntags, b, b->tags, b->ntags);
    same_list("systems", a, a->systems, a->nsystems, b, b->systems, b->nsystems);
    same_list("related", a, a->related, a->nrelated, b, b->related, b->nrelated);
    same_list("references", a, a->references, a->nreferences, b, b->references, b->nreferences);
    same_list("differential", a, a->differential, a->ndifferential, b, b->differential,
              b->ndifferential);
    assert_int_equal(a->nsignals, b->nsignals);
    for (size_t i = 0; i < a->nsignals; i++) {
        const struct signal *x = &a->signals[i], *y = &b->signals[i];
        same_str("signal name", entry_str(a, x->name), entry_str(b, y->name));
        same_str("signal text", entry_str(a, x->text), entry_str(b, y->text));
        same_str("prefilter", entry_str(a, x->prefilter), entry_str(b, y->prefilter));
        same_str("config fact", entry_str(a, x->cfg.fact), entry_str(b, y->cfg.fact));
        same_str("config value", entry_str(a, x->cfg.value), entry_str(b, y->cfg.value));
        assert_int_equal(x->cfg.op, y->cfg.op);
        assert_int_equal(x->kind, y->kind);
        assert_int_equal(x->nocase, y->nocase);
        assert_int_equal(x->positive, y->positive);
        assert_int_equal(x->supporting, y->supporting);
        assert_int_equal(x->pattern, y->pattern);
        assert_int_equal(x->line, y->line);
    }
    assert_int_equal(a->cond.len, b->cond.len);
    for (size_t i = 0; i < a->cond.len; i++) {
        const struct cond_insn *x = &a->cond.code[i], *y = &b->cond.code[i];
        assert_int_equal(x->op, y->op);
        assert_int_equal(x->signal, y->signal);
        assert_int_equal(x->cmp, y->cmp);
        assert_int_equal(x->n, y->n);
    }
}

static void same_pattern(const struct fl_kb *ka, const struct pattern *a, const struct fl_kb *kb,
                         const struct pattern *b)
{
    assert_int_equal(a->entry, b->entry);
    assert_int_equal(a->signal, b->signal);
    assert_int_equal(a->builtin, b->builtin);
    same_str("hs_expr", kb_text(ka, a->hs_expr), kb_text(kb, b->hs_expr));
    assert_int_equal(a->hs_flags, b->hs_flags);
    same_str("pcre_expr", kb_text(ka, a->pcre_expr), kb_text(kb, b->pcre_expr));
    assert_int_equal(a->nocase, b->nocase);
    assert_int_equal(a->names_location, b->names_location);
    assert_int_equal(a->confirm, b->confirm);
    same_str("literal", kb_text(ka, a->literal), kb_text(kb, b->literal));
    assert_int_equal(a->literal_len, b->literal_len);
    assert_int_equal(a->literal ? strlen(kb_text(ka, a->literal)) : 0, a->literal_len);
    assert_int_equal(a->window_end, b->window_end);
}

static void written_equals_parsed(void **state)
{
    (void)state;
    struct fl_error err = {0};
    struct fl_kb *built, *parsed;
    assert_int_equal(fl_kb_new(&built), FL_OK);
    assert_int_equal(fl_kb_add_embedded(built, &err), FL_OK);
    assert_non_null(built->prebuilt);
    assert_int_equal(fl_kb_compile(built, &err), FL_OK);

    /* the same texts through the YAML loader and the pattern builder */
    assert_int_equal(fl_kb_new(&parsed), FL_OK);
    for (size_t i = 0; i < kb_embedded_count; i++) {
        const struct entry e = kb_embedded_entry(i);
        struct entry p;
        if (kb_parse_entry(e.path, e.markdown, strlen(e.markdown), &p, &err) != FL_OK)
            fail_msg("%s: %s", e.path, err.msg);
        assert_int_equal(kb_add_entry(parsed, &p), FL_OK);
    }
    assert_int_equal(kb_set_common_lines(parsed, kb_embedded_common, strlen(kb_embedded_common)),
                     FL_OK);
    assert_null(parsed->prebuilt);
    if (fl_kb_compile(parsed, &err) != FL_OK)
        fail_msg("%s: %s", err.file, err.msg);

    assert_int_equal(built->nentries, parsed->nentries);
    for (size_t i = 0; i < built->nentries; i++)
        same_entry(&built->entries[i], &parsed->entries[i]);
    /* the shipped KB reads its signals and texts where the build left them: nothing writes to
     * them */
    for (size_t i = 0; i < built->nentries; i++) {
        const struct entry *e = &built->entries[i];
        assert_false(e->signals_owned);
        assert_ptr_equal(e->strings, kb_embedded_strings);
        size_t j = 0;
        while (j < kb_embedded_count && kb_embedded_entry(j).id != e->id)
            j++;
        assert_true(j < kb_embedded_count);
        assert_ptr_equal(e->signals, kb_embedded_signals + kb_embedded_images[j].signals);
    }
    assert_int_equal(built->npatterns, parsed->npatterns);
    for (size_t i = 0; i < built->npatterns; i++)
        same_pattern(built, &built->patterns[i], parsed, &parsed->patterns[i]);
    fl_kb_free(built);
    fl_kb_free(parsed);
}

/* An entry from a folder replaces a shipped one: the KB is built anew (on its own copies of the
 * shipped signals) and frees what it owns. */
static void override_rebuilds(void **state)
{
    (void)state;
    struct fl_error err = {0};
    struct fl_kb *kb;
    const struct entry shipped_entry = kb_embedded_entry(0), *shipped = &shipped_entry;
    char path[] = "/tmp/fl-test-kb-XXXXXX.md";
    int fd = mkstemps(path, 3);
    assert_true(fd >= 0);
    size_t len = strlen(shipped->markdown);
    assert_int_equal(write(fd, shipped->markdown, len), (ssize_t)len);
    close(fd);
    assert_int_equal(fl_kb_new(&kb), FL_OK);
    assert_int_equal(fl_kb_add_embedded(kb, &err), FL_OK);
    assert_int_equal(fl_kb_add_dir(kb, path, &err), FL_OK);
    assert_null(kb->prebuilt);
    assert_int_equal(fl_kb_compile(kb, &err), FL_OK);
    unlink(path);
    /* building the patterns wrote each signal's pattern index into the KB's own copies */
    for (size_t i = 0; i < kb->nentries; i++) {
        const struct entry *e = &kb->entries[i];
        if (!e->embedded)
            continue;
        assert_true(e->signals_owned);
        for (size_t j = 0; j < kb_embedded_count; j++)
            assert_ptr_not_equal(e->signals, kb_embedded_signals + kb_embedded_images[j].signals);
    }
    assert_int_equal(kb->nentries, kb_embedded_count);
    long i = fl_kb_find(kb, shipped->id);
    assert_true(i >= 0);
    assert_string_equal(kb->entries[i].path, path);
    assert_false(kb->entries[i].embedded);
    fl_kb_free(kb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(written_equals_parsed),
        cmocka_unit_test(override_rebuilds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
