/*
 * kbpages.c — encyclopedia pages from the KB's Markdown (kbpages.h).
 *
 * An entry's body is cut at its "## " headings (outside code fences) and each section is
 * rendered by md4c on its own, inside a <section id="slug">: links such as /kb/ID#faq then land
 * on the section, and the page can style the Confirm checklist and the code examples. Raw HTML
 * in Markdown is not passed through (MD_FLAG_NOHTML): an entry added with --kb cannot inject
 * markup into the page.
 */
#include "kbpages.h"
#include "embedded.h"
#include "render.h"

#include <ctype.h>
#include <errno.h>
#include <md4c-html.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void entry_href(FILE *f, const char *root, int live, const char *id)
{
    if (live) {
        fputs("/kb/", f);
        html_puts(f, id);
    } else {
        fprintf(f, "%skb/", root);
        html_puts(f, id);
        fputs(".html", f);
    }
}

/* A section listing entries by id, each linked under its title; nothing for an empty list. */
static void entry_list(FILE *f, const struct kbindex *x, const char *root, int live,
                       const struct strlist *ids, const char *section, const char *heading,
                       const char *lede)
{
    if (ids->n == 0)
        return;
    fprintf(f, "<section id=\"%s\"><h2>%s</h2>", section, heading);
    if (lede)
        fprintf(f, "<p class=\"muted\">%s</p>", lede);
    fputs("<ul class=\"related-list\">", f);
    for (size_t i = 0; i < ids->n; i++) {
        const struct kb_meta *r = kbindex_find(x, ids->v[i]);
        fputs("<li><a class=\"related\" href=\"", f);
        entry_href(f, root, live, ids->v[i]);
        fputs("\">", f);
        html_puts(f, r ? r->info.title : ids->v[i]);
        fputs("</a> <code>", f);
        html_puts(f, ids->v[i]);
        fputs("</code></li>", f);
    }
    fputs("</ul></section>\n", f);
}

static void md_out(const MD_CHAR *s, MD_SIZE n, void *f)
{
    fwrite(s, 1, n, f);
}

void kbpage_markdown(FILE *f, const char *s, size_t n)
{
    md_html(s, (MD_SIZE)n, md_out, f,
            MD_FLAG_TABLES | MD_FLAG_TASKLISTS | MD_FLAG_STRIKETHROUGH | MD_FLAG_NOHTML |
                MD_FLAG_PERMISSIVEURLAUTOLINKS,
            0);
}

/* The Confirm section's commands as a checklist an engineer ticks off: each command of its code
 * blocks (a trailing "  # why" becomes the note beside it, lines ending in "\\" are one command);
 * the prose around the blocks stays Markdown. */
static void confirm_checklist(FILE *f, const char *s, size_t n)
{
    const char *end = s + n, *prose = s;
    bool open = false;
    for (const char *p = s; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end, *next = nl ? nl + 1 : end;
        if (strncmp(p, "```", 3) == 0) {
            if (!open) {
                kbpage_markdown(f, prose, (size_t)(p - prose));
                fputs("<ul class=\"checklist\">", f);
            } else {
                fputs("</ul>", f);
                prose = next;
            }
            open = !open;
        } else if (open && eol > p) {
            /* one command, with its continuation lines */
            const char *cmd_end = eol;
            while (cmd_end > p && cmd_end[-1] == '\\' && next < end && strncmp(next, "```", 3) != 0) {
                nl = memchr(next, '\n', (size_t)(end - next));
                cmd_end = eol = nl ? nl : end;
                next = nl ? nl + 1 : end;
            }
            const char *why = NULL; /* the "#" of a comment after two or more spaces */
            for (const char *c = p; c + 2 < cmd_end && !why; c++) {
                if (c[0] != ' ' || c[1] != ' ')
                    continue;
                const char *d = c;
                while (d < cmd_end && *d == ' ')
                    d++;
                if (d < cmd_end && *d == '#')
                    why = d;
                c = d - 1;
            }
            const char *ce = why ? why : cmd_end;
            while (ce > p && ce[-1] == ' ')
                ce--;
            fputs("<li><label><input type=\"checkbox\"> ", f);
            if (*p == '#') {
                html_text(f, p + 1 + (p[1] == ' '), (size_t)(ce - p - 1 - (p[1] == ' ')));
            } else {
                fputs("<code>", f);
                html_text(f, p, (size_t)(ce - p));
                fputs("</code>", f);
            }
            fputs("</label>", f);
            if (why) {
                why++;
                while (why < cmd_end && *why == ' ')
                    why++;
                fputs(" <span class=\"why\">", f);
                html_text(f, why, (size_t)(cmd_end - why));
                fputs("</span>", f);
            }
            fputs("</li>", f);
        }
        p = next;
    }
    if (open)
        fputs("</ul>", f);
    else
        kbpage_markdown(f, prose, (size_t)(end - prose));
}

