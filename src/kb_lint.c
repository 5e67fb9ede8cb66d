/*
 * kb_lint.c — everything wrong with a folder of entries, reported with file:line:col, and the
 * loading goes on past errors (like a compiler, unlike fl_kb_add_dir which stops at the first).
 *
 * Errors: a file that does not parse, duplicate ids, a condition naming an undefined signal, a
 * pattern that does not compile, a related id that does not exist, a reference that is not an
 * https URL, a missing Root cause / Fix / Verify section, an entry without positive and negative
 * fixtures. Warnings: a missing optional section, a weak literal (fewer than 8 distinctive
 * characters: it slows every scan and matches healthy logs).
 */
#include "kb.h"
#include "status.h"
#include "walk.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WEAK_LITERAL 8

struct lint {
    struct fl_kb *kb;
    const char *fixtures;
    fl_lint_cb cb;
    void *ctx;
    unsigned errors, warnings, files;
};

static void report(struct lint *l, int is_error, const char *file, unsigned line, const char *fmt,
                   const char *a, const char *b)
{
    struct fl_error e;
    error_set(&e, FL_ERR_KB, file, line, line ? 1 : 0, fmt, a ? a : "", b ? b : "");
    if (is_error)
        l->errors++;
    else
        l->warnings++;
    l->cb(l->ctx, is_error, &e);
}

static enum fl_status lint_file(void *vctx, const char *path)
{
    struct lint *l = vctx;
    size_t n = strlen(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (n < 3 || strcmp(path + n - 3, ".md") != 0 || strcmp(base, "README.md") == 0)
        return FL_OK;
    l->files++;
    struct fl_error err = {0};
    char *text;
    size_t len;
    if (kb_read_file(path, &text, &len, &err) != FL_OK) {
        l->errors++;
        l->cb(l->ctx, 1, &err);
        return FL_OK;
    }
    struct entry e;
    enum fl_status st = kb_parse_entry(path, text, len, &e, &err);
    free(text);
    if (st != FL_OK) {
        l->errors++;
        l->cb(l->ctx, 1, &err);
        return st == FL_ERR_NOMEM ? st : FL_OK;
    }
    if (fl_kb_find(l->kb, e.id) >= 0) {
        report(l, 1, path, 1, "duplicate id '%s'%s", e.id, NULL);
        kb_entry_free(&e);
        return FL_OK;
    }
    char expect[256];
    snprintf(expect, sizeof expect, "%s.md", e.id);
    if (strcmp(base, expect) != 0)
        report(l, 1, path, 1, "file name must be the id: '%s'%s", expect, NULL);
    if (kb_add_entry(l->kb, &e) != FL_OK)
        kb_entry_free(&e);
    return FL_OK;
}

static void walk_error(void *vctx, const char *path, const char *msg)
{
    report(vctx, 1, path, 0, "%s%s", msg, NULL);
}

/* Longest run of plain characters a literal prefilter could use. */
static size_t longest_literal(const struct signal *sig)
{
    if (sig->kind == SIGNAL_LITERAL)
        return strlen(sig->text);
    size_t best = 0, run = 0;
    int depth = 0;
    for (const char *p = sig->text; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            bool lit = !isalnum((unsigned char)*p);
            run = lit ? run + 1 : 0;
        } else if (strchr("[](){}|*+?.^$", *p)) {
            if (*p == '(')
                depth++;
            if (*p == ')')
                depth--;
            /* a quantifier makes the previous character optional or repeated */
            if (strchr("*?{", *p) && run)
                run--;
            if (*p == '[') {
                const char *close = strchr(p + 1, ']');
                p = close ? close : p;
            }
            run = 0;
        } else {
            run++;
        }
        if (run > best)
            best = run;
    }
    (void)depth;
    return best;
}

static bool has_fixture(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return false;
    struct dirent *de;
    bool found = false;
    while (!found && (de = readdir(d)) != NULL)
        found = strncmp(de->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return found;
}

static void lint_entry(struct lint *l, const struct entry *e)
{
    static const char *const required[] = {"Root cause", "Fix", "Verify", NULL};
    static const char *const expected[] = {"Quick answer", "Impact", "Symptoms", "Mechanism",
                                           "Confirm", "Prevention", "Code examples", "FAQ", NULL};
    for (int i = 0; required[i]; i++)
        if (!kb_has_section(e, required[i]))
            report(l, 1, e->path, 0, "missing required section '## %s'%s", required[i], NULL);
    for (int i = 0; expected[i]; i++)
        if (!kb_has_section(e, expected[i]))
            report(l, 0, e->path, 0, "missing section '## %s'%s", expected[i], NULL);
    if (e->nreferences == 0)
        report(l, 1, e->path, 0, "no references: at least one https URL is required%s%s", NULL, NULL);
    for (size_t i = 0; i < e->nrelated; i++)
        if (fl_kb_find(l->kb, e->related[i]) < 0)
            report(l, 1, e->path, 0, "related id '%s' does not exist%s", e->related[i], NULL);
    for (size_t i = 0; i < e->nsignals; i++) {
        const struct signal *sig = &e->signals[i];
        if (sig->kind == SIGNAL_LITERAL && kb_common_text(l->kb, sig->text, sig->nocase))
            report(l, 0, e->path, sig->line,
                   "literal signal '%s' occurs in kb/common-lines.txt: it matches healthy logs%s",
                   sig->name, NULL);
        if (sig->kind != SIGNAL_CONFIG && longest_literal(sig) < WEAK_LITERAL)
            report(l, 0, e->path, sig->line,
                   "signal '%s' has no distinctive literal of 8 characters: it slows every scan "
                   "and may match healthy logs%s", sig->name, NULL);
    }
    if (l->fixtures) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", l->fixtures, e->id);
        if (!has_fixture(dir, "pos-"))
            report(l, 1, e->path, 0, "no positive fixture (%s/pos-*)%s", dir, NULL);
        if (!has_fixture(dir, "neg-"))
            report(l, 1, e->path, 0, "no near-miss negative fixture (%s/neg-*)%s", dir, NULL);
    }
}

unsigned fl_kb_lint_dir(const char *dir, const char *fixtures_dir, fl_lint_cb cb, void *ctx,
                        unsigned *entries, unsigned *warnings)
{
    struct lint l = {.fixtures = fixtures_dir, .cb = cb, .ctx = ctx};
    if (fl_kb_new(&l.kb) != FL_OK)
        return 1;
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        report(&l, 1, dir, 0, "not a folder%s%s", NULL, NULL);
    else {
        struct fl_error err = {0};
        if (kb_load_common_lines(l.kb, dir, &err) != FL_OK)
            report(&l, 1, err.file, 0, "%s%s", err.msg, NULL);
        walk_dir(dir, lint_file, walk_error, &l);
    }
    for (size_t i = 0; i < l.kb->nentries; i++)
        lint_entry(&l, &l.kb->entries[i]);
    if (l.kb->nentries) {
        /* patterns: each one alone first, for a precise location; then the whole database */
        struct fl_error err = {0};
        if (kb_build_patterns(l.kb, &err) != FL_OK) {
            l.errors++;
            cb(ctx, 1, &err);
        } else if (kb_compile_pattern_db(l.kb, &err) != FL_OK) {
            l.errors++;
            cb(ctx, 1, &err);
        }
    }
    if (entries)
        *entries = (unsigned)l.kb->nentries;
    if (warnings)
        *warnings = l.warnings;
    fl_kb_free(l.kb);
    return l.errors;
}
