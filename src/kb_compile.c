/*
 * kb_compile.c — every signal of every entry, plus the extractors' built-in patterns, into one
 * Vectorscan database.
 *
 * Why one database: the scan cost of Vectorscan barely grows with the number of literals when
 * they are distinctive, so the whole KB costs about as much as one pattern, and every byte is
 * read once. Literals are handed to Vectorscan hex-escaped (no metacharacter surprises). Regexes
 * go as written; the few that Vectorscan cannot run exactly are compiled with HS_FLAG_PREFILTER
 * and confirmed by PCRE2 on the matched line. PCRE2 also runs, only on matched lines, for the
 * patterns with named captures.
 *
 * We never ask Vectorscan for start-of-match offsets (HS_FLAG_SOM_LEFTMOST): it costs stream
 * state and speed, and the end offset is enough to find the line, which is all we need.
 */
#include "kb.h"
#include "extract.h"
#include "status.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define KB_MAX_PATTERNS 65536
#define KB_MAX_PATTERN_TEXT ((size_t)256 << 20)

static char *hex_literal(const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char *out = malloc(n * 4 + 1);
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i * 4] = '\\';
        out[i * 4 + 1] = 'x';
        out[i * 4 + 2] = hex[c >> 4];
        out[i * 4 + 3] = hex[c & 15];
    }
    out[n * 4] = '\0';
    return out;
}

/* What Vectorscan looks for to find text: its rarest window (kb_atoms.c), which ends at *end
 * in text. */
static char *window_literal(const struct atom_model *m, const char *text, size_t *end)
{
    size_t off, n = kb_atom_window(m, text, &off);
    *end = off + n;
    return hex_literal(text + off, n);
}

/* The offset of text, added to kb's pattern text; 0 when text is NULL. Takes text when owned
 * (freed; NULL from a failed allocation is FL_ERR_NOMEM). */
static enum fl_status add_text(struct fl_kb *kb, const char *text, bool owned, uint32_t *off)
{
    enum fl_status st = FL_OK;
    *off = 0;
    if (text == NULL)
        return owned ? FL_ERR_NOMEM : FL_OK;
    if (kb->pattern_text.len == 0)
        st = buf_putc(&kb->pattern_text, '\0'); /* offset 0: no text */
    size_t at = kb->pattern_text.len;
    if (st == FL_OK && at > UINT32_MAX - strlen(text) - 1)
        st = FL_ERR_LIMIT;
    if (st == FL_OK)
        st = buf_append(&kb->pattern_text, text, strlen(text) + 1);
    kb->text = kb->pattern_text.data;
    *off = (uint32_t)at;
    if (owned)
        free((char *)(uintptr_t)text);
    return st;
}

/* The offset of a PCRE2 expression: the one of an earlier pattern with the same text, if any,
 * so that equal expressions have one offset (extract.c's missed_before compares offsets). */
static enum fl_status add_expr(struct fl_kb *kb, const char *text, uint32_t *off)
{
    for (size_t i = 0; text && i < kb->npatterns; i++)
        if (kb->patterns[i].pcre_expr && strcmp(kb_text(kb, kb->patterns[i].pcre_expr), text) == 0) {
            *off = kb->patterns[i].pcre_expr;
            return FL_OK;
        }
    return add_text(kb, text, false, off);
}

static enum fl_status add_pattern(struct fl_kb *kb, struct pattern p)
{
    enum fl_status st = GROW(kb->patterns, kb->patterns_cap, kb->npatterns, KB_MAX_PATTERNS);
    if (st != FL_OK)
        return st;
    kb->patterns[kb->npatterns++] = p;
    return FL_OK;
}

/* Whether Vectorscan takes expr with flags; on success *empty tells whether it can match an
 * empty string, else *why holds Vectorscan's message (the caller frees it). */
static bool vectorscan_takes(const char *expr, unsigned flags, bool *empty, hs_compile_error_t **why)
{
    hs_expr_info_t *info = NULL;
    *why = NULL;
    if (hs_expression_info(expr, flags, &info, why) != HS_SUCCESS)
        return false;
    *empty = info->min_width == 0;
    free(info);
    return true;
}

/* A signal's prefilter must be a regex Vectorscan runs exactly, and never match empty. */
static enum fl_status check_prefilter(const struct entry *e, const struct signal *sig,
                                      struct fl_error *err)
{
    const char *name = entry_str(e, sig->name);
    unsigned flags = HS_FLAG_MULTILINE | (sig->nocase ? HS_FLAG_CASELESS : 0);
    bool empty;
    hs_compile_error_t *ce;
    if (!vectorscan_takes(entry_str(e, sig->prefilter), flags, &empty, &ce)) {
        enum fl_status st = error_set(err, FL_ERR_PATTERN, e->path, sig->line, 1,
                                      "signal '%s': prefilter: Vectorscan: %s", name, ce->message);
        hs_free_compile_error(ce);
        return st;
    }
    return empty ? error_set(err, FL_ERR_PATTERN, e->path, sig->line, 1,
                             "signal '%s': the prefilter can match an empty string", name)
                 : FL_OK;
}

