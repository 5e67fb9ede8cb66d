/*
 * kb_condition.c — an entry's condition, compiled to a postfix program over signal counts.
 *
 * The grammar (kb/README.md) is YARA's condition language cut down to what log diagnosis needs:
 * signal names, counts (`#watchdog >= 2`), and/or/not and parentheses. Compiling to postfix at
 * load time means evaluation at the end of a scan is a loop over a few instructions with a small
 * stack, and that every name is resolved (and every typo reported with its column) up front.
 *
 * Config tests (`pipeline_model_parallel_size >= 4`) are parsed here too: they compare facts,
 * numerically when both sides are numbers or sizes; a value written `$name` is another fact
 * (`oom_free_cache > $oom_request`: two sizes captured from one message), `$name*0.02` a share of it.
 */
#include "kb.h"
#include "status.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COND_MAX_INSNS 256
#define COND_MAX_DEPTH 32

struct parser {
    const char *src, *p;
    struct entry *e;
    struct fl_error *err;
    unsigned line;
    struct cond_insn code[COND_MAX_INSNS];
    size_t len;
    int depth;
    bool negated; /* inside an odd number of `not` */
    bool negative[KB_MAX_SIGNALS]; /* named under a `not` */
};

static enum fl_status perr(struct parser *ps, const char *msg, const char *arg)
{
    return error_set(ps->err, FL_ERR_KB, ps->e->path, ps->line, (unsigned)(ps->p - ps->src) + 1,
                     "condition: %s%s%s", msg, arg ? " " : "", arg ? arg : "");
}

static void skip_ws(struct parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static bool word_is(struct parser *ps, const char *w)
{
    size_t n = strlen(w);
    return strncmp(ps->p, w, n) == 0 && !(isalnum((unsigned char)ps->p[n]) || ps->p[n] == '_');
}

static enum fl_status emit(struct parser *ps, struct cond_insn insn)
{
    if (ps->len >= COND_MAX_INSNS)
        return perr(ps, "too long", NULL);
    ps->code[ps->len++] = insn;
    return FL_OK;
}

static int signal_index(struct parser *ps, const char *name, size_t n)
{
    for (size_t i = 0; i < ps->e->nsignals; i++) {
        const char *si = entry_str(ps->e, ps->e->signals[i].name);
        if (strlen(si) == n && strncmp(si, name, n) == 0)
            return (int)i;
    }
    return -1;
}

static bool parse_cmp(const char **p, enum cmp_op *op)
{
    static const struct { const char *s; enum cmp_op op; } ops[] = {
        {"==", CMP_EQ}, {"!=", CMP_NE}, {">=", CMP_GE}, {"<=", CMP_LE}, {">", CMP_GT}, {"<", CMP_LT}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].s);
        if (strncmp(*p, ops[i].s, n) == 0) {
            *p += n;
            *op = ops[i].op;
            return true;
        }
    }
    return false;
}

static enum fl_status parse_or(struct parser *ps);

static enum fl_status parse_unary(struct parser *ps)
{
    enum fl_status st;
    skip_ws(ps);
    if (++ps->depth > COND_MAX_DEPTH)
        return perr(ps, "nested too deeply", NULL);
    if (word_is(ps, "not")) {
        ps->p += 3;
        ps->negated = !ps->negated;
        st = parse_unary(ps);
        ps->negated = !ps->negated;
        if (st == FL_OK)
            st = emit(ps, (struct cond_insn){.op = COND_NOT});
    } else if (*ps->p == '(') {
        ps->p++;
        if ((st = parse_or(ps)) != FL_OK)
            return st;
        skip_ws(ps);
        if (*ps->p != ')')
            return perr(ps, "expected ')'", NULL);
        ps->p++;
    } else {
        bool count = *ps->p == '#';
        if (count)
            ps->p++;
        const char *name = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
            ps->p++;
        size_t n = (size_t)(ps->p - name);
        if (n == 0)
            return perr(ps, "expected a signal name", NULL);
        int idx = signal_index(ps, name, n);
        if (idx < 0) {
            char tmp[128];
            snprintf(tmp, sizeof tmp, "'%.*s'", (int)(n < 100 ? n : 100), name);
            ps->p = name;
            return perr(ps, "undefined signal", tmp);
        }
        if (!ps->negated)
            ps->e->signals[idx].positive = true;
        else
            ps->negative[idx] = true;
        struct cond_insn in = {.op = COND_SIGNAL, .signal = idx};
        if (count) {
            skip_ws(ps);
            if (!parse_cmp(&ps->p, &in.cmp))
                return perr(ps, "expected a comparison after #name", NULL);
            skip_ws(ps);
            char *end;
            errno = 0;
            in.n = strtol(ps->p, &end, 10);
            if (end == ps->p || errno)
                return perr(ps, "expected an integer", NULL);
            ps->p = end;
            in.op = COND_COUNT;
        }
        st = emit(ps, in);
    }
    ps->depth--;
    return st;
}

