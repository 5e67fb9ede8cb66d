/*
 * kb_atoms.c — what Vectorscan looks for on behalf of each signal.
 *
 * A regex goes to Vectorscan as its atoms when it has them: for each top-level alternative, the
 * longest run of plain characters that every match must contain (YARA's atoms, Suricata's fast
 * pattern). Vectorscan then only looks for literals, which it does several times faster than it
 * runs hundreds of regexes at once, and PCRE2 confirms the whole regex on the few lines that hold
 * an atom. A regex with an alternative that has no atom of ATOM_MIN characters is compiled whole.
 *
 * Long literals, and long atoms, are cut further to their rarest ATOM_WINDOW bytes. Vectorscan's
 * literal matcher (FDR) tests every position of the text against the last bytes of the literals
 * it holds, and confirms the candidates: its speed with hundreds of literals is set by how often
 * the text holds byte pairs those literals contain, not by how long the literals are. The
 * phrases of error messages share much with healthy lines ("iteration", "rank", "loss"), so a
 * literal handed over whole costs as much as its commonest stretch. Rarity is judged against
 * kb/common-lines.txt, the lines healthy logs print thousands of times: byte pairs that occur
 * there are expensive, bytes that occur there cost a little. The scanner confirms the whole
 * literal on the few lines that hold the window (memmem), which costs nothing measurable.
 */
#include "kb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct atom_model {
    uint16_t pairs[256 * 256]; /* occurrences in the common lines, case-folded, saturating */
    uint16_t bytes[256];
};

static void bump(uint16_t *c)
{
    if (*c < UINT16_MAX)
        (*c)++;
}

enum fl_status kb_atom_model_new(const struct fl_kb *kb, struct atom_model **out)
{
    struct atom_model *m = calloc(1, sizeof *m);
    if ((*out = m) == NULL)
        return FL_ERR_NOMEM;
    const unsigned char *t = (const unsigned char *)(kb->common_lines ? kb->common_lines : "");
    for (size_t i = 0; t[i]; i++) {
        unsigned a = (unsigned)tolower(t[i]);
        bump(&m->bytes[a]);
        if (t[i + 1] && t[i] != '\n' && t[i + 1] != '\n')
            bump(&m->pairs[a << 8 | (unsigned)tolower(t[i + 1])]);
    }
    return FL_OK;
}

void kb_atom_model_free(struct atom_model *m)
{
    free(m);
}

/* 16 * log2(c + 1), in integers so that the build and the program pick the same windows. */
static unsigned cost(unsigned c)
{
    unsigned x = c + 1, bits = 31 - (unsigned)__builtin_clz(x);
    unsigned frac = bits >= 4 ? (x >> (bits - 4)) & 15 : (x << (4 - bits)) & 15;
    return bits * 16 + frac;
}

/* The cost of s[i], and of the pair s[i]s[i+1] (weighted: pairs are what FDR's buckets see). */
static unsigned long cost_at(const struct atom_model *m, const char *s, size_t i, bool pair)
{
    unsigned a = (unsigned)tolower((unsigned char)s[i]);
    unsigned long c = cost(m->bytes[a]);
    if (pair)
        c += 4 * cost(m->pairs[a << 8 | (unsigned)tolower((unsigned char)s[i + 1])]);
    return c;
}

size_t kb_atom_window(const struct atom_model *m, const char *s, size_t *off)
{
    size_t n = strlen(s);
    *off = 0;
    if (n <= ATOM_WINDOW)
        return n;
    /* slide: the window [i, i+W) costs its bytes and its W-1 inner pairs */
    unsigned long c = 0;
    for (size_t j = 0; j < ATOM_WINDOW; j++)
        c += cost_at(m, s, j, j + 1 < ATOM_WINDOW);
    unsigned long best = c;
    for (size_t i = 1; i + ATOM_WINDOW <= n; i++) {
        c -= cost_at(m, s, i - 1, true);
        c += cost_at(m, s, i + ATOM_WINDOW - 2, true) - cost_at(m, s, i + ATOM_WINDOW - 2, false);
        c += cost_at(m, s, i + ATOM_WINDOW - 1, false);
        if (c < best) {
            best = c;
            *off = i;
        }
    }
    return ATOM_WINDOW;
}

