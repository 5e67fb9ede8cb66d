/*
 * report_md.c — the report as Markdown, for tickets and chat: the same order as the text
 * report, evidence in a fenced block so that log text never turns into Markdown.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

static void fenced(FILE *out, const char *text)
{
    /* a fence longer than any run of backticks in the text */
    size_t run = 0, longest = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    size_t n = longest >= 3 ? longest + 1 : 3;
    for (size_t i = 0; i < n; i++)
        fputc('`', out);
    fprintf(out, "\n%s\n", text);
    for (size_t i = 0; i < n; i++)
        fputc('`', out);
    fputc('\n', out);
}

/* The fix is the entry's first paragraph and then its first code block (kb_section_text):
 * prose as Markdown, the code fenced, so that a "# comment" in it is not a heading. An entry
 * whose Fix has no paragraph has code only; the unclassified diagnosis has prose only. */
static void write_fix(FILE *out, const struct diagnosis *d)
{
    fprintf(out, "\n**Fix.**\n\n");
    const char *code = d->fix;
    if (d->entry) {
        char *para = kb_section_text(d->entry, "Fix", true, false);
        bool has_para = para && para[0];
        free(para);
        const char *cut = has_para ? strstr(d->fix, "\n\n") : NULL;
        if (has_para && cut == NULL) { /* prose only */
            fprintf(out, "%s\n", d->fix);
            return;
        }
        if (cut) {
            fprintf(out, "%.*s\n\n", (int)(cut - d->fix), d->fix);
            code = cut + 2;
        }
        fenced(out, code);
        return;
    }
    fprintf(out, "%s\n", d->fix);
}

enum fl_status report_write_markdown(const struct fl_report *r, FILE *out)
{
    fprintf(out, "# faultline report\n\n%zu source(s), %llu lines, %llu bytes.\n\n", r->nsources,
            (unsigned long long)r->lines, (unsigned long long)r->bytes);
    if (report_incomplete(r))
        fprintf(out, REPORT_INCOMPLETE_TEXT, r->nerrors);
    else if (r->ndiagnoses == 0)
        fprintf(out, "No known failure found.\n");
    for (size_t i = 0; i < r->ndiagnoses; i++) {
        const struct diagnosis *d = &r->diagnoses[i];
        fprintf(out, "## %zu. %s (`%s`)\n\n", i + 1, d->title, d->id);
        fprintf(out, "- **Severity:** %s, **confidence:** %.2f\n", d->severity, d->confidence);
        if (d->differential_of)
            fprintf(out, "- **Not matched:** what the lines of `%s` can also mean when this "
                    "failure's own lines are missing; its Verify tells the two apart.\n",
                    d->differential_of);
        if (d->rank >= 0)
            fprintf(out, "- **Initiating rank:** %ld\n", d->rank);
        if (d->host[0])
            fprintf(out, "- **Initiating host:** %s\n", d->host);
        char t[40];
        if (report_first_seen(d, t))
            fprintf(out, "- **First seen:** %s\n", t);
        for (size_t j = 0; j < d->ncollateral; j++) {
            char ranks[512];
            report_format_ranks(d->collateral[j].ranks, d->collateral[j].nranks, ranks, sizeof ranks);
            fprintf(out, "- **Collateral:** `%s` on ranks %s\n", d->collateral[j].id,
                    ranks[0] ? ranks : "unknown");
        }
        if (d->root_cause)
            fprintf(out, "\n**Root cause.** %s\n", d->root_cause);
        if (d->fix)
            write_fix(out, d);
        if (d->verify) {
            fprintf(out, "\n**Verify.**\n\n");
            fenced(out, d->verify);
        }
        if (d->nevidence) {
            fprintf(out, "\n**Evidence.**\n\n");
            struct buf b;
            buf_init(&b, 1 << 20);
            for (size_t j = 0; j < d->nevidence; j++)
                buf_printf(&b, "%s%s:%llu: %s", j ? "\n" : "", d->evidence[j].source,
                           (unsigned long long)d->evidence[j].line, d->evidence[j].text);
            fenced(out, b.data ? b.data : "");
            buf_free(&b);
        }
        if (d->entry && d->entry->nreferences) {
            fprintf(out, "\n**References.**\n\n");
            for (size_t j = 0; j < d->entry->nreferences; j++)
                fprintf(out, "- <%s>\n", entry_str(d->entry, d->entry->references[j]));
        }
        fputc('\n', out);
    }
    for (size_t i = 0; i < r->nwarnings; i++)
        fprintf(out, "%s**Warning:** %s\n", i ? "" : "\n", r->warnings[i]);
    return ferror(out) ? FL_ERR_IO : FL_OK;
}