static enum fl_status parse_and(struct parser *ps)
{
    enum fl_status st = parse_unary(ps);
    for (;;) {
        skip_ws(ps);
        if (st != FL_OK || !word_is(ps, "and"))
            return st;
        ps->p += 3;
        if ((st = parse_unary(ps)) == FL_OK)
            st = emit(ps, (struct cond_insn){.op = COND_AND});
    }
}

static enum fl_status parse_or(struct parser *ps)
{
    enum fl_status st = parse_and(ps);
    for (;;) {
        skip_ws(ps);
        if (st != FL_OK || !word_is(ps, "or"))
            return st;
        ps->p += 2;
        if ((st = parse_and(ps)) == FL_OK)
            st = emit(ps, (struct cond_insn){.op = COND_OR});
    }
}

enum fl_status condition_compile(struct entry *e, const char *src, struct fl_error *err,
                                 unsigned line)
{
    if (src == NULL) {
        /* The default condition: any literal or regex signal; all of them are evidence. */
        for (size_t i = 0; i < e->nsignals; i++)
            e->signals[i].positive = e->signals[i].kind != SIGNAL_CONFIG;
        return FL_OK;
    }
    struct parser ps = {.src = src, .p = src, .e = e, .err = err, .line = line};
    enum fl_status st = parse_or(&ps);
    if (st != FL_OK)
        return st;
    skip_ws(&ps);
    if (*ps.p)
        return perr(&ps, "unexpected text", ps.p);
    /* a pattern the condition does not name is supporting evidence: it never decides, but its
     * lines are shown and can name the rank (a launcher summary naming the killed rank) */
    for (size_t i = 0; i < e->nsignals && i < KB_MAX_SIGNALS; i++)
        if (!e->signals[i].positive && !ps.negative[i] && e->signals[i].kind != SIGNAL_CONFIG)
            e->signals[i].positive = e->signals[i].supporting = true;
    e->cond.code = malloc(ps.len * sizeof *ps.code);
    if (e->cond.code == NULL)
        return FL_ERR_NOMEM;
    memcpy(e->cond.code, ps.code, ps.len * sizeof *ps.code);
    e->cond.len = ps.len;
    return FL_OK;
}

static bool cmp_long(long a, enum cmp_op op, long b)
{
    switch (op) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    case CMP_GE: return a >= b;
    case CMP_LE: return a <= b;
    case CMP_GT: return a > b;
    case CMP_LT: return a < b;
    default: return false;
    }
}

bool condition_eval(const struct entry *e, const unsigned long *counts)
{
    if (e->cond.len == 0) {
        for (size_t i = 0; i < e->nsignals; i++)
            if (e->signals[i].kind != SIGNAL_CONFIG && counts[i])
                return true;
        return false;
    }
    bool stack[COND_MAX_INSNS];
    size_t sp = 0;
    for (size_t i = 0; i < e->cond.len; i++) {
        const struct cond_insn *in = &e->cond.code[i];
        switch (in->op) {
        case COND_SIGNAL: stack[sp++] = counts[in->signal] > 0; break;
        case COND_COUNT: stack[sp++] = cmp_long((long)counts[in->signal], in->cmp, in->n); break;
        case COND_NOT: stack[sp - 1] = !stack[sp - 1]; break;
        case COND_AND: sp--; stack[sp - 1] = stack[sp - 1] && stack[sp]; break;
        case COND_OR: sp--; stack[sp - 1] = stack[sp - 1] || stack[sp]; break;
        }
    }
    return sp == 1 && stack[0];
}

void condition_free(struct condition *c)
{
    free(c->code);
    c->code = NULL;
    c->len = 0;
}

/* ---------------------------------------------------------------- config tests */

