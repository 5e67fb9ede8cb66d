/*
 * kb_lint.c — everything wrong with a folder of entries, reported with file:line:col, and the
 * loading goes on past errors (like a compiler, unlike fl_kb_add_dir which stops at the first).
 *
 * Errors: a file that does not parse, duplicate ids, a condition naming an undefined signal, a
 * condition that holds with none of its patterns matched (it would diagnose every log), a pattern
 * that does not compile, a related id that does not exist, a reference that is not an https URL,
 * a missing Root cause / Fix / Verify section, an entry without positive and negative fixtures.
 * Warnings: a missing optional section, a missing condition (then every signal decides, the
 * supporting ones included), a weak literal (fewer than 8 distinctive characters: it slows every
 * scan and matches healthy logs), a signal that no line of the entry's fixtures matches (a wording
 * nobody has shown the entry), a Verify that imports a Python module neither well known nor named
 * by the entry (a pseudo-import of the user's own code), a regex that repeats a group which itself
 * repeats without a fixed character, like `(a+)+` (backtracking blows up on a near miss).
 */
#include "kb.h"
#include "status.h"
#include "walk.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
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
static size_t longest_literal(const struct entry *e, const struct signal *sig)
{
    const char *text = entry_str(e, sig->text);
    if (sig->kind == SIGNAL_LITERAL)
        return strlen(text);
    size_t best = 0, run = 0;
    int depth = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            bool lit = !isalnum((unsigned char)*p);
            run = lit ? run + 1 : 0;
        } else if (*p == '^' && (p == text || p[-1] == '(' || p[-1] == '|')) {
            /* a line anchor stands for the newline before the line: `^Killed$` is the 8 bytes
               "\nKilled\n", as distinctive as any 8-character literal */
            run = 1;
        } else if (*p == '$' && run && (p[1] == '\0' || p[1] == ')' || p[1] == '|')) {
            run++;
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

/* --- the condition --------------------------------------------------------------------------- */

/* A condition that holds when no literal or regex signal matched (`not x`, `#x < 3`, a config test
 * alone) diagnoses logs that show nothing of the failure; tried with config tests false, then true. */
static void lint_condition(struct lint *l, const struct entry *e)
{
    if (e->cond.len == 0) {
        report(l, 0, e->path, 0,
               "no condition: every literal and regex signal decides, supporting ones included; "
               "name the deciding signals%s%s", NULL, NULL);
        return;
    }
    unsigned long *counts = calloc(e->nsignals ? e->nsignals : 1, sizeof *counts);
    if (counts == NULL)
        return;
    for (unsigned long configs = 0; configs < 2; configs++) {
        for (size_t i = 0; i < e->nsignals; i++)
            counts[i] = e->signals[i].kind == SIGNAL_CONFIG ? configs : 0;
        if (condition_eval(e, counts)) {
            report(l, 1, e->path, 0,
                   "the condition holds when none of its patterns matched: it would diagnose "
                   "logs that show nothing of this failure%s%s", NULL, NULL);
            break;
        }
    }
    free(counts);
}

/* --- signals against the entry's fixtures ------------------------------------------------------ */

struct file_list {
    char **paths;
    size_t n, cap;
};

static enum fl_status collect_file(void *vctx, const char *path)
{
    struct file_list *fl = vctx;
    const char *base = strrchr(path, '/');
    if (strcmp(base ? base + 1 : path, "expect.yaml") == 0)
        return FL_OK;
    if (fl->n == fl->cap) {
        size_t cap = fl->cap ? fl->cap * 2 : 16;
        char **p = realloc(fl->paths, cap * sizeof *p);
        if (p == NULL)
            return FL_ERR_NOMEM;
        fl->paths = p;
        fl->cap = cap;
    }
    if ((fl->paths[fl->n] = strdup(path)) == NULL)
        return FL_ERR_NOMEM;
    fl->n++;
    return FL_OK;
}

static void ignore_walk_error(void *vctx, const char *path, const char *msg)
{
    (void)vctx, (void)path, (void)msg;
}

static bool contains(const char *hay, size_t n, const char *needle, bool nocase)
{
    size_t m = strlen(needle);
    for (size_t i = 0; m <= n && i <= n - m; i++) {
        size_t k = 0;
        while (k < m && (nocase ? tolower((unsigned char)hay[i + k]) ==
                                      tolower((unsigned char)needle[k])
                                : hay[i + k] == needle[k]))
            k++;
        if (k == m)
            return true;
    }
    return false;
}

/* Marks covered[i] for every signal that matches a line of text, as the scanner would: within
 * one line, literals as substrings, regexes through PCRE2 with the engine's flags. */
static void cover_lines(const struct entry *e, pcre2_code **re, pcre2_match_data *md,
                        const char *text, size_t len, bool *covered)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        if (n && p[n - 1] == '\r')
            n--;
        for (size_t i = 0; i < e->nsignals; i++) {
            const struct signal *sig = &e->signals[i];
            if (covered[i] || sig->kind == SIGNAL_CONFIG)
                continue;
            if (sig->kind == SIGNAL_LITERAL)
                covered[i] = contains(p, n, entry_str(e, sig->text), sig->nocase);
            else if (re[i])
                covered[i] = pcre2_match(re[i], (PCRE2_SPTR)p, n, 0, 0, md, NULL) >= 0;
        }
        p = nl ? nl + 1 : end;
    }
}

