/*
 * correlate.c — which failure came first, and which failures are only its consequences.
 *
 * The rules, in the order an on-call engineer applies them:
 *
 *  1. An entry is a candidate when its condition holds over the whole run.
 *  2. A candidate whose evidence lines all belong to a more specific candidate (more distinct
 *     signals matched on the same lines: cuda-oom-fragmentation over cuda-oom) is dropped,
 *     unless it is a primary failure and the other only a collateral one.
 *  3. Primary failures (exceptions, OOMs, Xids, signals) outrank collateral ones (watchdog
 *     timeouts, connection resets, launcher summaries), whatever their volume: 511 ranks timing
 *     out say less than the one rank that raised.
 *  4. Among primaries the earliest wins, by timestamp where the lines have one, then by the
 *     number of distinct signals, then by arrival order. Within an entry, the initiating rank is
 *     the rank on which the entry was seen first.
 *  5. Collateral candidates are folded under the first primary, with the ranks they hit.
 *  6. With no primary, the collateral is the diagnosis; for a collective timeout the suspect is
 *     the rank whose NCCL sequence number lags, or the rank that never reported the timeout.
 *  7. With no candidate at all, an uncaught exception (one not followed by more progress on its
 *     rank) becomes "unclassified"; a healthy log gives no diagnosis.
 */
#include "correlate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum fl_status correlator_init(struct correlator *c, const struct fl_kb *kb)
{
    memset(c, 0, sizeof *c);
    c->kb = kb;
    c->st = calloc(kb->nentries ? kb->nentries : 1, sizeof *c->st);
    if (c->st == NULL)
        return FL_ERR_NOMEM;
    for (size_t i = 0; i < kb->nentries; i++) {
        c->st[i].counts = calloc(kb->entries[i].nsignals, sizeof *c->st[i].counts);
        if (!c->st[i].counts)
            return FL_ERR_NOMEM;
        c->st[i].support_rank = -1;
    }
    return FL_OK;
}

void correlator_free(struct correlator *c)
{
    if (c->st == NULL)
        return;
    for (size_t i = 0; i < c->kb->nentries; i++) {
        free(c->st[i].counts);
        for (size_t j = 0; j < c->st[i].nevents; j++)
            free(c->st[i].events[j].text);
        free(c->st[i].events);
        free(c->st[i].ranks);
    }
    free(c->st);
    c->st = NULL;
}

static bool earlier(int64_t ts_a, uint64_t seq_a, int64_t ts_b, uint64_t seq_b)
{
    if (ts_a != TS_UNKNOWN && ts_b != TS_UNKNOWN && ts_a != ts_b)
        return ts_a < ts_b;
    return seq_a < seq_b;
}