enum fl_status config_parse(const char *src, struct config_test *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    const char *p = src;
    while (isspace((unsigned char)*p))
        p++;
    const char *name = p;
    if (*p == '#') /* "#fact": how many distinct values the fact took (facts_lookup) */
        p++;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-')
        p++;
    if (p == name || (name[0] == '#' && p == name + 1)) {
        snprintf(why, whylen, "expected a fact name");
        return FL_ERR_KB;
    }
    out->fact = xstrndup(name, (size_t)(p - name));
    while (isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "present", 7) == 0 || strncmp(p, "absent", 6) == 0) {
        out->op = p[0] == 'p' ? CMP_PRESENT : CMP_ABSENT;
        p += p[0] == 'p' ? 7 : 6;
        while (isspace((unsigned char)*p))
            p++;
        if (*p) {
            snprintf(why, whylen, "unexpected text after present/absent");
            return FL_ERR_KB;
        }
        return out->fact ? FL_OK : FL_ERR_NOMEM;
    }
    /* "a multiple-of $b": a is b times a whole number of at least 2 (a tensor split in k shards) */
    if (strncmp(p, "multiple-of", 11) == 0 && isspace((unsigned char)p[11])) {
        p += 11;
        out->op = CMP_MULTIPLE;
    } else if (!parse_cmp(&p, &out->op)) {
        snprintf(why, whylen, "expected ==, !=, >=, <=, >, <, multiple-of, present or absent");
        return FL_ERR_KB;
    }
    while (isspace((unsigned char)*p))
        p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    if (n >= 2 && (p[0] == '"' || p[0] == '\'') && p[n - 1] == p[0]) {
        p++;
        n -= 2;
    } else if (n == 0) {
        snprintf(why, whylen, "expected a value");
        return FL_ERR_KB;
    }
    out->value = xstrndup(p, n);
    return out->fact && out->value ? FL_OK : FL_ERR_NOMEM;
}

void config_test_free(struct config_test *t)
{
    free((char *)t->fact);
    free((char *)t->value);
    t->fact = t->value = NULL;
}

/* A number, or a size as PyTorch's allocator and the other tools print it ("546.00 MiB", "3 GiB",
 * "512 bytes"), in bytes: two sizes of one message compare whatever units each was printed in. */
static bool as_number(const char *s, double *out)
{
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"bytes", 1}, {"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0},
                 {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}, {"KB", 1e3}, {"MB", 1e6},
                 {"GB", 1e9}, {"TB", 1e12}};
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (end == s || errno)
        return false;
    while (isspace((unsigned char)*end))
        end++;
    if (*end == '\0')
        return true;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) { /* facts and values are stored trimmed */
            *out *= units[i].scale;
            return true;
        }
    return false;
}

const char *config_value_fact(const struct config_test *t, char *name, size_t len)
{
    if (!t->value || t->value[0] != '$' || !t->value[1])
        return NULL;
    size_t n = strcspn(t->value + 1, "*");
    if (n == 0 || n >= len)
        return NULL;
    memcpy(name, t->value + 1, n);
    name[n] = '\0';
    return name;
}

/* The factor of a test written `fact OP $other*0.02`, or 1. */
static double value_factor(const struct config_test *t)
{
    const char *star = t->value && t->value[0] == '$' ? strchr(t->value, '*') : NULL;
    double k;
    return star && as_number(star + 1, &k) ? k : 1.0;
}

bool config_eval_against(const struct config_test *t, const char *value, const char *against)
{
    if (t->op == CMP_PRESENT)
        return value != NULL;
    if (t->op == CMP_ABSENT)
        return value == NULL;
    if (value == NULL || against == NULL)
        return false;
    double a, b;
    int c;
    if (t->op == CMP_MULTIPLE) /* whole sizes only: fmod is exact on integers below 2^53 */
        return as_number(value, &a) && as_number(against, &b) && b >= 1 && a >= 2 * b &&
               a < 9007199254740992.0 && fmod(a, b) == 0 && fmod(b, 1) == 0;
    if (as_number(value, &a) && as_number(against, &b)) {
        b *= against == t->value ? 1.0 : value_factor(t);
        c = a < b ? -1 : a > b;
    }
    else
        c = strcasecmp(value, against);
    return cmp_long(c, t->op, 0);
}

bool config_eval(const struct config_test *t, const char *value)
{
    return config_eval_against(t, value, t->value);
}
