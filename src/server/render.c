/*
 * render.c — the paste page, the result page and error pages (render.h).
 *
 * The result page is drawn from the report's JSON (the same bytes the page offers for download)
 * read back with jansson, so the page can never show something the JSON does not say.
 */
#include "render.h"
#include "embedded.h"
#include "kbpages.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void html_text(FILE *f, const char *s, size_t n)
{
    const char *run = s;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        case '\0': rep = "\xef\xbf\xbd"; break;
        default: continue;
        }
        fwrite(run, 1, (size_t)(s + i - run), f);
        fputs(rep, f);
        run = s + i + 1;
    }
    fwrite(run, 1, (size_t)(s + n - run), f);
}

void html_puts(FILE *f, const char *s)
{
    if (s)
        html_text(f, s, strlen(s));
}

void page_begin(FILE *f, const char *title, const char *nav, const char *root)
{
    fputs("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
          "<title>", f);
    html_puts(f, title);
    fprintf(f, " · faultline</title>"
               "<link rel=\"stylesheet\" href=\"%sstatic/style.css\">"
               "<link rel=\"icon\" href=\"%sstatic/favicon.svg\" type=\"image/svg+xml\">"
               "<script src=\"%sstatic/app.js\" defer></script></head>\n<body>"
               "<header class=\"top\"><a class=\"brand\" href=\"%s\"><img src=\"%sstatic/favicon.svg\" alt=\"\" "
               "width=\"22\" height=\"22\">faultline</a><nav>",
            root, root, root, root, root);
    static const struct {
        const char *key, *href, *label;
    } items[] = {{"diagnose", "", "Diagnose"}, {"kb", "kb", "Encyclopedia"}, {"history", "history", "History"},
                   {"api", "api", "API"}};
    for (size_t i = 0; i < sizeof items / sizeof *items; i++) {
        /* the static export has no diagnosis page nor API */
        if (strcmp(root, "/") != 0 && strcmp(items[i].key, "kb") != 0)
            continue;
        fprintf(f, "<a href=\"%s%s%s\"%s>%s</a>", root, items[i].href,
                strcmp(root, "/") != 0 && *items[i].href ? "/index.html" : "",
                nav && strcmp(nav, items[i].key) == 0 ? " aria-current=\"page\"" : "", items[i].label);
    }
    fputs("</nav></header>\n<main>\n", f);
}

void page_end(FILE *f)
{
    fputs("</main>\n<footer>faultline " FL_VERSION " · logs are masked and never stored</footer>\n</body></html>\n", f);
}

/* The first Markdown heading or line of an example's README: its one-line description. */
static void sample_title(FILE *f, const char *name)
{
    char path[300];
    snprintf(path, sizeof path, "%s/README.md", name);
    const struct embedded_file *r = embedded_find(sample_files, sample_files_count, path);
    if (r == NULL) {
        html_puts(f, name);
        return;
    }
    const char *s = (const char *)r->data, *end = s + r->len;
    while (s < end && (*s == '#' || *s == ' '))
        s++;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    html_text(f, s, (size_t)((nl ? nl : end) - s));
}

