/*
 * correlate.c — which failure came first, and which failures are only its consequences.
 *
 * The rules come first in this file, one function each, in the order an on-call engineer applies
 * them. They read and write a struct run_analysis (correlate.h) and nothing else, so a test can
 * hand them a run built by hand; each says in the analysis which rule decided, for --explain.
 *
 * What the headline is:
 *   rule_specific_over_generic   a candidate whose lines all belong to a more specific one
 *                                (cuda-oom-fragmentation over cuda-oom) is dropped, unless it is
 *                                primary and the other only collateral;
 *   rule_time_order              the earliest first: by timestamp, then by the number of distinct
 *                                signals, then by arrival;
 *   rule_primary_beats_collateral  a primary failure (an exception, an OOM, an Xid, a signal)
 *                                outranks every collateral one (a watchdog timeout, a closed
 *                                connection, a launcher's summary): 511 ranks timing out say less
 *                                than the one rank that raised;
 *   rule_uncaught_exception      with no primary entry, an uncaught exception that is not itself a
 *                                consequence (closed connection, timeout, SIGTERM, ChildFailedError)
 *                                still beats every collateral failure;
 *   rule_exception_class         its type and frames may say what it is: a KeyError, IndexError or
 *                                ValueError raised while loading a sample is a data problem, an
 *                                assertion on a NaN loss is numerics; else it is "unclassified";
 *   rule_collateral_only         with neither, the first collateral failure is the diagnosis, and
 *                                the report says the cause is not in these logs, unless
 *   rule_silent_rank             the one rank that shows no consequence, by how torchrun's summary
 *                                says it ended: exited on its own (child-failed), stopped while the
 *                                others waited (rank-stuck-outside-collective, rank0-long-work-
 *                                timeout on rank 0), or ended cleanly first (uneven-inputs-hang);
 *                                when the console cannot say which of equals it was, no rank;
 *   rule_exit_code_of_its_own    or the one rank torchrun lists with an exit code that is neither
 *                                1 nor a signal (sys.exit(3)): child-failed, on that rank;
 *   rule_odd_collective          or the one rank whose traceback waited in another collective of
 *                                torch.distributed (broadcast) than all the others' (all_reduce):
 *                                collective-mismatch, on that rank where the tracebacks name one;
 *   rule_late_arriver            or the one rank that found its peers gone while all others timed
 *                                out waiting: it came late (stuck, or rank 0's long work); on a
 *                                console that names no rank, the same shape without a rank;
 *   rule_printed_while_others_waited  or the one rank whose own lines go on after the first
 *                                timeout: the ranks that timed out were blocked, that one came
 *                                late (stuck, or rank 0's long work);
 *   rule_stopped_from_outside    or the launcher stopped by SIGTERM with nothing failing before
 *                                it: a scheduler's preemption or cancel (slurm-preemption).
 * Which rank initiated it:
 *   rule_rank_where_written      the rank on the headline's own line: a [rankN]:/[defaultN]: prefix,
 *                                a per-rank file (attempt_0/3/stderr.log, error.json), a capture;
 *   rule_seqnum_lag, rule_stack_odd_one_out, rule_progress_stalled   for a hang: the rank whose
 *                                NCCL sequence number lags, whose stack differs from all others',
 *                                or whose steps stopped a minute before the others';
 *   rule_fingerprint_odd_one_out  collectives, models or stores that differ across ranks: the rank
 *                                whose CollectiveFingerPrint, parameter count in DDP's check, or
 *                                store address it failed to reach differs from all others', which
 *                                agree;
 *   rule_first_nonfinite_loss    a loss that went nan or inf: the rank whose own loss line was
 *                                non-finite first, not the first to stop on the reduced value;
 *   rule_signal_death            a worker killed by SIGKILL/SIGSEGV/SIGABRT prints nothing: the
 *                                rank torchrun's summary lists with that exitcode;
 *   rule_elimination             when every other rank shows only collateral failures, the one
 *                                remaining rank initiated;
 *   rule_error_record            the one rank whose own logging record at ERROR level or worse
 *                                came before the headline's traceback and every consequence
 *                                (logger.exception("batch failed") of the rank that raised);
 *   rule_printed_after           a rank whose own "[rank N]" line the console shows after the
 *                                traceback did not raise it; the one rank of the console left did
 *                                (only where the lines came out as printed);
 *   rule_fewest_own_lines        the one rank that printed fewer own lines than all others, which
 *                                agree, stopped first (only where its own count is complete: it
 *                                exited by itself, or the lines came out as printed);
 *   rule_launcher_hint           torchrun's "Root Cause (first observed failure)" names the first
 *                                process its agent saw exit, which is often not the first to fail:
 *                                used only when nothing on the ranks decides, and the agent of the
 *                                node whose console printed the headline first; no rank when
 *                                another failure it lists shares that failure's second.
 * Ranks read as a node's local rank (a per-rank folder, a [defaultN]: prefix) are translated to
 * global ranks before the rules run (remap_local_ranks, rankmap.h).
 */
#include "correlate.h"
#include "rankmap.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v and keeps each known (non-negative) rank once; returns how many are left. */
static size_t unique_ranks(long *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_long);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] >= 0 && (u == 0 || v[u - 1] != v[i]))
            v[u++] = v[i];
    return u;
}

static bool earlier(int64_t ts_a, uint64_t seq_a, int64_t ts_b, uint64_t seq_b)
{
    if (ts_a != TS_UNKNOWN && ts_b != TS_UNKNOWN && ts_a != ts_b)
        return ts_a < ts_b;
    return seq_a < seq_b;
}

static const struct entry *cand_entry(const struct run_analysis *a, const struct candidate *cd)
{
    return &a->kb->entries[cd->entry];
}

static bool kept_primary(const struct run_analysis *a, const struct candidate *cd)
{
    return !cd->dropped && !cand_entry(a, cd)->collateral;
}