/* Every signal should be shown by a fixture line: a wording nobody has seen the entry match is
 * a guess (it may be wrong, or never match what the tool really prints). */
static void lint_fixture_lines(struct lint *l, const struct entry *e, const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return;
    struct file_list files = {0};
    bool *covered = calloc(e->nsignals ? e->nsignals : 1, sizeof *covered);
    pcre2_code **re = calloc(e->nsignals ? e->nsignals : 1, sizeof *re);
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    if (covered == NULL || re == NULL || md == NULL ||
        walk_dir(dir, collect_file, ignore_walk_error, &files) != FL_OK)
        goto out;
    for (size_t i = 0; i < e->nsignals; i++) {
        const struct signal *sig = &e->signals[i];
        if (sig->kind != SIGNAL_REGEX)
            continue;
        int rc;
        PCRE2_SIZE off;
        re[i] = pcre2_compile((PCRE2_SPTR)entry_str(e, sig->text), PCRE2_ZERO_TERMINATED,
                              (sig->nocase ? PCRE2_CASELESS : 0) | PCRE2_MULTILINE, &rc, &off,
                              NULL);
    }
    for (size_t f = 0; f < files.n; f++) {
        char *text;
        size_t len;
        struct fl_error err = {0};
        if (kb_read_file(files.paths[f], &text, &len, &err) != FL_OK)
            continue; /* too big or unreadable: the fixture test itself reports it */
        cover_lines(e, re, md, text, len, covered);
        free(text);
    }
    for (size_t i = 0; i < e->nsignals; i++)
        if (!covered[i] && (e->signals[i].kind == SIGNAL_LITERAL ||
                            (e->signals[i].kind == SIGNAL_REGEX && re[i] != NULL)))
            report(l, 0, e->path, e->signals[i].line,
                   "signal '%s' matches no line of the entry's fixtures (%s): add a fixture with "
                   "the real text it was written for", entry_str(e, e->signals[i].name), dir);
out:
    for (size_t i = 0; re && i < e->nsignals; i++)
        pcre2_code_free(re[i]);
    pcre2_match_data_free(md);
    for (size_t f = 0; f < files.n; f++)
        free(files.paths[f]);
    free(files.paths);
    free(re);
    free(covered);
}

/* --- modules imported by Verify ---------------------------------------------------------------- */

/* Modules any Verify may import: Python's own, and the packages of the stacks faultline reads.
 * Anything else must be named by the entry (systems or tags), or it is the user's own code
 * presented as if it were importable (`import train; train.step()`). */