/* Counts `count` lines of rank first seen at (ts, seq) in st's sorted rank table. */
static enum fl_status note_rank(struct entry_state *st, long rank, int64_t ts, uint64_t seq,
                                unsigned long count)
{
    size_t lo = 0, hi = st->nranks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (st->ranks[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < st->nranks && st->ranks[lo].rank == rank) {
        struct rank_seen *r = &st->ranks[lo];
        r->count += count;
        if (earlier(ts, seq, r->first_ts, r->first_seq)) {
            r->first_ts = ts;
            r->first_seq = seq;
        }
        return FL_OK;
    }
    enum fl_status s = GROW(st->ranks, st->ranks_cap, st->nranks, RANKS_MAX);
    if (s != FL_OK)
        return s == FL_ERR_LIMIT ? FL_OK : s;
    memmove(&st->ranks[lo + 1], &st->ranks[lo], (st->nranks - lo) * sizeof *st->ranks);
    st->ranks[lo] = (struct rank_seen){rank, ts, seq, count};
    st->nranks++;
    return FL_OK;
}

enum fl_status correlator_add(struct correlator *c, int entry, int signal,
                              const struct line_view *lv)
{
    struct entry_state *st = &c->st[entry];
    const struct signal *sig = &c->kb->entries[entry].signals[signal];
    st->counts[signal]++;
    uint64_t seq = c->seq++;
    if (!sig->positive)
        return FL_OK;
    /* allocated on the first line: most entries never match a run */
    if (st->events == NULL && (st->events = calloc(EVIDENCE_KEEP, sizeof *st->events)) == NULL)
        return FL_ERR_NOMEM;
    if (st->nevents < EVIDENCE_KEEP) {
        struct event *ev = &st->events[st->nevents];
        *ev = (struct event){.signal = signal, .src = lv->src, .line_no = lv->line_no,
                             .rank = lv->meta.rank, .ts_ms = lv->meta.ts_ms,
                             .ts_no_year = lv->meta.ts_no_year, .seq = seq};
        memcpy(ev->host, lv->meta.host, HOST_MAX);
        ev->text = xstrndup(lv->msg, lv->msg_len < TEXT_MAX ? lv->msg_len : TEXT_MAX);
        if (ev->text == NULL)
            return FL_ERR_NOMEM;
        st->nevents++;
    }
    if (sig->supporting) {
        /* supporting lines never date the failure, but may name its rank */
        if (st->support_rank < 0 && lv->meta.rank >= 0)
            st->support_rank = lv->meta.rank;
        return FL_OK;
    }
    return note_rank(st, lv->meta.rank, lv->meta.ts_ms, seq, 1);
}

enum fl_status correlator_merge(struct correlator *dst, struct correlator *src,
                                const struct merge_map *m)
{
    uint64_t seq_offset = dst->seq;
    for (size_t i = 0; i < dst->kb->nentries; i++) {
        struct entry_state *d = &dst->st[i], *s = &src->st[i];
        for (size_t j = 0; j < dst->kb->entries[i].nsignals; j++)
            d->counts[j] += s->counts[j];
        /* src's lines all come after dst's: keep dst's first, then src's, up to the cap */
        if (s->nevents && d->events == NULL &&
            (d->events = calloc(EVIDENCE_KEEP, sizeof *d->events)) == NULL)
            return FL_ERR_NOMEM;
        for (size_t j = 0; j < s->nevents; j++) {
            struct event *ev = &s->events[j];
            if (d->nevents < EVIDENCE_KEEP) {
                if (ev->src == 0)
                    ev->line_no += m->line_offset;
                ev->src += m->src_offset;
                ev->seq += seq_offset;
                d->events[d->nevents++] = *ev;
            } else {
                free(ev->text);
            }
        }
        s->nevents = 0;
        for (size_t j = 0; j < s->nranks; j++) {
            const struct rank_seen *r = &s->ranks[j];
            enum fl_status st = note_rank(d, r->rank, r->first_ts, r->first_seq + seq_offset, r->count);
            if (st != FL_OK)
                return st;
        }
        if (d->support_rank < 0)
            d->support_rank = s->support_rank;
    }
    dst->seq += src->seq;
    return FL_OK;
}

/* ---------------------------------------------------------------- candidates */

struct candidate {
    size_t entry;
    size_t matched;          /* distinct positive signals (config included) */
    int64_t first_ts;
    bool ts_no_year;
    uint64_t first_seq;
    long rank;
    char host[HOST_MAX];
    bool dropped;
};

/* The entry's first occurrence, and its initiating rank: the earliest occurrence on a known rank
 * (a launcher's summary line has no rank of its own, but the line after it names one). */
static void first_event(const struct entry_state *st, struct candidate *cd)
{
    cd->first_ts = TS_UNKNOWN;
    cd->first_seq = UINT64_MAX;
    cd->rank = -1;
    for (int known = 1; known >= 0 && cd->first_seq == UINT64_MAX; known--)
        for (size_t i = 0; i < st->nranks; i++) {
            const struct rank_seen *r = &st->ranks[i];
            if (known && r->rank < 0)
                continue;
            if (cd->first_seq == UINT64_MAX ||
                earlier(r->first_ts, r->first_seq, cd->first_ts, cd->first_seq)) {
                cd->first_ts = r->first_ts;
                cd->first_seq = r->first_seq;
                cd->rank = r->rank;
            }
        }
    if (cd->rank < 0)
        cd->rank = st->support_rank;
    cd->host[0] = '\0';
    for (size_t i = 0; i < st->nevents; i++)
        if (st->events[i].rank == cd->rank && st->events[i].host[0]) {
            memcpy(cd->host, st->events[i].host, HOST_MAX);
            break;
        }
    for (size_t i = 0; i < st->nevents; i++)
        if (st->events[i].seq == cd->first_seq)
            cd->ts_no_year = st->events[i].ts_no_year;
}

/* Every evidence line of b is also evidence of a. */
static bool lines_within(const struct entry_state *a, const struct entry_state *b)
{
    if (b->nevents == 0)
        return false;
    for (size_t i = 0; i < b->nevents; i++) {
        bool found = false;
        for (size_t j = 0; j < a->nevents && !found; j++)
            found = a->events[j].src == b->events[i].src &&
                    a->events[j].line_no == b->events[i].line_no;
        if (!found)
            return false;
    }
    return true;
}


static int cmp_candidates(const void *pa, const void *pb)
{
    const struct candidate *a = pa, *b = pb;
    int64_t ta = a->first_ts == TS_UNKNOWN ? INT64_MAX : a->first_ts;
    int64_t tb = b->first_ts == TS_UNKNOWN ? INT64_MAX : b->first_ts;
    if (ta != tb)
        return ta < tb ? -1 : 1;
    if (a->matched != b->matched)
        return a->matched > b->matched ? -1 : 1;
    if (a->first_seq != b->first_seq)
        return a->first_seq < b->first_seq ? -1 : 1;
    return a->entry < b->entry ? -1 : a->entry > b->entry;
}

static void evidence_from_events(const struct entry_state *st, const struct candidate *cd,
                                 const struct source_info *sources, unsigned max,
                                 struct diagnosis *d)
{
    d->evidence = calloc(max, sizeof *d->evidence);
    if (d->evidence == NULL)
        return;
    /* the initiating line first, then the rest in arrival order */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < st->nevents && d->nevidence < max; i++) {
            const struct event *ev = &st->events[i];
            if ((pass == 0) != (ev->seq == cd->first_seq))
                continue;
            bool dup = false; /* one line matched by two signals is one piece of evidence */
            for (size_t k = 0; k < d->nevidence && !dup; k++)
                dup = d->evidence[k].line == ev->line_no &&
                      strcmp(d->evidence[k].source, sources[ev->src].name) == 0;
            if (dup)
                continue;
            struct evidence *e = &d->evidence[d->nevidence];
            e->source = xstrdup(sources[ev->src].name);
            e->line = ev->line_no;
            e->rank = ev->rank;
            e->text = xstrdup(ev->text);
            if (e->source && e->text)
                d->nevidence++;
            else {
                free(e->source);
                free(e->text);
            }
        }
    for (size_t i = 0; i < st->nranks; i++)
        d->evidence_total += st->ranks[i].count;
}

