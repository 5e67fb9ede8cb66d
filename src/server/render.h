/*
 * render.h — HTML for people. Every page is written into a FILE * (an open_memstream), and every
 * byte that came from a log or a request goes through html_text or html_attr: logs are
 * attacker-controlled text. No page carries inline script or style (the CSP forbids both);
 * behaviour lives in web/app.js, and every page works without it.
 */
#ifndef FL_SERVER_RENDER_H
#define FL_SERVER_RENDER_H

#include "diagnose.h"
#include "kbindex.h"

#include <stdio.h>

/* Escapes for element content and for double-quoted attribute values. */
void html_text(FILE *f, const char *s, size_t n);
void html_puts(FILE *f, const char *s);

/* The page's frame: head, header with navigation, main; page_end closes them. `root` is the
 * prefix of links to the site's own pages: "/" when served, a relative path in a static export. */
void page_begin(FILE *f, const char *title, const char *nav, const char *root);
void page_end(FILE *f);

/* The paste page, with an optional error above the form (plain text, escaped here). */
void render_index(FILE *f, const char *csrf, const char *error);
/* The result page of a diagnosis. Returns 0, or -1 when the JSON cannot be read. */
int render_result(FILE *f, const struct kbindex *idx, const struct diag_result *r);
/* The history page: the sign-in form when history is NULL, else the list of a token's reports
 * (store_history_json's array), with an optional error above. */
void render_history(FILE *f, const char *csrf, const char *history, const char *error);
/* A page that says what went wrong, for a status. */
void render_error(FILE *f, unsigned status, const char *msg);

/* Compact rank lists: [0,1,2,4] -> "0-2,4". */
void ranks_compact(FILE *f, const long *ranks, size_t n);

#endif
