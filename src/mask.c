/*
 * mask.c — secrets and private details out of everything faultline writes.
 *
 * Logs of training runs are full of things that must not be pasted into a ticket: tokens in
 * environment dumps and git URLs, cloud keys, private key blocks, and the addresses, host names,
 * e-mails and user names of the people and machines involved. The masker rewrites them.
 *
 * Speed: a log is masked at the speed of one Vectorscan pass. One database holds a prefilter
 * for every rule (a pattern that matches at least wherever the exact rule matches, on one line),
 * and a whole block of lines is scanned at once; a line without a match is copied as it is, in
 * bulk. Only a line with a match is rewritten, and only by the rules that matched it: each such
 * rule is one PCRE2 substitution (JIT-compiled) that finds the exact spans. Host names are not
 * known in advance (they are learnt from line prefixes, paths and Slurm node lists), so they
 * have a second, literal database, rebuilt when a new host is registered.
 *
 * A block is processed in three passes: (1) learn hosts from the lines whose prefix or node
 * list matched, (2) find every registered host name, (3) copy or rewrite line by line. A line
 * is therefore masked with the hosts its own prefix names.
 *
 * Rules are applied in table order; a rule sees the output of the rules before it. Specific
 * token formats come first, generic NAME=value rules later (they skip values that are already
 * placeholders), private details last. Pseudonyms are numbered in order of first appearance.
 */
#include "mask.h"
#include "mask_rules.h"
#include "pcre_lazy.h"
#include "buf.h"
#include "prefix.h"
#include "reader.h"
#include "report.h"
#include "status.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <math.h>
#include <hs/hs.h>
#include <pcre2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- pseudonym tables */

struct slot {
    char *key;
    unsigned id;
};

/* Open addressing, FNV-1a. Ids count from 1 in order of first appearance. */
struct table {
    struct slot *slots;
    size_t cap, n;
};

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static void table_free(struct table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->slots[i].key);
    free(t->slots);
    t->slots = NULL;
    t->cap = t->n = 0;
}

static struct slot *table_find(const struct table *t, const char *k, size_t n)
{
    if (t->cap == 0)
        return NULL;
    for (size_t i = hash(k, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        struct slot *s = &t->slots[i];
        if (s->key == NULL)
            return NULL;
        if (strncmp(s->key, k, n) == 0 && s->key[n] == '\0')
            return s;
    }
}

static enum fl_status table_grow(struct table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    struct slot *slots = calloc(cap, sizeof *slots);
    if (slots == NULL)
        return FL_ERR_NOMEM;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slots[i].key == NULL)
            continue;
        size_t j = hash(t->slots[i].key, strlen(t->slots[i].key)) & (cap - 1);
        while (slots[j].key)
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return FL_OK;
}

/* The id of k, added when new. *id is 0 when the table is full (generic pseudonym). */
static enum fl_status table_get(struct table *t, const char *k, size_t n, unsigned *id, bool *added)
{
    struct slot *s = table_find(t, k, n);
    if (added)
        *added = false;
    if (s) {
        *id = s->id;
        return FL_OK;
    }
    *id = 0;
    if (t->n >= MASK_TABLE_MAX)
        return FL_OK;
    if ((t->n + 1) * 2 > t->cap && table_grow(t) != FL_OK)
        return FL_ERR_NOMEM;
    char *key = xstrndup(k, n);
    if (key == NULL)
        return FL_ERR_NOMEM;
    size_t i = hash(k, n) & (t->cap - 1);
    while (t->slots[i].key)
        i = (i + 1) & (t->cap - 1);
    t->slots[i].key = key;
    t->slots[i].id = (unsigned)++t->n;
    *id = t->slots[i].id;
    if (added)
        *added = true;
    return FL_OK;
}

/* ---------------------------------------------------------------- the masker */

struct hit {
    size_t to;   /* end offset of the match in the block */
    unsigned id; /* rule, or host index for host hits */
};

struct out {
    FILE *f;
    struct buf *b;
    enum fl_status st;
};

struct fl_masker {
    enum fl_mask_mode mode;
    hs_database_t *db;
    bool db_borrowed;              /* db is the build's read-only image (db_image.h) */
    hs_scratch_t *scratch;
    pcre2_code *re[MASK_RULES_MAX];
    unsigned re_uses[MASK_RULES_MAX]; /* hits of each rule, up to PCRE_JIT_AFTER */
    pcre2_match_data *md;
    uint64_t rewrite;              /* rules that rewrite (not K_LEARN, K_HOSTKEYS) */
    struct table hosts, ips, emails, users, nodelists;
    char **host_names;             /* by id - 1 */
    size_t host_cap;
    hs_database_t *hdb;            /* literal database of host_names */
    size_t hdb_hosts;              /* hosts in hdb; hdb is stale when hosts.n differs */
    struct hit *hits, *hhits;
    size_t nhits, hits_cap, nhhits, hhits_cap;
    bool unsorted;
    enum fl_status cb_st;
    struct buf carry;              /* streaming: the partial last line */
    struct buf a, b;               /* a line being rewritten */
    bool in_pem;
    unsigned pem_lines;
    /* a YAML data: block being followed (see k8s_begin) */
    unsigned k8s_rule;             /* the K_K8S_DATA rule, NRULES when none */
    struct k8s_block {
        bool on, secret;           /* secret: the object is a Secret; else its kind is unknown */
        size_t indent;             /* of the data: key */
        unsigned lines;
    } k8s;
};

static void out_write(struct out *o, const char *p, size_t n)
{
    if (n == 0 || o->st != FL_OK)
        return;
    if (o->f) {
        if (fwrite(p, 1, n, o->f) != n)
            o->st = FL_ERR_IO;
    } else {
        o->st = buf_append(o->b, p, n);
    }
}

static void out_puts(struct out *o, const char *s)
{
    out_write(o, s, strlen(s));
}

enum fl_status fl_masker_new(enum fl_mask_mode mode, struct fl_masker **out)
{
    if (out == NULL || (mode != FL_MASK_ALL && mode != FL_MASK_SECRETS))
        return FL_ERR_USAGE;
    *out = NULL;
    struct fl_masker *m = calloc(1, sizeof *m);
    if (m == NULL)
        return FL_ERR_NOMEM;
    m->mode = mode;
    buf_init(&m->carry, MASK_LINE_MAX);
    buf_init(&m->a, MASK_LINE_MAX * 8);
    buf_init(&m->b, MASK_LINE_MAX * 8);
    enum fl_status st = FL_OK;
    m->k8s_rule = (unsigned)NRULES;
    for (unsigned i = 0; i < NRULES; i++) {
        if ((mode == FL_MASK_ALL || mask_rules[i].secret) && mask_rules[i].kind != K_LEARN &&
            mask_rules[i].kind != K_HOSTKEYS)
            m->rewrite |= 1ull << i;
        if (mask_rules[i].kind == K_K8S_DATA)
            m->k8s_rule = i;
    }
    m->md = pcre2_match_data_create(16, NULL);
    if (m->md == NULL) {
        st = FL_ERR_NOMEM;
        goto fail;
    }
    if ((st = mask_database(mode, &m->db, &m->scratch, &m->db_borrowed)) != FL_OK)
        goto fail;
    *out = m;
    return FL_OK;
fail:
    fl_masker_free(m);
    return st;
}

void fl_masker_free(struct fl_masker *m)
{
    if (m == NULL)
        return;
    if (!m->db_borrowed)
        hs_free_database(m->db);
    hs_free_database(m->hdb);
    hs_free_scratch(m->scratch);
    for (size_t i = 0; i < NRULES; i++)
        pcre2_code_free(m->re[i]);
    pcre2_match_data_free(m->md);
    table_free(&m->hosts);
    table_free(&m->ips);
    table_free(&m->emails);
    table_free(&m->users);
    table_free(&m->nodelists);
    free(m->host_names); /* the strings belong to the hosts table */
    free(m->hits);
    free(m->hhits);
    buf_free(&m->carry);
    buf_free(&m->a);
    buf_free(&m->b);
    free(m);
}

/* ---------------------------------------------------------------- hosts */

static bool host_char(int c)
{
    return isalnum(c) || c == '-' || c == '_' || c == '.';
}

