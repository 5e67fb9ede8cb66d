/*
 * kb_load.c — one Markdown file with YAML front matter → struct entry.
 *
 * The front matter is parsed by libyaml into a document tree; we walk the tree and copy what we
 * need, keeping each node's line for error messages (`kb/memory/cuda-oom.md:14:7: ...`). The
 * Markdown body is kept whole: sections are located on demand (kb_section_text) because only the
 * entries that end up in a report need their prose, and parsing 100 bodies at every start-up
 * would cost more than the scan of a small log.
 */
#include "kb.h"
#include "status.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static const char *const categories[] = {
    "network", "launcher", "memory", "cuda", "data", "environment", "hardware", "performance",
    "numerics", "storage", "checkpoint", "parallelism", "compile", "inference", NULL};
static const char *const severities[] = {"critical", "high", "medium", "low", NULL};

static bool in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

struct loader {
    const char *path;
    yaml_document_t doc;
    unsigned line_base; /* line of the first front-matter line in the file, minus one */
    struct fl_error *err;
    struct entry *e;
    struct buf strings; /* e->strings while they grow: the entry owns the data */
};

static enum fl_status fail_at(struct loader *ld, yaml_node_t *node, const char *fmt, const char *a,
                              const char *b)
{
    unsigned line = node ? (unsigned)node->start_mark.line + 1 + ld->line_base : 1;
    unsigned col = node ? (unsigned)node->start_mark.column + 1 : 1;
    return error_set(ld->err, FL_ERR_KB, ld->path, line, col, fmt, a ? a : "", b ? b : "");
}

static const char *scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A YAML boolean as the entries write it: true or yes; anything else is false. */
static bool is_true(yaml_node_t *n)
{
    const char *s = scalar(n);
    return s && (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0);
}

/* True when `key` is also the key of a pair of the mapping before p (libyaml keeps both). */
static bool duplicate_key(struct loader *ld, yaml_node_t *map, yaml_node_pair_t *p, const char *key)
{
    for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
        const char *prev = scalar(yaml_document_get_node(&ld->doc, q->key));
        if (prev && strcmp(prev, key) == 0)
            return true;
    }
    return false;
}

static enum fl_status get_string(struct loader *ld, yaml_node_t *n, const char *key, char **out)
{
    const char *s = scalar(n);
    if (s == NULL)
        return fail_at(ld, n, "'%s' must be a string%s", key, NULL);
    *out = xstrdup(s);
    return *out ? FL_OK : FL_ERR_NOMEM;
}

/* Appends s, the text of node n, to the entry's strings; *off: where it starts (struct signal:
 * 0 is no text, so the strings start with an empty one). */
static enum fl_status add_str(struct loader *ld, yaml_node_t *n, const char *s, uint32_t *off)
{
    enum fl_status st = ld->strings.len ? FL_OK : buf_putc(&ld->strings, '\0');
    *off = (uint32_t)ld->strings.len;
    if (st == FL_OK)
        st = buf_append(&ld->strings, s, strlen(s) + 1);
    ld->e->strings = ld->strings.data;
    if (st == FL_ERR_LIMIT) /* YAML aliases can repeat a text many times */
        return fail_at(ld, n, "the entry's texts exceed 4 MiB%s%s", NULL, NULL);
    return st;
}

static enum fl_status get_list(struct loader *ld, yaml_node_t *n, const char *key, uint32_t **out,
                               size_t *count)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_at(ld, n, "'%s' must be a list%s", key, NULL);
    size_t len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    uint32_t *v = calloc(len ? len : 1, sizeof *v);
    if (v == NULL)
        return FL_ERR_NOMEM;
    *out = v;
    for (size_t i = 0; i < len; i++) {
        yaml_node_t *it = yaml_document_get_node(&ld->doc, n->data.sequence.items.start[i]);
        const char *s = scalar(it);
        if (s == NULL)
            return fail_at(ld, it, "items of '%s' must be strings%s", key, NULL);
        enum fl_status st = add_str(ld, it, s, &v[i]);
        if (st != FL_OK)
            return st;
        *count = i + 1;
    }
    return FL_OK;
}