static void slug(FILE *f, const char *s, size_t n)
{
    bool dash = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (isalnum(c)) {
            if (dash)
                fputc('-', f);
            fputc(tolower(c), f);
            dash = false;
        } else {
            dash = true;
        }
    }
}

static void chip_link(FILE *f, const char *key, const char *value, bool live, const char *cls)
{
    if (live) {
        fprintf(f, "<a class=\"chip %s\" href=\"/kb?%s=", cls, key);
        for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
            if (isalnum(*p) || *p == '-' || *p == '_' || *p == '.')
                fputc(*p, f);
            else
                fprintf(f, "%%%02X", *p);
        }
        fputs("\">", f);
        html_puts(f, value);
        fputs("</a>", f);
    } else {
        fprintf(f, "<span class=\"chip %s\">", cls);
        html_puts(f, value);
        fputs("</span>", f);
    }
}

/* The severity badge and the id, as every listing shows them. */
static void sev_and_id(FILE *f, const struct kb_meta *m)
{
    fprintf(f, "<span class=\"sev %s\">", m->info.severity);
    html_puts(f, m->info.severity);
    fputs("</span> <code>", f);
    html_puts(f, m->info.id);
    fputs("</code>", f);
}

static void paste_box(FILE *f, const char *csrf)
{
    fputs("<form class=\"paste mini card\" method=\"post\" action=\"/diagnose\" enctype=\"multipart/form-data\">"
          "<input type=\"hidden\" name=\"csrf\" value=\"", f);
    html_puts(f, csrf);
    fputs("\"><label for=\"log\">Is this what broke your run? Paste the log</label>"
          "<textarea id=\"log\" name=\"log\" rows=\"4\" spellcheck=\"false\"></textarea>"
          "<div class=\"actions\"><button type=\"submit\" class=\"primary\">Diagnose</button>"
          "<span class=\"privacy\">Masked, never stored.</span></div></form>\n", f);
}

int kbpage_entry(FILE *f, const struct kbindex *x, const struct kb_meta *m, const char *root, int live,
                 const char *csrf)
{
    page_begin(f, m->info.title, "kb", root);
    fputs("<article class=\"entry\"><p class=\"crumbs\"><a href=\"", f);
    fputs(live ? "/kb" : "index.html", f);
    fputs("\">Encyclopedia</a> › ", f);
    if (live)
        chip_link(f, "category", m->info.category, true, "plain");
    else
        html_puts(f, m->info.category);
    fprintf(f, "</p><h1>");
    html_puts(f, m->info.title);
    fputs("</h1><p class=\"kicker\">", f);
    sev_and_id(f, m);
    fputs(" · ", f);
    html_puts(f, m->info.role);
    fputs("</p><p class=\"chips\">", f);
    for (size_t i = 0; i < m->tags.n; i++)
        chip_link(f, "tag", m->tags.v[i], live, "tag");
    for (size_t i = 0; i < m->systems.n; i++)
        chip_link(f, "system", m->systems.v[i], live, "system");
    fputs("</p>", f);
    if (live)
        paste_box(f, csrf);
    /* sections, cut at "## " outside code fences */
    const char *p = m->body, *sec = NULL, *title = NULL;
    size_t title_len = 0;
    bool fence = false;
    for (;;) {
        const char *nl = strchr(p, '\n');
        const char *eol = nl ? nl : p + strlen(p);
        bool heading = !fence && strncmp(p, "## ", 3) == 0;
        if (strncmp(p, "```", 3) == 0)
            fence = !fence;
        if (heading || *p == '\0') {
            const char *start = sec ? sec : m->body;
            if (p > start) {
                fputs("<section", f);
                if (title) {
                    fputs(" id=\"", f);
                    slug(f, title, title_len);
                    fputs("\"", f);
                }
                fputs(">", f);
                if (title) {
                    fputs("<h2>", f);
                    html_text(f, title, title_len);
                    fputs("</h2>", f);
                }
                if (title && title_len == 7 && strncmp(title, "Confirm", 7) == 0)
                    confirm_checklist(f, start, (size_t)(p - start));
                else
                    kbpage_markdown(f, start, (size_t)(p - start));
                fputs("</section>\n", f);
            }
            if (*p == '\0')
                break;
            title = p + 3;
            title_len = (size_t)(eol - title);
            sec = nl ? nl + 1 : eol;
        }
        if (nl == NULL) {
            p = eol;
            continue;
        }
        p = nl + 1;
    }
    entry_list(f, x, root, live, &m->related, "related-entries", "Related entries", NULL);
    entry_list(f, x, root, live, &m->differential, "differential",
               "Also consider when only these lines are present",
               "A log that shows only this entry's lines may be one of these failures, whose own "
               "lines are missing; a diagnosis lists them as not matched. Their Verify tells "
               "them apart.");
    if (m->references.n) {
        fputs("<section id=\"references\"><h2>References</h2><ol class=\"references\">", f);
        for (size_t i = 0; i < m->references.n; i++) {
            const char *u = m->references.v[i];
            bool web = strncmp(u, "https://", 8) == 0 || strncmp(u, "http://", 7) == 0;
            fputs("<li>", f);
            if (web) {
                fputs("<a rel=\"noopener noreferrer\" href=\"", f);
                html_puts(f, u);
                fputs("\">", f);
            }
            html_puts(f, u);
            fputs(web ? "</a></li>" : "</li>", f);
        }
        fputs("</ol></section>\n", f);
    }
    fputs("</article>\n", f);
    page_end(f);
    return 0;
}