void render_index(FILE *f, const char *csrf, const char *error)
{
    page_begin(f, "Diagnose a failed training run", "diagnose", "/");
    fputs("<section class=\"hero\"><h1>Why did my training run fail?</h1>"
          "<p class=\"lede\">Paste the logs of a distributed training job, or drop its log files: "
          "faultline names what broke, the rank that broke first, the ranks that only failed as a "
          "consequence, the fix and the command that verifies it.</p></section>\n", f);
    if (error && *error) {
        fputs("<p class=\"alert\" role=\"alert\">", f);
        html_puts(f, error);
        fputs("</p>\n", f);
    }
    fputs("<form class=\"paste card\" method=\"post\" action=\"/diagnose\" enctype=\"multipart/form-data\">"
          "<input type=\"hidden\" name=\"csrf\" value=\"", f);
    html_puts(f, csrf);
    fputs("\">"
          "<label for=\"log\">Log text</label>"
          "<textarea id=\"log\" name=\"log\" rows=\"14\" spellcheck=\"false\" autocomplete=\"off\" "
          "placeholder=\"[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate …\"></textarea>"
          "<div class=\"drop\" id=\"drop\"><label for=\"files\">Or choose files</label> "
          "<input id=\"files\" type=\"file\" name=\"files\" multiple>"
          "<span class=\"hint\">one log, several rank logs, or a .tar.gz / .zst of the job's log folder"
          "<span class=\"js-only\" hidden> — or drop them here</span></span></div>"
          "<div class=\"actions\"><button type=\"submit\" class=\"primary\">Diagnose</button>"
          "<p class=\"privacy\">Logs are masked (secrets, hosts, addresses, e-mails) and never "
          "stored: they are read once, in memory, and dropped with the answer.</p></div></form>\n", f);
    fputs("<section class=\"samples\"><h2>No log to hand? Try a sample</h2><ul class=\"sample-list\">", f);
    const char *prev = NULL;
    size_t prevlen = 0;
    for (size_t i = 0; i < sample_files_count; i++) {
        const char *p = sample_files[i].path, *slash = strchr(p, '/');
        if (slash == NULL)
            continue;
        size_t len = (size_t)(slash - p);
        if (prev && len == prevlen && strncmp(prev, p, len) == 0)
            continue;
        prev = p;
        prevlen = len;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        fputs("<li><a href=\"/sample/", f);
        html_puts(f, name);
        fputs("\"><code>", f);
        html_puts(f, name);
        fputs("</code><span>", f);
        sample_title(f, name);
        fputs("</span></a></li>", f);
    }
    fputs("</ul></section>\n", f);
    page_end(f);
}

void ranks_compact(FILE *f, const long *r, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && r[j + 1] == r[j] + 1)
            j++;
        fprintf(f, "%s%ld", i ? "," : "", r[i]);
        if (j > i)
            fprintf(f, "%s%ld", j == i + 1 ? "," : "–", r[j]);
        i = j + 1;
    }
}

static const char *jstr(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static size_t jranks(const json_t *a, long *out, size_t max)
{
    size_t n = 0, i;
    json_t *v;
    json_array_foreach(a, i, v)
    {
        if (n < max && json_is_integer(v))
            out[n++] = (long)json_integer_value(v);
    }
    return n;
}

static bool in_ranks(const json_t *a, long rank)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v)
    {
        if (json_is_integer(v) && json_integer_value(v) == rank)
            return true;
    }
    return false;
}

/* A code block with a copy button (shown by app.js). */
static void code_block(FILE *f, const char *id, const char *code, size_t n)
{
    while (n > 0 && code[n - 1] == '\n')
        n--;
    fprintf(f, "<div class=\"code\"><button type=\"button\" class=\"copy\" data-copy=\"%s\" hidden>Copy</button>"
               "<pre id=\"%s\"><code>", id, id);
    html_text(f, code, n);
    fputs("</code></pre></div>\n", f);
}

static void base64(FILE *f, const unsigned char *s, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) |
                     (i + 2 < n ? s[i + 2] : 0);
        fputc(t[v >> 18 & 63], f);
        fputc(t[v >> 12 & 63], f);
        fputc(i + 1 < n ? t[v >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? t[v & 63] : '=', f);
    }
}