/* Splits rx at its top-level '|' into at most ATOMS_MAX branches; false when there are more. */
static bool top_branches(const char *rx, const char **starts, size_t *lens, size_t *n)
{
    int depth = 0;
    bool cls = false;
    const char *b = rx;
    *n = 0;
    for (const char *p = rx;; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            continue;
        }
        if (cls) {
            if (*p == ']')
                cls = false;
        } else if (*p == '[') {
            cls = true;
            if (p[1] == ']' || (p[1] == '^' && p[2] == ']'))
                p += p[1] == '^' ? 2 : 1;
        } else if (*p == '(') {
            depth++;
        } else if (*p == ')') {
            depth--;
        }
        if (*p == '\0' || (*p == '|' && depth == 0 && !cls)) {
            if (*n == ATOMS_MAX)
                return false;
            starts[*n] = b;
            lens[(*n)++] = (size_t)(p - b);
            if (*p == '\0')
                return true;
            b = p + 1;
        }
    }
}

/* The longest run of literal characters of branch r[0..n) outside groups and classes, where
 * no character is optional. Writes it to out (NUL-terminated) and returns its length. */
static size_t branch_atom(const char *r, size_t n, char *out)
{
    char cur[ATOM_MAX + 1];
    size_t cl = 0, best = 0;
    out[0] = '\0';
#define FLUSH()                                                                                    \
    do {                                                                                           \
        if (cl > best) {                                                                           \
            memcpy(out, cur, cl);                                                                  \
            out[cl] = '\0';                                                                        \
            best = cl;                                                                             \
        }                                                                                          \
        cl = 0;                                                                                    \
    } while (0)
    for (size_t i = 0; i < n;) {
        char c = r[i], lit;
        if (c == '\\' && i + 1 < n) {
            if (isalnum((unsigned char)r[i + 1])) { /* \d \s \w \b \x.. : not one plain char */
                FLUSH();
                i += 2;
                continue;
            }
            lit = r[i + 1];
            i += 2;
        } else if (c == '[') {
            FLUSH();
            size_t j = i + 1;
            if (j < n && r[j] == '^')
                j++;
            if (j < n && r[j] == ']')
                j++;
            while (j < n && r[j] != ']')
                j += r[j] == '\\' ? 2 : 1;
            i = j + 1;
            continue;
        } else if (c == '(') {
            FLUSH();
            int depth = 1;
            for (i++; i < n && depth; i++) {
                if (r[i] == '\\')
                    i++;
                else if (r[i] == '(')
                    depth++;
                else if (r[i] == ')')
                    depth--;
            }
            continue;
        } else if (strchr(".^$)|", c)) {
            FLUSH();
            i++;
            continue;
        } else if (strchr("*+?{", c)) {
            /* a quantifier after a group or class: nothing to take back */
            FLUSH();
            if (c == '{')
                while (i < n && r[i] != '}')
                    i++;
            i++;
            continue;
        } else {
            lit = c;
            i++;
        }
        char q = i < n ? r[i] : '\0';
        if (q == '*' || q == '?' || (q == '{' && i + 2 < n && r[i + 1] == '0')) {
            FLUSH(); /* an optional character ends the run without joining it */
            continue;
        }
        if (cl < ATOM_MAX)
            cur[cl++] = lit;
        if (q == '+' || q == '{')
            FLUSH(); /* one occurrence is certain, what follows is not adjacent */
    }
    FLUSH();
#undef FLUSH
    return best;
}

bool kb_common_text(const struct fl_kb *kb, const char *text, bool nocase)
{
    if (kb->common_lines == NULL || *text == '\0')
        return false;
    return nocase ? strcasestr(kb->common_lines, text) != NULL
                  : strstr(kb->common_lines, text) != NULL;
}

/* The atoms of a regex, or 0 when one of its branches has none long enough, or one occurs in
 * the lines healthy logs print all the time (it would send them all to PCRE2). */
size_t kb_regex_atoms(const struct fl_kb *kb, const struct entry *e, const struct signal *sig,
                      char atoms[ATOMS_MAX][ATOM_MAX + 1])
{
    const char *starts[ATOMS_MAX];
    size_t lens[ATOMS_MAX], n;
    if (!top_branches(entry_str(e, sig->text), starts, lens, &n))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (branch_atom(starts[i], lens[i], atoms[i]) < ATOM_MIN ||
            kb_common_text(kb, atoms[i], sig->nocase))
            return 0;
    return n;
}