/* Checks a regex with PCRE2 (syntax, captures) and Vectorscan (exact, or *approx: only as
 * HS_FLAG_PREFILTER, an over-approximation that PCRE2 confirms). */
static enum fl_status check_regex(const struct entry *e, const struct signal *sig, bool *captures,
                                  bool *approx, struct fl_error *err)
{
    const char *name = entry_str(e, sig->name), *text = entry_str(e, sig->text);
    int rc;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)text, PCRE2_ZERO_TERMINATED,
                                   (sig->nocase ? PCRE2_CASELESS : 0) | PCRE2_MULTILINE, &rc, &off,
                                   NULL);
    if (re == NULL) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(rc, msg, sizeof msg);
        return error_set(err, FL_ERR_PATTERN, e->path, sig->line, (unsigned)off + 1,
                         "signal '%s': %s", name, (const char *)msg);
    }
    uint32_t ncap = 0;
    pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &ncap);
    pcre2_code_free(re);
    *captures = ncap > 0;
    *approx = false;
    unsigned flags = HS_FLAG_MULTILINE | (sig->nocase ? HS_FLAG_CASELESS : 0);
    bool empty;
    hs_compile_error_t *ce;
    if (!vectorscan_takes(text, flags, &empty, &ce)) {
        hs_free_compile_error(ce);
        if (!vectorscan_takes(text, flags | HS_FLAG_PREFILTER, &empty, &ce)) {
            enum fl_status st = error_set(err, FL_ERR_PATTERN, e->path, sig->line, 1,
                                          "signal '%s': Vectorscan: %s", name, ce->message);
            hs_free_compile_error(ce);
            return st;
        }
        *approx = true;
    }
    if (empty)
        return error_set(err, FL_ERR_PATTERN, e->path, sig->line, 1,
                         "signal '%s' can match an empty string", name);
    return FL_OK;
}

void kb_free_patterns(struct fl_kb *kb)
{
    buf_free(&kb->pattern_text);
    kb->text = NULL;
    kb->npatterns = 0;
}

/* Whether a regex sets options inline ("(?i)", "(?x:...)"), which change what its literal
 * characters match. */
static bool inline_options(const char *rx)
{
    for (const char *p = strstr(rx, "(?"); p; p = strstr(p + 2, "(?"))
        if (isalpha((unsigned char)p[2]) && p[2] != 'P' && (p == rx || p[-1] != '\\'))
            return true;
    return false;
}

static enum fl_status build_signals(struct fl_kb *kb, const struct atom_model *m,
                                   struct fl_error *err)
{
    enum fl_status st = FL_OK;
    for (size_t ei = 0; ei < kb->nentries; ei++) {
        struct entry *e = &kb->entries[ei];
        for (size_t si = 0; si < e->nsignals; si++) {
            struct signal *sig = &e->signals[si];
            if (sig->kind == SIGNAL_CONFIG)
                continue;
            const char *text = entry_str(e, sig->text);
            struct pattern p = {.entry = (int)ei, .signal = (int)si, .nocase = sig->nocase};
            p.hs_flags = sig->nocase ? HS_FLAG_CASELESS : 0;
            sig->pattern = (int)kb->npatterns;
            if (sig->kind == SIGNAL_LITERAL) {
                bool whole = strlen(text) <= ATOM_WINDOW || strchr(text, '\n');
                size_t end = 0;
                if ((st = add_text(kb, whole ? hex_literal(text, strlen(text))
                                             : window_literal(m, text, &end),
                                   true, &p.hs_expr)) != FL_OK ||
                    (st = add_text(kb, whole ? NULL : text, false, &p.literal)) != FL_OK)
                    return st;
                p.literal_len = whole ? 0 : (unsigned)strlen(text);
                p.window_end = (unsigned)end;
                if ((st = add_pattern(kb, p)) != FL_OK)
                    return st;
                continue;
            }
            bool captures = false, approx = false;
            if ((st = check_regex(e, sig, &captures, &approx, err)) != FL_OK)
                return st;
            if (sig->prefilter) {
                /* the entry names what to look for: its regex's own literals are too common */
                if ((st = check_prefilter(e, sig, err)) != FL_OK)
                    return st;
                p.hs_flags |= HS_FLAG_MULTILINE;
                p.confirm = true;
                if ((st = add_text(kb, entry_str(e, sig->prefilter), false, &p.hs_expr)) != FL_OK ||
                    (st = add_expr(kb, text, &p.pcre_expr)) != FL_OK ||
                    (st = add_pattern(kb, p)) != FL_OK)
                    return st;
                continue;
            }
            char atoms[ATOMS_MAX][ATOM_MAX + 1];
            size_t natoms = kb_regex_atoms(kb, e, sig, atoms);
            bool flags = inline_options(text);
            for (size_t a = 0; a < natoms; a++) {
                struct pattern q = p;
                q.confirm = true;
                size_t end;
                if ((st = add_text(kb, window_literal(m, atoms[a], &end), true, &q.hs_expr)) !=
                        FL_OK ||
                    (st = add_expr(kb, text, &q.pcre_expr)) != FL_OK)
                    return st;
                /* the atom is text its branch must hold as written: a line that holds only its
                 * window goes to PCRE2 through the atom of another branch, if any */
                if (!flags && strlen(atoms[a]) > ATOM_WINDOW) {
                    q.window_end = (unsigned)end;
                    if ((st = add_text(kb, atoms[a], false, &q.literal)) != FL_OK)
                        return st;
                    q.literal_len = (unsigned)strlen(atoms[a]);
                }
                if ((st = add_pattern(kb, q)) != FL_OK)
                    return st;
            }
            if (natoms)
                continue;
            p.hs_flags |= HS_FLAG_MULTILINE | (approx ? HS_FLAG_PREFILTER : 0);
            p.confirm = approx;
            if ((st = add_text(kb, text, false, &p.hs_expr)) != FL_OK ||
                (st = add_expr(kb, captures || approx ? text : NULL, &p.pcre_expr)) !=
                    FL_OK ||
                (st = add_pattern(kb, p)) != FL_OK)
                return st;
        }
    }
    return FL_OK;
}