static void rank_strip(FILE *f, const json_t *input, const json_t *d)
{
    long ranks[4096];
    size_t n = jranks(json_object_get(input, "ranks"), ranks, 4096);
    if (n == 0)
        return;
    json_t *ir = json_object_get(d, "initiating_rank");
    long init = json_is_integer(ir) ? (long)json_integer_value(ir) : -1;
    const json_t *coll = json_object_get(d, "collateral");
    fprintf(f, "<section class=\"card\"><h2>Ranks</h2><div class=\"strip%s\" role=\"list\">",
            n > 64 ? " dense" : "");
    for (size_t i = 0; i < n; i++) {
        const char *cls = "ok", *what = "no error seen";
        if (ranks[i] == init) {
            cls = "init";
            what = "failed first";
        } else {
            size_t k;
            json_t *c;
            json_array_foreach(coll, k, c)
            {
                if (in_ranks(json_object_get(c, "ranks"), ranks[i])) {
                    cls = "coll";
                    what = "collateral";
                    break;
                }
            }
        }
        fprintf(f, "<span role=\"listitem\" class=\"rank %s\" title=\"rank %ld: %s\">%ld</span>", cls,
                ranks[i], what, ranks[i]);
    }
    fputs("</div><p class=\"legend\"><span class=\"rank init\"></span>failed first "
          "<span class=\"rank coll\"></span>collateral <span class=\"rank ok\"></span>no error seen</p>", f);
    /* the timeline: the initiating event first, then what followed from it */
    fputs("<ol class=\"timeline\">", f);
    if (init >= 0) {
        fprintf(f, "<li class=\"init\"><span class=\"when\">");
        html_puts(f, *jstr(d, "first_seen") ? jstr(d, "first_seen") : "first");
        fprintf(f, "</span> rank %ld", init);
        if (*jstr(d, "initiating_host")) {
            fputs(" on ", f);
            html_puts(f, jstr(d, "initiating_host"));
        }
        fputs(": <b>", f);
        html_puts(f, jstr(d, "title"));
        fputs("</b></li>", f);
    }
    size_t k;
    json_t *c;
    json_array_foreach(coll, k, c)
    {
        long cr[4096];
        size_t cn = jranks(json_object_get(c, "ranks"), cr, 4096);
        fputs("<li class=\"coll\"><span class=\"when\">then</span> rank", f);
        fputs(cn == 1 ? " " : "s ", f);
        ranks_compact(f, cr, cn);
        fputs(": <code>", f);
        html_puts(f, jstr(c, "id"));
        fprintf(f, "</code> (%lld line%s) — a consequence</li>",
                (long long)json_integer_value(json_object_get(c, "count")),
                json_integer_value(json_object_get(c, "count")) == 1 ? "" : "s");
    }
    fputs("</ol></section>\n", f);
}

/* "What does this line mean?": the entry's own symptom for the line, or what a collateral
 * rank's line is. Answered from the KB, so it is as right as the entry. */
static void line_meaning(FILE *f, const struct kb_meta *m, const json_t *d, const json_t *e)
{
    char *sym = m ? kbindex_symptom_for(m, jstr(e, "text")) : NULL;
    const json_t *rank = json_object_get(e, "rank"), *ir = json_object_get(d, "initiating_rank");
    bool other_rank = json_is_integer(rank) && json_is_integer(ir) &&
                      json_integer_value(rank) != json_integer_value(ir);
    if (sym == NULL && !other_rank)
        return;
    fputs("<details class=\"meaning\"><summary>What does this line mean?</summary>", f);
    if (sym) {
        kbpage_markdown(f, sym, strlen(sym));
        free(sym);
    }
    if (other_rank)
        fprintf(f, "<p>It was printed by rank %lld, not by the rank that failed first (rank %lld): "
                   "a rank that hits the same failure later, or one that fails because of it.</p>",
                (long long)json_integer_value(rank), (long long)json_integer_value(ir));
    fputs("</details>", f);
}