static bool plausible_host(const char *s, size_t n)
{
    if (n < 2 || n >= 256)
        return false;
    bool letter = false;
    for (size_t i = 0; i < n; i++) {
        if (!host_char((unsigned char)s[i]))
            return false;
        letter |= isalpha((unsigned char)s[i]) != 0;
    }
    if (!letter || (n == 9 && strncasecmp(s, "localhost", 9) == 0))
        return false;
    /* our own pseudonyms */
    if (n > 5 && strncmp(s, "host-", 5) == 0) {
        size_t i = 5;
        while (i < n && isdigit((unsigned char)s[i]))
            i++;
        if (i == n)
            return false;
    }
    return true;
}

static enum fl_status add_host(struct fl_masker *m, const char *s, size_t n)
{
    if (m->mode != FL_MASK_ALL || !plausible_host(s, n))
        return FL_OK;
    if (m->hosts.n >= MASK_HOSTS_MAX)
        return FL_OK;
    unsigned id;
    bool added;
    enum fl_status st = table_get(&m->hosts, s, n, &id, &added);
    if (st != FL_OK || !added)
        return st;
    if (GROW(m->host_names, m->host_cap, id - 1, MASK_HOSTS_MAX) != FL_OK)
        return FL_ERR_NOMEM;
    m->host_names[id - 1] = table_find(&m->hosts, s, n)->key;
    return FL_OK;
}

enum fl_status fl_masker_add_host(struct fl_masker *m, const char *name)
{
    if (m == NULL || name == NULL)
        return FL_ERR_USAGE;
    return add_host(m, name, strlen(name));
}

static enum fl_status rebuild_hosts(struct fl_masker *m)
{
    if (m->hdb_hosts == m->hosts.n)
        return FL_OK;
    size_t n = m->hosts.n;
    const char **lits = malloc(n * sizeof *lits);
    size_t *lens = malloc(n * sizeof *lens);
    unsigned *flags = calloc(n, sizeof *flags), *ids = malloc(n * sizeof *ids);
    enum fl_status st = FL_ERR_NOMEM;
    if (lits && lens && flags && ids) {
        for (size_t i = 0; i < n; i++) {
            lits[i] = m->host_names[i];
            lens[i] = strlen(lits[i]);
            ids[i] = (unsigned)i;
        }
        hs_database_t *db = NULL;
        hs_compile_error_t *ce = NULL;
        if (hs_compile_lit_multi(lits, flags, ids, lens, (unsigned)n, HS_MODE_BLOCK, NULL, &db,
                                 &ce) != HS_SUCCESS) {
            hs_free_compile_error(ce);
            st = FL_ERR_INTERNAL;
        } else if (hs_alloc_scratch(db, &m->scratch) != HS_SUCCESS) {
            hs_free_database(db);
        } else {
            hs_free_database(m->hdb);
            m->hdb = db;
            m->hdb_hosts = n;
            st = FL_OK;
        }
    }
    free(lits);
    free(lens);
    free(flags);
    free(ids);
    return st;
}

/* Host names of a Slurm node list: gpu-[01-03,7],cpu-1 → gpu-01 gpu-02 gpu-03 gpu-7 cpu-1.
 * Ranges are expanded up to 1024 names per list. */
static void learn_nodelist(struct fl_masker *m, const char *s, size_t n)
{
    unsigned budget = 1024;
    size_t i = 0;
    while (i < n && budget) {
        size_t j = i, depth = 0;
        while (j < n && (depth || s[j] != ',')) {
            depth += s[j] == '[';
            depth -= s[j] == ']' && depth;
            j++;
        }
        const char *lb = memchr(s + i, '[', j - i);
        if (lb == NULL) {
            add_host(m, s + i, j - i);
            budget--;
        } else {
            const char *rb = memchr(lb, ']', (size_t)(s + j - lb));
            if (rb) {
                size_t plen = (size_t)(lb - (s + i)), slen = (size_t)(s + j - rb - 1);
                const char *r = lb + 1;
                while (r < rb && budget) {
                    const char *e = r;
                    while (e < rb && *e != ',')
                        e++;
                    unsigned long a = strtoul(r, NULL, 10), b = a;
                    const char *dash = memchr(r, '-', (size_t)(e - r));
                    int width = (int)((dash ? dash : e) - r);
                    if (dash)
                        b = strtoul(dash + 1, NULL, 10);
                    for (unsigned long k = a; k <= b && budget && width > 0 && width < 12; k++) {
                        char name[300];
                        int w = snprintf(name, sizeof name, "%.*s%0*lu%.*s", (int)plen, s + i,
                                         width, k, (int)slen, rb + 1);
                        if (w > 0 && (size_t)w < sizeof name)
                            add_host(m, name, (size_t)w);
                        budget--;
                    }
                    r = e + 1;
                }
            }
        }
        i = j + 1;
    }
}

/* ---------------------------------------------------------------- scanning a block */

static int on_hit(unsigned id, unsigned long long from, unsigned long long to, unsigned flags,
                  void *ctx)
{
    (void)from;
    (void)flags;
    struct fl_masker *m = ctx;
    if (GROW(m->hits, m->hits_cap, m->nhits, MASK_TABLE_MAX * 4) != FL_OK) {
        m->cb_st = FL_ERR_LIMIT;
        return 1;
    }
    if (m->nhits && m->hits[m->nhits - 1].to > to)
        m->unsorted = true;
    m->hits[m->nhits++] = (struct hit){(size_t)to, id};
    return 0;
}

static int on_host(unsigned id, unsigned long long from, unsigned long long to, unsigned flags,
                   void *ctx)
{
    (void)from;
    (void)flags;
    struct fl_masker *m = ctx;
    if (GROW(m->hhits, m->hhits_cap, m->nhhits, MASK_TABLE_MAX * 4) != FL_OK) {
        m->cb_st = FL_ERR_LIMIT;
        return 1;
    }
    m->hhits[m->nhhits++] = (struct hit){(size_t)to, id};
    return 0;
}

static int cmp_hit(const void *a, const void *b)
{
    const struct hit *x = a, *y = b;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static size_t line_begin(const char *d, size_t lo, size_t at)
{
    const char *p = at > lo ? memrchr(d + lo, '\n', at - lo) : NULL;
    return p ? (size_t)(p - d) + 1 : lo;
}

static size_t line_stop(const char *d, size_t n, size_t at)
{
    const char *p = memchr(d + at, '\n', n - at);
    return p ? (size_t)(p - d) : n;
}

static void learn_prefix(struct fl_masker *m, const char *line, size_t len)
{
    struct line_meta meta = {.rank = -1, .ts_ms = TS_UNKNOWN};
    prefix_parse(line, len < 1024 ? len : 1024, &meta, 2000);
    if (meta.host[0])
        add_host(m, meta.host, strlen(meta.host));
}

/* A host name has a digit, '-' or '.' (exception and logger names have none). The text is not
 * NUL-terminated: bounded by n. */
static bool host_mark(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isdigit((unsigned char)s[i]) || s[i] == '-' || s[i] == '.')
            return true;
    return false;
}

/* pdsh "node-1: " and syslog "May  1 12:00:03 node-1 kernel: " at line starts: a few byte
 * tests per line, and the prefix parser only for a name not seen yet. */
static void learn_line_starts(struct fl_masker *m, const char *d, size_t n)
{
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    for (size_t ls = 0; ls < n;) {
        const char *nl = memchr(d + ls, '\n', n - ls);
        size_t le = nl ? (size_t)(nl - d) : n;
        const char *s = d + ls;
        size_t len = le - ls, h = 0, t;
        if (len > 20 && s[3] == ' ' && s[6] == ' ' && s[9] == ':' && s[15] == ' ' &&
            isupper((unsigned char)s[0])) {
            for (const char *mo = months; *mo; mo += 3)
                if (memcmp(s, mo, 3) == 0) {
                    h = 16;
                    break;
                }
        }
        for (t = h; t < len && t - h < 256 && host_char((unsigned char)s[t]); t++)
            ;
        bool pdsh = h == 0 && t + 1 < len && s[t] == ':' && s[t + 1] == ' ' && t > 0 &&
                    host_mark(s, t);
        if ((pdsh || (h && t > h && t < len && s[t] == ' ')) && !table_find(&m->hosts, s + h, t - h))
            learn_prefix(m, s, len);
        ls = le + 1;
    }
}