static void decided(struct run_analysis *a, const char **slot, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void decided(struct run_analysis *a, const char **slot, const char *rule, const char *fmt, ...)
{
    *slot = rule;
    buf_printf(&a->rules, "%s: %s — ", slot == &a->rank_rule ? "rank" : "headline", rule);
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    buf_printf(&a->rules, "%s\n", text);
}

/* ================================================================ the headline */

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

static void rule_specific_over_generic(struct run_analysis *a)
{
    for (size_t i = 0; i < a->ncand; i++)
        for (size_t j = 0; j < a->ncand; j++) {
            const struct candidate *gen = &a->cands[i], *spec = &a->cands[j];
            if (i != j && !spec->dropped && spec->matched > gen->matched &&
                /* a consequence never hides a cause that shares its line */
                (cand_entry(a, gen)->collateral || !cand_entry(a, spec)->collateral) &&
                lines_within(spec->st, gen->st))
                a->cands[i].dropped = true;
        }
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

static void rule_time_order(struct run_analysis *a)
{
    qsort(a->cands, a->ncand, sizeof *a->cands, cmp_candidates);
    a->nprimary = a->nkept = 0;
    for (size_t i = 0; i < a->ncand; i++)
        if (!a->cands[i].dropped) {
            a->nkept++;
            a->nprimary += kept_primary(a, &a->cands[i]);
        }
}

static bool rule_primary_beats_collateral(struct run_analysis *a)
{
    for (size_t i = 0; i < a->ncand; i++)
        if (kept_primary(a, &a->cands[i])) {
            a->kind = HEADLINE_CANDIDATE;
            a->top = i;
            decided(a, &a->headline_rule, "primary_beats_collateral",
                    "%s is the earliest of %zu primary failure(s); %zu collateral failure(s) "
                    "are its consequences", cand_entry(a, &a->cands[i])->id, a->nprimary,
                    a->nkept - a->nprimary);
            return true;
        }
    return false;
}

/* What a rank's message says when a peer was gone by the time it got there, and when it gave up
 * waiting for one: both only consequences of another rank's failure. */
static const char *const lost_peer_words[] = {"closed by peer", "reset by peer",
                                              "closed by remote peer", "Broken pipe", NULL};
static const char *const timed_out_words[] = {"timed out", "Timed out", "Timeout", "timeout", NULL};

static bool says_any(const char *s, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strstr(s, words[i]))
            return true;
    return false;
}

static bool lost_peer(const struct exception_event *e)
{
    return says_any(e->message, lost_peer_words);
}

static bool timed_out(const struct exception_event *e)
{
    return says_any(e->message, timed_out_words);
}

bool correlator_exception_is_consequence(const struct exception_event *e)
{
    /* what a rank raises because another one failed, or because the launcher stopped it */
    static const char *const types[] = {"ChildFailedError", "SignalException", "KeyboardInterrupt",
                                        "DistBackendError", "BrokenPipeError",
                                        "ConnectionResetError", NULL};
    static const char *const words[] = {"communicator was aborted", "got signal: 15",
                                        "got signal: 2", "got signal: 1", NULL};
    return e->collateral_line || says_any(e->type, types) || lost_peer(e) || timed_out(e) ||
           says_any(e->message, words);
}

/* An exception after which its rank made no more progress. */
static bool exception_is_fatal(const struct run_analysis *a, const struct exception_event *e)
{
    for (size_t i = 0; i < a->nprogress; i++) {
        const struct progress *p = &a->progress[i];
        if (p->src == e->src && p->rank == e->rank && p->line_no > e->line_no)
            return false;
    }
    return true;
}

/* The first fatal exception that is (or is not) a consequence; a rank's own exception comes
 * before the launcher's retelling of it. */
static const struct exception_event *first_exception(const struct run_analysis *a, bool consequence,
                                                     size_t *n)
{
    const struct exception_event *best = NULL;
    *n = 0;
    for (size_t i = 0; i < a->nexc; i++) {
        const struct exception_event *e = &a->exc[i];
        if (!exception_is_fatal(a, e) || correlator_exception_is_consequence(e) != consequence)
            continue;
        ++*n;
        if (best == NULL || (best->rank < 0 && e->rank >= 0) ||
            ((e->rank >= 0) == (best->rank >= 0) && earlier(e->ts_ms, e->seq, best->ts_ms, best->seq)))
            best = e;
    }
    return best;
}

static bool rule_uncaught_exception(struct run_analysis *a)
{
    size_t consequences, causes;
    const struct exception_event *best = first_exception(a, false, &causes);
    first_exception(a, true, &consequences);
    if (best == NULL)
        return false;
    a->kind = HEADLINE_EXCEPTION;
    a->top = (size_t)(best - a->exc);
    char where[32] = "an unknown rank";
    if (best->rank >= 0)
        snprintf(where, sizeof where, "rank %ld", best->rank);
    decided(a, &a->headline_rule, "uncaught_exception",
            "no entry explains %s, raised on %s; %zu other exception(s) were consequences and "
            "%zu collateral failure(s) are folded under it", best->type, where, consequences,
            a->nkept);
    return true;
}

/* The message or the failing line checks a loss for NaN or Inf. */
static bool checks_loss(const char *s)
{
    if (s == NULL || strcasestr(s, "loss") == NULL)
        return false;
    return strcasestr(s, "nan") || strcasestr(s, "inf") || strcasestr(s, "finite");
}

static const char *exception_class(const struct exception_event *e)
{
    const char *dot = strrchr(e->type, '.');
    const char *base = dot ? dot + 1 : e->type;
    bool lookup = strcmp(base, "KeyError") == 0 || strcmp(base, "IndexError") == 0 ||
                  strcmp(base, "ValueError") == 0;
    if ((e->flags & FRAME_DATA) && strcmp(base, "FileNotFoundError") == 0)
        return "data-file-missing";
    if (((e->flags & FRAME_DATA) && lookup) || (e->flags & FRAME_COLLATE))
        return "corrupt-data-sample";
    /* an assertion or error raised by a check of the loss, or the script's own exit after one */
    bool check = strcmp(base, "AssertionError") == 0 || strcmp(base, "ValueError") == 0 ||
                 strcmp(base, "RuntimeError") == 0 || strcmp(base, "FloatingPointError") == 0 ||
                 strcmp(base, "SystemExit") == 0;
    if (check && (checks_loss(e->message) || checks_loss(e->code)))
        return "loss-nan";
    return NULL;
}

static const struct entry *entry_by_id(const struct fl_kb *kb, const char *id)
{
    for (size_t i = 0; i < kb->nentries; i++)
        if (strcmp(kb->entries[i].id, id) == 0)
            return &kb->entries[i];
    return NULL;
}

static void rule_exception_class(struct run_analysis *a)
{
    const struct exception_event *e = &a->exc[a->top];
    const char *id = exception_class(e);
    a->exc_entry = id ? entry_by_id(a->kb, id) : NULL;
    if (a->exc_entry)
        decided(a, &a->headline_rule, "exception_class", "%s %s: %s", e->type,
                e->flags & FRAME_DATA ? "raised while loading or collating a sample"
                                      : "raised by a check of the loss",
                a->exc_entry->id);
}

static bool is_launcher(const struct run_analysis *a, const struct candidate *cd)
{
    return strcmp(cand_entry(a, cd)->category, "launcher") == 0;
}

static bool rule_collateral_only(struct run_analysis *a)
{
    /* what a rank saw (a closed connection, a timeout) before what the launcher says of it */
    for (int launcher = 0; launcher < 2; launcher++)
        for (size_t i = 0; i < a->ncand; i++)
            if (!a->cands[i].dropped && is_launcher(a, &a->cands[i]) == launcher) {
                a->kind = HEADLINE_CANDIDATE;
                a->top = i;
                decided(a, &a->headline_rule, "collateral_only",
                        "only collateral failures were found; %s is the first a rank reported",
                        cand_entry(a, &a->cands[i])->id);
                return true;
            }
    /* no entry at all: the ranks' exceptions are all consequences (timeouts, closed connections) */
    size_t n;
    const struct exception_event *first = first_exception(a, true, &n);
    if (first == NULL)
        return false;
    a->kind = HEADLINE_EXCEPTION;
    a->consequence = true;
    a->top = (size_t)(first - a->exc);
    decided(a, &a->headline_rule, "collateral_only",
            "no entry matched; the %zu uncaught exception(s) are all consequences of another "
            "failure (%s first)", n, first->type);
    return true;
}

/* ================================================================ the initiating rank */

static bool rule_rank_where_written(struct run_analysis *a)
{
    long rank = a->kind == HEADLINE_EXCEPTION ? a->exc[a->top].rank : a->cands[a->top].rank;
    if (rank < 0)
        return false;
    a->rank = rank;
    decided(a, &a->rank_rule, "rank_where_written",
            "rank %ld is on the %s line itself (a rank prefix, a per-rank file, or a rank the "
            "line names)", rank, a->kind == HEADLINE_EXCEPTION ? "exception's" : "first matched");
    return true;
}

static bool rule_seqnum_lag(struct run_analysis *a)
{
    long min_seq = -1, max_seq = -1, suspect = -1;
    size_t at_min = 0;
    for (size_t i = 0; i < a->nseqnums; i++) {
        long s = a->seqnums[i].seq;
        if (a->seqnums[i].rank < 0)
            continue;
        if (min_seq < 0 || s < min_seq) {
            min_seq = s;
            suspect = a->seqnums[i].rank;
            at_min = 1;
        } else if (s == min_seq) {
            at_min++;
        }
        if (s > max_seq)
            max_seq = s;
    }
    if (suspect < 0 || min_seq >= max_seq || at_min != 1)
        return false;
    a->rank = suspect;
    buf_printf(&a->why, "rank %ld's last collective (SeqNum %ld) lags the others (up to %ld)",
               suspect, min_seq, max_seq);
    decided(a, &a->rank_rule, "seqnum_lag", "rank %ld's NCCL SeqNum %ld lags the others' %ld",
            suspect, min_seq, max_seq);
    return true;
}

static bool rule_stack_odd_one_out(struct run_analysis *a)
{
    if (a->stack_odd_rank < 0)
        return false;
    a->rank = a->stack_odd_rank;
    buf_printf(&a->why, "rank %ld's stack differs from every other rank's (py-spy/faulthandler dumps)",
               a->rank);
    decided(a, &a->rank_rule, "stack_odd_one_out", "rank %ld's stack differs from all others'",
            a->rank);
    return true;
}

static bool rule_progress_stalled(struct run_analysis *a)
{
    if (a->stalled_rank < 0)
        return false;
    a->rank = a->stalled_rank;
    buf_printf(&a->why, "rank %ld's last training step came %ld s before any other rank's",
               a->rank, a->stalled_seconds);
    decided(a, &a->rank_rule, "progress_stalled", "rank %ld stopped stepping %ld s before the others",
            a->rank, a->stalled_seconds);
    return true;
}

/* ---------------------------------------------------------------- collectives that differ */

/* With TORCH_DISTRIBUTED_DEBUG=DETAIL, PyTorch's ProcessGroupWrapper all-gathers a fingerprint of
 * each collective (op, shapes, dtypes, devices; a sequence number since 2.x) before running it,
 * and every rank compares the others' with its own (ProcessGroupWrapper.cpp): a rank that finds
 * one differing raises "Detected mismatch between collectives on ranks. Rank S is running
 * collective: CollectiveFingerPrint(...), but Rank O is running collective:
 * CollectiveFingerPrint(...)", naming itself and the first rank, in rank order, whose fingerprint
 * differs (older releases: "Rank S is running inconsistent collective: ..." with its own only).
 * So every rank raises, and the first line names whichever rank printed first; the rank that
 * called something else is the one whose fingerprint differs from all the others', which agree. */
#define FINGERPRINT_RANKS 256

struct fingerprint {
    long rank;
    const char *fp;      /* "CollectiveFingerPrint(...)", balanced; a parameter count; or a
                            store address */
    size_t len;
};

/* The balanced "CollectiveFingerPrint(...)" at s, or 0 when the text is cut before its end. */
static size_t fingerprint_len(const char *s)
{
    static const char head[] = "CollectiveFingerPrint(";
    if (strncmp(s, head, sizeof head - 1) != 0)
        return 0;
    int depth = 0;
    for (size_t i = sizeof head - 2; s[i]; i++) {
        depth += s[i] == '(';
        depth -= s[i] == ')';
        if (depth == 0)
            return i + 1;
    }
    return 0;
}

static void note_fingerprint(struct fingerprint *v, size_t *n, long rank, const char *fp, size_t len)
{
    for (size_t i = 0; i < *n; i++)
        if (v[i].rank == rank)
            return;
    if (*n < FINGERPRINT_RANKS)
        v[(*n)++] = (struct fingerprint){rank, fp, len};
}

/* Each "Rank N is running [inconsistent ]collective: CollectiveFingerPrint(...)" of text. */
static void read_fingerprints(const char *text, struct fingerprint *v, size_t *n)
{
    if (text == NULL || strstr(text, "Detected mismatch between collectives on ranks") == NULL)
        return;
    for (const char *p = strstr(text, "Rank "); p; p = strstr(p + 5, "Rank ")) {
        char *end;
        long rank = strtol(p + 5, &end, 10);
        if (end == p + 5 || rank < 0 || strncmp(end, " is running ", 12) != 0)
            continue;
        const char *c = end + 12;
        if (strncmp(c, "inconsistent ", 13) == 0)
            c += 13;
        if (strncmp(c, "collective: ", 12) != 0)
            continue;
        size_t len = fingerprint_len(c + 12);
        if (len)
            note_fingerprint(v, n, rank, c + 12, len);
    }
}

/* "N<between>C" at p, rank N's count C: noted; returns the end of C, or NULL. */
static const char *read_count(const char *p, const char *between, struct fingerprint *v, size_t *n)
{
    char *end;
    long rank = strtol(p, &end, 10);
    size_t k = strlen(between);
    if (end == p || rank < 0 || strncmp(end, between, k) != 0)
        return NULL;
    const char *c = end + k;
    size_t len = strspn(c, "0123456789");
    if (len == 0)
        return NULL;
    note_fingerprint(v, n, rank, c, len);
    return c + len;
}

/* DDP's check of the parameter count (reducer.cpp): every rank gathers all counts and raises
 * "DDP expects same model across all ranks, but Rank S has C params, while rank O has
 * inconsistent D params", its own count and that of the first rank that differs from it. Each
 * statement is one rank's count, read like a fingerprint: the rank built with another model is
 * the one whose count differs from all the others', which agree, whoever printed first. */
static void read_param_counts(const char *text, struct fingerprint *v, size_t *n)
{
    static const char head[] = "DDP expects same model across all ranks, but Rank ";
    const char *p = text ? strstr(text, head) : NULL;
    if (p == NULL || (p = read_count(p + sizeof head - 1, " has ", v, n)) == NULL ||
        strncmp(p, " params, while rank ", 20) != 0)
        return;
    read_count(p + 20, " has inconsistent ", v, n);
}

/* c10d's client names the store it could not reach: "... while trying to connect to (host,
 * port)" (a timeout) or "failed to connect to [host]:port (errno: ...)" (refused). The ranks that
 * agree tried the address their launcher gave them; one that tried another read its own, stale
 * configuration. Read per rank, from exceptions whose rank is known. */
static void read_store_address(const struct exception_event *e, struct fingerprint *v, size_t *n)
{
    static const char *const heads[] = {"while trying to connect to (", "failed to connect to [",
                                        NULL};
    if (e->rank < 0 || e->message == NULL)
        return;
    for (int i = 0; heads[i]; i++) {
        const char *p = strstr(e->message, heads[i]);
        if (p == NULL)
            continue;
        p += strlen(heads[i]) - 1;
        size_t len = i == 0 ? strcspn(p, ")") + 1 : strcspn(p, " ");
        if (i == 0 && p[len - 1] != ')')
            return; /* cut before its end */
        note_fingerprint(v, n, e->rank, p, len);
        return;
    }
}

static bool same_fingerprint(const struct fingerprint *a, const struct fingerprint *b)
{
    return a->len == b->len && memcmp(a->fp, b->fp, a->len) == 0;
}

/* The one rank whose fingerprint differs from those of at least two others that agree, or -1. */
static long fingerprint_odd_rank(const struct fingerprint *v, size_t n)
{
    long odd = -1;
    for (size_t i = 0; i < n; i++) {
        size_t same = 0;
        for (size_t j = 0; j < n; j++)
            same += j != i && same_fingerprint(&v[i], &v[j]);
        if (same > 0)
            continue;
        if (odd >= 0)
            return -1;
        odd = v[i].rank;
    }
    /* the others all agree among themselves */
    for (size_t i = 0; odd >= 0 && i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (v[i].rank != odd && v[j].rank != odd && !same_fingerprint(&v[i], &v[j]))
                return -1;
    return n >= 3 ? odd : -1;
}

/* The headline is the mismatch report: the exception itself, or the entry its line matched. */
static bool headline_reports_mismatch(const struct run_analysis *a, const struct exception_event *e)
{
    if (a->kind == HEADLINE_EXCEPTION)
        return e == &a->exc[a->top];
    return e->entry >= 0 && (size_t)e->entry == a->cands[a->top].entry;
}

static bool rule_fingerprint_odd_one_out(struct run_analysis *a)
{
    struct fingerprint fps[FINGERPRINT_RANKS], counts[FINGERPRINT_RANKS], stores[FINGERPRINT_RANKS];
    size_t nfps = 0, ncounts = 0, nstores = 0;
    bool fps_reported = false, counts_reported = false;
    for (size_t i = 0; i < a->nexc; i++) {
        const char *m = a->exc[i].message;
        read_fingerprints(m, fps, &nfps);
        read_param_counts(m, counts, &ncounts);
        bool headline = m && headline_reports_mismatch(a, &a->exc[i]);
        fps_reported |= headline && strstr(m, "Detected mismatch between collectives");
        counts_reported |= headline && strstr(m, "DDP expects same model across all ranks");
        if (headline)
            read_store_address(&a->exc[i], stores, &nstores);
    }
    long odd = fps_reported ? fingerprint_odd_rank(fps, nfps) : -1;
    if (odd >= 0) {
        buf_printf(&a->why, "rank %ld's collective differs from what the %zu other ranks it was "
                   "compared with ran, which agree (TORCH_DISTRIBUTED_DEBUG=DETAIL's fingerprints)",
                   odd, nfps - 1);
        decided(a, &a->rank_rule, "fingerprint_odd_one_out", "rank %ld's CollectiveFingerPrint "
                "differs from the %zu other ranks', which agree", odd, nfps - 1);
    } else if ((odd = counts_reported ? fingerprint_odd_rank(counts, ncounts) : -1) >= 0) {
        buf_printf(&a->why, "rank %ld's model has another number of parameters than the %zu other "
                   "ranks', which agree (DDP's check of the parameters across ranks)", odd,
                   ncounts - 1);
        decided(a, &a->rank_rule, "fingerprint_odd_one_out", "rank %ld's parameter count differs "
                "from the %zu other ranks', which agree", odd, ncounts - 1);
    } else if ((odd = fingerprint_odd_rank(stores, nstores)) >= 0) {
        buf_printf(&a->why, "rank %ld tried to reach the store at another address than the %zu other "
                   "ranks, which agree: its configuration differs", odd, nstores - 1);
        decided(a, &a->rank_rule, "fingerprint_odd_one_out", "rank %ld's store address differs from "
                "the %zu other ranks', which agree", odd, nstores - 1);
    } else {
        return false;
    }
    a->rank = odd;
    return true;
}

/* ---------------------------------------------------------------- a loss that went non-finite */

/* The rank whose own loss line was first nan or inf: the only rank that printed one, else the
 * earliest by the clock, else (all lines of one console) the first in it; -1 when nothing
 * orders them. */
static long first_nonfinite_rank(const struct run_analysis *a)
{
    const struct progress *first = NULL;
    bool one_rank = true, dated = true, one_src = true, tie = false;
    for (size_t i = 0; i < a->nnonfinite; i++) {
        const struct progress *p = &a->nonfinite[i];
        if (first == NULL) {
            first = p;
            dated = p->ts_ms != TS_UNKNOWN;
            continue;
        }
        one_rank &= p->rank == first->rank;
        one_src &= p->src == first->src;
        dated &= p->ts_ms != TS_UNKNOWN;
    }
    if (first == NULL || one_rank)
        return first ? first->rank : -1;
    const struct progress *best = NULL;
    for (size_t i = 0; i < a->nnonfinite && (dated || one_src); i++) {
        const struct progress *p = &a->nonfinite[i];
        int64_t k = dated ? p->ts_ms : (int64_t)p->line_no;
        int64_t b = best == NULL ? 0 : dated ? best->ts_ms : (int64_t)best->line_no;
        if (best == NULL || k < b) {
            best = p;
            tie = false;
        } else if (k == b && p->rank != best->rank) {
            tie = true;
        }
    }
    return best && !tie ? best->rank : -1;
}

/* A loss that went nan or inf is reduced across the ranks before most loops check it (DDP's
 * gradients, a logged mean), so every rank then stops on it, prints "Loss is nan" or raises,
 * and the first to print decides nothing: the rank whose own loss line was non-finite first is
 * where the numbers broke. */
static bool rule_first_nonfinite_loss(struct run_analysis *a)
{
    const struct entry *e = a->kind == HEADLINE_EXCEPTION ? a->exc_entry
                            : a->headline_entry          ? a->headline_entry
                                                         : cand_entry(a, &a->cands[a->top]);
    if (e == NULL || strcmp(e->category, "numerics") != 0)
        return false;
    long rank = first_nonfinite_rank(a);
    if (rank < 0)
        return false;
    a->rank = rank;
    buf_printf(&a->why, "rank %ld's own loss was the first printed as nan or inf", rank);
    decided(a, &a->rank_rule, "first_nonfinite_loss", "rank %ld printed its own loss as nan or "
            "inf first", rank);
    return true;
}

/* Whether the rank reported a failure of its own that is only a consequence: a collateral entry
 * seen on it (the launcher's summary speaks about ranks, not for them), or an exception that is. */
static bool rank_shows_collateral(const struct run_analysis *a, long rank)
{
    for (size_t i = 0; i < a->ncand; i++) {
        const struct candidate *cd = &a->cands[i];
        const struct entry *e = cand_entry(a, cd);
        if (!e->collateral || is_launcher(a, cd))
            continue;
        for (size_t j = 0; j < cd->st->nranks; j++)
            if (cd->st->ranks[j].rank == rank)
                return true;
    }
    for (size_t i = 0; i < a->nexc; i++)
        if (a->exc[i].rank == rank && correlator_exception_is_consequence(&a->exc[i]))
            return true;
    return false;
}

static bool rule_elimination(struct run_analysis *a)
{
    size_t shown = 0, left = 0;
    long remaining = -1;
    for (size_t i = 0; i < a->nranks; i++) {
        if (a->ranks[i] < 0)
            continue;
        if (rank_shows_collateral(a, a->ranks[i])) {
            shown++;
        } else if (left == 0 || a->ranks[i] != remaining) {
            left++;
            remaining = a->ranks[i];
        }
    }
    if (left != 1 || shown < 2)
        return false;
    a->rank = remaining;
    buf_printf(&a->why, "every rank but %ld reported only consequences: rank %ld never reached the "
               "collective or failed first", remaining, remaining);
    decided(a, &a->rank_rule, "elimination",
            "%zu rank(s) show only collateral failures; rank %ld is the one left", shown, remaining);
    return true;
}

/* ---------------------------------------------------------------- what torchrun's summary says */

/* SIGTERM, SIGINT, SIGHUP: what the agent (or a scheduler, or a person) sends to stop workers. */
static bool stop_signal(int exitcode)
{
    return exitcode == -15 || exitcode == -2 || exitcode == -1;
}

static const struct launcher_failure *listed(const struct run_analysis *a, long rank)
{
    for (size_t i = 0; i < a->nfailures; i++)
        if (a->failures[i].rank == rank)
            return &a->failures[i];
    return NULL;
}

/* The one rank the summary lists as killed by a signal nobody sends to stop a worker (SIGKILL,
 * SIGSEGV, SIGABRT, ...), or -1. */
static const struct launcher_failure *signal_death(const struct run_analysis *a)
{
    const struct launcher_failure *found = NULL;
    for (size_t i = 0; i < a->nfailures; i++) {
        const struct launcher_failure *f = &a->failures[i];
        if (f->rank < 0 || f->exitcode >= 0 || stop_signal(f->exitcode))
            continue;
        if (found && found->rank != f->rank)
            return NULL;
        found = f;
    }
    return found;
}

static bool rank_written(const struct candidate *cd)
{
    for (size_t j = 0; j < cd->st->nranks; j++)
        if (cd->st->ranks[j].rank >= 0)
            return true;
    return false;
}

/* A worker killed by a signal prints nothing: torchrun's summary lists it under its rank with
 * "exitcode : -9" (or -11, -6), and the "traceback : Signal 9 (SIGKILL) received by PID" line
 * that the entries match names no rank. When the headline is such a primary failure and none of
 * its lines names a rank of its own, the one rank killed by such a signal is its rank. */
static bool rule_signal_death(struct run_analysis *a)
{
    if (a->kind != HEADLINE_CANDIDATE || cand_entry(a, &a->cands[a->top])->collateral ||
        rank_written(&a->cands[a->top]))
        return false;
    const struct launcher_failure *f = signal_death(a);
    if (f == NULL)
        return false;
    a->rank = f->rank;
    buf_printf(&a->why, "torchrun's summary lists rank %ld as killed by signal %d, which leaves no "
               "traceback", f->rank, -f->exitcode);
    decided(a, &a->rank_rule, "signal_death", "torchrun lists rank %ld with exitcode %d: the one "
            "worker killed by a signal that is not a stop request", f->rank, f->exitcode);
    return true;
}

#define JOB_RANKS_MAX 4096

static bool launcher_own(const struct exception_event *e)
{
    return strstr(e->type, "ChildFailedError") || strstr(e->type, "SignalException");
}

/* Every rank of the job as far as the logs tell, sorted and unique: those named anywhere, those
 * the summary lists and, per node (one torchrun console, whose summary lists global ranks with
 * their local ranks: global = the node's first rank + local), the local ranks below the number of
 * its workers: those it lists plus those its agent stopped. */
static size_t job_ranks(const struct run_analysis *a, long *v)
{
    size_t n = 0;
    for (size_t i = 0; i < a->nranks && n < JOB_RANKS_MAX; i++)
        v[n++] = a->ranks[i];
    for (size_t i = 0; i < a->nfailures; i++) {
        const struct launcher_failure *f = &a->failures[i];
        if (f->rank < 0 || f->local_rank < 0)
            continue;
        bool seen = false; /* each node once: at its first failure listed */
        for (size_t j = 0; j < i && !seen; j++)
            seen = a->failures[j].src == f->src && a->failures[j].rank >= 0;
        if (seen)
            continue;
        long base = f->rank - f->local_rank, workers = 0;
        bool consistent = true;
        for (size_t j = i; j < a->nfailures; j++) {
            const struct launcher_failure *g = &a->failures[j];
            if (g->src != f->src || g->rank < 0)
                continue;
            consistent &= g->rank - g->local_rank == base;
            workers = g->local_rank + 1 > workers ? g->local_rank + 1 : workers;
            if (n < JOB_RANKS_MAX)
                v[n++] = g->rank;
        }
        long listed_here = 0, stopped_here = 0;
        for (size_t j = 0; j < a->nfailures; j++)
            listed_here += a->failures[j].src == f->src && a->failures[j].rank >= 0;
        for (size_t j = 0; j < a->nstops; j++)
            stopped_here += a->stops[j] == f->src;
        if (listed_here + stopped_here > workers)
            workers = listed_here + stopped_here;
        for (long l = 0; consistent && l < workers && l < JOB_RANKS_MAX && n < JOB_RANKS_MAX; l++)
            v[n++] = base + l;
    }
    return unique_ranks(v, n);
}

/* The one rank that shows nothing while every other rank of the job shows only consequences, or
 * -1. A console log without rank prefixes names no rank on its exceptions: the ranks the summary
 * lists with exitcode 1 (Python's exit on an uncaught exception) are taken to have raised those
 * consequences, and what is left over to be the stopped workers'. When fewer consequences were
 * printed than such ranks were listed, one of them printed nothing, but which one the console
 * does not say: *one is then true and the rank -1. (torchrun's root cause does not tell either:
 * without error files, failures its agent collected in one poll carry the same time, and the
 * lowest rank is named first.) */
static long silent_rank(const struct run_analysis *a, bool *one)
{
    long v[JOB_RANKS_MAX];
    size_t n = job_ranks(a, v);
    size_t unranked = 0, quiet = 0, own = 0;
    *one = false;
    for (size_t i = 0; i < a->nexc; i++) {
        unranked += a->exc[i].rank < 0 && !launcher_own(&a->exc[i]) &&
                    correlator_exception_is_consequence(&a->exc[i]);
        own += a->exc[i].rank < 0 && launcher_own(&a->exc[i]);
    }
    /* interleaved tracebacks of unnamed ranks read as one exception: their headers count them */
    if (a->unranked_tracebacks > own && a->unranked_tracebacks - own > unranked)
        unranked = a->unranked_tracebacks - own;
    bool shows[JOB_RANKS_MAX], pooled[JOB_RANKS_MAX];
    size_t pool = 0, taken = 0;
    for (size_t i = 0; i < n; i++) {
        const struct launcher_failure *f = listed(a, v[i]);
        shows[i] = rank_shows_collateral(a, v[i]);
        pooled[i] = !shows[i] && f && f->exitcode == 1;
        pool += pooled[i];
        if (pooled[i] && unranked > 0) {
            shows[i] = true;
            unranked--;
            taken++;
        }
    }
    for (size_t i = 0; i < n; i++)
        quiet += !shows[i] && listed(a, v[i]) == NULL;
    long left = -1;
    size_t nleft = 0;
    for (size_t i = 0; i < n; i++) {
        if (shows[i] || (listed(a, v[i]) == NULL && quiet <= unranked))
            continue;
        nleft++;
        left = v[i];
    }
    if (nleft != 1 || n < 2)
        return -1;
    *one = true;
    size_t at = 0;
    while (at < n && v[at] != left)
        at++;
    if (taken == 0 || !pooled[at] || taken == pool)
        return left; /* no consequence was handed out among equals */
    return -1;
}

/* Whether some worker of the job ended cleanly: more ranks are known (per-rank folders, their own
 * lines) than the agents listed as failed and stopped. A rank that exited 0 printed no error, so
 * when one rank alone is silent, it is that one, even though an agent stopped another worker. */
static bool clean_exit(const struct run_analysis *a)
{
    long v[JOB_RANKS_MAX], listed[LAUNCHER_FAILURES_MAX];
    size_t n = job_ranks(a, v);
    for (size_t i = 0; i < a->nfailures; i++)
        listed[i] = a->failures[i].rank;
    return unique_ranks(listed, a->nfailures) + a->nstops < n;
}

/* Makes entry id the headline: cands[top] (or exc[top]) stays as its evidence, a consequence of
 * what the ranks' behaviour says happened. */
static bool headline_is(struct run_analysis *a, const char *id)
{
    const struct entry *e = entry_by_id(a->kb, id);
    if (e == NULL)
        return false;
    for (size_t i = 0; i < a->ncand && a->kind == HEADLINE_CANDIDATE; i++)
        if (!a->cands[i].dropped && cand_entry(a, &a->cands[i]) == e)
            a->top = i;
    if (a->kind == HEADLINE_EXCEPTION) {
        a->exc_entry = e;
        a->consequence = false;
    } else if (cand_entry(a, &a->cands[a->top]) != e) {
        a->headline_entry = e;
    }
    return true;
}

/* With only consequences on the ranks (timeouts, closed connections), how the one silent rank
 * ended says what happened, from torchrun's summary:
 *   listed with an exit code of its own (sys.exit(3), os._exit) and no traceback, or killed by
 *   a signal that no entry explains (os.abort), or by a SIGTERM the agent did not send (it lists
 *   only the workers it found dead, never those it stops): the program or someone outside ended
 *   that rank early, and the others lost it: child-failed, on that rank;
 *   not listed and stopped by the agent after the others failed: it never reached the collective
 *   they timed out in: rank-stuck-outside-collective, or on rank 0, the rank that does the solo
 *   work (saving, evaluating, logging), rank0-long-work-timeout;
 *   not listed and not stopped (no worker was, or more ranks are known than were listed and
 *   stopped): it ended without error while its peers were still in a collective: its loop ran
 *   out of data first, uneven-inputs-hang. */
static bool rule_silent_rank(struct run_analysis *a)
{
    if (a->nfailures == 0)
        return false;
    bool one;
    long s = silent_rank(a, &one);
    if (!one)
        return false;
    if (s < 0) {
        /* one of the ranks listed with exitcode 1 printed nothing; which, the console does not say */
        if (!headline_is(a, "child-failed"))
            return false;
        buf_printf(&a->why, "every rank but one reported only consequences; the one that exited "
                   "with no traceback is not named on these lines");
        decided(a, &a->headline_rule, "silent_rank", "one rank listed with exitcode 1 printed no "
                "traceback: child-failed");
        decided(a, &a->rank_rule, "silent_rank", "which rank printed nothing is not decided: the "
                "consequences carry no rank");
        return true;
    }
    const struct launcher_failure *f = listed(a, s);
    const char *id, *how;
    if (f && f->exitcode > 0) {
        id = "child-failed";
        how = "exited by itself (torchrun lists its non-zero exit code) with no traceback";
    } else if (f && !stop_signal(f->exitcode)) {
        /* no entry of a signal death fired (a SIGABRT with no C++ terminate printed) */
        id = "child-failed";
        how = "was killed by a signal with nothing printed";
    } else if (f) {
        /* the agent lists only the workers it found dead; those it stops itself after a failure
         * it does not: this SIGTERM, SIGINT or SIGHUP came from elsewhere, before any failure */
        id = "child-failed";
        how = "was stopped by a signal the launcher did not send, before anything failed";
    } else if (f == NULL && (a->nstops == 0 || clean_exit(a))) {
        id = "uneven-inputs-hang";
        how = "ended without an error while the others waited in a collective";
    } else {
        id = s == 0 ? "rank0-long-work-timeout" : "rank-stuck-outside-collective";
        how = "never reached the collective the others failed in, and was stopped";
    }
    if (!headline_is(a, id))
        return false;
    a->rank = s;
    buf_printf(&a->why, "every other rank reported only consequences; rank %ld %s", s, how);
    decided(a, &a->headline_rule, "silent_rank", "rank %ld %s: %s", s, how, id);
    decided(a, &a->rank_rule, "silent_rank", "rank %ld is the one rank that reported no "
            "consequence of its own", s);
    return true;
}

/* With only consequences on the ranks, torchrun's summary lists one rank with an exit code of its
 * own, neither 1 (Python's exit on an uncaught exception) nor a signal: sys.exit(3), os._exit(2),
 * a library's silent guard. Nothing else ended by itself, so that exit is where the job broke
 * (child-failed, on that rank), even where the console does not say which rank printed which
 * consequence. */
static bool rule_exit_code_of_its_own(struct run_analysis *a)
{
    const struct launcher_failure *own = NULL;
    for (size_t i = 0; i < a->nfailures; i++) {
        const struct launcher_failure *f = &a->failures[i];
        if (f->exitcode == 1 || f->exitcode == 0)
            continue;
        if (f->exitcode < 0 || f->rank < 0 || (own && own->rank != f->rank))
            return false; /* a signal, a rank not known, or two such exits */
        own = f;
    }
    if (own == NULL)
        return false;
    for (size_t i = 0; i < a->nexc; i++)
        if (a->exc[i].rank == own->rank)
            return false; /* it raised, or lost its peers: its exit code is that one's */
    if (!headline_is(a, "child-failed"))
        return false;
    a->rank = own->rank;
    buf_printf(&a->why, "torchrun lists rank %ld with exit code %d and no traceback: the program "
               "ended it; the other ranks' errors are consequences", own->rank, own->exitcode);
    decided(a, &a->headline_rule, "exit_code_of_its_own", "rank %ld exited with code %d, its "
            "own, while the ranks' errors are only consequences: child-failed", own->rank,
            own->exitcode);
    decided(a, &a->rank_rule, "exit_code_of_its_own", "rank %ld is the one rank that ended with "
            "an exit code of its own", own->rank);
    return true;
}

/* The torch.distributed collective a consequence was raised in: the function of its innermost
 * frame when that frame is the collective API (distributed_c10d.py: all_reduce, broadcast,
 * barrier), else NULL (DDP's all-reduce inside backward, a store's wait, no traceback). */
static const char *collective_called(const struct exception_event *e)
{
    if (!correlator_exception_is_consequence(e) || launcher_own(e) || e->frame == NULL ||
        strstr(e->frame, "distributed_c10d.py:") == NULL)
        return NULL;
    const char *in = strstr(e->frame, " in ");
    return in && in[4] ? in + 4 : NULL;
}

/* Whether exc[i]'s rank already told of a call before it (calls[j]: exc[j]'s, or NULL): 1 the
 * same one (a console and the rank's own file tell one story twice), -1 another one, 0 not. */
static int rank_told_before(const struct run_analysis *a, const char *const *calls, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (calls[j] && a->exc[j].rank == a->exc[i].rank)
            return strcmp(calls[j], calls[i]) == 0 ? 1 : -1;
    return 0;
}

/* With only consequences on the ranks, all but one of them timed out or lost their peers in one
 * collective of torch.distributed (all_reduce) and the one left in another (broadcast): the ranks
 * did not issue the same collectives, and that one took another path (collective-mismatch), not
 * a rank that merely came late to the same call. Counted per rank where the tracebacks name
 * ranks, else per traceback; at least two must agree, so that the odd one is known. */
static bool rule_odd_collective(struct run_analysis *a)
{
    const char *calls[EXCEPTIONS_MAX], *fn[2] = {NULL, NULL};
    size_t n = a->nexc < EXCEPTIONS_MAX ? a->nexc : EXCEPTIONS_MAX, count[2] = {0, 0};
    long rank[2] = {-1, -1};
    bool ranked = false;
    for (size_t i = 0; i < n; i++) {
        calls[i] = collective_called(&a->exc[i]);
        ranked |= a->exc[i].rank >= 0 && calls[i] != NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const struct exception_event *e = &a->exc[i];
        const char *f = calls[i];
        if (f == NULL || (ranked && e->rank < 0))
            continue;
        int told = ranked ? rank_told_before(a, calls, i) : 0;
        if (told < 0)
            return false; /* one rank in two different calls: not a single odd path */
        if (told > 0)
            continue;
        int k = fn[0] == NULL || strcmp(fn[0], f) == 0 ? 0 : fn[1] == NULL || strcmp(fn[1], f) == 0 ? 1 : -1;
        if (k < 0)
            return false; /* three different calls */
        fn[k] = f;
        count[k]++;
        rank[k] = e->rank;
    }
    int odd = count[0] == 1 && count[1] >= 2 ? 0 : count[1] == 1 && count[0] >= 2 ? 1 : -1;
    if (odd < 0 || !headline_is(a, "collective-mismatch"))
        return false;
    const char *agreed = fn[1 - odd];
    a->rank = rank[odd];
    decided(a, &a->headline_rule, "odd_collective", "%zu %s waited in %s(), one in %s(): the ranks "
            "did not issue the same collectives: collective-mismatch", count[1 - odd],
            ranked ? "ranks" : "tracebacks", agreed, fn[odd]);
    if (a->rank >= 0) {
        buf_printf(&a->why, "every other rank waited in %s(); rank %ld was in %s()", agreed, a->rank,
                   fn[odd]);
        decided(a, &a->rank_rule, "odd_collective", "rank %ld is the one whose call differs",
                a->rank);
    } else {
        buf_printf(&a->why, "the other tracebacks waited in %s(), one in %s(); the console does not "
                   "say which rank printed it", agreed, fn[odd]);
        decided(a, &a->rank_rule, "odd_collective", "which rank called %s() is not written on "
                "these lines", fn[odd]);
    }
    return true;
}

static bool rule_printed_while_others_waited(struct run_analysis *a);

/* Every rank but one timed out waiting in a collective, and that one only found its peers gone
 * (a closed connection, a reset) when it got there: it came late, after they gave up. A rank
 * that was slow or blocked outside the collective: rank-stuck-outside-collective, or on rank 0,
 * the rank that does the solo work, rank0-long-work-timeout. On a console that names no rank on
 * its tracebacks the same shape (two or more timeouts, one closed connection, nothing else) says
 * that one rank came late, but not which: rank-stuck-outside-collective, with no rank. */
static bool rule_late_arriver(struct run_analysis *a)
{
    long late = -1;
    size_t waited = 0, nlate = 0;
    for (size_t i = 0; i < a->nranks; i++) {
        bool t = false, c = false;
        for (size_t j = 0; j < a->nexc; j++)
            if (a->exc[j].rank == a->ranks[i]) {
                t |= timed_out(&a->exc[j]);
                c |= lost_peer(&a->exc[j]);
            }
        if (t) {
            waited++;
        } else if (c) {
            nlate++;
            late = a->ranks[i];
        }
    }
    size_t t_unranked = 0, c_unranked = 0, other = 0, own = 0;
    for (size_t j = 0; j < a->nexc; j++) {
        const struct exception_event *e = &a->exc[j];
        own += e->rank < 0 && launcher_own(e);
        if (e->rank >= 0 || launcher_own(e))
            continue;
        t_unranked += timed_out(e);
        c_unranked += !timed_out(e) && lost_peer(e);
        other += !timed_out(e) && !lost_peer(e);
    }
    /* every traceback header read as one of these: none hidden in another's lines */
    bool unnamed = waited == 0 && nlate == 0 && t_unranked >= 2 && c_unranked == 1 && other == 0 &&
                   a->unranked_tracebacks <= t_unranked + c_unranked + own;
    if (unnamed) {
        if (rule_printed_while_others_waited(a))
            return true; /* the console does say which rank came late */
        if (!headline_is(a, "rank-stuck-outside-collective"))
            return false;
        decided(a, &a->headline_rule, "late_arriver", "%zu timeouts and one closed connection, "
                "none of them named: one rank came late: rank-stuck-outside-collective", t_unranked);
        buf_printf(&a->why, "%zu ranks timed out waiting in a collective and one only found them "
                   "gone when it got there; the console does not say which rank that was",
                   t_unranked);
        decided(a, &a->rank_rule, "late_arriver", "which rank came late is not written on these "
                "lines");
        return true;
    }
    if (nlate != 1 || waited < 2)
        return false;
    const char *id = late == 0 ? "rank0-long-work-timeout" : "rank-stuck-outside-collective";
    if (!headline_is(a, id))
        return false;
    a->rank = late;
    buf_printf(&a->why, "%zu ranks timed out waiting in a collective; rank %ld only found them "
               "gone when it got there", waited, late);
    decided(a, &a->headline_rule, "late_arriver", "%zu ranks timed out waiting; rank %ld arrived "
            "after they gave up: %s", waited, late, id);
    decided(a, &a->rank_rule, "late_arriver", "rank %ld is the one the others waited for", late);
    return true;
}

/* The launcher itself was stopped by SIGTERM (its "SignalException: Process N got signal: 15"),
 * and nothing failed before it: no entry matched, no worker failed by itself (torchrun's summary
 * lists none), every other exception is the same stop reaching another agent or a worker. A job
 * stopped from outside while healthy is what a scheduler's preemption or cancel does (Slurm and
 * Kubernetes send SIGTERM first). SIGHUP (a closed terminal) and SIGINT (Ctrl-C) are a person's
 * doing and do not count; a launcher stopped after an error that no entry knows keeps that error. */
static bool stopped_by_sigterm(const struct exception_event *e)
{
    static const char sigterm[] = "got signal: 15";
    const char *at = strstr(e->message, sigterm);
    return strstr(e->type, "SignalException") && at && !isdigit((unsigned char)at[sizeof sigterm - 1]);
}

static bool rule_stopped_from_outside(struct run_analysis *a)
{
    if (a->nfailures > 0 || a->nkept > 0 || a->nexc == 0)
        return false;
    for (size_t i = 0; i < a->nexc; i++)
        if (!stopped_by_sigterm(&a->exc[i]))
            return false;
    if (!headline_is(a, "slurm-preemption"))
        return false;
    buf_printf(&a->why, "the launcher was stopped by SIGTERM with no failure before it: a stop "
               "from outside the job, as a scheduler's preemption or cancel sends it");
    decided(a, &a->headline_rule, "stopped_from_outside", "%zu launcher(s) or worker(s) got "
            "SIGTERM and nothing failed before: slurm-preemption", a->nexc);
    return true;
}

/* The source the headline was printed in: a node's console, or a per-rank file; -1 unknown. */
static int headline_src(const struct run_analysis *a)
{
    if (a->kind == HEADLINE_EXCEPTION)
        return a->exc[a->top].src;
    const struct candidate *cd = &a->cands[a->top];
    for (size_t i = 0; i < cd->st->nevents; i++)
        if (cd->st->events[i].seq == cd->first_seq)
            return cd->st->events[i].src;
    return cd->st->nevents ? cd->st->events[0].src : -1;
}

/* ---------------------------------------------------------------- a console's own lines */

#define CONSOLE_RANKS_MAX 256

/* The ranks whose output one console (a node's torchrun, src) shows: those its lines about their
 * rank name and those its agent's summary lists; 0 when they may not be all of its workers: with
 * no summary, or fewer ranks than the agent listed and stopped (a worker killed by the agent and
 * silent before is not named anywhere). A worker that raised is always among them: it exited
 * with an error, and the agent lists (or, when it was still printing, stops) every such one. */
static size_t console_ranks(const struct run_analysis *a, int src, long *v)
{
    size_t n = 0, listed = 0, stopped = 0;
    for (size_t i = 0; i < a->nown && n < CONSOLE_RANKS_MAX; i++)
        if (a->own[i].src == src && a->own[i].rank >= 0)
            v[n++] = a->own[i].rank;
    for (size_t i = 0; i < a->nfailures && n < CONSOLE_RANKS_MAX; i++)
        if (a->failures[i].src == src && a->failures[i].rank >= 0) {
            v[n++] = a->failures[i].rank;
            listed++;
        }
    for (size_t i = 0; i < a->nstops; i++)
        stopped += a->stops[i] == src;
    n = unique_ranks(v, n);
    return listed == 0 || n < listed + stopped ? 0 : n;
}

static const struct own_lines *own_of(const struct run_analysis *a, int src, long rank)
{
    for (size_t i = 0; i < a->nown; i++)
        if (a->own[i].src == src && a->own[i].rank == rank)
            return &a->own[i];
    return NULL;
}

/* How many of its own lines rank printed on console src (0 when none). */
static unsigned long own_count(const struct run_analysis *a, int src, long rank)
{
    const struct own_lines *o = own_of(a, src, rank);
    return o ? o->lines : 0;
}

/* Whether the console's own lines came out as they were printed, line by line: the ranks' lines
 * alternate (each rank's in two runs or more on average, runs of a few lines). A program whose
 * standard output is a pipe or a file holds it in a block buffer (Python's, 8 KiB) unless told
 * otherwise (PYTHONUNBUFFERED, flush=True, a terminal), and writes it out when full or when the
 * process exits, after its own traceback: in runs of a hundred lines, or one run per rank. Then
 * where a line stands says nothing of when it was printed. */
static bool line_granular(const struct run_analysis *a, int src)
{
    unsigned long lines = 0, runs = 0, ranks = 0;
    for (size_t i = 0; i < a->nown; i++)
        if (a->own[i].src == src && a->own[i].rank >= 0) {
            lines += a->own[i].lines;
            runs += a->own[i].runs;
            ranks++;
        }
    return ranks >= 2 && runs >= 2 * ranks && lines <= 4 * runs;
}

/* The unranked uncaught exception the headline stands on, or NULL: the exception itself, or
 * the exception line a primary entry matched. */
static const struct exception_event *headline_exception(const struct run_analysis *a)
{
    if (a->kind == HEADLINE_EXCEPTION)
        return a->consequence || a->exc[a->top].rank >= 0 ? NULL : &a->exc[a->top];
    const struct candidate *cd = &a->cands[a->top];
    if (cand_entry(a, cd)->collateral)
        return NULL;
    for (size_t i = 0; i < cd->st->nevents; i++) {
        const struct event *ev = &cd->st->events[i];
        if (ev->seq != cd->first_seq)
            continue;
        for (size_t j = 0; j < a->nexc; j++)
            if (a->exc[j].src == ev->src && a->exc[j].line_no == ev->line_no && a->exc[j].rank < 0)
                return &a->exc[j];
    }
    return NULL;
}

/* A process that printed an uncaught exception's traceback has exited: a rank whose own line the
 * console shows after that traceback did not raise it. When every other rank of the console did
 * that, the one left raised it. Only where the console's lines came out as printed. */
static bool rule_printed_after(struct run_analysis *a)
{
    const struct exception_event *e = headline_exception(a);
    long v[CONSOLE_RANKS_MAX];
    size_t n = e ? console_ranks(a, e->src, v) : 0;
    if (n < 2 || !line_granular(a, e->src))
        return false;
    long left = -1;
    size_t nleft = 0;
    for (size_t i = 0; i < n; i++) {
        const struct own_lines *o = own_of(a, e->src, v[i]);
        if (o == NULL || o->line_no < e->line_no) {
            nleft++;
            left = v[i];
        }
    }
    if (nleft != 1)
        return false;
    a->rank = left;
    buf_printf(&a->why, "every other rank of the console printed a line of its own after the %s "
               "was raised, so it was still running: rank %ld raised it", e->type, left);
    decided(a, &a->rank_rule, "printed_after", "%zu of the console's %zu ranks printed their own "
            "lines after %s (line %llu); rank %ld did not", n - 1, n, e->type,
            (unsigned long long)e->line_no, left);
    return true;
}

/* A logging record at ERROR level or worse is the program's own word that something failed:
 * logger.exception("batch failed") writes one just before the traceback of the rank that raised.
 * A rank that fails only in consequence writes its record after its peer's failure has reached
 * it: after the traceback that failure printed, or after its own consequence. So when exactly one
 * rank of the headline's console logged such a record before the headline's unranked exception
 * and before every consequence printed there (a closed connection, a timeout), that rank
 * reported a failure of its own. */
static bool rule_error_record(struct run_analysis *a)
{
    const struct exception_event *e = headline_exception(a);
    if (e == NULL)
        return false;
    uint64_t before = e->line_no;
    for (size_t j = 0; j < a->nexc; j++)
        if (a->exc[j].src == e->src && a->exc[j].line_no < before &&
            correlator_exception_is_consequence(&a->exc[j]))
            before = a->exc[j].line_no;
    const struct own_lines *found = NULL;
    for (size_t i = 0; i < a->nown; i++) {
        const struct own_lines *o = &a->own[i];
        if (o->src != e->src || o->rank < 0 || o->error_line == 0 || o->error_line >= before)
            continue;
        if (found)
            return false; /* two ranks reported an error: either may be a consequence */
        found = o;
    }
    if (found == NULL)
        return false;
    a->rank = found->rank;
    buf_printf(&a->why, "rank %ld logged a record at ERROR level before the %s was printed, and "
               "no other rank did: it reported a failure of its own", found->rank, e->type);
    decided(a, &a->rank_rule, "error_record", "rank %ld's own logging record at line %llu is at "
            "ERROR level, before %s (line %llu) and every consequence; no other rank's is",
            found->rank, (unsigned long long)found->error_line, e->type,
            (unsigned long long)e->line_no);
    return true;
}

/* Ranks that time out in a collective were blocked in it since before the first of them gave
 * up: none of them prints a line of its own between entering it and its own traceback. So when
 * only consequences were raised, the one rank whose own lines the console shows after the first
 * timeout was not waiting: it came late. Only where the lines came out as printed, with every
 * unranked timeout in one console, and exactly one such rank; -1 otherwise. */
static long printing_while_others_waited(const struct run_analysis *a, size_t *waited,
                                         uint64_t *line_no)
{
    const struct exception_event *first = NULL;
    *waited = 0;
    for (size_t j = 0; j < a->nexc; j++) {
        const struct exception_event *e = &a->exc[j];
        if (e->rank >= 0 || launcher_own(e) || !timed_out(e))
            continue;
        if (first && e->src != first->src)
            return -1;
        if (first == NULL || e->line_no < first->line_no)
            first = e;
        ++*waited;
    }
    if (first == NULL || !line_granular(a, first->src))
        return -1;
    long late = -1;
    size_t n = 0;
    for (size_t i = 0; i < a->nown; i++) {
        const struct own_lines *o = &a->own[i];
        if (o->src == first->src && o->rank >= 0 && o->line_no > first->line_no) {
            late = o->rank;
            n++;
        }
    }
    *line_no = first->line_no;
    return n == 1 ? late : -1;
}

/* With only consequences on the ranks, the rank that went on printing its own lines after its
 * peers timed out waiting kept them waiting: stuck outside the collective, or on rank 0, the
 * rank that does the solo work, rank0-long-work-timeout. */
static bool rule_printed_while_others_waited(struct run_analysis *a)
{
    size_t waited;
    uint64_t line_no;
    long late = printing_while_others_waited(a, &waited, &line_no);
    if (late < 0)
        return false;
    const char *id = late == 0 ? "rank0-long-work-timeout" : "rank-stuck-outside-collective";
    if (!headline_is(a, id))
        return false;
    a->rank = late;
    buf_printf(&a->why, "%zu timeout(s) of ranks waiting in a collective; rank %ld printed its "
               "own lines after the first of them, so it was not waiting: it came late", waited,
               late);
    decided(a, &a->headline_rule, "printed_while_others_waited", "rank %ld went on printing "
            "after its peers timed out waiting: %s", late, id);
    decided(a, &a->rank_rule, "printed_while_others_waited", "rank %ld printed its own lines "
            "after the first timeout (line %llu), while the %zu rank(s) that timed out were "
            "blocked in the collective", late, (unsigned long long)line_no, waited);
    return true;
}

/* A script that prints the same lines on every rank (each step's loss, "loaded shard") shows
 * where each rank got to: when all ranks of the console but one printed the same number of such
 * lines and that one printed fewer, it stopped first, before the point all others reached. The
 * count of a worker that exited by itself (the summary lists it with an exit code) is complete:
 * Python flushes its output at exit. A worker stopped by the agent's SIGTERM or killed by a
 * signal may have lost what its buffer held, so its count is only at least what it shows: the
 * comparison holds when the rank of fewest lines exited by itself, whatever the others' ends, or
 * when the lines came out as printed. The rank must not have printed after the headline's
 * exception. */
static bool rule_fewest_own_lines(struct run_analysis *a)
{
    int src = headline_src(a);
    long v[CONSOLE_RANKS_MAX];
    size_t n = src >= 0 ? console_ranks(a, src, v) : 0;
    if (n < 3)
        return false;
    long fewest = -1;
    unsigned long least = 0, others = 0;
    size_t at_least = 0, cut = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned long c = own_count(a, src, v[i]);
        const struct launcher_failure *f = listed(a, v[i]);
        cut += !(f && f->src == src && f->exitcode > 0);
        if (fewest < 0 || c < least) {
            fewest = v[i];
            least = c;
            at_least = 1;
        } else if (c == least) {
            at_least++;
        }
    }
    if (at_least != 1)
        return false;
    const struct launcher_failure *ff = listed(a, fewest);
    bool complete = ff && ff->src == src && ff->exitcode > 0, granular = line_granular(a, src);
    if (!complete && !granular)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned long c = own_count(a, src, v[i]);
        if (v[i] == fewest)
            continue;
        if (others == 0)
            others = c;
        else if (c != others)
            return false; /* the others differ among themselves */
    }
    const struct exception_event *e = headline_exception(a);
    const struct own_lines *o = own_of(a, src, fewest);
    if (e && granular && o && o->line_no > e->line_no)
        return false;
    a->rank = fewest;
    buf_printf(&a->why, "rank %ld printed %lu line(s) of its own where every other rank printed "
               "%lu: it stopped first", fewest, least, others);
    decided(a, &a->rank_rule, "fewest_own_lines", "rank %ld printed %lu own line(s), each of the "
            "console's %zu other ranks %lu%s", fewest, least, n - 1, others,
            cut && !granular ? " (those stopped or killed by a signal may have printed more, "
                               "never fewer)" : "");
    return true;
}

