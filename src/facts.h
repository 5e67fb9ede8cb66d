/*
 * facts.h — key/value facts about a run (internal): versions, world size, Megatron arguments,
 * launcher flags, NCCL_* environment, named captures of matched signals.
 *
 * Bounded: at most FACTS_MAX facts, keys of 128 bytes, values of 256; the first value seen for
 * a key is its value (versions and arguments are printed once at start-up; a later line that
 * repeats a key with another value is more likely a different subsystem than a correction).
 * Up to FACT_VALUES_MAX distinct values are kept per key all the same, so that a KB condition can
 * see that ranks disagree (two NCCL versions printed by two nodes): `#nccl_version >= 2`.
 * Ownership: struct facts owns its strings; facts_get returns borrowed pointers.
 */
#ifndef FL_FACTS_H
#define FL_FACTS_H

#include "faultline.h"
#include <stdbool.h>
#include <stddef.h>

#define FACTS_MAX 4096
#define FACT_KEY_MAX 128 /* bytes of a key; a longer one is not kept */
#define FACT_VALUES_MAX 8 /* distinct values kept per key, the first one included */

struct fact {
    char *key;
    char *value;                         /* the first value seen */
    char *more[FACT_VALUES_MAX - 1];     /* later distinct values, in order seen */
    unsigned nmore;
};

struct facts {
    struct fact *items;
    size_t n, cap;
};

void facts_init(struct facts *f);
void facts_free(struct facts *f);
/* Adds key=value, or records value as one more distinct value of a key already present. Keys are
 * normalised (lower case, '-' → '_') unless keep_case (environment variable names). */
enum fl_status facts_add(struct facts *f, const char *key, size_t klen, const char *value,
                         size_t vlen, bool keep_case);
/* Adds every value of src's fact to dst (merging the facts of two pieces of one scan). */
enum fl_status facts_add_all(struct facts *dst, const struct fact *src);
/* The first value of key, or NULL. */
const char *facts_get(const struct facts *f, const char *key);
/* The number of distinct values of key (0 when absent). */
unsigned facts_distinct(const struct facts *f, const char *key);
/* What a KB config test reads for a fact name: the first value, or for "#name" the number of
 * distinct values of name, written into buf. */
const char *facts_lookup(const struct facts *f, const char *name, char *buf, size_t len);
/* Drops the facts added after the first n (facts only grow, so this undoes every later add of a
 * new key; a later distinct value of an older key stays). */
void facts_truncate(struct facts *f, size_t n);

#endif