/* A launcher's workers: the quoted keys of DeepSpeed's WORLD INFO DICT ({'gpu-node-17': [0, 1],
 * 'gpu-node-18': [0, 1]}), a comma-separated list, or one name (see the K_HOSTKEYS rule). */
static void learn_hostkeys(struct fl_masker *m, const pcre2_code *re, const char *line, size_t len)
{
    int rc = pcre2_match(re, (PCRE2_SPTR)line, len, 0, 0, m->md, NULL);
    if (rc < 2)
        return;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
    int g = rc - 1; /* the group of the alternative that matched */
    if (ov[2 * g] == PCRE2_UNSET)
        return;
    const char *s = line + ov[2 * g], *e = line + ov[2 * g + 1];
    if (g >= 2) { /* a list, or one name */
        learn_nodelist(m, s, (size_t)(e - s));
        return;
    }
    unsigned budget = 4096;
    for (const char *p = s; p < e && budget; p++) {
        if (*p != '\'' && *p != '"')
            continue;
        const char *q = memchr(p + 1, *p, (size_t)(e - p - 1));
        if (q == NULL)
            break;
        const char *after = q + 1;
        while (after < e && (*after == ' ' || *after == '\t'))
            after++;
        if (after < e && *after == ':') {
            add_host(m, p + 1, (size_t)(q - p - 1));
            budget--;
        }
        p = q;
    }
}

/* Pass 1: hosts from prefixes and node lists */
static void learn(struct fl_masker *m, const char *d, size_t n)
{
    size_t last_line = SIZE_MAX;
    for (size_t i = 0; i < m->nhits; i++) {
        const struct rule *r = &mask_rules[m->hits[i].id];
        if (r->kind != K_LEARN && r->kind != K_NODELIST && r->kind != K_HOSTKEYS)
            continue;
        size_t at = m->hits[i].to - 1;
        size_t ls = line_begin(d, 0, at), le = line_stop(d, n, at);
        if (r->kind == K_HOSTKEYS) {
            learn_hostkeys(m, m->re[m->hits[i].id], d + ls, le - ls < MASK_LINE_MAX ? le - ls : MASK_LINE_MAX);
            continue;
        }
        if (r->kind == K_NODELIST) {
            size_t len = le - ls;
            if (len > MASK_LINE_MAX)
                len = MASK_LINE_MAX;
            int rc = pcre2_match(m->re[m->hits[i].id], (PCRE2_SPTR)(d + ls), len, 0, 0, m->md, NULL);
            if (rc >= 3) {
                PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
                learn_nodelist(m, d + ls + ov[4], ov[5] - ov[4]);
            }
            continue;
        }
        if (ls == last_line)
            continue;
        last_line = ls;
        /* the common case: a prefix already known */
        size_t tok = ls;
        while (tok < le && tok - ls < 256 && host_char((unsigned char)d[tok]))
            tok++;
        if (table_find(&m->hosts, d + ls, tok - ls))
            continue;
        learn_prefix(m, d + ls, le - ls);
    }
    learn_line_starts(m, d, n);
}

/* ---------------------------------------------------------------- rewriting a line */

static bool version_before(const char *s, size_t at)
{
    size_t lo = at > 24 ? at - 24 : 0;
    for (size_t i = lo; i + 7 <= at; i++)
        if (strncasecmp(s + i, "version", 7) == 0)
            return true;
    return false;
}

static enum fl_status put_pseudonym(struct table *t, const char *k, size_t n, const char *fmt,
                                    const char *generic, struct buf *o)
{
    unsigned id;
    enum fl_status st = table_get(t, k, n, &id, NULL);
    if (st != FL_OK)
        return st;
    return id ? buf_printf(o, fmt, id) : buf_append(o, generic, strlen(generic));
}

static enum fl_status put_nodelist(struct fl_masker *m, const char *s, size_t n, struct buf *o)
{
    enum fl_status st = FL_OK;
    size_t i = 0;
    while (i < n && st == FL_OK) {
        size_t j = i, depth = 0;
        while (j < n && (depth || s[j] != ',')) {
            depth += s[j] == '[';
            depth -= s[j] == ']' && depth;
            j++;
        }
        if (i)
            st = buf_putc(o, ',');
        const struct slot *h = table_find(&m->hosts, s + i, j - i);
        if (memchr(s + i, '[', j - i))
            st = put_pseudonym(&m->nodelists, s + i, j - i, "nodes-%u", "<nodes>", o);
        else if (h)
            st = buf_printf(o, "host-%u", h->id);
        else if (!plausible_host(s + i, j - i))
            st = buf_append(o, s + i, j - i); /* a pseudonym already, or not a name */
        else
            st = buf_append(o, "<host>", 6);
        i = j + 1;
    }
    return st;
}

/* ---------------------------------------------------------------- is it a secret? */

static bool has_ci(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp(s + i, w, k) == 0)
            return true;
    return false;
}

/* Bits of Shannon entropy per character. */
static double entropy(const char *v, size_t n)
{
    unsigned counts[256] = {0};
    for (size_t i = 0; i < n; i++)
        counts[(unsigned char)v[i]]++;
    double h = 0;
    for (unsigned c = 0; c < 256; c++)
        if (counts[c]) {
            double p = (double)counts[c] / (double)n;
            h -= p * log2(p);
        }
    return h;
}

/* Whether the same group of four or more digits comes back three times: the 1234-1234-1234 of
 * documentation. Random text of any alphabet does that too rarely to matter. */
static bool repeated_digits(const char *v, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++) {
        if ((i > 0 && isdigit((unsigned char)v[i - 1])) || !isdigit((unsigned char)v[i]))
            continue;
        size_t k = i;
        while (k < n && isdigit((unsigned char)v[k]))
            k++;
        size_t len = k - i, seen = 1;
        if (len < 4)
            continue;
        for (size_t j = k; j + len <= n && seen < 3; j++)
            if ((j == 0 || !isdigit((unsigned char)v[j - 1])) && memcmp(v + j, v + i, len) == 0 &&
                (j + len == n || !isdigit((unsigned char)v[j + len])))
                seen++;
        if (seen >= 3)
            return true;
    }
    return false;
}

/* ...TokenHere, ...STRINGHERE, ..._here: a template's "put it here" (a password "somewhere" is
 * one word, and stays a password) */
static bool ends_here(const char *v, size_t n)
{
    if (n < 8 || strncasecmp(v + n - 4, "here", 4) != 0)
        return false;
    char h = v[n - 4], before = v[n - 5];
    return h == 'H' || before == '_' || before == '-' || before == '.';
}

/* A placeholder of a token format: ghp_xxxx..., AKIA...EXAMPLE, <your-token>, 0000...,
 * xoxp-1234-1234-1234-..., sgp_5555555dAAAAA7777777..., ...TokenHere */
static bool placeholder(const char *v, size_t n)
{
    if (has_ci(v, n, "example") || has_ci(v, n, "your") || has_ci(v, n, "redacted") ||
        has_ci(v, n, "placeholder") || has_ci(v, n, "changeme") || ends_here(v, n))
        return true;
    size_t run = 1, in_runs = 0, abc = 1;
    for (size_t i = 1; i < n; i++) {
        run = v[i] == v[i - 1] ? run + 1 : 1;
        /* the alphabet typed out (AIzaSyabcdefghijklmnopqrstuvwxyz...): sixteen letters in order */
        abc = isalpha((unsigned char)v[i]) && tolower((unsigned char)v[i]) == tolower((unsigned char)v[i - 1]) + 1
                  ? abc + 1
                  : 1;
        if (abc >= 16)
            return true;
        /* a run of separators is rarer as filler: a Heroku key may hold five underscores */
        if ((run >= 5 && strchr("xX*#.0", v[i])) || (run >= 8 && strchr("-_", v[i])))
            return true;
        /* letters or digits typed in runs (sgp_5555555dAAAAA7777777...); a Twitter bearer token
         * opens with twenty-odd A and is random after them */
        if (isalnum((unsigned char)v[i]) && (i + 1 == n || v[i + 1] != v[i]) && run >= 4)
            in_runs += run;
    }
    return (n >= 16 && entropy(v, n) < 2.5) /* AIzaaaaaaaaaaaaaaaaaaaa */ ||
           (n >= 16 && in_runs * 2 > n) || repeated_digits(v, n);
}

