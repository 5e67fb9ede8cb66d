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

#include "extract.h"
#include "report.h"

#define EVIDENCE_KEEP 32
#define RANKS_MAX 65536

struct event {
    int signal;
    int src;
    uint64_t line_no;
    long rank;
    char host[HOST_MAX];
    int64_t ts_ms;
    bool ts_no_year;
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
};
double score_confidence(const struct score_input *in);

#endif