static const char *const known_modules[] = {
    "sys", "os", "time", "json", "glob", "re", "subprocess", "resource", "socket", "runpy",
    "datetime", "math", "inspect", "itertools", "collections", "pathlib", "shutil", "signal",
    "platform", "ctypes", "importlib", "gc", "tempfile", "threading", "multiprocessing",
    "torch", "torchvision", "torchaudio", "numpy", "deepspeed", "transformers", "accelerate",
    "datasets", "megatron", "apex", "triton", "vllm", "trl", "peft", "safetensors",
    "flash_attn", "PIL", "pynvml", "tokenizers", "lightning", "pytorch_lightning", NULL};

static bool word_equal(const char *a, size_t an, const char *mod, size_t mn)
{
    if (an != mn)
        return false;
    for (size_t i = 0; i < an; i++) {
        char c = a[i] == '-' || a[i] == ' ' ? '_' : (char)tolower((unsigned char)a[i]);
        if (c != tolower((unsigned char)mod[i]))
            return false;
    }
    return true;
}

/* mod is named by s when s, or one of its words, spells it (case and '-'/'_' aside), or when mod
 * is s followed by '_' and more (flash_attn_2_cuda is flash-attn's extension). */
static bool names_module(const char *s, const char *mod, size_t mn)
{
    size_t sn = strlen(s);
    if (word_equal(s, sn, mod, mn > sn && mod[sn] == '_' ? sn : mn))
        return true;
    for (const char *w = s; *w;) {
        size_t wl = strcspn(w, " /");
        if (wl && word_equal(w, wl, mod, mn > wl && mod[wl] == '_' ? wl : mn))
            return true;
        w += wl;
        w += *w != '\0';
    }
    return false;
}

static bool module_known(const struct entry *e, const char *mod, size_t mn)
{
    for (int i = 0; known_modules[i]; i++)
        if (names_module(known_modules[i], mod, mn))
            return true;
    for (size_t i = 0; i < e->nsystems; i++)
        if (names_module(entry_str(e, e->systems[i]), mod, mn))
            return true;
    for (size_t i = 0; i < e->ntags; i++)
        if (names_module(entry_str(e, e->tags[i]), mod, mn))
            return true;
    return false;
}

static bool word_start(const char *code, const char *p)
{
    return p == code || strchr(" \t\n;\"'(", p[-1]) != NULL;
}

static size_t ident_len(const char *p)
{
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_')
        n++;
    return n;
}

static void check_module(struct lint *l, const struct entry *e, const char *mod, size_t n)
{
    if (n == 0 || module_known(e, mod, n))
        return;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(n < 100 ? n : 100), mod);
    report(l, 0, e->path, 0,
           "Verify imports '%s', which the entry does not name (systems, tags) and is no "
           "well-known package: a reader cannot run it; write a template that marks the user's "
           "part%s", name, NULL);
}

/* `import a, b.c as d` and `from x.y import z` in the first code block of Verify. */
static void lint_verify_imports(struct lint *l, const struct entry *e)
{
    char *code = kb_section_text(e, "Verify", false, true);
    if (code == NULL)
        return;
    for (const char *p = code; *p; p++) {
        if (!word_start(code, p))
            continue;
        if (strncmp(p, "from ", 5) == 0) {
            const char *m = p + 5;
            size_t n = ident_len(m);
            const char *q = m + n;
            while (*q == '.' || isalnum((unsigned char)*q) || *q == '_')
                q++;
            if (n && strncmp(q, " import ", 8) == 0) {
                check_module(l, e, m, n);
                p = q + 7; /* what follows names attributes, not modules */
                while (p[1] && !strchr(";\n\"'", p[1]))
                    p++;
            }
        } else if (strncmp(p, "import ", 7) == 0) {
            const char *m = p + 7;
            for (;;) {
                while (*m == ' ')
                    m++;
                size_t n = ident_len(m);
                if (n == 0)
                    break;
                check_module(l, e, m, n);
                m += n;
                while (*m == '.' || isalnum((unsigned char)*m) || *m == '_')
                    m++;
                if (strncmp(m, " as ", 4) == 0)
                    m += 4 + ident_len(m + 4);
                while (*m == ' ')
                    m++;
                if (*m != ',')
                    break;
                m++;
            }
            p = m - 1;
        }
    }
    free(code);
}