/* Random-looking: long enough, letters and digits mixed, and more varied than words are
 * (DOC_Vector_5_32, SalesResults-1.2 and 9a038989 commit hashes of versions stay). */
static bool random_text(const char *v, size_t n)
{
    if (n < 12)
        return false;
    size_t digits = 0, upper = 0, lower = 0, other = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        digits += isdigit(c) != 0;
        upper += isupper(c) != 0;
        lower += islower(c) != 0;
        other += !isalnum(c);
    }
    if (digits == 0 || digits == n || other * 4 > n)
        return false;
    /* words between separators: DOC_Vector_5_32, SalesResults-1.2 */
    if (other)
        for (size_t i = 0; i + 5 <= n; i++) {
            size_t k = i;
            if (isupper((unsigned char)v[k]))
                k++;
            while (k < n && islower((unsigned char)v[k]))
                k++;
            if (k - i >= 5 && (i == 0 || !isalpha((unsigned char)v[i - 1])))
                return false;
        }
    bool hex = true;
    for (size_t i = 0; i < n && hex; i++)
        hex = isxdigit((unsigned char)v[i]) != 0;
    if (hex)
        return n >= 20 && entropy(v, n) >= 3.0;
    return (upper > 0) + (lower > 0) + 1 >= 2 && entropy(v, n) >= (n < 20 ? 3.3 : 3.7);
}

/* Names whose value is an identifier or a public part, not a secret */
static bool public_name(const char *name, size_t n)
{
    static const char *const words[] = {"public", "pub_", "pubkey", "primary", "foreign", "sort",
                                        "partition", "cache", "hash", "csrf", "xsrf", "monkey",
                                        "turkey", "hotkey", "keyboard", "bypass", "compass",
                                        "keyword", "path", "file", "url", "uri", "_id", "endpoint", "_name",
                                        "length", "size", "_count"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (has_ci(name, n, words[i]))
            return !has_ci(name, n, "private_key_id") && !has_ci(name, n, "access_id");
    return false;
}

/* Names that say their value is made up: fakeToken, dummy_password, MOCK_API_KEY, a test's
 * nonMatchingToken. Whoever named it so wrote a value that opens nothing. */
static bool fake_name(const char *name, size_t n)
{
    static const char *const words[] = {"fake", "dummy", "mock", "bogus", "nonmatching",
                                        "non_matching", "non-matching"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (has_ci(name, n, words[i]))
            return true;
    return false;
}

/* An upper-case name standing for the value: ACCESS_TOKEN, MY_API_KEY (a template) */
static bool template_name(const char *v, size_t n)
{
    bool under = false;
    for (size_t i = 0; i < n; i++) {
        if (!isupper((unsigned char)v[i]) && v[i] != '_')
            return false;
        under |= v[i] == '_';
    }
    return under && (has_ci(v, n, "token") || has_ci(v, n, "secret") || has_ci(v, n, "key") ||
                     has_ci(v, n, "pass") || has_ci(v, n, "pwd"));
}

/* A package and its version: jjwt-jackson-0.11.2 (Maven's group:artifact:version) */
static bool artifact_version(const char *v, size_t n)
{
    size_t i = 0, dots = 0;
    while (i < n && (islower((unsigned char)v[i]) || v[i] == '-' || (i && isdigit((unsigned char)v[i]) &&
                                                                      v[i - 1] != '-')))
        i++;
    if (i == 0 || i == n || v[i - 1] != '-')
        return false;
    for (; i < n; i++) {
        if (v[i] == '.')
            dots++;
        else if (!isdigit((unsigned char)v[i]))
            return false;
    }
    return dots >= 2 && v[n - 1] != '.';
}

/* A value that opens with the prefix of a documented token format the rules above know, yet
 * is still here (each rule's lookalike prefixes): a shortened or made-up token
 * (xoxp-1234567890, sm_aat_ and ten characters, sk-ant-... ending in BB). A Telegram bot
 * token's bot id and ":A" count as such a prefix. */
static bool format_lookalike(const char *v, size_t n)
{
    for (size_t r = 0; r < NRULES; r++)
        for (const char *p = mask_rules[r].lookalike; p && *p;) {
            size_t k = strcspn(p, " ");
            if (n > k && strncmp(v, p, k) == 0)
                return true;
            p += k + (p[k] == ' ');
        }
    size_t d = 0;
    while (d < n && isdigit((unsigned char)v[d]))
        d++;
    return d > 0 && d + 2 < n && v[d] == ':' && v[d + 1] == 'A';
}

/* A value after a secret's name that is not one: a reference to it (${TOKEN}, $TOKEN, %TOKEN%,
 * os.environ[...], a call), a literal (true, none, 2048 after max_tokens), a path or a URL. */
static bool reference(const char *name, size_t nn, const char *v, size_t n)
{
    static const char *const literals[] = {"true", "false", "null", "none", "nil", "undefined",
                                           "yes", "no", "on", "off", "required", "optional",
                                           "string", "str", "int", "bool", "bytes", "any",
                                           "secret", "password", "token", "env", "auto", "default",
                                           "empty", "unset", "hidden", "masked", "***",
                                           /* the words of documentation: curl -u user:pass */
                                           "test", "pass", "passwd", "pwd", "user", "username",
                                           "dummy", "fake", "foo", "bar", "xxx", "yyy", "new"};
    /* <password>, [PASSWORD] and a lone character are templates or flags, not values */
    if (n < 2 || strchr("$%/~#@(<[", v[0]) || v[n - 1] == '>' || (v[0] == '.' && v[1] == '/'))
        return true;
    bool alnum = false;
    for (size_t i = 0; i < n && !alnum; i++)
        alnum = isalnum((unsigned char)v[i]) != 0;
    if (!alnum) /* Basic ..., Bearer *** */
        return true;
    /* a label before the value: token = "token:"... */
    size_t ln = n > 1 && v[n - 1] == ':' ? n - 1 : n;
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++)
        if (strlen(literals[i]) == ln && strncasecmp(v, literals[i], ln) == 0)
            return true;
    if (memchr(v, '(', n) || has_ci(v, n, "://") || has_ci(v, n, "os.environ") ||
        has_ci(v, n, "process.env") || has_ci(v, n, "getenv") || has_ci(v, n, "{{"))
        return true;
    /* Terraform's references (var.db_password, local.token, data.x.y), a value SOPS encrypted
     * (ENC[AES256_GCM,data:...]) */
    static const char *const roots[] = {"var.", "local.", "data.", "module.", "each.", "self.", "ENC["};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++)
        if (n > strlen(roots[i]) && strncmp(v, roots[i], strlen(roots[i])) == 0)
            return true;
    if (template_name(v, n) || artifact_version(v, n))
        return true;
    bool secret_word = has_ci(name, nn, "pass") || has_ci(name, nn, "pwd") ||
                       has_ci(name, nn, "pin") || has_ci(name, nn, "secret");
    bool number = n <= 6;
    for (size_t i = 0; i < n && number; i++)
        number = isdigit((unsigned char)v[i]) != 0;
    if (number && !secret_word)
        return true;
    if (placeholder(v, n))
        return true;
    /* after a token's or key's name (not a password's): no provider issues a token under ten
     * characters (SUMO_ACCESS_KEY: AbCeFG123 is a sample), and a prefix of a known format
     * that the format's rule left is a look-alike */
    bool token_word = (has_ci(name, nn, "token") || has_ci(name, nn, "key") ||
                       has_ci(name, nn, "credential")) &&
                      !has_ci(name, nn, "authorization") && !has_ci(name, nn, "bearer");
    if (!secret_word && token_word && (n < 10 || format_lookalike(v, n)))
        return true;
    /* a variable: token=hf_token, api_key=args.api_key */
    bool ident = isalpha((unsigned char)v[0]) && !secret_word;
    size_t seps = 0;
    for (size_t i = 0; i < n && ident; i++) {
        unsigned char c = (unsigned char)v[i];
        seps += c == '_' || c == '.';
        ident = islower(c) || c == '_' || c == '.' || (c == ')' && i == n - 1);
    }
    return ident && seps;
}