/* Another failure that the agent which named rank as its root cause listed at the same second,
 * or NULL. torchelastic stamps a failure with its error file's timestamp (@record) or, without
 * one, with the time of the poll that found the worker dead, and names as root cause the failure
 * of the lowest timestamp; ties go to the lowest local rank (the order it polls its workers in).
 * Workers that died within one poll interval (5 s) all get that poll's time, so the root cause
 * is then the lowest of them: a rank number, not an order. */
static const struct launcher_failure *root_cause_tie(const struct run_analysis *a, long rank)
{
    const struct launcher_failure *root = NULL;
    for (size_t i = 0; i < a->nfailures && root == NULL; i++)
        if (a->failures[i].rank == rank && a->failures[i].root)
            root = &a->failures[i];
    if (root == NULL || root->time[0] == '\0')
        return NULL;
    for (size_t i = 0; i < a->nfailures; i++) {
        const struct launcher_failure *f = &a->failures[i];
        if (f != root && f->src == root->src && f->rank != rank && strcmp(f->time, root->time) == 0)
            return f;
    }
    return NULL;
}

/* torchrun's root cause, of the agent whose console printed the headline when it names one: each
 * node's agent names the first of its own workers it saw exit, and another node's says nothing
 * of the ranks of this one. When it shares its second with another failure it names no rank (the
 * rule still decides: no later rule may guess one). */