static void evidence(FILE *f, const struct kbindex *idx, const json_t *d)
{
    const struct kb_meta *m = kbindex_find(idx, jstr(d, "id"));
    const json_t *ev = json_object_get(d, "evidence");
    if (json_array_size(ev) == 0)
        return;
    fputs("<section class=\"card\"><h2>Evidence</h2><ul class=\"evidence\">", f);
    size_t i;
    json_t *e;
    json_array_foreach(ev, i, e)
    {
        /* "-" is what the CLI calls standard input; here it is the text pasted in the form */
        const char *src = jstr(e, "source");
        long long line = (long long)json_integer_value(json_object_get(e, "line"));
        if (strcmp(src, "-") == 0) {
            fprintf(f, "<li><div class=\"where\">pasted log, line %lld", line);
        } else {
            fputs("<li><div class=\"where\"><code>", f);
            html_puts(f, src);
            fprintf(f, ":%lld</code>", line);
        }
        if (json_is_integer(json_object_get(e, "rank")))
            fprintf(f, " <span class=\"tag\">rank %lld</span>",
                    (long long)json_integer_value(json_object_get(e, "rank")));
        fputs("</div><pre class=\"line\">", f);
        html_puts(f, jstr(e, "text"));
        fputs("</pre>", f);
        line_meaning(f, m, d, e);
        fputs("</li>", f);
    }
    long long total = json_integer_value(json_object_get(d, "evidence_total"));
    if (total > (long long)json_array_size(ev))
        fprintf(f, "</ul><p class=\"muted\">%zu of %lld matching lines shown.</p></section>\n",
                json_array_size(ev), total);
    else
        fputs("</ul></section>\n", f);
}

static void fix_and_verify(FILE *f, const json_t *d)
{
    const char *fix = jstr(d, "fix"), *verify = jstr(d, "verify");
    if (*fix) {
        /* the report's fix is the entry's first paragraph, a blank line, then its first code block */
        fputs("<section class=\"card\"><h2>Fix</h2>", f);
        const char *gap = strstr(fix, "\n\n");
        fputs("<p>", f);
        html_text(f, fix, gap ? (size_t)(gap - fix) : strlen(fix));
        fputs("</p>", f);
        if (gap)
            code_block(f, "fix-code", gap + 2, strlen(gap + 2));
        fputs("</section>\n", f);
    }
    if (*verify) {
        fputs("<section class=\"card\"><h2>Verify</h2>", f);
        code_block(f, "verify-code", verify, strlen(verify));
        fputs("</section>\n", f);
    }
}

static void kb_links(FILE *f, const struct kbindex *idx, const json_t *d)
{
    const struct kb_meta *m = kbindex_find(idx, jstr(d, "id"));
    if (m == NULL)
        return;
    fputs("<section class=\"card\"><h2>In the encyclopedia</h2><p><a class=\"entry-link\" href=\"/kb/", f);
    html_puts(f, m->info.id);
    fputs("\">", f);
    html_puts(f, m->info.title);
    fputs("</a> — symptoms, mechanism, how to confirm, prevention, FAQ.</p>", f);
    if (m->related.n) {
        fputs("<p>Related: ", f);
        for (size_t i = 0; i < m->related.n; i++) {
            const struct kb_meta *r = kbindex_find(idx, m->related.v[i]);
            fputs(i ? ", " : "", f);
            fputs("<a class=\"related\" href=\"/kb/", f);
            html_puts(f, m->related.v[i]);
            fputs("\">", f);
            html_puts(f, r ? r->info.title : m->related.v[i]);
            fputs("</a>", f);
        }
        fputs("</p>", f);
    }
    fputs("</section>\n", f);
}

/* What tells the alternative `id` apart: its own symptom, and the entry's commands that confirm it. */
static void tell_apart(FILE *f, const struct kbindex *idx, const char *id)
{
    const struct kb_meta *alt = kbindex_find(idx, id);
    char *sym = alt ? kbindex_quick(alt, "Symptom") : NULL;
    if (sym == NULL)
        return;
    fputs("<div class=\"apart\"><span class=\"muted\">It is this one if</span> ", f);
    kbpage_markdown(f, sym, strlen(sym));
    fputs("<a href=\"/kb/", f);
    html_puts(f, alt->info.id);
    fputs("#confirm\">How to confirm it</a></div>", f);
    free(sym);
}

static bool is_differential(const json_t *d)
{
    return json_is_string(json_object_get(d, "differential_of"));
}

/* The headline's differential: failures no line of the log matched, listed because the
 * knowledge base says the headline's lines are also what they look like when their own lines
 * are missing. Shown apart from the matched diagnoses, with the Verify that tells them apart. */