/* Whether the match of rule r (groups in ov, rc of them) is a secret by r's check. */
static bool is_secret(const struct rule *r, const char *s, const PCRE2_SIZE *ov, int rc)
{
    if (r->check == C_NONE)
        return true;
    int g = rc > 1 ? rc - 1 : 0;
    const char *v = s + ov[2 * g];
    size_t n = ov[2 * g + 1] - ov[2 * g];
    const char *name = rc > 1 ? s + ov[2] : "";
    size_t nn = rc > 2 ? ov[3] - ov[2] : 0;
    /* `cmd args`: a shell's command substitution, not a value (a Go raw string `value` is) */
    if (r->check != C_FORMAT && ov[2 * g] > 0 && s[ov[2 * g] - 1] == '`' && s[ov[2 * g + 1]] != '`')
        return false;
    switch (r->check) {
    case C_FORMAT:
        return !placeholder(v, n);
    case C_VALUE:
        return !public_name(name, nn) && !fake_name(name, nn) && !reference(name, nn, v, n);
    case C_RANDOM:
        return !public_name(name, nn) && !fake_name(name, nn) && !reference(name, nn, v, n) &&
               random_text(v, n);
    case C_NONE:
        break;
    }
    return true;
}

/* Appends the replacement of the match described by ov (rc groups) in s to o. */
static enum fl_status replace(struct fl_masker *m, unsigned ri, const char *s, const PCRE2_SIZE *ov,
                              int rc, struct buf *o)
{
    const struct rule *r = &mask_rules[ri];
    const char *ms = s + ov[0];
    size_t mn = ov[1] - ov[0];
    if (!is_secret(r, s, ov, rc))
        return buf_append(o, ms, mn);
    switch (r->kind) {
    case K_PLACE:
    case K_PEM_BEGIN:
    case K_PEM_END:
        return buf_append(o, r->place, strlen(r->place));
    case K_KEEP1: {
        enum fl_status st = buf_append(o, s + ov[2], ov[3] - ov[2]);
        return st != FL_OK ? st : buf_append(o, r->place, strlen(r->place));
    }
    case K_URL: {
        /* redis://:password@host has no user: do not invent one */
        enum fl_status st = buf_append(o, s + ov[2], ov[3] - ov[2]);
        if (st != FL_OK)
            return st;
        return ov[5] > ov[4] ? buf_append(o, "<user>:<password>@", 18)
                             : buf_append(o, ":<password>@", 12);
    }
    case K_NODELIST: {
        enum fl_status st = buf_append(o, s + ov[2], ov[3] - ov[2]);
        return st != FL_OK || rc < 3 ? st : put_nodelist(m, s + ov[4], ov[5] - ov[4], o);
    }
    case K_EMAIL:
        if (ov[3] - ov[2] == 3 && memcmp(s + ov[2], "git", 3) == 0) /* git@github.com:org/repo */
            return buf_append(o, ms, mn);
        return put_pseudonym(&m->emails, ms, mn, "<email-%u>", "<email>", o);
    case K_IPV4: {
        unsigned a, b, c, d;
        char tmp[16];
        memcpy(tmp, ms, mn < 15 ? mn : 15);
        tmp[mn < 15 ? mn : 15] = '\0';
        if (sscanf(tmp, "%u.%u.%u.%u", &a, &b, &c, &d) != 4 || a > 255 || b > 255 || c > 255 ||
            d > 255 || strcmp(tmp, "127.0.0.1") == 0 || strcmp(tmp, "0.0.0.0") == 0 ||
            strcmp(tmp, "255.255.255.255") == 0 || version_before(s, ov[0]))
            return buf_append(o, ms, mn);
        return put_pseudonym(&m->ips, ms, mn, "ip-%u", "<ip>", o);
    }
    case K_IPV6: {
        char low[64];
        size_t k = mn < sizeof low - 1 ? mn : sizeof low - 1;
        bool digit = false;
        for (size_t i = 0; i < k; i++) {
            low[i] = (char)tolower((unsigned char)ms[i]);
            digit |= isdigit((unsigned char)ms[i]) != 0;
        }
        if (!digit)
            return buf_append(o, ms, mn);
        return put_pseudonym(&m->ips, low, k, "ip-%u", "<ip>", o);
    }
    case K_HOME: {
        enum fl_status st = buf_append(o, s + ov[2], ov[3] - ov[2]);
        return st != FL_OK ? st
                           : put_pseudonym(&m->users, s + ov[4], ov[5] - ov[4], "user-%u", "<user>", o);
    }
    case K_LEARN:
    case K_HOSTKEYS:
    case K_K8S_DATA:
        break;
    }
    return buf_append(o, ms, mn);
}

/* Every match of rule ri in in, replaced, into out. */
static enum fl_status subst(struct fl_masker *m, unsigned ri, const struct buf *in, struct buf *out)
{
    buf_reset(out);
    const char *s = in->data ? in->data : "";
    size_t start = 0, last = 0;
    enum fl_status st = FL_OK;
    while (start <= in->len && st == FL_OK) {
        int rc = pcre2_match(m->re[ri], (PCRE2_SPTR)s, in->len, start, 0, m->md, NULL);
        if (rc < 0)
            break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
        if ((st = buf_append(out, s + last, ov[0] - last)) == FL_OK)
            st = replace(m, ri, s, ov, rc, out);
        last = ov[1];
        start = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
    }
    if (st == FL_OK && last < in->len)
        st = buf_append(out, s + last, in->len - last);
    if (st == FL_OK && out->data == NULL)
        st = buf_append(out, "", 0);
    return st;
}

static void swap(struct buf *x, struct buf *y)
{
    struct buf t = *x;
    *x = *y;
    *y = t;
}

/* Finds rule ri in a; returns whether it matched, with its span. */
static bool find(struct fl_masker *m, unsigned ri, const struct buf *a, size_t from, size_t *s,
                 size_t *e)
{
    if (m->re[ri] == NULL || a->len == 0)
        return false;
    if (pcre2_match(m->re[ri], (PCRE2_SPTR)a->data, a->len, from, 0, m->md, NULL) < 0)
        return false;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
    *s = ov[0];
    *e = ov[1];
    return true;
}

/* Replaces a[s, e) by text. */
static enum fl_status splice(struct fl_masker *m, size_t s, size_t e, const char *text)
{
    buf_reset(&m->b);
    enum fl_status st = buf_append(&m->b, m->a.data, s);
    if (st == FL_OK)
        st = buf_append(&m->b, text, strlen(text));
    if (st == FL_OK)
        st = buf_append(&m->b, m->a.data + e, m->a.len - e);
    swap(&m->a, &m->b);
    return st;
}

/* Whether the lines after a key block's BEGIN (rest, the block's bytes after the line) reach
 * its END before any line that could hold key material, an upper-case letter, a digit or one
 * of +/=: "-----BEGIN PRIVATE KEY-----", "...", "-----END PRIVATE KEY-----" in documentation
 * holds no key. A few lines are looked at; when the END is not among them, or not in this
 * block of input, the block is taken for a key. */
static bool pem_empty(const char *rest, size_t n)
{
    size_t pos = 0;
    for (unsigned lines = 0; lines < 4 && pos < n; lines++) {
        const char *nl = memchr(rest + pos, '\n', n - pos);
        size_t le = nl ? (size_t)(nl - rest) : n;
        const char *l = rest + pos;
        size_t len = le - pos;
        if ((len >= 9 && memmem(l, len, "-----END ", 9)) || (len >= 12 && memcmp(l, "Private-MAC:", 12) == 0))
            return true;
        for (size_t i = 0; i < len; i++)
            if (isupper((unsigned char)l[i]) || isdigit((unsigned char)l[i]) || strchr("+/=", l[i]))
                return false;
        pos = le + 1;
    }
    return false;
}

/* Private key blocks: the line parts inside a block become <private-key>. rest: the bytes of
 * the block after this line. */
