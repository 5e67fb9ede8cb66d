/*
 * report_text.c — the report for a person at a terminal: readable in five seconds.
 *
 * The first lines answer the on-call questions in order: what broke, where it started, why, what
 * to do, how to check. Evidence follows with source:line so it can be opened. Colour only when
 * the caller says the output is a terminal.
 */
#include "report.h"

#include <string.h>

struct style {
    const char *bold, *red, *yellow, *dim, *reset;
};

static void wrap(FILE *out, const char *label, const char *text, const struct style *s)
{
    if (text == NULL)
        return;
    fprintf(out, "  %s%-11s%s ", s->bold, label, s->reset);
    for (const char *p = text; *p; p++) {
        fputc(*p, out);
        if (*p == '\n' && p[1] && p[1] != '\n')
            fputs("              ", out);
    }
    fputc('\n', out);
}

static void write_diagnosis(const struct diagnosis *d, size_t index, const struct fl_report_options *o,
                            const struct style *s, FILE *out)
{
    fprintf(out, "%s%s%zu. %s%s  [%s, %s severity, confidence %.2f%s]\n", s->bold,
             index == 0 ? s->red : s->yellow, index + 1, d->title, s->reset, d->id, d->severity,
             d->confidence, d->differential_of ? ", not matched" : "");
    if (d->differential_of)
        fprintf(out, "  %sNot matched: what the lines of %s can also mean when this failure's own "
                "lines are missing; its Verify tells the two apart.%s\n", s->dim,
                d->differential_of, s->reset);
    char where[256] = "";
    if (d->rank >= 0)
        snprintf(where, sizeof where, "rank %ld", d->rank);
    if (d->host[0])
        snprintf(where + strlen(where), sizeof where - strlen(where), "%son host %s",
                 where[0] ? " " : "", d->host);
    char t[40];
    if (report_first_seen(d, t))
        snprintf(where + strlen(where), sizeof where - strlen(where), "%sat %s", where[0] ? " " : "", t);
    wrap(out, "Started", where[0] ? where : "rank unknown", s);
    wrap(out, "Root cause", d->root_cause, s);
    wrap(out, "Fix", d->fix, s);
    wrap(out, "Verify", d->verify, s);
    for (size_t i = 0; i < d->ncollateral; i++) {
        char ranks[512];
        report_format_ranks(d->collateral[i].ranks, d->collateral[i].nranks, ranks, sizeof ranks);
        char line[800];
        snprintf(line, sizeof line, "%s on rank%s %s (%lu line%s) — a consequence",
                 d->collateral[i].id, d->collateral[i].nranks == 1 ? "" : "s",
                 ranks[0] ? ranks : "unknown", d->collateral[i].count,
                 d->collateral[i].count == 1 ? "" : "s");
        wrap(out, i == 0 ? "Collateral" : "", line, s);
    }
    if (d->nevidence)
        fprintf(out, "  %sEvidence%s\n", s->bold, s->reset);
    for (size_t i = 0; i < d->nevidence; i++) {
        const struct evidence *e = &d->evidence[i];
        fprintf(out, "    %s%s:%llu%s", s->dim, e->source, (unsigned long long)e->line, s->reset);
        if (e->rank >= 0)
            fprintf(out, " %s[rank %ld]%s", s->dim, e->rank, s->reset);
        fprintf(out, " %s\n", e->text);
    }
    /* repeats and uninformative lines are left out too, so the total is said, not a "more" */
    if (d->evidence_total > d->nevidence)
        fprintf(out, "    %s… %lu matching line(s) in all%s\n", s->dim, d->evidence_total, s->reset);
    if (o->explain && d->explain) {
        fprintf(out, "  %sHow it was decided%s\n", s->bold, s->reset);
        const char *p = d->explain;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            fprintf(out, "    %.*s\n", (int)n, p);
            p += n + (nl != NULL);
        }
    }
    if (d->entry && d->entry->nreferences)
        wrap(out, "Reference", entry_str(d->entry, d->entry->references[0]), s);
    fputc('\n', out);
}

#define STACK_FRAMES_SHOWN 6

void report_write_stack_groups(const struct fl_report *r, FILE *out)
{
    size_t total = 0;
    for (size_t i = 0; i < r->nstacks; i++)
        total += r->stacks[i].nranks;
    for (size_t i = 0; i < r->nstacks; i++) {
        const struct stack_group *g = &r->stacks[i];
        char ranks[512];
        report_format_ranks(g->ranks, g->nranks, ranks, sizeof ranks);
        fprintf(out, "%s: %zu of %zu rank(s): %s\n", i == 0 ? "majority" : "different", g->nranks,
                total, ranks[0] ? ranks : "unknown");
        for (size_t j = 0; j < g->nframes && j < STACK_FRAMES_SHOWN; j++)
            fprintf(out, "    %s\n", g->frames[j]);
        if (g->nframes > STACK_FRAMES_SHOWN)
            fprintf(out, "    … %zu outer frame(s)\n", g->nframes - STACK_FRAMES_SHOWN);
    }
}

enum fl_status report_write_text(const struct fl_report *r, const struct fl_report_options *o,
                                 FILE *out)
{
    static const struct style plain = {"", "", "", "", ""};
    static const struct style color = {"\033[1m", "\033[31m", "\033[33m", "\033[2m", "\033[0m"};
    const struct style *s = o->color ? &color : &plain;
    char ranks[512];
    report_format_ranks(r->ranks, r->nranks, ranks, sizeof ranks);
    fprintf(out, "%sfaultline%s: %zu source(s), %llu lines, %llu bytes%s%s\n\n", s->bold, s->reset,
            r->nsources, (unsigned long long)r->lines, (unsigned long long)r->bytes,
            r->nranks ? ", ranks " : "", ranks);
    if (report_incomplete(r))
        fprintf(out, REPORT_INCOMPLETE_TEXT, r->nerrors);
    else if (r->ndiagnoses == 0)
        fprintf(out, "No known failure found.\n");
    for (size_t i = 0; i < r->ndiagnoses; i++)
        write_diagnosis(&r->diagnoses[i], i, o, s, out);
    if (r->nstacks > 1) {
        fprintf(out, "%sStacks%s (main thread, innermost first)\n", s->bold, s->reset);
        report_write_stack_groups(r, out);
        fputc('\n', out);
    }
    if (r->note && r->note[0] && r->ndiagnoses)
        fprintf(out, "%sNote:%s %s\n", s->bold, s->reset, r->note);
    for (size_t i = 0; i < r->nerrors; i++)
        fprintf(out, "%swarning:%s %s: %s\n", s->yellow, s->reset, r->errors[i].source,
                r->errors[i].msg);
    for (size_t i = 0; i < r->nwarnings; i++)
        fprintf(out, "%swarning:%s %s\n", s->yellow, s->reset, r->warnings[i]);
    return ferror(out) ? FL_ERR_IO : FL_OK;
}