static void differentials(FILE *f, const struct kbindex *idx, const json_t *diags)
{
    size_t i, shown = 0;
    json_t *d;
    json_array_foreach(diags, i, d)
    {
        if (!is_differential(d))
            continue;
        if (shown++ == 0) {
            fputs("<section class=\"card differential\" aria-labelledby=\"also-consider\">"
                  "<h2 id=\"also-consider\">Not matched, also consider</h2><p class=\"muted\">No line "
                  "of the log is their own: each is what the lines of <code>", f);
            html_puts(f, jstr(d, "differential_of"));
            fputs("</code> can also mean when its own lines are missing. Its Verify tells the two "
                  "apart.</p><ul class=\"differentials\">", f);
        }
        fputs("<li><span class=\"tag not-matched\">not matched</span> <a href=\"/kb/", f);
        html_puts(f, jstr(d, "id"));
        fputs("\">", f);
        html_puts(f, jstr(d, "title"));
        fputs("</a> <code>", f);
        html_puts(f, jstr(d, "id"));
        fprintf(f, "</code> <span class=\"muted\">confidence %.0f%%</span>",
                100 * json_real_value(json_object_get(d, "confidence")));
        tell_apart(f, idx, jstr(d, "id"));
        if (*jstr(d, "verify")) {
            char id[48];
            snprintf(id, sizeof id, "differential-verify-%zu", shown);
            fputs("<div class=\"muted\">Verify:</div>", f);
            code_block(f, id, jstr(d, "verify"), strlen(jstr(d, "verify")));
        }
        fputs("</li>", f);
    }
    if (shown)
        fputs("</ul></section>\n", f);
}

static void followups(FILE *f, const struct kbindex *idx, const json_t *diags,
                      const struct diag_result *r)
{
    fputs("<section class=\"card followups\"><h2>Questions</h2>", f);
    if (r->explain) {
        fputs("<details><summary>Why this diagnosis, and why this rank?</summary>"
              "<pre class=\"explain\">", f);
        html_text(f, r->explain, r->explain_len);
        fputs("</pre></details>", f);
    }
    /* the other matched diagnoses (differentials, which come after them all, have their card) */
    if (json_array_size(diags) > 1 && !is_differential(json_array_get(diags, 1))) {
        fputs("<details><summary>What else could it be?</summary><ol class=\"others\">", f);
        size_t i;
        json_t *d;
        json_array_foreach(diags, i, d)
        {
            if (i == 0)
                continue;
            if (is_differential(d))
                break;
            fputs("<li><b>", f);
            html_puts(f, jstr(d, "title"));
            fputs("</b> <code>", f);
            html_puts(f, jstr(d, "id"));
            fprintf(f, "</code> confidence %.0f%%", 100 * json_real_value(json_object_get(d, "confidence")));
            const json_t *ev = json_array_get(json_object_get(d, "evidence"), 0);
            if (ev) {
                fputs("<br><span class=\"muted\">because of</span> <code>", f);
                html_puts(f, jstr(ev, "text"));
                fputs("</code>", f);
            }
            tell_apart(f, idx, jstr(d, "id"));
            fputs("</li>", f);
        }
        fputs("</ol></details>", f);
    }
    const struct kb_meta *m = kbindex_find(idx, jstr(json_array_get(diags, 0), "id"));
    size_t faq_len = 0;
    const char *faq = m ? kbindex_section(m, "FAQ", &faq_len) : NULL;
    if (faq) {
        fputs("<details class=\"faq\"><summary>Frequently asked</summary>", f);
        kbpage_markdown(f, faq, faq_len);
        fputs("</details>", f);
    }
    fputs("</section>\n", f);
}

