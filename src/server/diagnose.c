/*
 * diagnose.c — finish, mask, write: the same report path as `faultline diagnose` (diagnose.h).
 */
#include "diagnose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum fl_status write_to_string(const struct fl_report *r, const struct fl_report_options *o,
                                      char **out, size_t *len)
{
    FILE *f = open_memstream(out, len);
    if (f == NULL)
        return FL_ERR_NOMEM;
    enum fl_status st = fl_report_write(r, o, f);
    if (fclose(f) != 0 && st == FL_OK)
        st = FL_ERR_NOMEM;
    if (st != FL_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

enum fl_status diag_run(struct fl_scanner *s, bool pages, struct diag_result *out)
{
    memset(out, 0, sizeof *out);
    struct fl_report *r = NULL;
    struct fl_masker *m = NULL;
    enum fl_status st = fl_scanner_finish(s, &r);
    if (st == FL_OK)
        st = fl_masker_new(FL_MASK_ALL, &m);
    if (st == FL_OK)
        st = fl_report_mask(r, m);
    if (st == FL_OK) {
        struct fl_report_options o = {.format = FL_FORMAT_JSON};
        st = write_to_string(r, &o, &out->json, &out->json_len);
    }
    if (st == FL_OK && pages) {
        struct fl_report_options o = {.format = FL_FORMAT_MARKDOWN};
        st = write_to_string(r, &o, &out->markdown, &out->markdown_len);
    }
    if (st == FL_OK && pages) {
        struct fl_report_options o = {.format = FL_FORMAT_TEXT, .explain = 1};
        st = write_to_string(r, &o, &out->explain, &out->explain_len);
    }
    if (st == FL_OK) {
        out->ndiagnoses = fl_report_diagnosis_count(r);
        const char *id = fl_report_diagnosis_id(r, 0);
        snprintf(out->top_id, sizeof out->top_id, "%s", id ? id : "");
    }
    fl_masker_free(m);
    fl_report_free(r);
    if (st != FL_OK)
        diag_result_free(out);
    return st;
}

void diag_result_free(struct diag_result *r)
{
    free(r->json);
    free(r->markdown);
    free(r->explain);
    memset(r, 0, sizeof *r);
}