static bool rule_launcher_hint(struct run_analysis *a)
{
    int src = headline_src(a);
    long rank = a->launcher_root_rank;
    bool own_node = false;
    for (size_t i = 0; i < a->nfailures && src >= 0; i++)
        if (a->failures[i].root && a->failures[i].src == src && a->failures[i].rank >= 0) {
            own_node = rank != a->failures[i].rank;
            rank = a->failures[i].rank;
            break;
        }
    if (rank < 0)
        return false;
    const struct launcher_failure *tie = root_cause_tie(a, rank);
    if (tie) {
        long same[CONSOLE_RANKS_MAX];
        size_t n = 0;
        for (size_t i = 0; i < a->nfailures && n < CONSOLE_RANKS_MAX; i++)
            if (a->failures[i].src == tie->src && a->failures[i].rank >= 0 &&
                strcmp(a->failures[i].time, tie->time) == 0)
                same[n++] = a->failures[i].rank;
        n = unique_ranks(same, n);
        buf_printf(&a->why, "No initiating rank is given: torchrun's \"Root Cause\" names rank %ld "
                   "only as the lowest of the ranks its agent found dead at the same second (", rank);
        for (size_t i = 0; i < n; i++)
            buf_printf(&a->why, "%s%ld", i == 0 ? "" : i + 1 == n ? " and " : ", ", same[i]);
        buf_printf(&a->why, ", %s), and nothing else in the logs says which of them failed first.",
                   tie->time);
        decided(a, &a->rank_rule, "launcher_hint", "torchrun names rank %ld as the first failure, "
                "but lists rank %ld at the same second (%s): it names the lowest rank of those its "
                "agent found at once, which says nothing of which failed first", rank, tie->rank,
                tie->time);
        return true;
    }
    a->rank = rank;
    buf_printf(&a->why, "rank %ld is the first failure torchrun observed: the first process its "
               "agent saw exit, a hint only", a->rank);
    decided(a, &a->rank_rule, "launcher_hint",
            "nothing on the ranks decides; torchrun names rank %ld as the first process that "
            "failed%s", a->rank, own_node ? " on the node whose console printed the headline" : "");
    return true;
}