static bool valid_name(const char *s, bool dash)
{
    if (!*s || !(islower((unsigned char)*s) || *s == '_' || isdigit((unsigned char)*s)))
        return false;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' ||
              (dash && *s == '-')))
            return false;
    return true;
}

/* A signal's literal, regex, config or prefilter text: a non-empty string (replacing *out). */
static enum fl_status get_pattern_text(struct loader *ld, yaml_node_t *v, const char *key,
                                       uint32_t *out)
{
    const char *s = scalar(v);
    if (s == NULL)
        return fail_at(ld, v, "'%s' must be a string%s", key, NULL);
    if (s[0] == '\0')
        return fail_at(ld, v, "'%s' must not be empty%s", key, NULL);
    return add_str(ld, v, s, out);
}

/* A config signal's test, its texts kept in the entry's strings. */
static enum fl_status parse_config(struct loader *ld, yaml_node_t *v, struct signal *sig)
{
    const char *src = entry_str(ld->e, sig->text);
    struct config_test t;
    char why[200];
    if (config_parse(src, &t, why, sizeof why) != FL_OK) {
        config_test_free(&t);
        return fail_at(ld, v, "config '%s': %s", src, why);
    }
    sig->cfg.op = t.op;
    enum fl_status st = add_str(ld, v, t.fact, &sig->cfg.fact);
    if (st == FL_OK && t.value)
        st = add_str(ld, v, t.value, &sig->cfg.value);
    config_test_free(&t);
    return st;
}

static enum fl_status parse_signal(struct loader *ld, yaml_node_t *n, struct signal *sig)
{
    memset(sig, 0, sizeof *sig);
    sig->pattern = -1;
    sig->line = (unsigned)n->start_mark.line + 1 + ld->line_base;
    if (n->type != YAML_MAPPING_NODE)
        return fail_at(ld, n, "a signal must be a mapping with name and literal, regex or config%s%s",
                       NULL, NULL);
    int kinds = 0;
    enum fl_status st;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&ld->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&ld->doc, p->value);
        const char *key = scalar(k);
        if (key == NULL)
            return fail_at(ld, k, "signal keys must be strings%s%s", NULL, NULL);
        if (duplicate_key(ld, n, p, key))
            return fail_at(ld, k, "duplicate signal key '%s'%s", key, NULL);
        if (strcmp(key, "name") == 0) {
            const char *name = scalar(v);
            if (name == NULL)
                return fail_at(ld, v, "'%s' must be a string%s", key, NULL);
            if (!valid_name(name, false))
                return fail_at(ld, v, "signal name '%s' must match [a-z_][a-z0-9_]*%s", name,
                               NULL);
            if ((st = add_str(ld, v, name, &sig->name)) != FL_OK)
                return st;
        } else if (strcmp(key, "literal") == 0 || strcmp(key, "regex") == 0 ||
                   strcmp(key, "config") == 0) {
            kinds++;
            sig->kind = key[0] == 'l' ? SIGNAL_LITERAL : key[0] == 'r' ? SIGNAL_REGEX : SIGNAL_CONFIG;
            if ((st = get_pattern_text(ld, v, key, &sig->text)) != FL_OK)
                return st;
            if (sig->kind == SIGNAL_CONFIG && (st = parse_config(ld, v, sig)) != FL_OK)
                return st;
        } else if (strcmp(key, "prefilter") == 0) {
            if ((st = get_pattern_text(ld, v, key, &sig->prefilter)) != FL_OK)
                return st;
        } else if (strcmp(key, "nocase") == 0) {
            sig->nocase = is_true(v);
        } else if (strcmp(key, "observer") == 0) {
            sig->observer = is_true(v);
        } else {
            return fail_at(ld, k, "unknown signal key '%s'%s", key, NULL);
        }
    }
    const char *name = entry_str(ld->e, sig->name);
    if (name == NULL)
        return fail_at(ld, n, "signal without a name%s%s", NULL, NULL);
    if (kinds != 1)
        return fail_at(ld, n, "signal '%s' needs exactly one of literal, regex, config%s", name,
                       NULL);
    if (sig->prefilter && sig->kind != SIGNAL_REGEX)
        return fail_at(ld, n, "signal '%s': only a regex takes a prefilter%s", name, NULL);
    return FL_OK;
}