static enum fl_status mask_pem(struct fl_masker *m, uint64_t mask, const char *rest, size_t rest_n)
{
    const unsigned BEGIN = 0, END = 1;
    size_t s, e;
    enum fl_status st = FL_OK;
    if (m->in_pem) {
        if ((mask >> END & 1) && find(m, END, &m->a, 0, &s, &e)) {
            m->in_pem = false;
            st = splice(m, 0, e, "<private-key>");
        } else {
            buf_reset(&m->a);
            st = buf_append(&m->a, "<private-key>", 13);
            if (++m->pem_lines >= MASK_PEM_MAX_LINES)
                m->in_pem = false;
            return st;
        }
    }
    size_t from = 0;
    while (st == FL_OK && (mask >> BEGIN & 1) && find(m, BEGIN, &m->a, from, &s, &e)) {
        size_t es, ee;
        if (find(m, END, &m->a, e, &es, &ee)) {
            /* BEGIN and END with nothing between hold no key */
            if (es == e) {
                from = ee;
                continue;
            }
            st = splice(m, s, ee, "<private-key>");
        } else if (pem_empty(rest, rest_n)) {
            break;
        } else {
            st = splice(m, s, m->a.len, "<private-key>");
            m->in_pem = true;
            m->pem_lines = 0;
            break;
        }
        from = s + 13;
    }
    return st;
}

/* ---------------------------------------------------------------- Kubernetes Secrets */

/* One line of YAML, as far as a Secret's data block needs it: its indentation (a list item's
 * "- " counts as indentation), whether it opens a list item, is blank or a comment, and a
 * "key: value" split. */
struct yline {
    size_t indent;
    bool item, blank, comment, key;
    const char *k, *v; /* key and value (v may be empty) */
    size_t kn, vn;
};

static void yaml_line(const char *s, size_t n, struct yline *y)
{
    memset(y, 0, sizeof *y);
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < n && s[i] == '-' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t')) {
        y->item = true;
        for (i++; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
            ;
    }
    y->indent = i;
    y->blank = i == n;
    y->comment = i < n && s[i] == '#';
    if (y->blank || y->comment)
        return;
    size_t j = i;
    if (s[j] == '"' || s[j] == '\'') {
        const char *q = memchr(s + j + 1, s[j], n - j - 1);
        j = q ? (size_t)(q - s) + 1 : n;
    } else {
        while (j < n && (isalnum((unsigned char)s[j]) || strchr("_.-/", s[j])))
            j++;
    }
    if (j == i || j >= n || s[j] != ':' || (j + 1 < n && s[j + 1] != ' ' && s[j + 1] != '\t'))
        return;
    y->key = true;
    y->k = s + i;
    y->kn = j - i;
    for (j++; j < n && (s[j] == ' ' || s[j] == '\t'); j++)
        ;
    y->v = s + j;
    y->vn = n - j;
}

/* A value without the quotes around it */
static void unquote(const char **v, size_t *n)
{
    if (*n >= 2 && ((*v)[0] == '"' || (*v)[0] == '\'') && (*v)[*n - 1] == (*v)[0]) {
        (*v)++;
        *n -= 2;
    }
}

/* What a kind: line at the data: key's level says: 1 a Secret, 0 another kind, -1 no kind here */
static int kind_of(const struct yline *y, size_t indent)
{
    if (!y->key || y->indent != indent || y->kn != 4 || memcmp(y->k, "kind", 4) != 0)
        return -1;
    const char *v = y->v;
    size_t n = y->vn;
    unquote(&v, &n);
    return n == 6 && strncasecmp(v, "secret", 6) == 0;
}

enum { K8S_OTHER = 0, K8S_SECRET = 1, K8S_UNKNOWN = 2 };

/* The kind of the object whose data: line is d[ls, le) in the block d[0, n), looked for among
 * the keys at the data: key's level, before it and after it (`kubectl get -o yaml` sorts them:
 * data comes before kind). The object ends at a line less indented, a new list item, "---" or a
 * line that is no YAML key (a log line); past MASK_K8S_LOOK_LINES or at the edge of the block
 * (streaming: the rest is in another block) the kind is unknown. */
static int k8s_kind(const char *d, size_t ls, size_t le, size_t n, size_t indent)
{
    struct yline y;
    bool edge = false;
    size_t e = ls;
    unsigned k;
    for (k = 0; k < MASK_K8S_LOOK_LINES; k++) {
        if (e == 0) {
            edge = true;
            break;
        }
        size_t b = line_begin(d, 0, e - 1);
        yaml_line(d + b, e - 1 - b, &y);
        e = b;
        if (y.blank || y.comment)
            continue;
        /* "---" and log lines end the object too: they are no keys */
        if (y.indent < indent || (y.indent == indent && !y.key))
            break;
        int kind = kind_of(&y, indent);
        if (kind >= 0)
            return kind;
        if (y.item && y.indent == indent)
            break;
    }
    edge |= k == MASK_K8S_LOOK_LINES;
    size_t b = le < n ? le + 1 : n;
    for (k = 0; k < MASK_K8S_LOOK_LINES; k++) {
        if (b >= n)
            return K8S_UNKNOWN;
        size_t f = line_stop(d, n, b);
        yaml_line(d + b, f - b, &y);
        b = f + 1;
        if (y.blank || y.comment)
            continue;
        if (y.indent < indent || (y.indent == indent && (!y.key || y.item)))
            break;
        int kind = kind_of(&y, indent);
        if (kind >= 0)
            return kind;
    }
    return edge || k == MASK_K8S_LOOK_LINES ? K8S_UNKNOWN : K8S_OTHER;
}

/* A data: line: follow the block below it when the object is a Secret, or may be one. */
static void k8s_begin(struct fl_masker *m, const char *line, size_t n, const char *rest, size_t rest_n,
                      size_t base)
{
    struct yline y;
    yaml_line(line, n, &y);
    if (!y.key || y.vn)
        return;
    /* line and rest are parts of one block: line - base is its start */
    const char *d = line - base;
    int kind = k8s_kind(d, base, base + n, (size_t)(rest - d) + rest_n, y.indent);
    if (kind == K8S_OTHER)
        return;
    m->k8s.on = true;
    m->k8s.secret = kind == K8S_SECRET;
    m->k8s.indent = y.indent;
    m->k8s.lines = 0;
}

/* Whether a value in a data block is masked. A Secret's values are, but for an empty one, a
 * template's ({{ .Values.password }}) and one under ten characters (YWRtaW4= is "admin", a
 * name). When the kind is unknown, only what is plainly base64 of a random string of twelve
 * bytes or more: a ConfigMap's data is text. */
static bool k8s_secret_value(const char *v, size_t n, bool secret)
{
    unquote(&v, &n);
    if (n == 0 || (n >= 2 && (memcmp(v, "{{", 2) == 0 || memcmp(v, "${", 2) == 0)))
        return false;
    size_t sig = n;
    while (sig && v[sig - 1] == '=')
        sig--;
    if (secret)
        return sig >= 10;
    if (sig < 16 || n % 4 != 0 || n - sig > 2)
        return false;
    bool upper = false, lower = false, digit = false;
    for (size_t i = 0; i < sig; i++) {
        unsigned char c = (unsigned char)v[i];
        if (!isalnum(c) && c != '+' && c != '/')
            return false;
        upper |= isupper(c) != 0;
        lower |= islower(c) != 0;
        digit |= isdigit(c) != 0;
    }
    return upper && lower && digit;
}

/* A line while a data block is followed (m->a): its value masked, or the block ended. */
static enum fl_status k8s_line(struct fl_masker *m)
{
    struct yline y;
    yaml_line(m->a.data, m->a.len, &y);
    if (y.blank || y.comment)
        return FL_OK;
    if (y.indent <= m->k8s.indent || ++m->k8s.lines > MASK_K8S_MAX_LINES) {
        m->k8s.on = false;
        return FL_OK;
    }
    const char *v = y.key ? y.v : m->a.data + y.indent;
    size_t vn = y.key ? y.vn : (size_t)(y.item ? 0 : m->a.len - y.indent);
    while (vn && (v[vn - 1] == '\r' || v[vn - 1] == ' ' || v[vn - 1] == '\t'))
        vn--;
    /* a block scalar's indicator (|, >-): the value is on the lines below */
    if (y.key && vn && vn <= 3 && (v[0] == '|' || v[0] == '>'))
        return FL_OK;
    if (!k8s_secret_value(v, vn, m->k8s.secret))
        return FL_OK;
    unquote(&v, &vn);
    size_t s = (size_t)(v - m->a.data);
    return splice(m, s, s + vn, "<secret>");
}