void correlator_analysis_init(struct run_analysis *a, const struct fl_kb *kb)
{
    memset(a, 0, sizeof *a);
    a->kb = kb;
    a->stack_odd_rank = a->stalled_rank = a->launcher_root_rank = a->rank = -1;
    buf_init(&a->why, 4096);
    buf_init(&a->rules, 8192);
}

void correlator_analysis_free(struct run_analysis *a)
{
    buf_free(&a->why);
    buf_free(&a->rules);
}

void correlator_decide(struct run_analysis *a)
{
    buf_reset(&a->why);
    buf_reset(&a->rules);
    a->headline_rule = a->rank_rule = NULL;
    a->kind = HEADLINE_NONE;
    a->consequence = false;
    a->rank = -1;
    a->exc_entry = a->headline_entry = NULL;
    rule_specific_over_generic(a);
    rule_time_order(a);
    if (!rule_primary_beats_collateral(a)) {
        if (rule_uncaught_exception(a))
            rule_exception_class(a);
        else if (!rule_collateral_only(a))
            return;
        else if (rule_silent_rank(a) || rule_exit_code_of_its_own(a) || rule_odd_collective(a) ||
                 rule_late_arriver(a) || rule_printed_while_others_waited(a) ||
                 rule_stopped_from_outside(a))
            return;
    }
    if (rule_signal_death(a))
        return;
    bool collateral = a->consequence ||
                      (a->kind == HEADLINE_CANDIDATE && cand_entry(a, &a->cands[a->top])->collateral);
    bool hang = collateral || (a->kind == HEADLINE_CANDIDATE &&
                               strcmp(cand_entry(a, &a->cands[a->top])->category, "network") == 0);
    /* a hang: everyone times out in a collective; the suspect is who did not get there */
    if (hang && (rule_seqnum_lag(a) || rule_stack_odd_one_out(a) || rule_progress_stalled(a) ||
                 (collateral && rule_elimination(a))))
        return;
    /* a launcher's summary names ranks from outside: its own root-cause rank first */
    bool launcher = a->kind == HEADLINE_CANDIDATE && collateral && is_launcher(a, &a->cands[a->top]);
    if (launcher && rule_launcher_hint(a))
        return;
    if (rule_fingerprint_odd_one_out(a) || rule_first_nonfinite_loss(a) || rule_rank_where_written(a))
        return;
    /* a failure of a host (a kernel log's Xid) is located by its host: the ranks' own stories
     * and the launcher's say nothing about which of that host's ranks it hit */
    if (a->kind == HEADLINE_CANDIDATE && a->cands[a->top].host[0])
        return;
    if (rule_elimination(a) || rule_error_record(a) || rule_printed_after(a) ||
        rule_fewest_own_lines(a) || rule_launcher_hint(a))
        return;
}