static enum fl_status parse_signals(struct loader *ld, yaml_node_t *n, struct entry *e)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_at(ld, n, "'signals' must be a list%s%s", NULL, NULL);
    size_t len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (len == 0 || len > KB_MAX_SIGNALS)
        return fail_at(ld, n, "an entry needs between 1 and 64 signals%s%s", NULL, NULL);
    e->signals = calloc(len, sizeof *e->signals);
    if (e->signals == NULL)
        return FL_ERR_NOMEM;
    bool any_pattern = false;
    for (size_t i = 0; i < len; i++) {
        yaml_node_t *it = yaml_document_get_node(&ld->doc, n->data.sequence.items.start[i]);
        enum fl_status st = parse_signal(ld, it, &e->signals[i]);
        e->nsignals = i + 1;
        if (st != FL_OK)
            return st;
        const char *name = entry_str(e, e->signals[i].name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(entry_str(e, e->signals[j].name), name) == 0)
                return fail_at(ld, it, "duplicate signal name '%s'%s", name, NULL);
        any_pattern |= e->signals[i].kind != SIGNAL_CONFIG;
    }
    if (!any_pattern)
        return fail_at(ld, n, "an entry needs at least one literal or regex signal%s%s", NULL, NULL);
    return FL_OK;
}

static enum fl_status parse_front_matter(struct loader *ld, struct entry *e)
{
    yaml_node_t *root = yaml_document_get_root_node(&ld->doc);
    if (root == NULL || root->type != YAML_MAPPING_NODE)
        return fail_at(ld, root, "front matter must be a YAML mapping%s%s", NULL, NULL);
    yaml_node_t *cond = NULL;
    enum fl_status st = FL_OK;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(&ld->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&ld->doc, p->value);
        const char *key = scalar(k);
        if (key == NULL)
            return fail_at(ld, k, "keys must be strings%s%s", NULL, NULL);
        if (duplicate_key(ld, root, p, key))
            return fail_at(ld, k, "duplicate key '%s'%s", key, NULL);
        if (strcmp(key, "id") == 0)
            st = get_string(ld, v, key, &e->id);
        else if (strcmp(key, "title") == 0)
            st = get_string(ld, v, key, &e->title);
        else if (strcmp(key, "category") == 0)
            st = get_string(ld, v, key, &e->category);
        else if (strcmp(key, "severity") == 0)
            st = get_string(ld, v, key, &e->severity);
        else if (strcmp(key, "role") == 0) {
            const char *s = scalar(v);
            if (s == NULL || (strcmp(s, "primary") != 0 && strcmp(s, "collateral") != 0))
                return fail_at(ld, v, "role must be primary or collateral%s%s", NULL, NULL);
            e->collateral = strcmp(s, "collateral") == 0;
        } else if (strcmp(key, "tags") == 0)
            st = get_list(ld, v, key, &e->tags, &e->ntags);
        else if (strcmp(key, "systems") == 0)
            st = get_list(ld, v, key, &e->systems, &e->nsystems);
        else if (strcmp(key, "related") == 0)
            st = get_list(ld, v, key, &e->related, &e->nrelated);
        else if (strcmp(key, "references") == 0)
            st = get_list(ld, v, key, &e->references, &e->nreferences);
        else if (strcmp(key, "differential") == 0)
            st = get_list(ld, v, key, &e->differential, &e->ndifferential);
        else if (strcmp(key, "signals") == 0)
            st = parse_signals(ld, v, e);
        else if (strcmp(key, "condition") == 0)
            cond = v;
        else
            return fail_at(ld, k, "unknown key '%s'%s", key, NULL);
        if (st != FL_OK)
            return st;
    }
    static const char *const required[] = {"id", "title", "category", "severity", "signals"};
    const void *have[] = {e->id, e->title, e->category, e->severity, e->signals};
    for (size_t i = 0; i < 5; i++)
        if (have[i] == NULL)
            return fail_at(ld, root, "missing required key '%s'%s", required[i], NULL);
    if (!valid_name(e->id, true))
        return fail_at(ld, root, "id '%s' must match [a-z0-9-]+%s", e->id, NULL);
    if (!in_list(categories, e->category))
        return fail_at(ld, root, "unknown category '%s'%s", e->category, NULL);
    if (!in_list(severities, e->severity))
        return fail_at(ld, root, "unknown severity '%s' (critical, high, medium, low)%s",
                       e->severity, NULL);
    for (size_t i = 0; i < e->nreferences; i++)
        if (strncmp(entry_str(e, e->references[i]), "https://", 8) != 0)
            return fail_at(ld, root, "reference '%s' is not an https URL%s",
                           entry_str(e, e->references[i]), NULL);
    if (cond) {
        const char *s = scalar(cond);
        if (s == NULL)
            return fail_at(ld, cond, "condition must be a string%s%s", NULL, NULL);
        return condition_compile(e, s, ld->err,
                                 (unsigned)cond->start_mark.line + 1 + ld->line_base);
    }
    return condition_compile(e, NULL, ld->err, 0);
}

