/*
 * facts.c — a small bounded key/value store. A linear array: runs have tens to a few hundred
 * facts, and lookups happen only at the end of a scan when conditions are evaluated.
 */
#include "facts.h"
#include "buf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FACT_VALUE_MAX 256

void facts_init(struct facts *f)
{
    memset(f, 0, sizeof *f);
}

static void fact_free(struct fact *it)
{
    free(it->key);
    free(it->value);
    for (unsigned k = 0; k < it->nmore; k++)
        free(it->more[k]);
}

void facts_free(struct facts *f)
{
    for (size_t i = 0; i < f->n; i++)
        fact_free(&f->items[i]);
    free(f->items);
    facts_init(f);
}

static struct fact *find(const struct facts *f, const char *key)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->items[i].key, key) == 0)
            return &f->items[i];
    return NULL;
}

const char *facts_get(const struct facts *f, const char *key)
{
    const struct fact *it = find(f, key);
    return it ? it->value : NULL;
}

unsigned facts_distinct(const struct facts *f, const char *key)
{
    const struct fact *it = find(f, key);
    return it ? 1 + it->nmore : 0;
}

const char *facts_lookup(const struct facts *f, const char *name, char *buf, size_t len)
{
    if (name[0] != '#')
        return facts_get(f, name);
    snprintf(buf, len, "%u", facts_distinct(f, name + 1));
    return buf;
}

/* Records one more distinct value of an existing fact; values past FACT_VALUES_MAX are dropped
 * (a condition asks whether ranks disagree, not how many ways). */
static enum fl_status add_value(struct fact *it, const char *value, size_t vlen)
{
    if (strlen(it->value) == vlen && memcmp(it->value, value, vlen) == 0)
        return FL_OK;
    for (unsigned k = 0; k < it->nmore; k++)
        if (strlen(it->more[k]) == vlen && memcmp(it->more[k], value, vlen) == 0)
            return FL_OK;
    if (it->nmore >= FACT_VALUES_MAX - 1)
        return FL_OK;
    char *v = xstrndup(value, vlen);
    if (!v)
        return FL_ERR_NOMEM;
    it->more[it->nmore++] = v;
    return FL_OK;
}

enum fl_status facts_add(struct facts *f, const char *key, size_t klen, const char *value,
                         size_t vlen, bool keep_case)
{
    if (klen == 0 || klen > FACT_KEY_MAX)
        return FL_OK;
    while (vlen && isspace((unsigned char)value[vlen - 1]))
        vlen--;
    while (vlen && isspace((unsigned char)*value)) {
        value++;
        vlen--;
    }
    if (vlen > FACT_VALUE_MAX)
        vlen = FACT_VALUE_MAX;
    char k[FACT_KEY_MAX + 1];
    for (size_t i = 0; i < klen; i++)
        k[i] = keep_case ? key[i] : key[i] == '-' ? '_' : (char)tolower((unsigned char)key[i]);
    k[klen] = '\0';
    struct fact *old = find(f, k);
    if (old)
        return add_value(old, value, vlen);
    enum fl_status st = GROW(f->items, f->cap, f->n, FACTS_MAX);
    if (st != FL_OK)
        return st == FL_ERR_LIMIT ? FL_OK : st;
    struct fact *it = &f->items[f->n];
    memset(it, 0, sizeof *it);
    it->key = xstrdup(k);
    it->value = xstrndup(value, vlen);
    if (!it->key || !it->value) {
        free(it->key);
        free(it->value);
        return FL_ERR_NOMEM;
    }
    f->n++;
    return FL_OK;
}

enum fl_status facts_add_all(struct facts *dst, const struct fact *src)
{
    size_t klen = strlen(src->key);
    enum fl_status st = facts_add(dst, src->key, klen, src->value, strlen(src->value), true);
    for (unsigned k = 0; k < src->nmore && st == FL_OK; k++)
        st = facts_add(dst, src->key, klen, src->more[k], strlen(src->more[k]), true);
    return st;
}

void facts_truncate(struct facts *f, size_t n)
{
    while (f->n > n)
        fact_free(&f->items[--f->n]);
}