/* ================================================================ counting during the scan */

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
        c->st[i].named_rank = -1;
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
    /* the rank a line is about: a rank it names, else the one that printed it, unless that one
     * only reported on the others */
    long rank = sig->observer && !lv->meta.rank_named ? -1 : lv->meta.rank;
    st->counts[signal]++;
    uint64_t seq = c->seq++;
    if (!sig->positive)
        return FL_OK;
    /* allocated on the first line: most entries never match a run */
    if (st->events == NULL && (st->events = calloc(EVIDENCE_KEEP, sizeof *st->events)) == NULL)
        return FL_ERR_NOMEM;
    /* a line that two signals of the entry match ("[Errno 28] No space left on device") is one
     * line: kept once, counted once */
    struct event *prev = st->nevents ? &st->events[st->nevents - 1] : NULL;
    bool again = prev && prev->line_no == lv->line_no && prev->src == lv->src;
    if (again)
        prev->line_signals |= UINT64_C(1) << signal;
    if (st->nevents < EVIDENCE_KEEP && !again) {
        struct event *ev = &st->events[st->nevents];
        *ev = (struct event){.signal = signal, .line_signals = UINT64_C(1) << signal,
                             .src = lv->src, .line_no = lv->line_no,
                             .rank = lv->meta.rank, .ts_ms = lv->meta.ts_ms,
                             .ts_no_year = lv->meta.ts_no_year,
                             .ts_no_zone = lv->meta.ts_no_zone, .seq = seq};
        memcpy(ev->host, lv->meta.host, HOST_MAX);
        ev->text = xstrndup(lv->msg, lv->msg_len < TEXT_MAX ? lv->msg_len : TEXT_MAX);
        if (ev->text == NULL)
            return FL_ERR_NOMEM;
        st->nevents++;
    }
    if (sig->supporting) {
        /* supporting lines never date the failure, but may name its rank */
        if (st->support_rank < 0 && rank >= 0)
            st->support_rank = rank;
        if (st->named_rank < 0 && lv->meta.rank_named)
            st->named_rank = lv->meta.rank;
        return FL_OK;
    }
    if (st->counted && st->last_line == lv->line_no && st->last_src == lv->src)
        return FL_OK;
    st->counted = true;
    st->last_src = lv->src;
    st->last_line = lv->line_no;
    /* the line's kept event, if a signal before this one kept it, is where it was seen first */
    return note_rank(st, rank, lv->meta.ts_ms, again ? prev->seq : seq, 1);
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
        if (d->named_rank < 0)
            d->named_rank = s->named_rank;
    }
    dst->seq += src->seq;
    return FL_OK;
}


/* ================================================================ from the scan to the analysis */

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
    /* a report about other ranks (Horovod's stall inspector lists the missing ranks on the lines
     * after its warning) is printed by a rank that only observed: the rank it names is the one */
    if (st->named_rank >= 0)
        cd->rank = st->named_rank;
    else if (cd->rank < 0)
        cd->rank = st->support_rank;
    cd->host[0] = '\0';
    for (size_t i = 0; i < st->nevents; i++)
        if (st->events[i].rank == cd->rank && st->events[i].host[0]) {
            memcpy(cd->host, st->events[i].host, HOST_MAX);
            break;
        }
    for (size_t i = 0; i < st->nevents; i++)
        if (st->events[i].seq == cd->first_seq) {
            cd->ts_no_year = st->events[i].ts_no_year;
            cd->ts_no_zone = st->events[i].ts_no_zone;
        }
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

/* Groups the ranks' stacks into the report and into a (the one rank outside the majority, when
 * there is exactly one; whether the majority waits for peers). KB conditions read the same
 * findings as the facts stack_groups, stack_odd_rank and stack_majority_waits. */
static enum fl_status analyse_stacks(struct extractor *x, struct fl_report *r, struct run_analysis *a)
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
    if (ncl >= 2 && r->stacks[0].nranks >= 2) {
        a->stack_majority_waits = waits;
        if (st == FL_OK)
            st = facts_add(&x->facts, "stack_majority_waits", 20, waits ? "true" : "false",
                           waits ? 4 : 5, false);
    }
    size_t odd = 0;
    for (size_t i = 1; i < r->nstacks; i++)
        odd += r->stacks[i].nranks;
    if (ncl >= 2 && odd == 1 && r->stacks[0].nranks >= 2 && r->stacks[1].ranks[0] >= 0) {
        a->stack_odd_rank = r->stacks[1].ranks[0];
        snprintf(num, sizeof num, "%ld", a->stack_odd_rank);
        if (st == FL_OK)
            st = facts_add(&x->facts, "stack_odd_rank", 14, num, strlen(num), false);
    }
    stacks_clusters_free(cl, ncl);
    return st;
}

#define STALL_GAP_MS (60 * 1000)

/* A rank whose training steps stopped well before every other rank's: in a hang the others go on
 * to the next collective and wait there, so their last step comes later. Found when one rank's
 * last step is at least a minute older than all others'; stated as the facts
 * progress_stalled_rank and progress_stalled_seconds too. */
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

static enum fl_status analyse_progress(struct extractor *x, struct run_analysis *a)
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
    a->stalled_rank = first;
    a->stalled_seconds = (long)((second_ts - first_ts) / 1000);
    char num[32];
    snprintf(num, sizeof num, "%ld", first);
    enum fl_status st = facts_add(&x->facts, "progress_stalled_rank", 21, num, strlen(num), false);
    snprintf(num, sizeof num, "%ld", a->stalled_seconds);
    return st == FL_OK ? facts_add(&x->facts, "progress_stalled_seconds", 24, num, strlen(num), false)
                       : st;
}