/* Finds the `---` fences. The front matter is the text between the first two. */
static bool split_front_matter(const char *text, size_t len, size_t *fm_start, size_t *fm_end,
                               size_t *body)
{
    if (len < 4 || strncmp(text, "---", 3) != 0 || (text[3] != '\n' && text[3] != '\r'))
        return false;
    size_t pos = text[3] == '\r' ? 5 : 4;
    *fm_start = pos;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t l = end - pos;
        if (l >= 3 && strncmp(text + pos, "---", 3) == 0 && (l == 3 || text[pos + 3] == '\r')) {
            *fm_end = pos;
            *body = nl ? end + 1 : len;
            return true;
        }
        pos = end + 1;
    }
    return false;
}

enum fl_status kb_parse_entry(const char *path, const char *text, size_t len, struct entry *e,
                              struct fl_error *err)
{
    memset(e, 0, sizeof *e);
    size_t fm_start, fm_end, body;
    if (!split_front_matter(text, len, &fm_start, &fm_end, &body))
        return error_set(err, FL_ERR_KB, path, 1, 1,
                         "missing YAML front matter (the file must start with a '---' line)");
    struct loader ld = {.path = path, .line_base = 1, .err = err, .e = e};
    buf_init(&ld.strings, KB_MAX_STRINGS);
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return FL_ERR_NOMEM;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text + fm_start, fm_end - fm_start);
    enum fl_status st;
    if (!yaml_parser_load(&parser, &ld.doc)) {
        st = error_set(err, FL_ERR_KB, path, (unsigned)parser.problem_mark.line + 2,
                       (unsigned)parser.problem_mark.column + 1, "YAML: %s",
                       parser.problem ? parser.problem : "syntax error");
        yaml_parser_delete(&parser);
        return st;
    }
    yaml_parser_delete(&parser);
    e->path = xstrdup(path);
    e->markdown = xstrndup(text, len);
    e->body_offset = body;
    st = (e->path && e->markdown) ? parse_front_matter(&ld, e) : FL_ERR_NOMEM;
    yaml_document_delete(&ld.doc);
    if (st != FL_OK)
        kb_entry_free(e);
    return st;
}

void kb_entry_free(struct entry *e)
{
    if (e->embedded) {
        if (e->signals_owned)
            free(e->signals);
        memset(e, 0, sizeof *e);
        return;
    }
    free(e->id);
    free(e->title);
    free(e->category);
    free(e->severity);
    free(e->path);
    free(e->markdown);
    free(e->strings);
    free(e->tags);
    free(e->systems);
    free(e->related);
    free(e->references);
    free(e->differential);
    free(e->signals);
    condition_free(&e->cond);
    memset(e, 0, sizeof *e);
}