/* Host spans first (their offsets are the line's), then the matched rules in table order. */
static void mask_line(struct fl_masker *m, const char *line, size_t n, const char *rest,
                      size_t rest_n, uint64_t mask, const struct hit *hh, size_t nhh, size_t base,
                      struct out *o)
{
    if (m->in_pem && !(mask >> 1 & 1)) {
        out_write(o, "<private-key>", 13);
        if (++m->pem_lines >= MASK_PEM_MAX_LINES)
            m->in_pem = false;
        return;
    }
    buf_reset(&m->a);
    enum fl_status st = buf_append(&m->a, "", 0);
    size_t pos = 0;
    for (size_t i = 0; i < nhh && st == FL_OK; i++) {
        size_t len = strlen(m->host_names[hh[i].id]);
        if (hh[i].to - base < len)
            continue;
        size_t e = hh[i].to - base, s = e - len;
        if (s < pos || (s > 0 && host_char((unsigned char)line[s - 1]) && line[s - 1] != '.') ||
            (e < n && host_char((unsigned char)line[e]) && line[e] != '.'))
            continue;
        /* a longer name ending at the same place, registered later, is found after this one */
        if ((st = buf_append(&m->a, line + pos, s - pos)) == FL_OK)
            st = buf_printf(&m->a, "host-%u", hh[i].id + 1);
        pos = e;
    }
    if (st == FL_OK)
        st = buf_append(&m->a, line + pos, n - pos);
    if (st == FL_OK && m->k8s.on)
        st = k8s_line(m);
    if (st == FL_OK && !m->k8s.on && m->k8s_rule < NRULES && (mask >> m->k8s_rule & 1))
        k8s_begin(m, line, n, rest, rest_n, base);
    if (st == FL_OK && (mask & 3 || m->in_pem))
        st = mask_pem(m, mask, rest, rest_n);
    for (unsigned ri = 2; ri < NRULES && st == FL_OK; ri++)
        if ((mask >> ri & 1) && m->re[ri]) {
            st = subst(m, ri, &m->a, &m->b);
            swap(&m->a, &m->b);
        }
    if (st != FL_OK) {
        /* fail closed: a line that could not be masked is not written */
        out_puts(o, "<unmaskable-line>");
        if (st == FL_ERR_NOMEM)
            o->st = st;
        return;
    }
    out_write(o, m->a.data, m->a.len);
}

/* The PCRE2 code of every rule that hit the block, compiled on the rule's first hit and
 * JIT-compiled once it keeps hitting (pcre_lazy.h): a run hits a few rules or none, and masking a
 * report's few evidence lines should pay for none of the others. The database holds only the
 * rules of the masker's mode, so a hit names a rule in force. */
static enum fl_status compile_hit_rules(struct fl_masker *m)
{
    for (size_t i = 0; i < m->nhits; i++) {
        unsigned ri = m->hits[i].id;
        if (mask_rules[ri].re != NULL &&
            pcre_lazy_use(&m->re[ri], &m->re_uses[ri], mask_rules[ri].re, 0) == NULL)
            return FL_ERR_PATTERN;
    }
    return FL_OK;
}

/* Masks a block of whole lines (the last one may lack its newline) into o. */
static void scan_block(struct fl_masker *m, const char *d, size_t n, struct out *o)
{
    if (n == 0)
        return;
    m->nhits = m->nhhits = 0;
    m->unsorted = false;
    m->cb_st = FL_OK;
    if (hs_scan(m->db, d, (unsigned)n, 0, m->scratch, on_hit, m) != HS_SUCCESS && m->cb_st == FL_OK)
        m->cb_st = FL_ERR_INTERNAL;
    if (m->unsorted)
        qsort(m->hits, m->nhits, sizeof *m->hits, cmp_hit);
    if (m->cb_st == FL_OK)
        m->cb_st = compile_hit_rules(m);
    if (m->mode == FL_MASK_ALL && m->cb_st == FL_OK) {
        learn(m, d, n);
        if (m->hosts.n && (m->cb_st = rebuild_hosts(m)) == FL_OK &&
            hs_scan(m->hdb, d, (unsigned)n, 0, m->scratch, on_host, m) != HS_SUCCESS &&
            m->cb_st == FL_OK)
            m->cb_st = FL_ERR_INTERNAL;
        /* literal matches come in end order; ties (a name and its suffix) by id is fine */
    }
    if (m->cb_st != FL_OK) {
        o->st = m->cb_st;
        return;
    }
    size_t pos = 0, hi = 0, si = 0;
    while (pos < n && o->st == FL_OK) {
        while (hi < m->nhits && (!(m->rewrite >> m->hits[hi].id & 1) || m->hits[hi].to <= pos))
            hi++;
        while (si < m->nhhits && m->hhits[si].to <= pos)
            si++;
        size_t ls, le;
        if (m->in_pem || m->k8s.on) {
            ls = pos;
        } else {
            size_t next = SIZE_MAX;
            if (hi < m->nhits)
                next = m->hits[hi].to;
            if (si < m->nhhits && m->hhits[si].to < next)
                next = m->hhits[si].to;
            if (next == SIZE_MAX) {
                out_write(o, d + pos, n - pos);
                return;
            }
            ls = line_begin(d, pos, next - 1);
            if (next - 1 - ls >= MASK_LINE_MAX)
                ls += (next - 1 - ls) / MASK_LINE_MAX * MASK_LINE_MAX;
            out_write(o, d + pos, ls - pos);
        }
        le = line_stop(d, n, ls);
        if (le - ls > MASK_LINE_MAX)
            le = ls + MASK_LINE_MAX;
        uint64_t mask = 0;
        for (; hi < m->nhits && m->hits[hi].to <= le; hi++)
            if (m->rewrite >> m->hits[hi].id & 1)
                mask |= 1ull << m->hits[hi].id;
        size_t s0 = si;
        while (si < m->nhhits && m->hhits[si].to <= le)
            si++;
        size_t after = le < n ? le + 1 : n;
        mask_line(m, d + ls, le - ls, d + after, n - after, mask, m->hhits ? m->hhits + s0 : NULL,
                  si - s0, ls, o);
        pos = le;
        if (pos < n && d[pos] == '\n') {
            out_write(o, "\n", 1);
            pos++;
        }
    }
}

/* Vectorscan takes blocks under 4 GiB: larger ones are cut at line ends. */
static void mask_block(struct fl_masker *m, const char *d, size_t n, struct out *o)
{
    const size_t max = (size_t)1 << 30;
    while (n > max && o->st == FL_OK) {
        const char *nl = memrchr(d, '\n', max);
        size_t k = nl ? (size_t)(nl - d) + 1 : max;
        scan_block(m, d, k, o);
        d += k;
        n -= k;
    }
    if (o->st == FL_OK)
        scan_block(m, d, n, o);
}

/* ---------------------------------------------------------------- whole texts and streams */

enum fl_status fl_masker_apply(struct fl_masker *m, const char *text, size_t len, char **out,
                               size_t *out_len)
{
    if (m == NULL || out == NULL || (text == NULL && len))
        return FL_ERR_USAGE;
    *out = NULL;
    struct buf b;
    buf_init(&b, len * 16 + 65536);
    struct out o = {NULL, &b, buf_append(&b, "", 0)};
    bool pem = m->in_pem;
    struct k8s_block k8s = m->k8s;
    m->in_pem = false;
    m->k8s.on = false;
    mask_block(m, text, len, &o);
    m->in_pem = pem;
    m->k8s = k8s;
    if (o.st != FL_OK) {
        buf_free(&b);
        return o.st;
    }
    if (out_len)
        *out_len = b.len;
    *out = buf_steal(&b);
    return FL_OK;
}