/* --- nested quantifiers -------------------------------------------------------------------------- */

/* One quantifier after an atom: what it allows. */
struct quant {
    bool optional, unbounded;
    size_t len;
};

static struct quant read_quant(const char *p)
{
    struct quant q = {0};
    if (*p == '*')
        q = (struct quant){true, true, 1};
    else if (*p == '+')
        q = (struct quant){false, true, 1};
    else if (*p == '?')
        q = (struct quant){true, false, 1};
    else if (*p == '{' && isdigit((unsigned char)p[1])) {
        char *end;
        long lo = strtol(p + 1, &end, 10);
        if (*end == '}')
            q = (struct quant){lo == 0, false, (size_t)(end - p) + 1};
        else if (*end == ',' && end[1] == '}')
            q = (struct quant){lo == 0, true, (size_t)(end - p) + 2};
        else if (*end == ',' && isdigit((unsigned char)end[1])) {
            strtol(end + 1, &end, 10);
            if (*end == '}')
                q = (struct quant){lo == 0, false, (size_t)(end - p) + 1};
        }
    }
    if (q.len && (p[q.len] == '?' || p[q.len] == '+'))
        q.len++; /* lazy or possessive */
    return q;
}

#define NEST_MAX 32

/* Per open group and its current alternative: whether something repeats without bound, and
 * whether something must match exactly once (a fixed character splits the repetitions). */
struct group_state {
    bool alt_unbounded, alt_fixed, all_fixed, any_unbounded, ambiguous;
};

static void add_atom(struct group_state *g, bool unbounded, bool fixed)
{
    g->alt_unbounded |= unbounded;
    g->alt_fixed |= fixed;
}

static void end_alternative(struct group_state *g)
{
    g->ambiguous |= g->alt_unbounded && !g->alt_fixed;
    g->any_unbounded |= g->alt_unbounded;
    g->all_fixed &= g->alt_fixed;
    g->alt_unbounded = g->alt_fixed = false;
}

/* True for a group repeated without bound whose body is itself only repetition, `(a+)+` or
 * `(\s*x?)*`: a line that almost matches makes the backtracking engine try every way of
 * splitting it between the two loops. */
static bool nested_quantifier(const char *re)
{
    struct group_state st[NEST_MAX + 1] = {{.all_fixed = true}};
    int depth = 0;
    for (const char *p = re; *p;) {
        bool unbounded = false, fixed = false, zero_width = false;
        if (*p == '\\' && p[1]) {
            zero_width = strchr("bBAzZG", p[1]) != NULL;
            p += 2;
        } else if (*p == '[') {
            const char *q = p + 1;
            if (*q == '^')
                q++;
            if (*q == ']')
                q++;
            while (*q && *q != ']')
                q += (*q == '\\' && q[1]) ? 2 : 1;
            p = *q ? q + 1 : q;
        } else if (*p == '(') {
            if (depth == NEST_MAX)
                return false;
            st[++depth] = (struct group_state){.all_fixed = true};
            p++;
            if (*p == '?') { /* (?:, (?<name>, (?i): skip to the body */
                while (*p && *p != ':' && *p != '>' && *p != ')' && *p != '=' && *p != '!')
                    p++;
                if (*p == ':' || *p == '>' || *p == '=' || *p == '!')
                    p++;
            }
            continue;
        } else if (*p == ')') {
            if (depth == 0)
                return false;
            end_alternative(&st[depth]);
            struct group_state g = st[depth--];
            struct quant q = read_quant(p + 1);
            if (q.unbounded && g.ambiguous)
                return true;
            add_atom(&st[depth], g.any_unbounded || q.unbounded,
                     g.all_fixed && !q.optional && !q.unbounded);
            p += 1 + q.len;
            continue;
        } else if (*p == '|') {
            end_alternative(&st[depth]);
            p++;
            continue;
        } else {
            zero_width = *p == '^' || *p == '$';
            p++;
        }
        struct quant q = read_quant(p);
        p += q.len;
        if (zero_width)
            continue;
        unbounded = q.unbounded;
        fixed = !q.optional && !q.unbounded;
        add_atom(&st[depth], unbounded, fixed);
    }
    return false;
}