static bool has(const struct strlist *l, const char *v)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcasecmp(l->v[i], v) == 0)
            return true;
    return false;
}

static bool set(const char *s)
{
    return s && *s;
}

static void entry_row(FILE *f, const struct kbindex *x, const struct kb_meta *m, const char *root, int live)
{
    (void)x;
    fputs("<li class=\"entry-row\"><a href=\"", f);
    entry_href(f, root, live, m->info.id);
    fputs("\">", f);
    html_puts(f, m->info.title);
    fputs("</a> ", f);
    sev_and_id(f, m);
    char *qa = kbindex_section_para(m, "Root cause");
    if (qa) {
        size_t n = strlen(qa);
        fputs("<p class=\"muted\">", f);
        html_text(f, qa, n > 180 ? 180 : n);
        fputs(n > 180 ? "…</p>" : "</p>", f);
        free(qa);
    }
    fputs("</li>", f);
}

/* Distinct values of one facet, in first-seen order. */
static size_t facet(const struct kbindex *x, int which, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < x->n; i++) {
        const struct kb_meta *m = &x->e[i];
        const struct strlist *l = which == 1 ? &m->tags : &m->systems;
        size_t cnt = which == 0 ? 1 : l->n;
        for (size_t k = 0; k < cnt; k++) {
            const char *v = which == 0 ? m->info.category : l->v[k];
            size_t j = 0;
            while (j < n && strcasecmp(out[j], v) != 0)
                j++;
            if (j == n && n < max)
                out[n++] = v;
        }
    }
    return n;
}