int render_result(FILE *f, const struct kbindex *idx, const struct diag_result *r)
{
    json_error_t je;
    json_t *root = json_loadb(r->json, r->json_len, 0, &je);
    if (root == NULL)
        return -1;
    const json_t *input = json_object_get(root, "input"), *diags = json_object_get(root, "diagnoses");
    json_t *d = json_array_get(diags, 0);
    page_begin(f, d ? jstr(d, "title") : "No known failure", "diagnose", "/");
    fputs("<section class=\"headline card\">", f);
    if (d) {
        fprintf(f, "<p class=\"kicker\"><span class=\"sev %s\">", jstr(d, "severity"));
        html_puts(f, jstr(d, "severity"));
        fputs("</span> <code>", f);
        html_puts(f, jstr(d, "id"));
        fputs("</code> · ", f);
        html_puts(f, jstr(d, "category"));
        fprintf(f, " · confidence %.0f%%</p><h1>", 100 * json_real_value(json_object_get(d, "confidence")));
        html_puts(f, jstr(d, "title"));
        fputs("</h1><p class=\"started\">", f);
        json_t *ir = json_object_get(d, "initiating_rank");
        if (json_is_integer(ir)) {
            fprintf(f, "Started on <b class=\"init-rank\">rank %lld</b>", (long long)json_integer_value(ir));
            if (*jstr(d, "initiating_host")) {
                fputs(" on host <b>", f);
                html_puts(f, jstr(d, "initiating_host"));
                fputs("</b>", f);
            }
            if (*jstr(d, "first_seen")) {
                fputs(" at ", f);
                html_puts(f, jstr(d, "first_seen"));
            }
        } else {
            fputs("The initiating rank could not be told from these logs.", f);
        }
        fputs("</p>", f);
        if (*jstr(d, "root_cause")) {
            fputs("<p class=\"cause\">", f);
            html_puts(f, jstr(d, "root_cause"));
            fputs("</p>", f);
        }
        if (*jstr(root, "note")) {
            fputs("<p class=\"muted\">", f);
            html_puts(f, jstr(root, "note"));
            fputs("</p>", f);
        }
    } else {
        fputs("<p class=\"kicker\"><span class=\"sev ok\">healthy</span></p><h1>No known failure</h1>"
              "<p>No entry of the knowledge base matched, and no error was found that would stop the run.</p>", f);
    }
    fputs("<div class=\"toolbar\"><a class=\"button\" download=\"faultline-report.json\" "
          "href=\"data:application/json;base64,", f);
    base64(f, (const unsigned char *)r->json, r->json_len);
    fputs("\">Download JSON</a>", f);
    if (r->markdown)
        fputs("<button type=\"button\" class=\"button copy\" data-copy=\"markdown\" hidden>Copy as Markdown</button>", f);
    fputs("<a class=\"button ghost\" href=\"/\">Diagnose another</a></div></section>\n", f);
    if (d) {
        rank_strip(f, input, d);
        evidence(f, idx, d);
        /* what the headline's own fix and check are comes first; the alternatives after them */
        fix_and_verify(f, d);
        differentials(f, idx, diags);
        kb_links(f, idx, d);
        followups(f, idx, diags, r);
    }
    const json_t *errors = json_object_get(input, "errors");
    if (json_array_size(errors)) {
        fputs("<section class=\"card\"><h2>Inputs that could not be read</h2><ul>", f);
        size_t i;
        json_t *e;
        json_array_foreach(errors, i, e)
        {
            fputs("<li><code>", f);
            html_puts(f, json_is_string(e) ? json_string_value(e) : jstr(e, "source"));
            fputs("</code> ", f);
            html_puts(f, jstr(e, "error"));
            fputs("</li>", f);
        }
        fputs("</ul></section>\n", f);
    }
    fprintf(f, "<p class=\"muted input-summary\">Read %lld source%s, %lld bytes, %lld lines.</p>",
            (long long)json_integer_value(json_object_get(input, "sources")),
            json_integer_value(json_object_get(input, "sources")) == 1 ? "" : "s",
            (long long)json_integer_value(json_object_get(input, "bytes")),
            (long long)json_integer_value(json_object_get(input, "lines")));
    if (r->markdown) {
        fputs("<details class=\"card\"><summary>Report as Markdown, for a ticket</summary>", f);
        code_block(f, "markdown", r->markdown, r->markdown_len);
        fputs("</details>\n", f);
    }
    page_end(f);
    json_decref(root);
    return 0;
}