/* The embedded entries' signals are the program's read-only data until here: building the
 * patterns writes each signal's pattern index, so the KB takes its own copy first. */
static enum fl_status own_signals(struct fl_kb *kb)
{
    for (size_t i = 0; i < kb->nentries; i++) {
        struct entry *e = &kb->entries[i];
        if (!e->embedded || e->signals_owned || e->nsignals == 0)
            continue;
        struct signal *copy = malloc(e->nsignals * sizeof *copy);
        if (copy == NULL)
            return FL_ERR_NOMEM;
        memcpy(copy, e->signals, e->nsignals * sizeof *copy);
        e->signals = copy;
        e->signals_owned = true;
    }
    return FL_OK;
}

enum fl_status kb_build_patterns(struct fl_kb *kb, struct fl_error *err)
{
    enum fl_status st = own_signals(kb);
    if (st != FL_OK)
        return st;
    buf_init(&kb->pattern_text, KB_MAX_PATTERN_TEXT);
    struct atom_model *m;
    st = kb_atom_model_new(kb, &m);
    if (st != FL_OK)
        return st;
    st = build_signals(kb, m, err);
    kb_atom_model_free(m);
    if (st != FL_OK)
        return st;
    size_t nb;
    const struct builtin_pattern *b = extract_builtin_patterns(&nb);
    for (size_t i = 0; i < nb; i++) {
        struct pattern p = {.entry = -1, .signal = -1, .builtin = b[i].kind,
                            .hs_flags = b[i].hs_flags};
        if ((st = add_text(kb, b[i].hs_expr, false, &p.hs_expr)) != FL_OK ||
            (st = add_expr(kb, b[i].pcre_expr, &p.pcre_expr)) != FL_OK ||
            (st = add_pattern(kb, p)) != FL_OK)
            return st;
    }
    for (size_t i = 0; i < kb->npatterns; i++)
        if (kb->patterns[i].pcre_expr)
            kb->patterns[i].names_location =
                extract_names_location(kb_text(kb, kb->patterns[i].pcre_expr));
    return FL_OK;
}

enum fl_status kb_compile_pattern_db(struct fl_kb *kb, struct fl_error *err)
{
    const char **exprs = calloc(kb->npatterns, sizeof *exprs);
    unsigned *flags = calloc(kb->npatterns, sizeof *flags);
    unsigned *ids = calloc(kb->npatterns, sizeof *ids);
    enum fl_status st = FL_OK;
    if (!exprs || !flags || !ids) {
        st = FL_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < kb->npatterns; i++) {
        exprs[i] = kb_text(kb, kb->patterns[i].hs_expr);
        flags[i] = kb->patterns[i].hs_flags;
        ids[i] = (unsigned)i;
    }
    hs_compile_error_t *ce = NULL;
    if (hs_compile_multi(exprs, flags, ids, (unsigned)kb->npatterns, HS_MODE_STREAM, NULL, &kb->db,
                         &ce) != HS_SUCCESS) {
        const struct pattern *p = ce->expression >= 0 ? &kb->patterns[ce->expression] : NULL;
        if (p && p->entry >= 0) {
            const struct entry *e = &kb->entries[p->entry];
            st = error_set(err, FL_ERR_PATTERN, e->path, e->signals[p->signal].line, 1,
                           "signal '%s': Vectorscan: %s", entry_str(e, e->signals[p->signal].name),
                           ce->message);
        } else {
            st = error_set(err, FL_ERR_PATTERN, NULL, 0, 0, "Vectorscan: %s", ce->message);
        }
        hs_free_compile_error(ce);
    }
out:
    free(exprs);
    free(flags);
    free(ids);
    return st;
}