enum fl_status fl_masker_write(struct fl_masker *m, const void *buf, size_t len, FILE *out)
{
    if (m == NULL || out == NULL || (buf == NULL && len))
        return FL_ERR_USAGE;
    struct out o = {out, NULL, FL_OK};
    const char *p = buf;
    while (len && o.st == FL_OK) {
        if (m->carry.len) {
            /* complete the carried line (or cut it at MASK_LINE_MAX) */
            const char *nl = memchr(p, '\n', len);
            size_t take = nl ? (size_t)(nl - p) + 1 : len;
            size_t room = MASK_LINE_MAX - m->carry.len;
            bool full = take > room;
            if (full)
                take = room;
            if (buf_append(&m->carry, p, take) != FL_OK)
                return FL_ERR_NOMEM;
            p += take;
            len -= take;
            if (!nl && !full)
                break;
            mask_block(m, m->carry.data, m->carry.len, &o);
            buf_reset(&m->carry);
            continue;
        }
        const char *nl = memrchr(p, '\n', len);
        size_t whole = nl ? (size_t)(nl - p) + 1 : 0;
        if (whole) {
            mask_block(m, p, whole, &o);
            p += whole;
            len -= whole;
        }
        while (len >= MASK_LINE_MAX && o.st == FL_OK) {
            mask_block(m, p, MASK_LINE_MAX, &o);
            p += MASK_LINE_MAX;
            len -= MASK_LINE_MAX;
        }
        if (len && buf_append(&m->carry, p, len) != FL_OK)
            return FL_ERR_NOMEM;
        break;
    }
    return o.st;
}

enum fl_status fl_masker_end(struct fl_masker *m, FILE *out)
{
    if (m == NULL || out == NULL)
        return FL_ERR_USAGE;
    struct out o = {out, NULL, FL_OK};
    if (m->carry.len) {
        mask_block(m, m->carry.data, m->carry.len, &o);
        buf_reset(&m->carry);
        out_write(&o, "\n", 1);
    }
    m->in_pem = false;
    m->k8s.on = false;
    if (o.st == FL_OK && fflush(out) != 0)
        o.st = FL_ERR_IO;
    return o.st;
}

enum fl_status fl_masker_stream(struct fl_masker *m, FILE *in, FILE *out)
{
    if (m == NULL || in == NULL || out == NULL)
        return FL_ERR_USAGE;
    char *chunk = malloc(READ_CHUNK);
    if (chunk == NULL)
        return FL_ERR_NOMEM;
    enum fl_status st = FL_OK;
    size_t n;
    while (st == FL_OK && (n = fread(chunk, 1, READ_CHUNK, in)) > 0)
        st = fl_masker_write(m, chunk, n, out);
    if (st == FL_OK && ferror(in))
        st = FL_ERR_IO;
    enum fl_status es = fl_masker_end(m, out);
    free(chunk);
    return st != FL_OK ? st : es;
}

/* ---------------------------------------------------------------- fl_mask_path: the masker as a sink */

struct mask_sink {
    struct fl_masker *m;
    FILE *out;
};

static enum fl_status sink_open(void *ctx, const char *name, int *src)
{
    struct mask_sink *k = ctx;
    struct line_meta meta = {.rank = -1, .ts_ms = TS_UNKNOWN};
    prefix_from_path(name, &meta);
    if (meta.host[0])
        add_host(k->m, meta.host, strlen(meta.host));
    *src = 0;
    return FL_OK;
}

static enum fl_status sink_feed(void *ctx, int src, const void *buf, size_t len)
{
    (void)src;
    struct mask_sink *k = ctx;
    return fl_masker_write(k->m, buf, len, k->out);
}

static enum fl_status sink_close(void *ctx, int src)
{
    (void)src;
    struct mask_sink *k = ctx;
    return fl_masker_end(k->m, k->out);
}

static void sink_note(void *ctx, const char *name, const char *msg)
{
    (void)ctx;
    (void)name;
    (void)msg; /* the caller reports err */
}

enum fl_status fl_mask_path(struct fl_masker *m, const char *path, FILE *out, struct fl_error *err)
{
    if (m == NULL || path == NULL || out == NULL)
        return FL_ERR_USAGE;
    struct mask_sink k = {m, out};
    const struct sink sink = {&k, sink_open, sink_feed, sink_close, sink_note};
    return reader_path(&sink, path, err);
}

/* ---------------------------------------------------------------- reports */

/* Replaces *s by its masked copy. */
static enum fl_status mask_str(struct fl_masker *m, char **s)
{
    if (*s == NULL)
        return FL_OK;
    char *t;
    enum fl_status st = fl_masker_apply(m, *s, strlen(*s), &t, NULL);
    if (st != FL_OK)
        return st;
    free(*s);
    *s = t;
    return FL_OK;
}

static void learn_path(struct fl_masker *m, const char *path)
{
    struct line_meta meta = {.rank = -1, .ts_ms = TS_UNKNOWN};
    if (path == NULL)
        return;
    /* archive members: "run.tar.gz:node-2/rank_5.log" */
    const char *colon = strrchr(path, ':');
    prefix_from_path(colon ? colon + 1 : path, &meta);
    if (meta.host[0])
        add_host(m, meta.host, strlen(meta.host));
}

enum fl_status fl_report_mask(struct fl_report *r, struct fl_masker *m)
{
    if (r == NULL || m == NULL)
        return FL_ERR_USAGE;
    for (size_t i = 0; i < r->ndiagnoses; i++) {
        struct diagnosis *d = &r->diagnoses[i];
        if (d->host[0])
            add_host(m, d->host, strlen(d->host));
        for (size_t j = 0; j < d->nevidence; j++) {
            struct line_meta meta = {.rank = -1, .ts_ms = TS_UNKNOWN};
            learn_path(m, d->evidence[j].source);
            if (d->evidence[j].text) {
                prefix_parse(d->evidence[j].text, strlen(d->evidence[j].text), &meta, 2000);
                if (meta.host[0])
                    add_host(m, meta.host, strlen(meta.host));
            }
        }
    }
    for (size_t i = 0; i < r->nerrors; i++)
        learn_path(m, r->errors[i].source);
    enum fl_status st = FL_OK;
    for (size_t i = 0; i < r->ndiagnoses && st == FL_OK; i++) {
        struct diagnosis *d = &r->diagnoses[i];
        for (size_t j = 0; j < d->nevidence && st == FL_OK; j++) {
            st = mask_str(m, &d->evidence[j].source);
            if (st == FL_OK)
                st = mask_str(m, &d->evidence[j].text);
        }
        if (st == FL_OK)
            st = mask_str(m, &d->root_cause);
        if (st == FL_OK)
            st = mask_str(m, &d->fix);
        if (st == FL_OK)
            st = mask_str(m, &d->verify);
        if (st == FL_OK)
            st = mask_str(m, &d->explain);
        if (st == FL_OK && d->host[0]) {
            char *h;
            st = fl_masker_apply(m, d->host, strlen(d->host), &h, NULL);
            if (st == FL_OK) {
                snprintf(d->host, sizeof d->host, "%s", h);
                free(h);
            }
        }
    }
    /* facts: masked as KEY=value, so that NAME=value rules and node lists see the name */
    for (size_t i = 0; i < r->facts.n && st == FL_OK; i++) {
        struct fact *f = &r->facts.items[i];
        struct buf kv;
        buf_init(&kv, 4096);
        buf_printf(&kv, "%s=%s", f->key, f->value);
        char *t = NULL;
        st = fl_masker_apply(m, kv.data, kv.len, &t, NULL);
        size_t kl = strlen(f->key);
        if (st == FL_OK) {
            char *v = strncmp(t, f->key, kl) == 0 && t[kl] == '=' ? xstrdup(t + kl + 1) : NULL;
            if (v == NULL) /* the name itself was rewritten: mask the value alone */
                st = fl_masker_apply(m, f->value, strlen(f->value), &v, NULL);
            if (st == FL_OK) {
                free(f->value);
                f->value = v;
            }
        }
        free(t);
        buf_free(&kv);
    }
    for (size_t i = 0; i < r->nerrors && st == FL_OK; i++) {
        st = mask_str(m, &r->errors[i].source);
        if (st == FL_OK)
            st = mask_str(m, &r->errors[i].msg);
    }
    if (st == FL_OK)
        st = mask_str(m, &r->note);
    for (size_t i = 0; i < r->nwarnings && st == FL_OK; i++)
        st = mask_str(m, &r->warnings[i]);
    /* stack frames name files, which may sit in a home folder */
    for (size_t i = 0; i < r->nstacks && st == FL_OK; i++)
        for (size_t j = 0; j < r->stacks[i].nframes && st == FL_OK; j++)
            st = mask_str(m, &r->stacks[i].frames[j]);
    return st;
}