static void fill_prose(struct diagnosis *d, const struct entry *e)
{
    d->entry = e;
    d->id = e->id;
    d->title = e->title;
    d->category = e->category;
    d->severity = e->severity;
    d->root_cause = kb_section_text(e, "Root cause", true, false);
    d->fix = kb_section_text(e, "Fix", true, true);
    d->verify = kb_section_text(e, "Verify", false, true);
    if (d->verify == NULL)
        d->verify = kb_section_text(e, "Verify", true, false);
}

static void add_collateral(struct diagnosis *d, const struct entry *e, const struct entry_state *st)
{
    struct collateral *c = &d->collateral[d->ncollateral];
    c->id = e->id;
    c->title = e->title;
    c->ranks = malloc((st->nranks ? st->nranks : 1) * sizeof *c->ranks);
    if (c->ranks == NULL)
        return;
    for (size_t i = 0; i < st->nranks; i++) {
        c->count += st->ranks[i].count;
        if (st->ranks[i].rank >= 0)
            c->ranks[c->nranks++] = st->ranks[i].rank;
    }
    d->ncollateral++;
}

/* For a collective timeout with no cause in sight: the rank whose sequence number lags, or a rank
 * of the run that never reported the timeout (it was somewhere else). */
static long hang_suspect(const struct extractor *x, const struct entry_state *st,
                         const long *ranks, size_t nranks, bool silent_rule, struct buf *why)
{
    long min_seq = -1, max_seq = -1, suspect = -1;
    size_t at_min = 0;
    for (size_t i = 0; i < x->nseqnums; i++) {
        long s = x->seqnums[i].seq;
        if (x->seqnums[i].rank < 0)
            continue;
        if (min_seq < 0 || s < min_seq) {
            min_seq = s;
            suspect = x->seqnums[i].rank;
            at_min = 1;
        } else if (s == min_seq) {
            at_min++;
        }
        if (s > max_seq)
            max_seq = s;
    }
    if (suspect >= 0 && min_seq < max_seq && at_min == 1) {
        buf_printf(why, "rank %ld's last collective (SeqNum %ld) lags the others (up to %ld)",
                   suspect, min_seq, max_seq);
        return suspect;
    }
    const char *odd = facts_get(&x->facts, "stack_odd_rank");
    if (odd) {
        long rank = strtol(odd, NULL, 10);
        buf_printf(why, "rank %ld's stack differs from every other rank's (py-spy/faulthandler dumps)",
                   rank);
        return rank;
    }
    const char *stalled = facts_get(&x->facts, "progress_stalled_rank");
    if (stalled) {
        long rank = strtol(stalled, NULL, 10);
        buf_printf(why, "rank %ld's last training step came %s s before any other rank's",
                   rank, facts_get(&x->facts, "progress_stalled_seconds"));
        return rank;
    }
    if (!silent_rule)
        return -1;
    size_t silent = 0;
    long silent_rank = -1;
    for (size_t i = 0; i < nranks; i++) {
        bool reported = false;
        for (size_t j = 0; j < st->nranks && !reported; j++)
            reported = st->ranks[j].rank == ranks[i];
        if (!reported) {
            silent++;
            if (silent_rank < 0)
                silent_rank = ranks[i];
        }
    }
    if (silent == 1 && st->nranks >= 2) {
        buf_printf(why, "every rank but %ld reported the timeout: rank %ld never reached the collective",
                   silent_rank, silent_rank);
        return silent_rank;
    }
    return -1;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* Where a frame is a wait for the other ranks: a collective, a point-to-point receive, a barrier
 * or a device synchronisation. */
static bool waits_for_peers(const char *frame)
{
    static const char *const waits[] = {"all_reduce", "allreduce", "all_gather", "reduce_scatter",
                                        "broadcast", "barrier", "recv", "irecv", "all_to_all",
                                        "synchronize", "wait (torch", "_wait", NULL};
    for (int i = 0; waits[i]; i++)
        if (strstr(frame, waits[i]))
            return true;
    return false;
}

/* Groups the ranks' stacks into the report, and states what they show as facts for conditions:
 * stack_groups (how many shapes), stack_odd_rank (the one rank outside the majority, when there
 * is exactly one), stack_majority_waits (the majority waits for peers). */
static enum fl_status analyse_stacks(struct extractor *x, struct fl_report *r)
{
    struct stack_cluster *cl;
    size_t ncl;
    enum fl_status st = stacks_cluster(&x->stacks, &cl, &ncl);
    if (st != FL_OK || ncl == 0)
        return st;
    r->stacks = calloc(ncl, sizeof *r->stacks);
    if (r->stacks == NULL) {
        stacks_clusters_free(cl, ncl);
        return FL_ERR_NOMEM;
    }
    for (size_t i = 0; i < ncl; i++) {
        struct stack_group *g = &r->stacks[r->nstacks++];
        const struct stack *rep = &x->stacks.items[cl[i].members[0]];
        g->ranks = malloc(cl[i].nmembers * sizeof *g->ranks);
        g->frames = calloc(rep->nframes ? rep->nframes : 1, sizeof *g->frames);
        if (g->ranks == NULL || g->frames == NULL)
            break;
        for (size_t j = 0; j < cl[i].nmembers; j++)
            g->ranks[g->nranks++] = x->stacks.items[cl[i].members[j]].rank;
        qsort(g->ranks, g->nranks, sizeof *g->ranks, cmp_long);
        for (size_t j = 0; j < rep->nframes; j++)
            if ((g->frames[j] = xstrdup(rep->frames[j])) != NULL)
                g->nframes++;
    }
    char num[32];
    snprintf(num, sizeof num, "%zu", ncl);
    st = facts_add(&x->facts, "stack_groups", 12, num, strlen(num), false);
    bool waits = false;
    for (size_t j = 0; j < r->stacks[0].nframes && j < 12; j++)
        waits |= waits_for_peers(r->stacks[0].frames[j]);
    if (st == FL_OK && ncl >= 2 && r->stacks[0].nranks >= 2)
        st = facts_add(&x->facts, "stack_majority_waits", 20, waits ? "true" : "false",
                       waits ? 4 : 5, false);
    size_t odd = 0;
    for (size_t i = 1; i < r->nstacks; i++)
        odd += r->stacks[i].nranks;
    if (st == FL_OK && ncl >= 2 && odd == 1 && r->stacks[0].nranks >= 2 && r->stacks[1].ranks[0] >= 0) {
        snprintf(num, sizeof num, "%ld", r->stacks[1].ranks[0]);
        st = facts_add(&x->facts, "stack_odd_rank", 14, num, strlen(num), false);
    }
    stacks_clusters_free(cl, ncl);
    return st;
}

#define STALL_GAP_MS (60 * 1000)

/* A rank whose training steps stopped well before every other rank's: in a hang the others go on
 * to the next collective and wait there, so their last step comes later. States it as the fact
 * progress_stalled_rank when one rank's last step is at least a minute older than all others'. */
struct last_step {
    long rank;
    int64_t ts;
};

static int cmp_last_step(const void *a, const void *b)
{
    const struct last_step *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static enum fl_status analyse_progress(struct extractor *x)
{
    struct last_step *v = malloc((x->nprogress ? x->nprogress : 1) * sizeof *v);
    if (v == NULL)
        return FL_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < x->nprogress; i++)
        if (x->progress[i].rank >= 0 && x->progress[i].ts_ms != TS_UNKNOWN)
            v[n++] = (struct last_step){x->progress[i].rank, x->progress[i].ts_ms};
    qsort(v, n, sizeof *v, cmp_last_step);
    /* each rank's last step is the last record of its run in the sorted array */
    long first = -1, second = -1;
    int64_t first_ts = 0, second_ts = 0;
    size_t ranks = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && v[i + 1].rank == v[i].rank)
            continue;
        ranks++;
        if (first < 0 || v[i].ts < first_ts) {
            second = first;
            second_ts = first_ts;
            first = v[i].rank;
            first_ts = v[i].ts;
        } else if (second < 0 || v[i].ts < second_ts) {
            second = v[i].rank;
            second_ts = v[i].ts;
        }
    }
    free(v);
    if (ranks < 3 || second < 0 || second_ts - first_ts < STALL_GAP_MS)
        return FL_OK;
    char num[32];
    snprintf(num, sizeof num, "%ld", first);
    enum fl_status st = facts_add(&x->facts, "progress_stalled_rank", 21, num, strlen(num), false);
    snprintf(num, sizeof num, "%lld", (long long)((second_ts - first_ts) / 1000));
    return st == FL_OK ? facts_add(&x->facts, "progress_stalled_seconds", 24, num, strlen(num), false)
                       : st;
}

