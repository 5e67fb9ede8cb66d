/*
 * facts.c — a small bounded key/value store. A linear array: runs have tens to a few hundred
 * facts, and lookups happen only at the end of a scan when conditions are evaluated.
 */
#include "facts.h"
#include "buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define FACT_VALUE_MAX 256

void facts_init(struct facts *f)
{
    memset(f, 0, sizeof *f);
}

void facts_free(struct facts *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->items[i].key);
        free(f->items[i].value);
    }
    free(f->items);
    facts_init(f);
}

const char *facts_get(const struct facts *f, const char *key)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->items[i].key, key) == 0)
            return f->items[i].value;
    return NULL;
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
    if (facts_get(f, k))
        return FL_OK;
    enum fl_status st = GROW(f->items, f->cap, f->n, FACTS_MAX);
    if (st != FL_OK)
        return st == FL_ERR_LIMIT ? FL_OK : st;
    struct fact *it = &f->items[f->n];
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

void facts_truncate(struct facts *f, size_t n)
{
    while (f->n > n) {
        f->n--;
        free(f->items[f->n].key);
        free(f->items[f->n].value);
    }
}
