/*
 * diagnose.h — a finished scanner into the texts the server hands out. The report is masked
 * (FL_MASK_ALL, like the CLI's default) before anything is written, and every text is written
 * by fl_report_write: the JSON is what `faultline diagnose --format json` prints for the same
 * input, byte for byte.
 */
#ifndef FL_SERVER_DIAGNOSE_H
#define FL_SERVER_DIAGNOSE_H

#include "faultline.h"

#include <stdbool.h>
#include <stddef.h>

struct diag_result {
    char *json;       /* the CLI's JSON */
    size_t json_len;
    char *markdown;   /* only with `pages` */
    size_t markdown_len;
    char *explain;    /* the text report with --explain, only with `pages` */
    size_t explain_len;
    size_t ndiagnoses;
    char top_id[128]; /* id of the first diagnosis, "" when healthy */
};

/* Finishes s (which stays owned by the caller) and fills out; `pages` adds the Markdown and the
 * explanation. Free with diag_result_free. */
enum fl_status diag_run(struct fl_scanner *s, bool pages, struct diag_result *out);
void diag_result_free(struct diag_result *r);

#endif
