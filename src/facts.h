/*
 * facts.h — key/value facts about a run (internal): versions, world size, Megatron arguments,
 * launcher flags, NCCL_* environment, named captures of matched signals.
 *
 * Bounded: at most FACTS_MAX facts, keys of 128 bytes, values of 256; the first value seen for
 * a key wins (versions and arguments are printed once at start-up; a later line that repeats a
 * key with another value is more likely a different subsystem than a correction).
 * Ownership: struct facts owns its strings; facts_get returns borrowed pointers.
 */
#ifndef FL_FACTS_H
#define FL_FACTS_H

#include "faultline.h"
#include <stdbool.h>
#include <stddef.h>

#define FACTS_MAX 4096
#define FACT_KEY_MAX 128 /* bytes of a key; a longer one is not kept */

struct fact {
    char *key;
    char *value;
};

struct facts {
    struct fact *items;
    size_t n, cap;
};

void facts_init(struct facts *f);
void facts_free(struct facts *f);
/* Adds key=value unless key is present. Keys are normalised (lower case, '-' → '_') unless
 * keep_case (environment variable names). */
enum fl_status facts_add(struct facts *f, const char *key, size_t klen, const char *value,
                         size_t vlen, bool keep_case);
const char *facts_get(const struct facts *f, const char *key);
/* Drops the facts added after the first n (facts only grow, so this undoes every later add). */
void facts_truncate(struct facts *f, size_t n);

#endif
