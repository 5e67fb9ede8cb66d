/*
 * report.c — the report's lifetime, its getters and the helpers its writers share.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

void report_free_contents(struct fl_report *r)
{
    for (size_t i = 0; i < r->ndiagnoses; i++) {
        struct diagnosis *d = &r->diagnoses[i];
        for (size_t j = 0; j < d->nevidence; j++) {
            free(d->evidence[j].source);
            free(d->evidence[j].text);
        }
        free(d->evidence);
        for (size_t j = 0; j < d->ncollateral; j++)
            free(d->collateral[j].ranks);
        free(d->collateral);
        free(d->root_cause);
        free(d->fix);
        free(d->verify);
        free(d->explain);
    }
    free(r->diagnoses);
    for (size_t i = 0; i < r->nerrors; i++) {
        free(r->errors[i].source);
        free(r->errors[i].msg);
    }
    free(r->errors);
    free(r->ranks);
    free(r->note);
    for (size_t i = 0; i < r->nwarnings; i++)
        free(r->warnings[i]);
    free(r->warnings);
    for (size_t i = 0; i < r->nstacks; i++) {
        free(r->stacks[i].ranks);
        for (size_t j = 0; j < r->stacks[i].nframes; j++)
            free(r->stacks[i].frames[j]);
        free(r->stacks[i].frames);
    }
    free(r->stacks);
    facts_free(&r->facts);
}

void fl_report_free(struct fl_report *r)
{
    if (r == NULL)
        return;
    report_free_contents(r);
    free(r);
}

size_t fl_report_diagnosis_count(const struct fl_report *r)
{
    return r->ndiagnoses;
}

const char *fl_report_diagnosis_id(const struct fl_report *r, size_t i)
{
    return i < r->ndiagnoses ? r->diagnoses[i].id : NULL;
}

long fl_report_diagnosis_rank(const struct fl_report *r, size_t i)
{
    return i < r->ndiagnoses ? r->diagnoses[i].rank : -1;
}

const char *fl_report_diagnosis_host(const struct fl_report *r, size_t i)
{
    return i < r->ndiagnoses && r->diagnoses[i].host[0] ? r->diagnoses[i].host : NULL;
}

const char *fl_report_diagnosis_differential_of(const struct fl_report *r, size_t i)
{
    return i < r->ndiagnoses ? r->diagnoses[i].differential_of : NULL;
}

const char *fl_report_collateral_id(const struct fl_report *r, size_t i, size_t k)
{
    return i < r->ndiagnoses && k < r->diagnoses[i].ncollateral ? r->diagnoses[i].collateral[k].id
                                                                 : NULL;
}

size_t fl_report_error_count(const struct fl_report *r)
{
    return r->nerrors;
}

enum fl_status fl_report_write(const struct fl_report *r, const struct fl_report_options *o,
                               FILE *out)
{
    struct fl_report_options def = {.format = FL_FORMAT_TEXT};
    if (o == NULL)
        o = &def;
    switch (o->format) {
    case FL_FORMAT_JSON: return report_write_json(r, out);
    case FL_FORMAT_MARKDOWN: return report_write_markdown(r, out);
    case FL_FORMAT_TEXT: return report_write_text(r, o, out);
    }
    return FL_ERR_USAGE;
}

enum fl_status fl_report_write_stacks(const struct fl_report *r, FILE *out)
{
    if (r->nstacks == 0)
        fprintf(out, "no stack dumps found (py-spy dump or faulthandler output)\n");
    report_write_stack_groups(r, out);
    return ferror(out) ? FL_ERR_IO : FL_OK;
}

size_t fl_report_stack_group_count(const struct fl_report *r)
{
    return r->nstacks;
}

bool report_first_seen(const struct diagnosis *d, char buf[static 40])
{
    if (d->first_ts == TS_UNKNOWN)
        return false;
    time_t t = (time_t)(d->first_ts / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    int frac = (int)(d->first_ts % 1000);
    if (frac < 0)
        frac += 1000;
    char date[16] = "";
    if (!d->ts_no_year)
        snprintf(date, sizeof date, "%04d-", tm.tm_year + 1900);
    snprintf(buf, 40, "%s%02d-%02dT%02d:%02d:%02d.%03d%s", date, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, frac, d->ts_no_zone ? "" : "Z");
    return true;
}

void report_format_ranks(const long *ranks, size_t n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used + 1 < len;) {
        size_t j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        int w = j > i ? snprintf(buf + used, len - used, "%s%ld-%ld", used ? "," : "", ranks[i], ranks[j])
                      : snprintf(buf + used, len - used, "%s%ld", used ? "," : "", ranks[i]);
        if (w < 0 || (size_t)w >= len - used) {
            buf[used] = '\0';
            break;
        }
        used += (size_t)w;
        i = j + 1;
    }
}