static int cmp_str(const void *a, const void *b)
{
    return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

void kbpage_index(FILE *f, const struct kbindex *x, const struct kb_filter *flt, const char *root,
                  int live)
{
    page_begin(f, "Encyclopedia of training failures", "kb", root);
    fprintf(f, "<section class=\"hero\"><h1>Encyclopedia</h1><p class=\"lede\">%zu failures of "
               "distributed training: how each shows in the logs, why it happens, how to confirm "
               "it, fix it and keep it from coming back.</p>", x->n);
    if (live) {
        fputs("<form class=\"search\" method=\"get\" action=\"/kb\" role=\"search\">"
              "<input type=\"search\" name=\"q\" aria-label=\"Search the encyclopedia\" "
              "placeholder=\"Search: watchdog timeout, Xid 79, checkpoint…\" value=\"", f);
        html_puts(f, flt && flt->q ? flt->q : "");
        fputs("\"><button type=\"submit\" class=\"primary\">Search</button></form>", f);
    }
    fputs("</section>\n", f);
    const char *vals[512];
    static const char *const facet_names[] = {"category", "tag", "system"};
    static const char *const facet_titles[] = {"Categories", "Tags", "Systems"};
    fputs("<div class=\"kb-layout\"><aside class=\"facets\">", f);
    for (int w = 0; w < 3; w++) {
        size_t n = facet(x, w, vals, 512);
        qsort(vals, n, sizeof *vals, cmp_str);
        /* categories are few and always shown; tags and systems fold away (there are hundreds) */
        fprintf(f, "<details%s><summary><h3>%s <span class=\"count\">%zu</span></h3></summary><p class=\"chips\">",
                w == 0 ? " open" : "", facet_titles[w], n);
        for (size_t i = 0; i < n; i++)
            chip_link(f, facet_names[w], vals[i], live, w == 0 ? "plain" : w == 1 ? "tag" : "system");
        fputs("</p></details>", f);
    }
    fputs("</aside><div class=\"kb-results\">", f);
    bool filtered = flt && (set(flt->q) || set(flt->category) || set(flt->tag) || set(flt->system));
    if (filtered) {
        size_t *hits = calloc(x->n ? x->n : 1, sizeof *hits), nh = 0;
        if (hits && set(flt->q)) {
            nh = kbindex_search(x, flt->q, hits, x->n);
        } else if (hits) {
            for (size_t i = 0; i < x->n; i++)
                hits[nh++] = i;
        }
        size_t shown = 0;
        fputs("<h2>", f);
        if (set(flt->q)) {
            fputs("Entries matching “", f);
            html_puts(f, flt->q);
            fputs("”", f);
        } else {
            fputs("Entries with ", f);
            html_puts(f, set(flt->category) ? flt->category : set(flt->tag) ? flt->tag : flt->system);
        }
        fputs("</h2><ul class=\"entries\">", f);
        for (size_t k = 0; k < nh; k++) {
            const struct kb_meta *m = &x->e[hits[k]];
            if (set(flt->category) && strcasecmp(m->info.category, flt->category) != 0)
                continue;
            if (set(flt->tag) && !has(&m->tags, flt->tag))
                continue;
            if (set(flt->system) && !has(&m->systems, flt->system))
                continue;
            entry_row(f, x, m, root, live);
            shown++;
        }
        fputs("</ul>", f);
        if (shown == 0)
            fputs("<p class=\"muted empty\">No entry matches.</p>", f);
        free(hits);
    } else {
        const char *prev = NULL;
        for (size_t i = 0; i < x->n; i++) {
            const struct kb_meta *m = &x->e[i];
            if (prev == NULL || strcmp(prev, m->info.category) != 0) {
                if (prev)
                    fputs("</ul>", f);
                fputs("<h2 id=\"cat-", f);
                html_puts(f, m->info.category);
                fputs("\">", f);
                html_puts(f, m->info.category);
                fputs("</h2><ul class=\"entries\">", f);
                prev = m->info.category;
            }
            entry_row(f, x, m, root, live);
        }
        if (prev)
            fputs("</ul>", f);
    }
    fputs("</div></div>\n", f);
    page_end(f);
}

static int write_file(const char *dir, const char *rel, const void *data, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    /* make the parent folders */
    for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "faultline: %s: %s\n", path, strerror(errno));
            return -1;
        }
        *s = '/';
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "faultline: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int kb_export_html(const struct fl_kb *kb, const char *dir)
{
    struct kbindex *x;
    char err[256];
    if (kbindex_new(kb, &x, err, sizeof err) != 0) {
        fprintf(stderr, "faultline: %s\n", err);
        return -1;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "faultline: %s: %s\n", dir, strerror(errno));
        kbindex_free(x);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < web_assets_count; i++) {
        char rel[300];
        snprintf(rel, sizeof rel, "static/%s", web_assets[i].path);
        rc = write_file(dir, rel, web_assets[i].data, web_assets[i].len);
    }
    for (size_t i = 0; rc == 0 && i <= x->n; i++) {
        char *body = NULL, rel[300];
        size_t len = 0;
        FILE *f = open_memstream(&body, &len);
        if (f == NULL) {
            rc = -1;
            break;
        }
        if (i < x->n) {
            kbpage_entry(f, x, &x->e[i], "../", 0, NULL);
            snprintf(rel, sizeof rel, "kb/%s.html", x->e[i].info.id);
        } else {
            kbpage_index(f, x, NULL, "../", 0);
            snprintf(rel, sizeof rel, "kb/index.html");
        }
        fclose(f);
        rc = write_file(dir, rel, body, len);
        free(body);
    }
    static const char redirect[] = "<!doctype html><meta charset=\"utf-8\"><title>faultline</title>"
                                   "<meta http-equiv=\"refresh\" content=\"0; url=kb/index.html\">"
                                   "<a href=\"kb/index.html\">Encyclopedia</a>\n";
    if (rc == 0)
        rc = write_file(dir, "index.html", redirect, sizeof redirect - 1);
    if (rc == 0)
        fprintf(stderr, "faultline: wrote %zu entries to %s/kb/\n", x->n, dir);
    kbindex_free(x);
    return rc;
}
