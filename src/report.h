/*
 * report.h — the report as data (internal). The correlator fills it; report_json.c,
 * report_text.c and report_md.c print it. Nothing in it borrows from the scanner: strings are
 * owned by the report, entries are borrowed from the KB (which must outlive the report).
 */
#ifndef FL_REPORT_H
#define FL_REPORT_H

#include "facts.h"
#include "kb.h"
#include "prefix.h"

#include <stdbool.h>

struct evidence {
    char *source;
    uint64_t line;
    long rank;
    char *text;
};

struct collateral {
    const char *id;
    const char *title;
    long *ranks;
    size_t nranks;
    unsigned long count;
};

struct diagnosis {
    const struct entry *entry;     /* NULL for "unclassified" */
    const char *id, *title, *category, *severity;
    double confidence;
    long rank;
    char host[HOST_MAX];
    int64_t first_ts;
    bool ts_no_year, ts_no_zone;
    struct evidence *evidence;
    size_t nevidence;
    unsigned long evidence_total;  /* matched lines in all, evidence keeps the first few */
    struct collateral *collateral;
    size_t ncollateral;
    char *root_cause, *fix, *verify;
    char *explain;                 /* why this diagnosis, for --explain */
    const char *differential_of;   /* not matched: the id of the diagnosis whose lines this
                                      failure shows too when its own are missing (the entry's
                                      `differential`); NULL for a diagnosis that matched */
};

/* Ranks whose main-thread stacks are the same, largest group first. */
struct stack_group {
    long *ranks;
    size_t nranks;
    char **frames;                 /* innermost first */
    size_t nframes;
};

struct source_error {
    char *source;
    char *msg;
};

struct fl_report {
    size_t nsources;
    uint64_t bytes, lines;
    long *ranks;
    size_t nranks;
    struct diagnosis *diagnoses;
    size_t ndiagnoses;
    struct facts facts;
    struct source_error *errors;
    size_t nerrors;
    char *note;                    /* how the initiating rank was decided, when it matters */
    char **warnings;               /* what the reader should know about how the input was read:
                                      a signal disabled for its cost (PATTERN_BUDGET) */
    size_t nwarnings;
    struct stack_group *stacks;
    size_t nstacks;
};

void report_free_contents(struct fl_report *r);
/* Evidence chosen for information (report_evidence.c): no caret lines, no repeats, a JSON
 * blob's message instead of the blob, the exception line first. Called when a report is built. */
void report_tidy_evidence(struct fl_report *r);

/* Nothing was found, but some source could be read only in part: the failure may be in what was
 * lost, and every format says so (the program exits 2). */
static inline bool report_incomplete(const struct fl_report *r)
{
    return r->nerrors > 0 && r->ndiagnoses == 0;
}
#define REPORT_INCOMPLETE_TEXT                                                                   \
    "No known failure found in what could be read, but the input is incomplete: %zu "            \
    "source(s) could be read only in part, and the failure may be in what was lost.\n"

/* Writers */
enum fl_status report_write_json(const struct fl_report *r, FILE *out);
enum fl_status report_write_text(const struct fl_report *r, const struct fl_report_options *o,
                                 FILE *out);
enum fl_status report_write_markdown(const struct fl_report *r, FILE *out);

/* The stack groups, largest first, with their innermost frames. */
void report_write_stack_groups(const struct fl_report *r, FILE *out);
/* When d was first seen, "2026-05-01T12:00:03.000Z", into buf; "05-01T..." without a year, and
 * no "Z" when the log gave no zone (ISO 8601's local time: the log's clock, whatever zone it was
 * in). False, buf untouched, when the log gave no time. */
bool report_first_seen(const struct diagnosis *d, char buf[static 40]);
/* "0-2,4-7" */
void report_format_ranks(const long *ranks, size_t n, char *buf, size_t len);

#endif