void render_error(FILE *f, unsigned status, const char *msg)
{
    char title[64];
    snprintf(title, sizeof title, "Error %u", status);
    page_begin(f, title, NULL, "/");
    fprintf(f, "<section class=\"card\"><h1>%s</h1><p>", title);
    html_puts(f, msg);
    fputs("</p><p><a href=\"/\">Back to the diagnosis page</a></p></section>\n", f);
    page_end(f);
}

void render_history(FILE *f, const char *csrf, const char *history, const char *error)
{
    page_begin(f, "History", "history", "/");
    fputs("<section class=\"hero\"><h1>History</h1><p class=\"lede\">A team token keeps the masked "
          "report of every diagnosis made with it, here and through the API. The logs themselves are "
          "never stored.</p></section>\n", f);
    if (error && *error) {
        fputs("<p class=\"alert\" role=\"alert\">", f);
        html_puts(f, error);
        fputs("</p>\n", f);
    }
    json_error_t je;
    json_t *list = history ? json_loads(history, 0, &je) : NULL;
    if (list == NULL) {
        fputs("<form class=\"card signin\" method=\"post\" action=\"/signin\"><input type=\"hidden\" "
              "name=\"csrf\" value=\"", f);
        html_puts(f, csrf ? csrf : "");
        fputs("\"><label for=\"token\">Team token</label><input id=\"token\" name=\"token\" "
              "type=\"password\" autocomplete=\"current-password\" required placeholder=\"flt_…\">"
              "<div class=\"actions\"><button type=\"submit\" class=\"primary\">Sign in</button>"
              "<span class=\"muted\">Ask whoever runs this server for one: "
              "<code>faultline serve token add NAME</code>.</span></div></form>\n", f);
        page_end(f);
        return;
    }
    fputs("<section class=\"card\"><form class=\"signout\" method=\"post\" action=\"/signout\">"
          "<input type=\"hidden\" name=\"csrf\" value=\"", f);
    html_puts(f, csrf ? csrf : "");
    fputs("\"><button type=\"submit\">Sign out</button></form>", f);
    if (json_array_size(list) == 0)
        fputs("<p class=\"muted empty\">No diagnosis yet: paste a log on the "
              "<a href=\"/\">Diagnose</a> page while signed in.</p>", f);
    else
        fputs("<table class=\"history\"><thead><tr><th>When (UTC)</th><th>Diagnosis</th><th>Rank</th>"
              "<th>Ranks seen</th></tr></thead><tbody>", f);
    size_t i;
    json_t *h;
    json_array_foreach(list, i, h)
    {
        const json_t *rep = json_object_get(h, "report");
        const json_t *d = json_array_get(json_object_get(rep, "diagnoses"), 0);
        fprintf(f, "<tr><td>");
        html_puts(f, jstr(h, "created"));
        fprintf(f, "</td><td><a href=\"/history/%lld\">", (long long)json_integer_value(json_object_get(h, "id")));
        html_puts(f, d ? jstr(d, "title") : "No known failure");
        fputs("</a>", f);
        if (d) {
            fputs(" <code>", f);
            html_puts(f, jstr(d, "id"));
            fputs("</code>", f);
        }
        const json_t *ir = d ? json_object_get(d, "initiating_rank") : NULL;
        if (json_is_integer(ir))
            fprintf(f, "</td><td>%lld", (long long)json_integer_value(ir));
        else
            fputs("</td><td>—", f);
        fprintf(f, "</td><td>%zu</td></tr>", json_array_size(json_object_get(json_object_get(rep, "input"), "ranks")));
    }
    if (json_array_size(list))
        fputs("</tbody></table>", f);
    fputs("</section>\n", f);
    json_decref(list);
    page_end(f);
}