/* A differential names what else the entry's lines can mean; a report lists it after the
 * diagnoses that matched, and more than KB_DIFFERENTIAL_MAX would bury them under guesses. */
static void lint_differential(struct lint *l, const struct entry *e)
{
    if (e->ndifferential > KB_DIFFERENTIAL_MAX)
        report(l, 1, e->path, 0, "differential lists more than two entries: a report shows two%s%s",
               NULL, NULL);
    for (size_t i = 0; i < e->ndifferential; i++) {
        const char *id = entry_str(e, e->differential[i]);
        long k = fl_kb_find(l->kb, id);
        if (k < 0)
            report(l, 1, e->path, 0, "differential id '%s' does not exist%s", id, NULL);
        else if (strcmp(id, e->id) == 0)
            report(l, 1, e->path, 0, "differential id '%s' is the entry itself%s", id, NULL);
        else if (l->kb->entries[k].collateral && !e->collateral)
            report(l, 1, e->path, 0, "differential id '%s' is a collateral entry: a consequence is "
                   "no alternative to a primary failure%s", id, NULL);
        for (size_t j = 0; j < i; j++)
            if (strcmp(id, entry_str(e, e->differential[j])) == 0)
                report(l, 1, e->path, 0, "differential id '%s' is listed twice%s", id, NULL);
    }
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
        if (fl_kb_find(l->kb, entry_str(e, e->related[i])) < 0)
            report(l, 1, e->path, 0, "related id '%s' does not exist%s",
                   entry_str(e, e->related[i]), NULL);
    lint_differential(l, e);
    for (size_t i = 0; i < e->nsignals; i++) {
        const struct signal *sig = &e->signals[i];
        const char *name = entry_str(e, sig->name), *text = entry_str(e, sig->text);
        if (sig->kind == SIGNAL_LITERAL && kb_common_text(l->kb, text, sig->nocase))
            report(l, 0, e->path, sig->line,
                   "literal signal '%s' occurs in kb/common-lines.txt: it matches healthy logs%s",
                   name, NULL);
        if (sig->kind != SIGNAL_CONFIG && longest_literal(e, sig) < WEAK_LITERAL)
            report(l, 0, e->path, sig->line,
                   "signal '%s' has no distinctive literal of 8 characters: it slows every scan "
                   "and may match healthy logs%s", name, NULL);
        if (sig->kind == SIGNAL_REGEX && nested_quantifier(text))
            report(l, 0, e->path, sig->line,
                   "signal '%s' repeats a group that itself repeats with nothing fixed between, "
                   "like (a+)+: a near miss makes PCRE2 backtrack exponentially%s", name, NULL);
    }
    lint_condition(l, e);
    lint_verify_imports(l, e);
    if (l->fixtures) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", l->fixtures, e->id);
        if (!has_fixture(dir, "pos-"))
            report(l, 1, e->path, 0, "no positive fixture (%s/pos-*)%s", dir, NULL);
        if (!has_fixture(dir, "neg-"))
            report(l, 1, e->path, 0, "no near-miss negative fixture (%s/neg-*)%s", dir, NULL);
        lint_fixture_lines(l, e, dir);
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
