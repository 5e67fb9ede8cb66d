/*
 * mask_rules.h — what the masker looks for (internal): the rule table and its Vectorscan
 * database. Kept apart from the masking engine so that the build can compile the database ahead
 * and ship its image (tools/maskgen.c), as it does for the knowledge base: compiling 40 prefilters
 * at every start would cost more than masking a report.
 */
#ifndef FL_MASK_RULES_H
#define FL_MASK_RULES_H

#include "faultline.h"

#include <hs/hs.h>
#include <stdbool.h>
#include <stddef.h>

enum kind {
    K_PEM_BEGIN, /* starts a private key block */
    K_PEM_END,   /* ends it */
    K_PLACE,     /* the whole match → placeholder */
    K_KEEP1,     /* group 1 kept (the name, the scheme), the rest → placeholder */
    K_URL,       /* scheme://user:password@ → scheme://<user>:<password>@ */
    K_NODELIST,  /* Slurm node list: each host → host-N, each range → nodes-N */
    K_EMAIL,
    K_IPV4,
    K_IPV6,
    K_HOME,      /* /home/alice → /home/user-N */
    K_LEARN,     /* a line prefix that may name a host: learnt, not rewritten */
    K_HOSTKEYS,  /* a launcher's world-info dict: its quoted keys are hosts, learnt */
    K_K8S_DATA,  /* a YAML data: line: the values below it, when a Kubernetes Secret's, masked */
};

/* What a matched value must look like to be masked: the last capture group (the whole match
 * when there is none) is checked, and a match that fails is left as it is. Masked logs must
 * stay readable, so a placeholder (AKIA...EXAMPLE, ghp_xxxx), a reference (${TOKEN}) or, for
 * weak names such as "key", a word rather than random text, is not a secret. */
enum check {
    C_NONE,
    C_FORMAT,    /* a token of a known format: not a placeholder (xxxx, EXAMPLE) */
    C_VALUE,     /* a value after a secret's name: not a reference, placeholder or literal */
    C_RANDOM,    /* a value after a weak name: C_VALUE, and random-looking text */
};

struct rule {
    enum kind kind;
    bool secret;       /* applied in FL_MASK_SECRETS mode too */
    const char *hs;    /* Vectorscan prefilter, matches within one line wherever `re` does */
    unsigned hs_flags;
    const char *re;    /* PCRE2: the exact spans (NULL for K_LEARN) */
    const char *place;
    enum check check;
    /* The prefixes of the rule's token formats, blank-separated. The rule runs before the
     * NAME=value rules and replaces every token of its formats, so a value there that opens
     * with one of these is a shortened or made-up token (xoxp-1234567890): a look-alike. */
    const char *lookalike;
};

extern const struct rule mask_rules[];
extern const size_t mask_rule_count;
#define NRULES mask_rule_count
#define MASK_RULES_MAX 64 /* rule sets are 64-bit masks */

/* Compiles the prefilter database of the rules a mode applies (ids are rule indexes). */
enum fl_status mask_compile_db(enum fl_mask_mode mode, hs_database_t **db);
/* The build's image of the database when it runs on this CPU (borrowed: *borrowed is set and
 * it must not be freed), else a fresh compile; either way with a scratch for it in *scratch. */
enum fl_status mask_database(enum fl_mask_mode mode, hs_database_t **db, hs_scratch_t **scratch,
                             bool *borrowed);

/* mask_embedded.c (generated at build time) */
extern const unsigned char *const mask_embedded_db[2];
extern const size_t mask_embedded_len[2];

#endif