static bool exception_is_fatal(const struct extractor *x, const struct exception_event *e)
{
    for (size_t i = 0; i < x->nprogress; i++) {
        const struct progress *p = &x->progress[i];
        if (p->src == e->src && p->rank == e->rank && p->line_no > e->line_no)
            return false;
    }
    return true;
}

static enum fl_status unclassified(struct extractor *x, const struct source_info *sources,
                                   struct fl_report *r)
{
    const struct exception_event *best = NULL;
    for (size_t i = 0; i < x->nexceptions; i++) {
        const struct exception_event *e = &x->exceptions[i];
        if (exception_is_fatal(x, e) &&
            (best == NULL || earlier(e->ts_ms, e->seq, best->ts_ms, best->seq)))
            best = e;
    }
    if (best == NULL)
        return FL_OK;
    struct diagnosis *d = calloc(1, sizeof *d);
    if (d == NULL)
        return FL_ERR_NOMEM;
    r->diagnoses = d;
    r->ndiagnoses = 1;
    d->id = "unclassified";
    d->title = "Failure not in the knowledge base";
    d->category = "unknown";
    d->severity = "high";
    d->rank = best->rank;
    memcpy(d->host, best->host, HOST_MAX);
    d->first_ts = best->ts_ms;
    d->confidence = 0.3;
    d->evidence = calloc(1, sizeof *d->evidence);
    if (d->evidence) {
        struct buf t;
        buf_init(&t, 2 * TEXT_MAX + 64);
        buf_printf(&t, "%s%s%s", best->type, best->message[0] ? ": " : "", best->message);
        if (best->frame)
            buf_printf(&t, " (at %s)", best->frame);
        /* a chain: what the program raised next, while handling this one or because of it */
        for (const struct exception_event *e = best, *n; (n = extract_exception(x, e->next_seq)) != NULL && t.len < TEXT_MAX; e = n)
            buf_printf(&t, " -> %s %s%s%s", e->next_is_cause ? "which caused" : "then, while handling it,",
                       n->type, n->message[0] ? ": " : "", n->message);
        d->evidence[0] = (struct evidence){xstrdup(sources[best->src].name), best->line_no,
                                           best->rank, buf_steal(&t)};
        d->nevidence = 1;
        d->evidence_total = 1;
    }
    struct buf rc;
    buf_init(&rc, 4096);
    buf_printf(&rc, "No knowledge-base entry explains this failure. The first uncaught error is %s%s%s.",
               best->type, best->message[0] ? ": " : "", best->message);
    d->root_cause = buf_steal(&rc);
    d->fix = xstrdup("Read the traceback from its innermost frame; search the message with `faultline kb search WORDS`.");
    return FL_OK;
}