enum fl_status kb_add_entry(struct fl_kb *kb, struct entry *e)
{
    if (kb->compiled)
        return FL_ERR_USAGE;
    for (size_t i = 0; i < kb->nentries; i++)
        if (strcmp(kb->entries[i].id, e->id) == 0) {
            kb_entry_free(&kb->entries[i]);
            kb->entries[i] = *e;
            return FL_OK;
        }
    enum fl_status st = GROW(kb->entries, kb->entries_cap, kb->nentries, KB_MAX_ENTRIES);
    if (st != FL_OK)
        return st;
    kb->entries[kb->nentries++] = *e;
    return FL_OK;
}

/* ---------------------------------------------------------------- sections */

/* Locates "## name" in the body; returns the start of its content and sets *end. */
static const char *find_section(const struct entry *e, const char *name, const char **end)
{
    const char *p = e->markdown + e->body_offset;
    size_t nlen = strlen(name);
    const char *start = NULL;
    bool in_code = false;
    while (*p) {
        const char *nl = strchr(p, '\n');
        const char *eol = nl ? nl : p + strlen(p);
        if (strncmp(p, "```", 3) == 0)
            in_code = !in_code;
        else if (!in_code && strncmp(p, "## ", 3) == 0) {
            if (start) {
                *end = p;
                return start;
            }
            const char *t = p + 3;
            size_t tl = (size_t)(eol - t);
            while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\r'))
                tl--;
            if (tl == nlen && strncasecmp(t, name, nlen) == 0)
                start = nl ? nl + 1 : eol;
        }
        p = nl ? nl + 1 : eol;
    }
    if (start)
        *end = p;
    return start;
}

bool kb_has_section(const struct entry *e, const char *name)
{
    const char *end;
    return find_section(e, name, &end) != NULL;
}

static bool blank_line(const char *p, const char *eol)
{
    for (; p < eol; p++)
        if (!isspace((unsigned char)*p))
            return false;
    return true;
}

char *kb_section_text(const struct entry *e, const char *name, bool paragraph, bool code)
{
    const char *end;
    const char *p = find_section(e, name, &end);
    if (p == NULL)
        return NULL;
    struct buf out;
    buf_init(&out, 16384);
    bool got_para = !paragraph, got_code = !code, in_para = false, in_code = false;
    while (p < end && !(got_para && got_code)) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        const char *next = nl ? nl + 1 : end;
        if (strncmp(p, "```", 3) == 0) {
            if (in_code) {
                in_code = false;
                got_code = true;
            } else if (!got_code) {
                if (in_para) {
                    in_para = false;
                    got_para = true;
                }
                in_code = true;
                if (out.len)
                    buf_append(&out, "\n\n", 2);
            } else {
                /* skip a code block we do not want */
                const char *q = next;
                while (q < end && strncmp(q, "```", 3) != 0) {
                    const char *n2 = memchr(q, '\n', (size_t)(end - q));
                    q = n2 ? n2 + 1 : end;
                }
                const char *n3 = q < end ? memchr(q, '\n', (size_t)(end - q)) : NULL;
                next = n3 ? n3 + 1 : end;
            }
        } else if (in_code) {
            buf_append(&out, p, (size_t)(eol - p));
            buf_putc(&out, '\n');
        } else if (blank_line(p, eol)) {
            if (in_para) {
                in_para = false;
                got_para = true;
            }
        } else if (!got_para) {
            if (in_para)
                buf_putc(&out, ' ');
            else if (out.len)
                buf_append(&out, "\n\n", 2);
            in_para = true;
            const char *s = p;
            while (s < eol && (*s == ' ' || *s == '\t'))
                s++;
            size_t l = (size_t)(eol - s);
            if (l && s[l - 1] == '\r')
                l--;
            buf_append(&out, s, l);
        }
        p = next;
    }
    while (out.len && (out.data[out.len - 1] == '\n' || out.data[out.len - 1] == ' '))
        out.data[--out.len] = '\0';
    if (out.len == 0) {
        buf_free(&out);
        return NULL;
    }
    return buf_steal(&out);
}