/* Every rank the logs name: on matched lines or in what they say (a launcher's summary names the
 * failed ranks), in exceptions, in step lines (a per-rank file of a rank that only trained, and
 * was stopped, names it), in stack dumps. */
static enum fl_status gather_ranks(const struct correlator *c, const struct extractor *x,
                                   const struct fl_report *r, long **out, size_t *n)
{
    size_t cap = r->nranks + x->nexceptions + x->nprogress + x->nown + x->stacks.n + 1;
    for (size_t i = 0; i < c->kb->nentries; i++)
        cap += c->st[i].nranks;
    long *v = malloc(cap * sizeof *v);
    if (v == NULL)
        return FL_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < r->nranks; i++)
        v[k++] = r->ranks[i];
    for (size_t i = 0; i < x->nexceptions; i++)
        v[k++] = x->exceptions[i].rank;
    for (size_t i = 0; i < x->nprogress; i++)
        v[k++] = x->progress[i].rank;
    for (size_t i = 0; i < x->nown; i++)
        v[k++] = x->own[i].rank;
    for (size_t i = 0; i < x->stacks.n; i++)
        v[k++] = x->stacks.items[i].rank;
    for (size_t i = 0; i < c->kb->nentries; i++)
        for (size_t j = 0; j < c->st[i].nranks; j++)
            v[k++] = c->st[i].ranks[j].rank;
    *out = v;
    *n = unique_ranks(v, k);
    return FL_OK;
}

/* The entries whose condition holds over the run. */
static enum fl_status gather_candidates(struct correlator *c, struct extractor *x,
                                        struct run_analysis *a)
{
    const struct fl_kb *kb = c->kb;
    a->cands = calloc(kb->nentries ? kb->nentries : 1, sizeof *a->cands);
    if (a->cands == NULL)
        return FL_ERR_NOMEM;
    for (size_t i = 0; i < kb->nentries; i++) {
        const struct entry *e = &kb->entries[i];
        struct entry_state *st = &c->st[i];
        for (size_t j = 0; j < e->nsignals; j++)
            if (e->signals[j].kind == SIGNAL_CONFIG) {
                const struct config_test t = signal_config(e, &e->signals[j]);
                char name[FACT_KEY_MAX + 1], nbuf[16], obuf[16];
                const char *other = config_value_fact(&t, name, sizeof name);
                st->counts[j] = config_eval_against(
                    &t, facts_lookup(&x->facts, t.fact, nbuf, sizeof nbuf),
                    other ? facts_lookup(&x->facts, other, obuf, sizeof obuf) : t.value);
            }
        if (!condition_eval(e, st->counts) || st->nranks == 0)
            continue;
        struct candidate *cd = &a->cands[a->ncand++];
        cd->entry = i;
        cd->st = st;
        for (size_t j = 0; j < e->nsignals; j++)
            cd->matched += e->signals[j].positive && !e->signals[j].supporting && st->counts[j] > 0;
        first_event(st, cd);
    }
    return FL_OK;
}

/* ================================================================ from the analysis to the report */

