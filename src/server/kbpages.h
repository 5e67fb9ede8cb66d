/*
 * kbpages.h — the encyclopedia as HTML: the index (by category, tag and affected system, with
 * full-text search) and one page per entry, rendered from the entry's Markdown with md4c. The
 * server serves these pages; `faultline kb export --html DIR` writes the same ones as files.
 */
#ifndef FL_SERVER_KBPAGES_H
#define FL_SERVER_KBPAGES_H

#include "kbindex.h"

#include <stdio.h>

struct kb_filter {
    const char *category, *tag, *system, *q; /* NULL or "": no filter */
};

/* `root` prefixes the site's links ("/" served; "../" or "" in an export, where links end in
 * .html); `live` adds the search form and the paste boxes, which need the server. */
void kbpage_index(FILE *f, const struct kbindex *x, const struct kb_filter *flt, const char *root,
                  int live);
int kbpage_entry(FILE *f, const struct kbindex *x, const struct kb_meta *m, const char *root,
                 int live, const char *csrf);

/* Markdown from an entry (a symptom bullet, a paragraph) as HTML, raw HTML left out. */
void kbpage_markdown(FILE *f, const char *md, size_t n);

/* Writes index.html, kb/index.html, kb/<id>.html and static/ under dir. Returns 0 or -1 with a
 * message on stderr. */
int kb_export_html(const struct fl_kb *kb, const char *dir);

#endif
