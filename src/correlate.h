/*
 * correlate.h — from matched lines to diagnoses (internal).
 *
 * During the scan the correlator only counts: per entry and signal, how many lines matched,
 * the first few lines as evidence, and per rank the first time the entry was seen. Memory is
 * bounded by entries × (evidence cap + ranks), never by input size.
 *
 * At the end it evaluates each entry's condition, separates primary failures from collateral
 * ones, orders primaries by when they started, folds collateral under the first primary, and
 * scores confidence (score.c). See correlate.c for the rules.
 */
#ifndef FL_CORRELATE_H
#define FL_CORRELATE_H

#include "buf.h"
#include "extract.h"
#include "report.h"

#define EVIDENCE_KEEP 32
#define RANKS_MAX 65536

struct event {
    int signal;
    uint64_t line_signals;       /* bit i: signal i of the entry matched this line too (at most
                                    KB_MAX_SIGNALS, 64, per entry) */
    int src;
    uint64_t line_no;
    long rank;
    char host[HOST_MAX];
    int64_t ts_ms;
    bool ts_no_year, ts_no_zone;
    uint64_t seq;
    char *text;
};

struct rank_seen {
    long rank;
    int64_t first_ts;
    uint64_t first_seq;
    unsigned long count;
};

struct entry_state {
    unsigned long *counts;       /* per signal */
    struct event *events;        /* the first EVIDENCE_KEEP matched lines */
    size_t nevents;
    struct rank_seen *ranks;     /* decisive signals only */
    size_t nranks, ranks_cap;
    long support_rank;           /* the first rank a supporting line named, or -1 */
    long named_rank;             /* the first rank a supporting line named as the one it is about
                                    (a capture such as stuck_rank), or -1 */
    bool counted;                /* the line counted last (a line that two signals match is */
    int last_src;                /* one line of evidence_total) */
    uint64_t last_line;
};

struct correlator {
    const struct fl_kb *kb;
    struct entry_state *st;
    uint64_t seq;
};

struct source_info {
    const char *name;
};

enum fl_status correlator_init(struct correlator *c, const struct fl_kb *kb);
void correlator_free(struct correlator *c);
enum fl_status correlator_add(struct correlator *c, int entry, int signal,
                              const struct line_view *lv);
/* Adds what src counted (its sources and lines renumbered by m, its lines all after dst's) to
 * dst; src keeps only what it must free. */
enum fl_status correlator_merge(struct correlator *dst, struct correlator *src,
                                const struct merge_map *m);
/* ---------------------------------------------------------------- the rules' input and output */

/* One KB entry whose condition held over the run. */
struct candidate {
    size_t entry;                /* index in the KB */
    const struct entry_state *st; /* its matched lines and the ranks it was seen on */
    size_t matched;              /* distinct positive signals (config included) */
    int64_t first_ts;
    bool ts_no_year, ts_no_zone;
    uint64_t first_seq;
    long rank;                   /* where it was seen first: the rank of the line, or -1 */
    char host[HOST_MAX];
    bool dropped;                /* its lines are all evidence of a more specific candidate */
};

enum headline { HEADLINE_NONE, HEADLINE_CANDIDATE, HEADLINE_EXCEPTION };

/* What the rules of correlate.c work on, and what they decide. correlator_finish fills the first
 * part from what the scan counted and extracted; a test may build it by hand. Nothing is written
 * to facts and parsed back: each analysis states its finding here. Borrowed pointers only, except
 * the two bufs. */
struct run_analysis {
    const struct fl_kb *kb;
    struct candidate *cands;
    size_t ncand;
    const struct exception_event *exc;   /* Python and C++ exceptions, in arrival order */
    size_t nexc;
    const struct progress *progress;     /* the last step line of each (source, rank) */
    size_t nprogress;
    const struct own_lines *own;         /* per (source, rank): the script's own lines about its
                                            rank ("[rank 3] step 4 ..."), extract.h */
    size_t nown;
    const struct progress *nonfinite;    /* the first line of each (source, rank) that printed
                                            its loss as nan or inf */
    size_t nnonfinite;
    const struct seqnum *seqnums;        /* the highest NCCL SeqNum of each (source, rank) */
    size_t nseqnums;
    const long *ranks;                   /* every rank the logs name: on matched lines, in
                                            per-rank files, in step lines; sorted, unique */
    size_t nranks;
    long stack_odd_rank;                 /* the one rank whose stack differs, or -1 */
    bool stack_majority_waits;           /* the other ranks' stacks wait for peers */
    long stalled_rank;                   /* the rank whose steps stopped first, or -1 */
    long stalled_seconds;
    long launcher_root_rank;             /* torchrun's "Root Cause (first observed failure)",
                                            else the first worker its agent saw fail, or -1 */
    const struct launcher_failure *failures; /* torchrun's summary: each failed rank's exit */
    size_t nfailures;
    const int *stops;                    /* the source (a node's console) of each worker the agent
                                            stopped with a closing signal */
    size_t nstops;
    unsigned long unranked_tracebacks;   /* tracebacks printed with no rank (see extract.h) */

    /* decided by the rules */
    enum headline kind;
    size_t top;                          /* cands[top] or exc[top] */
    bool consequence;                    /* exc[top] is itself a consequence: nothing better */
    const struct entry *exc_entry;       /* the entry exc[top]'s type and frames point to, or
                                            NULL: "unclassified" */
    const struct entry *headline_entry;  /* what the ranks' behaviour says cands[top] is a
                                            consequence of (a rank stuck, done, exited), or NULL */
    size_t nprimary, nkept;              /* kept candidates, and how many are primary */
    long rank;                           /* the initiating rank, or -1 */
    const char *headline_rule, *rank_rule;
    struct buf why;                      /* the report's note: how the rank was decided */
    struct buf rules;                    /* for --explain: which rule decided what */
};

void correlator_analysis_init(struct run_analysis *a, const struct fl_kb *kb);
void correlator_analysis_free(struct run_analysis *a);
/* Applies the rules to a: the headline, its rank, and why. */
void correlator_decide(struct run_analysis *a);
/* True when the exception is a consequence of another failure: a closed connection, a timeout
 * waiting for peers, a signal the launcher sent, the launcher's own summary. */
bool correlator_exception_is_consequence(const struct exception_event *e);

/* Builds the diagnoses into r from what was counted and extracted. */
enum fl_status correlator_finish(struct correlator *c, struct extractor *x,
                                 const struct source_info *sources, size_t nsources,
                                 unsigned max_evidence, struct fl_report *r);

/* score.c */
struct score_input {
    const struct entry *entry;
    const unsigned long *counts;
    size_t matched_signals;      /* distinct positive signals that matched (config included) */
    size_t nranks;               /* ranks on which it was seen */
    bool rank_known, time_known;
    bool is_top;                 /* chosen as the initiating failure */
    bool has_collateral;         /* collateral of other entries agree with it */
    bool inferred;               /* from an exception's type and frames, not the entry's signals */
};
double score_confidence(const struct score_input *in);
/* A differential's confidence: no line of its own, so half its headline's. */
double score_differential(double headline_confidence);

#endif
