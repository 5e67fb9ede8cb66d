/*
 * kbindex.h — what the encyclopedia needs beyond the library's entry info: each entry's tags,
 * systems, related and differential ids (from its YAML front matter, read with libyaml), its
 * Markdown body, and an SQLite FTS5 index over all of it for full-text search. Built once at
 * start-up from the compiled KB, read-only afterwards (the FTS5 connection is serialized by SQLite
 * itself).
 */
#ifndef FL_SERVER_KBINDEX_H
#define FL_SERVER_KBINDEX_H

#include "faultline.h"

#include <stddef.h>

struct strlist {
    char **v;
    size_t n;
};

struct kb_meta {
    struct fl_kb_entry_info info; /* borrowed from the KB */
    struct strlist tags, systems, related, references;
    struct strlist differential;  /* failures whose lines are often only these (kb/README.md) */
    const char *body;             /* the Markdown after the front matter, in info.markdown */
};

struct kbindex {
    struct kb_meta *e;   /* in the KB's order: category, then id */
    size_t n;
    void *fts;           /* sqlite3 * */
};

/* Builds the index; on failure a message is written to err (size errlen). */
int kbindex_new(const struct fl_kb *kb, struct kbindex **out, char *err, size_t errlen);
void kbindex_free(struct kbindex *x);
const struct kb_meta *kbindex_find(const struct kbindex *x, const char *id);
/* Entries matching the words of q (each word a prefix, all required), best first: indexes into
 * x->e written to hits (at most max); returns how many. q may be any user text. */
size_t kbindex_search(const struct kbindex *x, const char *q, size_t *hits, size_t max);
/* Plain text of the first paragraph of section `name` ("Quick answer" ...) into a new string,
 * or NULL. Markdown emphasis is left as is. */
char *kbindex_section_para(const struct kb_meta *m, const char *name);
/* What a log line means, from the entry's own words: the bullet of its "Symptoms" section whose
 * quoted message the line contains (digits may differ), as Markdown in a new string; NULL when
 * no bullet quotes it. */
char *kbindex_symptom_for(const struct kb_meta *m, const char *line);
/* The Markdown of section `name` ("FAQ"), up to the next "## " heading; NULL when absent. */
const char *kbindex_section(const struct kb_meta *m, const char *name, size_t *len);
/* The text of a "- **Label:** ..." bullet of the Quick answer, as a new string, or NULL. */
char *kbindex_quick(const struct kb_meta *m, const char *label);

#endif