static void evidence_from_events(const struct entry_state *st, const struct candidate *cd,
                                 const struct source_info *sources, unsigned max,
                                 struct diagnosis *d)
{
    d->evidence = calloc(max ? max : 1, sizeof *d->evidence);
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

/* The line a person needs first is often an exception no signal matched: torch.save's
 * "RuntimeError: [enforce fail at inline_container.cc:778] . PytorchStreamWriter failed writing
 * file data/117: file write failed" above the "OSError: [Errno 28] No space left on device"
 * that names the cause. The first exception of the initiating line's source and rank in the
 * KEY_LINE_WINDOW lines before it goes first in the evidence (and counts in its total). */
#define KEY_LINE_WINDOW 20

/* "RuntimeError: message", "torch.OutOfMemoryError: ...": a class that names an error, with a
 * message (not a line inside a traceback that only looks like one, such as base64) */
static bool named_error(const struct exception_event *e)
{
    size_t n = e->type ? strlen(e->type) : 0;
    return e->message && e->message[0] &&
           ((n > 5 && strcmp(e->type + n - 5, "Error") == 0) ||
            (n > 9 && strcmp(e->type + n - 9, "Exception") == 0));
}

static void evidence_key_line(const struct extractor *x, const struct candidate *cd,
                              const struct source_info *sources, unsigned max, struct diagnosis *d)
{
    const struct entry_state *st = cd->st;
    const struct event *init = NULL;
    for (size_t i = 0; i < st->nevents && init == NULL; i++)
        if (st->events[i].seq == cd->first_seq)
            init = &st->events[i];
    if (init == NULL || d->evidence == NULL || max == 0)
        return;
    const struct exception_event *key = NULL;
    for (size_t i = 0; i < x->nexceptions; i++) {
        const struct exception_event *e = &x->exceptions[i];
        if (e->src == init->src && e->rank == init->rank && named_error(e) &&
            e->line_no < init->line_no && e->line_no + KEY_LINE_WINDOW >= init->line_no &&
            (key == NULL || e->line_no < key->line_no))
            key = e;
    }
    if (key == NULL)
        return;
    for (size_t k = 0; k < d->nevidence; k++)
        if (d->evidence[k].line == key->line_no && strcmp(d->evidence[k].source, sources[key->src].name) == 0)
            return;
    char text[TEXT_MAX];
    snprintf(text, sizeof text, "%s%s%s", key->type, key->message && key->message[0] ? ": " : "",
             key->message ? key->message : "");
    struct evidence e = {xstrdup(sources[key->src].name), key->line_no, key->rank, xstrdup(text)};
    if (e.source == NULL || e.text == NULL) {
        free(e.source);
        free(e.text);
        return;
    }
    if (d->nevidence == max) {
        d->nevidence--;
        free(d->evidence[d->nevidence].source);
        free(d->evidence[d->nevidence].text);
    }
    memmove(&d->evidence[1], &d->evidence[0], d->nevidence * sizeof e);
    d->evidence[0] = e;
    d->nevidence++;
    d->evidence_total++;
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

static void explain_candidate(struct buf *b, const struct run_analysis *a, const struct candidate *cd,
                              const char *verdict)
{
    const struct entry *e = cand_entry(a, cd);
    buf_printf(b, "%s (%s, %s): %zu distinct signal(s) matched:", e->id,
               e->collateral ? "collateral" : "primary", verdict, cd->matched);
    for (size_t i = 0; i < e->nsignals; i++)
        if (cd->st->counts[i])
            buf_printf(b, " %s×%lu", entry_str(e, e->signals[i].name), cd->st->counts[i]);
    buf_putc(b, '\n');
}

/* "KeyError: 'x' (at train.py:12 in __getitem__)", then what the program raised next. */
static char *exception_text(const struct extractor *x, const struct exception_event *e)
{
    struct buf t;
    buf_init(&t, 2 * TEXT_MAX + 64);
    buf_printf(&t, "%s%s%s", e->type, e->message[0] ? ": " : "", e->message);
    const char *where = e->user_frame ? e->user_frame : e->frame;
    if (where)
        buf_printf(&t, " (at %s)", where);
    /* a chain: what the program raised next, while handling this one or because of it */
    for (const struct exception_event *p = e, *n; (n = extract_exception(x, p->next_seq)) != NULL && t.len < TEXT_MAX; p = n)
        buf_printf(&t, " -> %s %s%s%s", p->next_is_cause ? "which caused" : "then, while handling it,",
                   n->type, n->message[0] ? ": " : "", n->message);
    return buf_steal(&t);
}

/* The headline for an exception: the entry its type and frames point to, or "unclassified". */
static void exception_diagnosis(const struct run_analysis *a, const struct extractor *x,
                                const struct source_info *sources, struct diagnosis *d)
{
    const struct exception_event *e = &a->exc[a->top];
    if (a->exc_entry) {
        fill_prose(d, a->exc_entry);
    } else {
        d->id = "unclassified";
        d->title = "Failure not in the knowledge base";
        d->category = "unknown";
        d->severity = "high";
        struct buf rc;
        buf_init(&rc, 4096);
        if (a->consequence) {
            buf_printf(&rc, "Every uncaught error in these logs is a consequence of another failure "
                       "(a peer that exited or stopped answering, a timeout waiting for it); the "
                       "first is %s%s%s. The rank that caused it is the one the others waited for.",
                       e->type, e->message[0] ? ": " : "", e->message);
        } else {
            buf_printf(&rc, "No knowledge-base entry explains this failure. The first uncaught "
                       "error is %s%s%s", e->type, e->message[0] ? ": " : "", e->message);
            if (e->user_frame || e->frame)
                buf_printf(&rc, ", raised at %s", e->user_frame ? e->user_frame : e->frame);
            if (e->rank >= 0)
                buf_printf(&rc, " on rank %ld", e->rank);
            buf_putc(&rc, '.');
        }
        d->root_cause = buf_steal(&rc);
        d->fix = xstrdup(a->consequence
                             ? "Read the log of the initiating rank (or of every rank that did not "
                               "report the error) for what it was doing: its last lines, an "
                               "exception, a signal."
                             : "Read the traceback from its innermost frame; search the message "
                               "with `faultline kb search WORDS`.");
    }
    memcpy(d->host, e->host, HOST_MAX);
    d->first_ts = e->ts_ms;
    d->ts_no_year = e->ts_no_year;
    d->ts_no_zone = e->ts_no_zone;
    d->evidence = calloc(1, sizeof *d->evidence);
    if (d->evidence) {
        d->evidence[0] = (struct evidence){xstrdup(sources[e->src].name), e->line_no, e->rank,
                                           exception_text(x, e)};
        d->nevidence = 1;
        d->evidence_total = 1;
    }
}

static struct diagnosis *headline_diagnosis(struct run_analysis *a, const struct extractor *x,
                                            const struct source_info *sources, unsigned max_evidence,
                                            struct fl_report *r, struct buf *explain)
{
    size_t ndiag = a->kind == HEADLINE_EXCEPTION ? 1 : a->nprimary ? a->nprimary : a->nkept;
    r->diagnoses = calloc(ndiag, sizeof *r->diagnoses);
    if (r->diagnoses == NULL)
        return NULL;
    if (a->kind == HEADLINE_EXCEPTION)
        exception_diagnosis(a, x, sources, &r->diagnoses[r->ndiagnoses++]);
    /* the headline first, then the other diagnoses in the rules' order */
    for (size_t n = 0; n <= a->ncand; n++) {
        size_t i = a->kind != HEADLINE_CANDIDATE ? n : n == 0 ? a->top : n - 1 + (n - 1 >= a->top);
        if (i >= a->ncand || (a->kind == HEADLINE_CANDIDATE && n > 0 && i == a->top))
            continue;
        const struct candidate *cd = &a->cands[i];
        const struct entry *e = cand_entry(a, cd);
        bool is_diag = a->kind == HEADLINE_CANDIDATE && !cd->dropped &&
                       (a->nprimary == 0 || !e->collateral);
        explain_candidate(explain, a, cd,
                          cd->dropped ? "dropped: its lines are evidence of a more specific entry"
                          : is_diag   ? (r->ndiagnoses == 0 ? "chosen first" : "reported after the first")
                                      : "folded under the first diagnosis as a consequence");
        if (!is_diag)
            continue;
        struct diagnosis *d = &r->diagnoses[r->ndiagnoses++];
        /* what the ranks' behaviour says this candidate is a consequence of */
        fill_prose(d, n == 0 && a->headline_entry ? a->headline_entry : e);
        d->rank = cd->rank;
        memcpy(d->host, cd->host, HOST_MAX);
        d->first_ts = cd->first_ts;
        d->ts_no_year = cd->ts_no_year;
        d->ts_no_zone = cd->ts_no_zone;
        evidence_from_events(cd->st, cd, sources, max_evidence, d);
        evidence_key_line(x, cd, sources, max_evidence, d);
    }
    struct diagnosis *top = &r->diagnoses[0];
    bool folds = a->kind == HEADLINE_EXCEPTION || a->nprimary > 0;
    if (folds && a->nkept > a->nprimary) {
        top->collateral = calloc(a->nkept - a->nprimary, sizeof *top->collateral);
        for (size_t i = 0; i < a->ncand && top->collateral; i++)
            if (!a->cands[i].dropped && cand_entry(a, &a->cands[i])->collateral)
                add_collateral(top, cand_entry(a, &a->cands[i]), a->cands[i].st);
    }
    return top;
}

static void score_diagnoses(const struct run_analysis *a, struct fl_report *r)
{
    for (size_t i = 0; i < r->ndiagnoses; i++) {
        struct diagnosis *d = &r->diagnoses[i];
        if (i == 0 && a->kind == HEADLINE_EXCEPTION) {
            struct score_input in = {.entry = d->entry, .matched_signals = 1,
                                     .rank_known = d->rank >= 0,
                                     .time_known = d->first_ts != TS_UNKNOWN, .is_top = true,
                                     .has_collateral = d->ncollateral > 0, .inferred = true};
            d->confidence = d->entry ? score_confidence(&in) : 0.3;
            continue;
        }
        const struct candidate *cd = NULL;
        for (size_t j = 0; j < a->ncand && !cd; j++)
            if (!a->cands[j].dropped && cand_entry(a, &a->cands[j]) == d->entry)
                cd = &a->cands[j];
        if (cd == NULL) { /* the headline_entry: inferred from the ranks, not matched */
            struct score_input in = {.entry = d->entry, .matched_signals = 1,
                                     .rank_known = d->rank >= 0,
                                     .time_known = d->first_ts != TS_UNKNOWN, .is_top = i == 0,
                                     .has_collateral = d->ncollateral > 0, .inferred = true};
            d->confidence = score_confidence(&in);
            continue;
        }
        struct score_input in = {.entry = d->entry, .counts = cd->st->counts,
                                 .matched_signals = cd->matched, .nranks = cd->st->nranks,
                                 .rank_known = d->rank >= 0,
                                 .time_known = d->first_ts != TS_UNKNOWN, .is_top = i == 0,
                                 .has_collateral = d->ncollateral > 0};
        d->confidence = score_confidence(&in);
    }
}

static bool reported(const struct fl_report *r, const char *id)
{
    for (size_t i = 0; i < r->ndiagnoses; i++)
        if (strcmp(r->diagnoses[i].id, id) == 0)
            return true;
    for (size_t k = 0; k < r->diagnoses[0].ncollateral; k++)
        if (strcmp(r->diagnoses[0].collateral[k].id, id) == 0)
            return true;
    return false;
}

/* Whether every signal of the candidate that matched read its first matched line: one message
 * that several signals read (the modern OOM line holds two), however often it repeats, and no
 * line of another kind. A config signal is a fact of its own. */
static bool one_message(const struct run_analysis *a, const struct candidate *cd)
{
    const struct entry *e = cand_entry(a, cd);
    uint64_t first_line = cd->st->nevents ? cd->st->events[0].line_signals : 0;
    for (size_t s = 0; s < e->nsignals; s++)
        if (e->signals[s].positive && cd->st->counts[s] &&
            (e->signals[s].kind == SIGNAL_CONFIG || !(first_line >> s & 1)))
            return false;
    return true;
}

/* The headline entry's differential, after every diagnosis that matched: the failures its lines
 * also are when their own lines are missing, as in an excerpt pasted into an issue or a version
 * that words them differently ("Input/output error" on a save is also a full disk). Only for a
 * headline that rests on one line's kind (one message, however many signals read it, or a kind
 * inferred from an exception or from the ranks): an independent line ("nfs: server not
 * responding" before the EIO) says which it is. Each is at the headline's place, at half its
 * confidence, with no evidence of its own; its Verify is how to tell. */
static enum fl_status add_differentials(const struct run_analysis *a, struct fl_report *r,
                                        struct buf *explain)
{
    const struct entry *e = r->diagnoses[0].entry;
    bool one_kind = a->kind != HEADLINE_CANDIDATE || a->headline_entry != NULL ||
                    one_message(a, &a->cands[a->top]);
    if (e == NULL || e->ndifferential == 0 || !one_kind)
        return FL_OK;
    const struct fl_kb *kb = a->kb;
    struct diagnosis *v = realloc(r->diagnoses, (r->ndiagnoses + e->ndifferential) * sizeof *v);
    if (v == NULL)
        return FL_ERR_NOMEM;
    r->diagnoses = v;
    for (size_t i = 0; i < e->ndifferential && i < KB_DIFFERENTIAL_MAX; i++) {
        long k = fl_kb_find(kb, entry_str(e, e->differential[i]));
        if (k < 0 || reported(r, kb->entries[k].id))
            continue;
        const struct diagnosis *top = &r->diagnoses[0];
        struct diagnosis *d = &r->diagnoses[r->ndiagnoses++];
        *d = (struct diagnosis){.rank = top->rank, .first_ts = top->first_ts,
                                .ts_no_year = top->ts_no_year, .ts_no_zone = top->ts_no_zone,
                                .differential_of = top->id};
        memcpy(d->host, top->host, HOST_MAX);
        fill_prose(d, &kb->entries[k]);
        d->confidence = score_differential(top->confidence);
        buf_printf(explain, "%s (differential of %s, not matched): listed because %s rests on "
                   "one line's kind\n", d->id, top->id, top->id);
    }
    return FL_OK;
}

/* ---------------------------------------------------------------- local ranks */

static int cmp_rank_seen(const void *pa, const void *pb)
{
    const struct rank_seen *a = pa, *b = pb;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The entry's rank table after its ranks were translated: sorted again, and two local ranks that
 * are one global rank (a node's console and its per-rank file) counted as one. */
static void fold_rank_table(struct entry_state *st)
{
    if (st->nranks < 2)
        return; /* nothing to fold; an empty table's pointer may be NULL, which qsort must not get */
    qsort(st->ranks, st->nranks, sizeof *st->ranks, cmp_rank_seen);
    size_t u = 0;
    for (size_t i = 0; i < st->nranks; i++) {
        if (u && st->ranks[u - 1].rank == st->ranks[i].rank) {
            struct rank_seen *r = &st->ranks[u - 1];
            r->count += st->ranks[i].count;
            if (earlier(st->ranks[i].first_ts, st->ranks[i].first_seq, r->first_ts, r->first_seq)) {
                r->first_ts = st->ranks[i].first_ts;
                r->first_seq = st->ranks[i].first_seq;
            }
            continue;
        }
        st->ranks[u++] = st->ranks[i];
    }
    st->nranks = u;
}

/* Every rank stored as a node's local rank (rankmap.h) becomes the global rank it is, now that
 * the agents' summaries have been read: once, here, for everything the scan kept. */
static enum fl_status remap_local_ranks(struct correlator *c, struct extractor *x,
                                        struct fl_report *r, const struct source_info *sources,
                                        size_t nsources)
{
    const char **names = malloc((nsources ? nsources : 1) * sizeof *names);
    if (names == NULL)
        return FL_ERR_NOMEM;
    for (size_t i = 0; i < nsources; i++)
        names[i] = sources[i].name;
    struct rank_map m;
    enum fl_status st = rankmap_build(&m, names, nsources, x->failures, x->nfailures);
    free(names);
    if (st != FL_OK) {
        rankmap_free(&m);
        return st;
    }
#define REMAP(v) ((v) = rankmap_global(&m, (v)))
    for (size_t i = 0; i < c->kb->nentries; i++) {
        struct entry_state *e = &c->st[i];
        for (size_t j = 0; j < e->nevents; j++)
            REMAP(e->events[j].rank);
        for (size_t j = 0; j < e->nranks; j++)
            REMAP(e->ranks[j].rank);
        fold_rank_table(e);
        REMAP(e->support_rank);
        REMAP(e->named_rank);
    }
    for (size_t i = 0; i < x->nexceptions; i++)
        REMAP(x->exceptions[i].rank);
    for (size_t i = 0; i < x->nprogress; i++)
        REMAP(x->progress[i].rank);
    for (size_t i = 0; i < x->nown; i++)
        REMAP(x->own[i].rank);
    for (size_t i = 0; i < x->nnonfinite; i++)
        REMAP(x->nonfinite[i].rank);
    for (size_t i = 0; i < x->nseqnums; i++)
        REMAP(x->seqnums[i].rank);
    for (size_t i = 0; i < x->nhosts; i++)
        REMAP(x->hosts[i].rank);
    for (size_t i = 0; i < x->stacks.n; i++)
        REMAP(x->stacks.items[i].rank);
    REMAP(x->launcher_exit_rank);
    for (size_t i = 0; i < r->nranks; i++)
        REMAP(r->ranks[i]);
#undef REMAP
    r->nranks = unique_ranks(r->ranks, r->nranks);
    rankmap_free(&m);
    return FL_OK;
}

enum fl_status correlator_finish(struct correlator *c, struct extractor *x,
                                 const struct source_info *sources, size_t nsources,
                                 unsigned max_evidence, struct fl_report *r)
{
    enum fl_status st = remap_local_ranks(c, x, r, sources, nsources);
    if (st != FL_OK)
        return st;
    struct run_analysis a;
    correlator_analysis_init(&a, c->kb);
    a.exc = x->exceptions;
    a.nexc = x->nexceptions;
    a.progress = x->progress;
    a.nprogress = x->nprogress;
    a.own = x->own;
    a.nown = x->nown;
    a.seqnums = x->seqnums;
    a.nseqnums = x->nseqnums;
    a.nonfinite = x->nonfinite;
    a.nnonfinite = x->nnonfinite;
    long *ranks = NULL;
    /* the summary names a global rank; the agent's "failed (exitcode ...)" line a local one,
     * the same on one node */
    a.launcher_root_rank = x->launcher_root_rank >= 0 ? x->launcher_root_rank : x->launcher_exit_rank;
    a.failures = x->failures;
    a.nfailures = x->nfailures;
    a.stops = x->stops;
    a.nstops = x->nstops;
    a.unranked_tracebacks = x->unranked_tracebacks;
    st = analyse_stacks(x, r, &a);
    if (st == FL_OK)
        st = analyse_progress(x, &a);
    if (st == FL_OK && x->progress_lines) {
        char num[32];
        snprintf(num, sizeof num, "%lu", x->progress_lines);
        st = facts_add(&x->facts, "progress_lines", 14, num, strlen(num), false);
    }
    if (st == FL_OK && x->nline_hosts) {
        char num[32];
        snprintf(num, sizeof num, "%zu", x->nline_hosts);
        st = facts_add(&x->facts, "hosts_seen", 10, num, strlen(num), false);
    }
    if (st == FL_OK)
        st = gather_ranks(c, x, r, &ranks, &a.nranks);
    a.ranks = ranks;
    if (st == FL_OK)
        st = gather_candidates(c, x, &a);
    if (st != FL_OK)
        goto out;
    correlator_decide(&a);
    if (a.kind == HEADLINE_NONE)
        goto out; /* a healthy log */
    struct buf explain;
    buf_init(&explain, 65536);
    struct diagnosis *top = headline_diagnosis(&a, x, sources, max_evidence, r, &explain);
    if (top == NULL) {
        buf_free(&explain);
        st = FL_ERR_NOMEM;
        goto out;
    }
    if (a.rank != top->rank) {
        top->rank = a.rank;
        top->host[0] = '\0';
    }
    struct buf why;
    buf_init(&why, 1024);
    if ((a.kind == HEADLINE_EXCEPTION && !a.consequence) || a.nprimary > 0)
        buf_printf(&why, "The first %s %s; %zu collateral failure(s) are listed as its "
                   "consequences.",
                   a.kind == HEADLINE_EXCEPTION ? "uncaught exception" : "primary failure",
                   a.rank >= 0 ? "decides the initiating rank" : "leads", top->ncollateral);
    if (a.why.len)
        buf_printf(&why, "%s%s", why.len ? " " : "", a.why.data);
    else if (strcmp(a.headline_rule, "collateral_only") == 0)
        buf_printf(&why, "Only collateral failures were found: the cause is not in these logs; "
                   "the rank shown reported first.");
    if (top->first_ts == TS_UNKNOWN && a.nprimary > 1)
        buf_printf(&why, " The logs carry no timestamps: order within files and the specificity "
                   "of the matches decided.");
    for (size_t i = 0; i < r->ndiagnoses; i++) {
        struct diagnosis *d = &r->diagnoses[i];
        const char *h = d->rank >= 0 && !d->host[0] ? extract_host_of(x, d->rank) : NULL;
        if (h)
            snprintf(d->host, HOST_MAX, "%s", h);
    }
    r->note = buf_steal(&why);
    score_diagnoses(&a, r);
    st = add_differentials(&a, r, &explain);
    top = &r->diagnoses[0];
    if (a.rules.len)
        buf_printf(&explain, "%s", a.rules.data);
    top->explain = buf_steal(&explain);
out:
    free(ranks);
    free(a.cands);
    correlator_analysis_free(&a);
    return st;
}