static void explain_candidate(struct buf *b, const struct fl_kb *kb, const struct correlator *c,
                              const struct candidate *cd, const char *verdict)
{
    const struct entry *e = &kb->entries[cd->entry];
    buf_printf(b, "%s (%s, %s): %zu distinct signal(s) matched:", e->id,
               e->collateral ? "collateral" : "primary", verdict, cd->matched);
    for (size_t i = 0; i < e->nsignals; i++)
        if (c->st[cd->entry].counts[i])
            buf_printf(b, " %s×%lu", e->signals[i].name, c->st[cd->entry].counts[i]);
    buf_putc(b, '\n');
}

enum fl_status correlator_finish(struct correlator *c, struct extractor *x,
                                 const struct source_info *sources, size_t nsources,
                                 unsigned max_evidence, struct fl_report *r)
{
    (void)nsources;
    const struct fl_kb *kb = c->kb;
    enum fl_status ast = analyse_stacks(x, r);
    if (ast != FL_OK)
        return ast;
    if ((ast = analyse_progress(x)) != FL_OK)
        return ast;
    if (x->progress_lines) {
        char num[32];
        snprintf(num, sizeof num, "%lu", x->progress_lines);
        if ((ast = facts_add(&x->facts, "progress_lines", 14, num, strlen(num), false)) != FL_OK)
            return ast;
    }
    struct candidate *cands = calloc(kb->nentries ? kb->nentries : 1, sizeof *cands);
    if (cands == NULL)
        return FL_ERR_NOMEM;
    size_t ncand = 0;
    for (size_t i = 0; i < kb->nentries; i++) {
        const struct entry *e = &kb->entries[i];
        struct entry_state *st = &c->st[i];
        for (size_t j = 0; j < e->nsignals; j++)
            if (e->signals[j].kind == SIGNAL_CONFIG)
                st->counts[j] = config_eval(&e->signals[j].cfg,
                                            facts_get(&x->facts, e->signals[j].cfg.fact));
        if (!condition_eval(e, st->counts) || st->nranks == 0)
            continue;
        struct candidate *cd = &cands[ncand++];
        cd->entry = i;
        for (size_t j = 0; j < e->nsignals; j++)
            cd->matched += e->signals[j].positive && !e->signals[j].supporting && st->counts[j] > 0;
        first_event(st, cd);
    }
    for (size_t i = 0; i < ncand; i++)
        for (size_t j = 0; j < ncand; j++)
            if (i != j && !cands[j].dropped && cands[j].matched > cands[i].matched &&
                /* a consequence never hides a cause that shares its line */
                (kb->entries[cands[i].entry].collateral || !kb->entries[cands[j].entry].collateral) &&
                lines_within(&c->st[cands[j].entry], &c->st[cands[i].entry]))
                cands[i].dropped = true;
    qsort(cands, ncand, sizeof *cands, cmp_candidates);

    size_t nprimary = 0, nkept = 0;
    for (size_t i = 0; i < ncand; i++)
        if (!cands[i].dropped) {
            nkept++;
            nprimary += !kb->entries[cands[i].entry].collateral;
        }
    enum fl_status st = FL_OK;
    if (nkept == 0) {
        st = unclassified(x, sources, r);
        free(cands);
        return st;
    }
    size_t ndiag = nprimary ? nprimary : nkept;
    r->diagnoses = calloc(ndiag, sizeof *r->diagnoses);
    if (r->diagnoses == NULL) {
        free(cands);
        return FL_ERR_NOMEM;
    }
    struct buf explain;
    buf_init(&explain, 65536);
    for (size_t i = 0; i < ncand; i++) {
        const struct candidate *cd = &cands[i];
        const struct entry *e = &kb->entries[cd->entry];
        bool is_diag = !cd->dropped && (nprimary == 0 || !e->collateral);
        explain_candidate(&explain, kb, c, cd,
                          cd->dropped ? "dropped: its lines are evidence of a more specific entry"
                          : is_diag   ? (r->ndiagnoses == 0 ? "chosen first" : "reported after the first")
                                      : "folded under the first diagnosis as a consequence");
        if (!is_diag)
            continue;
        struct diagnosis *d = &r->diagnoses[r->ndiagnoses++];
        fill_prose(d, e);
        d->rank = cd->rank;
        memcpy(d->host, cd->host, HOST_MAX);
        d->first_ts = cd->first_ts;
        d->ts_no_year = cd->ts_no_year;
        evidence_from_events(&c->st[cd->entry], cd, sources, max_evidence, d);
    }
    struct diagnosis *top = &r->diagnoses[0];
    const struct candidate *topc = NULL;
    for (size_t i = 0; i < ncand && !topc; i++)
        if (!cands[i].dropped && (nprimary == 0 || !kb->entries[cands[i].entry].collateral))
            topc = &cands[i];
    struct buf why;
    buf_init(&why, 1024);
    if (nprimary > 0) {
        top->collateral = calloc(nkept, sizeof *top->collateral);
        for (size_t i = 0; i < ncand && top->collateral; i++)
            if (!cands[i].dropped && kb->entries[cands[i].entry].collateral)
                add_collateral(top, &kb->entries[cands[i].entry], &c->st[cands[i].entry]);
        buf_printf(&why, "The first primary failure decides the initiating rank; %zu collateral "
                   "failure(s) are listed as its consequences.", top->ncollateral);
    }
    if (nprimary == 0 || strcmp(top->category, "network") == 0) {
        /* a hang: everyone times out in a collective; the suspect is who did not get there */
        size_t before = why.len;
        long suspect = hang_suspect(x, &c->st[topc->entry], r->ranks, r->nranks, nprimary == 0, &why);
        if (suspect >= 0 && suspect != top->rank) {
            top->rank = suspect;
            top->host[0] = '\0';
        } else if (nprimary == 0 && why.len == before) {
            buf_printf(&why, "Only collateral failures were found: the cause is not in these logs; "
                       "the rank shown reported first.");
        }
    }
    if (top->first_ts == TS_UNKNOWN && nprimary > 1)
        buf_printf(&why, " The logs carry no timestamps: order within files and the specificity "
                   "of the matches decided.");
    for (size_t i = 0; i < r->ndiagnoses; i++) {
        struct diagnosis *d = &r->diagnoses[i];
        const char *h = d->rank >= 0 && !d->host[0] ? extract_host_of(x, d->rank) : NULL;
        if (h)
            snprintf(d->host, HOST_MAX, "%s", h);
    }
    r->note = buf_steal(&why);
    for (size_t i = 0; i < r->ndiagnoses; i++) {
        struct diagnosis *d = &r->diagnoses[i];
        const struct candidate *cd = NULL;
        for (size_t j = 0; j < ncand && !cd; j++)
            if (!cands[j].dropped && &kb->entries[cands[j].entry] == d->entry)
                cd = &cands[j];
        struct score_input in = {.entry = d->entry, .counts = c->st[cd->entry].counts,
                                 .matched_signals = cd->matched,
                                 .nranks = c->st[cd->entry].nranks, .rank_known = d->rank >= 0,
                                 .time_known = d->first_ts != TS_UNKNOWN, .is_top = i == 0,
                                 .has_collateral = d->ncollateral > 0};
        d->confidence = score_confidence(&in);
    }
    top->explain = buf_steal(&explain);
    free(cands);
    return st;
}
