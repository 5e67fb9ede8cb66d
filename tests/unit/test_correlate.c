/* test_correlate.c — the correlator's rules over runs built by hand (struct run_analysis), and
 * the extraction they rely on (per-rank files, error.json, torchrun's summary) over small logs. */
#include <setjmp.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate.h"
#include "faultline.h"

static struct fl_kb *kb;

static int setup(void **state)
{
    (void)state;
    struct fl_error err;
    fl_kb_new(&kb);
    return fl_kb_add_embedded(kb, &err) == FL_OK && fl_kb_compile(kb, &err) == FL_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    fl_kb_free(kb);
    return 0;
}

/* ---------------------------------------------------------------- a run built by hand */

#define MAXC 8
#define MAXR 16

struct run {
    struct run_analysis a;
    struct candidate cands[MAXC];
    struct entry_state st[MAXC];
    struct rank_seen seen[MAXC][MAXR];
    struct exception_event exc[MAXC];
    long ranks[MAXR];
};

static size_t entry_index(const char *id)
{
    for (size_t i = 0; i < kb->nentries; i++)
        if (strcmp(kb->entries[i].id, id) == 0)
            return i;
    fail_msg("no entry %s", id);
    return 0;
}

static void run_init(struct run *r, size_t nranks)
{
    memset(r, 0, sizeof *r);
    correlator_analysis_init(&r->a, kb);
    r->a.cands = r->cands;
    r->a.exc = r->exc;
    for (size_t i = 0; i < nranks; i++)
        r->ranks[i] = (long)i;
    r->a.ranks = r->ranks;
    r->a.nranks = nranks;
}

/* The entry id seen on ranks[0..n) (first at ts + rank, in arrival order seq + rank). */
static void add_candidate(struct run *r, const char *id, const long *ranks, size_t n, int64_t ts,
                          uint64_t seq)
{
    size_t k = r->a.ncand++;
    struct entry_state *st = &r->st[k];
    st->ranks = r->seen[k];
    st->support_rank = -1;
    st->named_rank = -1;
    for (size_t i = 0; i < n; i++)
        st->ranks[st->nranks++] = (struct rank_seen){ranks[i], ts == TS_UNKNOWN ? TS_UNKNOWN : ts + ranks[i],
                                                     seq + (uint64_t)i, 1};
    struct candidate *cd = &r->cands[k];
    cd->entry = entry_index(id);
    cd->st = st;
    cd->matched = 1;
    cd->first_ts = ts == TS_UNKNOWN ? TS_UNKNOWN : ts + (n ? ranks[0] : 0);
    cd->first_seq = seq;
    cd->rank = n ? ranks[0] : -1;
}

static struct exception_event *add_exception(struct run *r, const char *type, const char *msg,
                                             long rank, uint64_t seq)
{
    struct exception_event *e = &r->exc[r->a.nexc++];
    *e = (struct exception_event){.type = (char *)type, .message = (char *)msg, .rank = rank,
                                  .ts_ms = TS_UNKNOWN, .seq = seq, .next_seq = UINT64_MAX,
                                  .entry = -1};
    return e;
}

static const char *headline_id(const struct run *r)
{
    if (r->a.kind == HEADLINE_CANDIDATE)
        return r->a.headline_entry ? r->a.headline_entry->id : kb->entries[r->a.cands[r->a.top].entry].id;
    if (r->a.kind == HEADLINE_EXCEPTION)
        return r->a.exc_entry ? r->a.exc_entry->id : "unclassified";
    return "none";
}

/* What torchrun said of the run: the failures its summary lists, and the sources whose agent
 * sent its workers a closing signal. */
static void set_launcher(struct run *r, const struct launcher_failure *failures, size_t nfailures,
                         const int *stops, size_t nstops)
{
    r->a.failures = failures;
    r->a.nfailures = nfailures;
    r->a.stops = stops;
    r->a.nstops = nstops;
}

#define ANY_RANK LONG_MIN

/* Decides r and checks the decision: the headline's entry and the rule that chose it, the
 * initiating rank and the rule that named it. NULL (or ANY_RANK) leaves that one unchecked. */
static void check_decision(struct run *r, const char *id, const char *headline_rule, long rank,
                           const char *rank_rule)
{
    correlator_decide(&r->a);
    if (id)
        assert_string_equal(headline_id(r), id);
    if (headline_rule)
        assert_string_equal(r->a.headline_rule, headline_rule);
    if (rank != ANY_RANK)
        assert_int_equal(r->a.rank, rank);
    if (rank_rule)
        assert_string_equal(r->a.rank_rule, rank_rule);
}

static void primary_beats_collateral(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    /* 3 ranks time out first, by the clock; rank 3 ran out of memory later */
    add_candidate(&r, "nccl-watchdog-timeout", (long[]){0, 1, 2}, 3, 1000, 0);
    add_candidate(&r, "cuda-oom", (long[]){3}, 1, 5000, 10);
    check_decision(&r, "cuda-oom", "primary_beats_collateral", 3, "rank_where_written");
    correlator_analysis_free(&r.a);
}

static void earliest_primary_first(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    add_candidate(&r, "cuda-oom", (long[]){3}, 1, 9000, 0);
    add_candidate(&r, "disk-full", (long[]){1}, 1, 2000, 5);
    check_decision(&r, "disk-full", NULL, 1, NULL);
    correlator_analysis_free(&r.a);
}

static void exception_beats_collateral(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    add_candidate(&r, "child-failed", (long[]){0, 1, 2, 3}, 4, TS_UNKNOWN, 100);
    add_candidate(&r, "nccl-remote-error", (long[]){0, 1, 3}, 3, TS_UNKNOWN, 0);
    /* the survivors' closed connections come first in the file, the cause after them */
    add_exception(&r, "RuntimeError", "[../gloo/transport/tcp/pair.cc:598] Connection closed by peer [10.0.0.2]:29500", 0, 1);
    add_exception(&r, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError", "", -1, 2);
    struct exception_event *e = add_exception(&r, "ZeroDivisionError", "division by zero", 2, 3);
    e->user_frame = "train.py:40 in step";
    correlator_decide(&r.a);
    assert_int_equal(r.a.kind, HEADLINE_EXCEPTION);
    assert_ptr_equal(&r.a.exc[r.a.top], e);
    assert_string_equal(headline_id(&r), "unclassified");
    assert_string_equal(r.a.headline_rule, "uncaught_exception");
    assert_int_equal(r.a.rank, 2);
    correlator_analysis_free(&r.a);
}

static void data_exception_is_data(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 2);
    add_candidate(&r, "child-failed", (long[]){1}, 1, TS_UNKNOWN, 50);
    struct exception_event *e = add_exception(&r, "KeyError", "Caught KeyError in DataLoader worker process 0.", 1, 1);
    e->flags = FRAME_DATA;
    check_decision(&r, "corrupt-data-sample", "exception_class", 1, NULL);
    /* the same type outside the data pipeline says nothing of the data */
    e->flags = 0;
    check_decision(&r, "unclassified", NULL, ANY_RANK, NULL);
    correlator_analysis_free(&r.a);
}

static void loss_check_is_numerics(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 2);
    struct exception_event *e = add_exception(&r, "AssertionError", "", 0, 1);
    e->code = "assert not torch.isnan(loss), f\"step {step}\"";
    check_decision(&r, "loss-nan", NULL, ANY_RANK, NULL);
    e->code = "assert batch.shape[0] == 8";
    check_decision(&r, "unclassified", NULL, ANY_RANK, NULL);
    correlator_analysis_free(&r.a);
}

static void consequences_never_lead(void **state)
{
    (void)state;
    static const char *const consequences[][2] = {
        {"RuntimeError", "[/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 30000ms for recv operation to complete"},
        {"torch.distributed.elastic.multiprocessing.api.SignalException", "Process 4242 got signal: 15"},
        {"torch.distributed.DistBackendError", "NCCL communicator was aborted on rank 1."},
    };
    for (size_t i = 0; i < sizeof consequences / sizeof *consequences; i++) {
        struct run r;
        run_init(&r, 3);
        add_exception(&r, consequences[i][0], consequences[i][1], 0, 1);
        add_exception(&r, "ValueError", "could not convert string to float: 'n/a'", 2, 2);
        correlator_decide(&r.a);
        assert_int_equal(r.a.kind, HEADLINE_EXCEPTION);
        assert_string_equal(r.a.exc[r.a.top].type, "ValueError");
        assert_int_equal(r.a.rank, 2);
        correlator_analysis_free(&r.a);
    }
}

static void elimination_names_the_silent_rank(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    add_candidate(&r, "nccl-watchdog-timeout", (long[]){0, 1, 3}, 3, 1000, 0);
    add_candidate(&r, "child-failed", (long[]){0, 1, 2, 3}, 4, 9000, 10);
    check_decision(&r, "nccl-watchdog-timeout", "collateral_only", 2, "elimination");
    correlator_analysis_free(&r.a);
}

static void consequence_exceptions_point_at_the_rest(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    /* no entry at all; ranks 0, 1, 3 timed out waiting for rank 2 */
    add_exception(&r, "RuntimeError", "Timed out waiting 10000ms for recv operation to complete", 0, 1);
    add_exception(&r, "RuntimeError", "Timed out waiting 10000ms for send operation to complete", 3, 2);
    add_exception(&r, "RuntimeError", "Timed out waiting 10000ms for recv operation to complete", 1, 3);
    correlator_decide(&r.a);
    assert_int_equal(r.a.kind, HEADLINE_EXCEPTION);
    assert_true(r.a.consequence);
    assert_int_equal(r.a.rank, 2);
    assert_string_equal(r.a.rank_rule, "elimination");
    correlator_analysis_free(&r.a);
}

static void launcher_hint_is_only_a_hint(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 0);
    add_candidate(&r, "child-failed", (long[]){-1}, 1, TS_UNKNOWN, 0);
    r.a.launcher_root_rank = 5;
    check_decision(&r, NULL, NULL, 5, "launcher_hint");
    /* an exception seen on a rank is stronger than the launcher's first observed failure */
    add_exception(&r, "IndexError", "list index out of range", 2, 1);
    check_decision(&r, NULL, NULL, 2, "rank_where_written");
    correlator_analysis_free(&r.a);

    /* two nodes' consoles, no rank prefixes: the exception is in node 1's console (source 1), so
     * node 1's agent's root cause is the hint, not node 0's, which was read first */
    run_init(&r, 0);
    struct exception_event *e = add_exception(&r, "AssertionError", "loss is nan", -1, 1);
    e->src = 1;
    struct launcher_failure roots[] = {{.rank = 0, .local_rank = 0, .exitcode = 1, .root = true},
                                       {.rank = 2, .local_rank = 0, .exitcode = 1, .src = 1,
                                        .root = true},
                                       {.rank = 3, .local_rank = 1, .exitcode = 1, .src = 1}};
    r.a.failures = roots;
    r.a.nfailures = 3;
    r.a.launcher_root_rank = 0;
    check_decision(&r, NULL, NULL, 2, "launcher_hint");
    correlator_analysis_free(&r.a);
}

/* torchrun lists failures its agent found in one poll with that poll's time: the root cause is
 * then the lowest rank of them, not the first to fail */
static void launcher_hint_tie_names_no_rank(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    add_exception(&r, "IndexError", "list index out of range", -1, 1)->flags = FRAME_DATA;
    struct launcher_failure f[] = {{.rank = 1, .local_rank = 1, .exitcode = 1, .time = "2026-12-01_18:55:20"},
                                   {.rank = 2, .local_rank = 2, .exitcode = 1, .time = "2026-12-01_18:55:20"},
                                   {.rank = 0, .local_rank = 0, .exitcode = 1, .root = true,
                                    .time = "2026-12-01_18:55:20"}};
    r.a.failures = f;
    r.a.nfailures = 3;
    r.a.launcher_root_rank = 0;
    check_decision(&r, "corrupt-data-sample", NULL, -1, "launcher_hint");
    /* the report's note says why no rank is given, in a sentence of its own */
    assert_non_null(strstr(r.a.why.data, "No initiating rank is given: torchrun's \"Root Cause\" "
                                         "names rank 0 only as the lowest of the ranks its agent "
                                         "found dead at the same second (0, 1 and 2, "
                                         "2026-12-01_18:55:20)"));
    /* one second earlier than every other failure listed: the hint names it */
    strcpy(f[2].time, "2026-12-01_18:55:19");
    check_decision(&r, NULL, NULL, 0, NULL);
    /* a failure listed by another node's agent at the same second is no tie */
    strcpy(f[2].time, "2026-12-01_18:55:20");
    f[0].src = f[1].src = 1;
    check_decision(&r, NULL, NULL, 0, NULL);
    correlator_analysis_free(&r.a);
}

/* one console, no rank prefixes: the ranks' own "[rank N]" lines, counted per source and rank */
static void own_lines_decide_where_they_are_evidence(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 0);
    struct exception_event *e = add_exception(&r, "KeyError", "'path'", -1, 1);
    e->flags = FRAME_DATA;
    e->line_no = 35;
    struct launcher_failure f[] = {{.rank = 3, .local_rank = 1, .exitcode = 1},
                                   {.rank = 2, .local_rank = 0, .exitcode = 1, .root = true}};
    r.a.failures = f;
    r.a.nfailures = 2;
    /* rank 2 printed a line after the traceback; the two ranks' lines alternate */
    struct own_lines own[] = {{.rank = 2, .line_no = 36, .lines = 4, .runs = 3},
                              {.rank = 3, .line_no = 11, .lines = 4, .runs = 3}};
    r.a.own = own;
    r.a.nown = 2;
    check_decision(&r, NULL, NULL, 3, "printed_after");
    /* lines that came out in blocks (a block-buffered stdout) are not ordered: only the hint */
    own[0].runs = own[1].runs = 1;
    check_decision(&r, NULL, NULL, 2, "launcher_hint");
    /* an agent that stopped a worker it does not list: a rank may be missing */
    own[0].runs = own[1].runs = 3;
    static const int stop[] = {0};
    r.a.stops = stop;
    r.a.nstops = 1;
    check_decision(&r, NULL, NULL, ANY_RANK, "launcher_hint");
    correlator_analysis_free(&r.a);

    /* four ranks all listed with exit code 1 (each flushed its output): rank 1 printed none of
     * the line every other rank printed once */
    run_init(&r, 0);
    add_candidate(&r, "host-oom", (long[]){-1}, 1, TS_UNKNOWN, 5);
    struct event line = {.src = 0, .line_no = 18, .rank = -1, .seq = 5};
    r.st[0].events = &line; /* printed in the console, source 0 */
    r.st[0].nevents = 1;
    struct launcher_failure g[] = {{.rank = 1, .exitcode = 1}, {.rank = 2, .exitcode = 1},
                                   {.rank = 3, .exitcode = 1}, {.rank = 0, .exitcode = 1, .root = true}};
    r.a.failures = g;
    r.a.nfailures = 4;
    struct own_lines one[] = {{.rank = 0, .line_no = 5, .lines = 1, .runs = 1},
                              {.rank = 2, .line_no = 19, .lines = 1, .runs = 1},
                              {.rank = 3, .line_no = 20, .lines = 1, .runs = 1}};
    r.a.own = one;
    r.a.nown = 3;
    check_decision(&r, NULL, NULL, 1, "fewest_own_lines");
    /* the others differ among themselves: no common point to compare with */
    one[2].lines = 2;
    check_decision(&r, NULL, NULL, 0, "launcher_hint");
    /* a worker stopped by a signal may have lost what its buffer held, so it printed at least
     * the line it shows: rank 1, which exited by itself with none, still printed fewest */
    one[2].lines = 1;
    g[2].exitcode = -15;
    check_decision(&r, NULL, NULL, 1, "fewest_own_lines");
    /* the same with rank 3 stopped by the agent and not listed at all */
    struct launcher_failure h[] = {{.rank = 1, .exitcode = 1}, {.rank = 2, .exitcode = 1},
                                   {.rank = 0, .exitcode = 1, .root = true}};
    static const int stopped[] = {0};
    set_launcher(&r, h, 3, stopped, 1);
    check_decision(&r, NULL, NULL, 1, "fewest_own_lines");
    set_launcher(&r, g, 4, NULL, 0);
    /* but the rank of fewest lines killed by a signal: its count may be short, not decided */
    g[0].exitcode = -15;
    check_decision(&r, NULL, NULL, ANY_RANK, "launcher_hint");
    correlator_analysis_free(&r.a);
}

static void hang_rules(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 8);
    add_candidate(&r, "nccl-watchdog-timeout", (long[]){0, 1, 2, 3, 5, 6, 7}, 7, 1000, 0);
    r.a.stack_odd_rank = 4;
    check_decision(&r, NULL, NULL, 4, "stack_odd_one_out");
    struct seqnum seq[3] = {{.rank = 0, .seq = 41}, {.rank = 1, .seq = 40}, {.rank = 2, .seq = 41}};
    r.a.seqnums = seq;
    r.a.nseqnums = 3;
    check_decision(&r, NULL, NULL, 1, "seqnum_lag");
    correlator_analysis_free(&r.a);
}

/* TORCH_DISTRIBUTED_DEBUG=DETAIL: every rank raises, naming itself and the first rank whose
 * collective differs from its own; the rank that called something else is the odd fingerprint */
#define FP_FLOAT "CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[1], TensorDtypes=Float, " \
                 "TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu))"
#define FP_LONG "CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[1], TensorDtypes=Long, " \
                "TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu))"
#define MISMATCH(s, fs, o, fo) "Detected mismatch between collectives on ranks. Rank " s \
        " is running collective: " fs ", but Rank " o " is running collective: " fo "."

static void mismatch_names_the_odd_fingerprint(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    size_t cm = entry_index("collective-mismatch");
    add_candidate(&r, "collective-mismatch", (long[]){2, 0, 1, 3}, 4, TS_UNKNOWN, 10);
    const char *msgs[] = {MISMATCH("2", FP_FLOAT, "3", FP_LONG), MISMATCH("0", FP_FLOAT, "3", FP_LONG),
                          MISMATCH("1", FP_FLOAT, "3", FP_LONG), MISMATCH("3", FP_LONG, "0", FP_FLOAT)};
    for (long i = 0; i < 4; i++)
        add_exception(&r, "RuntimeError", msgs[i], i == 0 ? 2 : i == 3 ? 3 : i - 1, 10 + (uint64_t)i)->entry = (int)cm;
    check_decision(&r, "collective-mismatch", NULL, 3, "fingerprint_odd_one_out");
    /* two ranks only: either could be the odd one; the rank where it was written stays */
    r.a.nexc = 0;
    add_exception(&r, "RuntimeError", MISMATCH("0", FP_FLOAT, "1", FP_LONG), 0, 10)->entry = (int)cm;
    add_exception(&r, "RuntimeError", MISMATCH("1", FP_LONG, "0", FP_FLOAT), 1, 11)->entry = (int)cm;
    check_decision(&r, NULL, NULL, 2, "rank_where_written");
    /* a fingerprint cut short is not compared: two ranks' are known */
    r.a.nexc = 0;
    add_exception(&r, "RuntimeError", MISMATCH("0", FP_FLOAT, "3", "CollectiveFingerPrint(OpType=ALL"), 0, 10)->entry = (int)cm;
    add_exception(&r, "RuntimeError", MISMATCH("1", FP_FLOAT, "3", "CollectiveFingerPrint(OpType=ALL"), 1, 11)->entry = (int)cm;
    check_decision(&r, NULL, NULL, ANY_RANK, "rank_where_written");
    add_exception(&r, "RuntimeError", MISMATCH("2", FP_FLOAT, "3", FP_LONG), 2, 12);
    check_decision(&r, NULL, NULL, 3, NULL);
    /* the reports must be the headline's own lines */
    r.exc[0].entry = r.exc[1].entry = -1;
    check_decision(&r, NULL, NULL, ANY_RANK, "rank_where_written");
    correlator_analysis_free(&r.a);
}

/* DDP's parameter-count check: each rank states its own count and the first rank whose count
 * differs; the rank built with another model is the one whose count differs from all others' */
#define COUNTS(s, c, o, d) "DDP expects same model across all ranks, but Rank " s " has " c \
        " params, while rank " o " has inconsistent " d " params."

static void model_mismatch_names_the_odd_count(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 3);
    size_t dm = entry_index("ddp-model-mismatch-across-ranks");
    add_candidate(&r, "ddp-model-mismatch-across-ranks", (long[]){0, 2, 1}, 3, TS_UNKNOWN, 10);
    /* a console with no rank prefixes: the messages name their ranks */
    add_exception(&r, "RuntimeError", COUNTS("0", "4", "2", "6"), -1, 10)->entry = (int)dm;
    add_exception(&r, "RuntimeError", COUNTS("2", "6", "0", "4"), -1, 11)->entry = (int)dm;
    check_decision(&r, "ddp-model-mismatch-across-ranks", NULL, ANY_RANK, "rank_where_written");
    add_exception(&r, "RuntimeError", COUNTS("1", "4", "2", "6"), -1, 12)->entry = (int)dm;
    check_decision(&r, "ddp-model-mismatch-across-ranks", NULL, 2, "fingerprint_odd_one_out");
    /* rank 0 is the odd one: the others name it, and rank 0 names the first other rank */
    r.a.nexc = 0;
    add_exception(&r, "RuntimeError", COUNTS("0", "6", "1", "4"), -1, 10)->entry = (int)dm;
    add_exception(&r, "RuntimeError", COUNTS("2", "4", "0", "6"), -1, 11)->entry = (int)dm;
    check_decision(&r, NULL, NULL, 0, "fingerprint_odd_one_out");
    /* a count cut short says nothing */
    r.a.nexc = 0;
    add_exception(&r, "RuntimeError", "DDP expects same model across all ranks, but Rank 0 has ", -1,
                  10)->entry = (int)dm;
    add_exception(&r, "RuntimeError", COUNTS("2", "4", "0", "6"), -1, 11)->entry = (int)dm;
    check_decision(&r, NULL, NULL, ANY_RANK, "rank_where_written");
    correlator_analysis_free(&r.a);
}

/* c10d's client names the store it could not reach; the rank that tried another address than
 * all the others, which agree, read a configuration of its own */
#define STORE_TIMEOUT(port) "The client socket has timed out after 10s while trying to connect to " \
                            "(127.0.0.1, " port ")."
#define STORE_REFUSED(port) "The client socket has failed to connect to [localhost]:" port \
                            " (errno: 111 - Connection refused)."

static void store_address_names_the_odd_rank(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 3);
    size_t sc = entry_index("store-connection-refused");
    add_candidate(&r, "store-connection-refused", (long[]){2, 0, 1}, 3, TS_UNKNOWN, 10);
    add_exception(&r, "TimeoutError", STORE_TIMEOUT("31391"), 2, 10)->entry = (int)sc;
    add_exception(&r, "TimeoutError", STORE_TIMEOUT("31391"), 0, 11)->entry = (int)sc;
    add_exception(&r, "TimeoutError", STORE_TIMEOUT("31395"), 1, 12)->entry = (int)sc;
    check_decision(&r, "store-connection-refused", NULL, 1, "fingerprint_odd_one_out");
    /* refused connections say the same */
    r.exc[0].message = (char *)STORE_REFUSED("29500");
    r.exc[1].message = (char *)STORE_REFUSED("29500");
    r.exc[2].message = (char *)STORE_REFUSED("29507");
    check_decision(&r, NULL, NULL, 1, "fingerprint_odd_one_out");
    /* every rank tried the same store: nothing odd, the first line's rank stays */
    r.exc[2].message = (char *)STORE_REFUSED("29500");
    check_decision(&r, NULL, NULL, 2, "rank_where_written");
    /* a console with no rank prefixes says nothing of who tried which */
    r.exc[2].message = (char *)STORE_REFUSED("29507");
    r.exc[0].rank = r.exc[1].rank = r.exc[2].rank = -1;
    correlator_decide(&r.a);
    assert_true(r.a.rank_rule == NULL || strcmp(r.a.rank_rule, "fingerprint_odd_one_out") != 0);
    correlator_analysis_free(&r.a);
}

static void signal_death_names_the_killed_rank(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 3);
    /* "traceback : Signal 9 (SIGKILL) received by PID 4104" names no rank; the summary does */
    add_candidate(&r, "worker-sigkill", (long[]){-1}, 1, TS_UNKNOWN, 50);
    struct launcher_failure f[] = {{.rank = 2, .local_rank = 2, .exitcode = 1},
                                   {.rank = 1, .local_rank = 1, .exitcode = -9},
                                   {.rank = 0, .local_rank = 0, .exitcode = 1}};
    r.a.failures = f;
    r.a.nfailures = 3;
    r.a.launcher_root_rank = 0;
    check_decision(&r, "worker-sigkill", NULL, 1, "signal_death");
    /* SIGTERM is how the agent stops the others: it says nothing of who failed */
    f[1].exitcode = -15;
    check_decision(&r, NULL, NULL, 0, "launcher_hint");
    correlator_analysis_free(&r.a);
}

static const char *TIMED_OUT = "[./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 6000ms for recv operation to complete";
static const char *CLOSED_MSG = "[./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:61131";

static void silent_rank_says_how_it_ended(void **state)
{
    (void)state;
    static const int one_stop[] = {0}; /* one closing signal, on the console of source 0 */
    struct run r;
    /* rank 1 exited with a code of its own and printed nothing: the others lost it */
    run_init(&r, 3);
    add_candidate(&r, "child-failed", (long[]){-1}, 1, TS_UNKNOWN, 50);
    add_candidate(&r, "nccl-remote-error", (long[]){0, 2}, 2, TS_UNKNOWN, 0);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 0, 1);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 2, 2);
    struct launcher_failure exited[] = {{.rank = 1, .local_rank = 1, .exitcode = 3},
                                        {.rank = 0, .local_rank = 0, .exitcode = 1}};
    set_launcher(&r, exited, 2, one_stop, 1);
    check_decision(&r, "child-failed", "silent_rank", 1, NULL);
    /* the same with os.abort(): SIGABRT, and no C++ terminate for worker-abort-exception */
    exited[0].exitcode = -6;
    check_decision(&r, "child-failed", NULL, 1, NULL);
    /* a SIGTERM from outside the launcher: the agent lists only workers it found dead, so this
     * one was stopped before anything failed */
    exited[0].exitcode = -15;
    check_decision(&r, "child-failed", "silent_rank", 1, NULL);
    correlator_analysis_free(&r.a);

    /* a console that names no rank: rank 1 left with sys.exit(3), ranks 0 and 2 lost it, but one
     * of their tracebacks was cut short by the agent's stop: the consequences do not add up,
     * the exit code does */
    run_init(&r, 3);
    add_candidate(&r, "child-failed", (long[]){-1}, 1, TS_UNKNOWN, 50);
    add_candidate(&r, "nccl-remote-error", (long[]){-1}, 1, TS_UNKNOWN, 0);
    add_exception(&r, "RuntimeError", CLOSED_MSG, -1, 1);
    struct launcher_failure own_code[] = {{.rank = 1, .local_rank = 1, .exitcode = 3},
                                          {.rank = 0, .local_rank = 0, .exitcode = 1},
                                          {.rank = 2, .local_rank = 2, .exitcode = 1}};
    r.a.failures = own_code;
    r.a.nfailures = 3;
    check_decision(&r, "child-failed", "exit_code_of_its_own", 1, NULL);
    /* exit code 1 is every uncaught exception's: it says nothing */
    own_code[0].exitcode = 1;
    check_decision(&r, "nccl-remote-error", NULL, ANY_RANK, NULL);
    /* two ranks with codes of their own: which came first is not said */
    own_code[0].exitcode = 3;
    own_code[1].exitcode = 2;
    check_decision(&r, "nccl-remote-error", NULL, ANY_RANK, NULL);
    correlator_analysis_free(&r.a);

    /* ranks 0 and 1 timed out in a barrier; rank 2 never came and was stopped by the agent */
    run_init(&r, 2);
    add_exception(&r, "RuntimeError", TIMED_OUT, 0, 1);
    add_exception(&r, "RuntimeError", TIMED_OUT, 1, 2);
    struct launcher_failure timed_out[] = {{.rank = 1, .local_rank = 1, .exitcode = 1},
                                           {.rank = 0, .local_rank = 0, .exitcode = 1}};
    set_launcher(&r, timed_out, 2, one_stop, 1);
    check_decision(&r, "rank-stuck-outside-collective", NULL, 2, "silent_rank");
    /* the same on a console that names no rank: the tracebacks interleaved into one exception,
     * two headers were printed */
    r.exc[0].rank = r.exc[1].rank = -1;
    r.a.nexc = 1;
    r.a.unranked_tracebacks = 2;
    check_decision(&r, "rank-stuck-outside-collective", NULL, 2, NULL);
    correlator_analysis_free(&r.a);

    /* rank 0, the one that saves and evaluates, kept the others waiting */
    run_init(&r, 3);
    add_exception(&r, "RuntimeError", TIMED_OUT, 1, 1);
    add_exception(&r, "RuntimeError", TIMED_OUT, 2, 2);
    struct launcher_failure waited[] = {{.rank = 1, .local_rank = 1, .exitcode = 1},
                                        {.rank = 2, .local_rank = 2, .exitcode = 1}};
    set_launcher(&r, waited, 2, one_stop, 1);
    check_decision(&r, "rank0-long-work-timeout", NULL, 0, NULL);
    correlator_analysis_free(&r.a);

    /* rank 1 finished its loop and exited 0 (not listed, not stopped); its peers lost it */
    run_init(&r, 3);
    add_candidate(&r, "nccl-remote-error", (long[]){0, 2}, 2, TS_UNKNOWN, 0);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 0, 1);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 2, 2);
    struct launcher_failure lost[] = {{.rank = 2, .local_rank = 2, .exitcode = 1},
                                      {.rank = 0, .local_rank = 0, .exitcode = 1}};
    r.a.failures = lost;
    r.a.nfailures = 2;
    check_decision(&r, "uneven-inputs-hang", NULL, 1, NULL);
    /* without torchrun's summary nothing says how rank 1 ended */
    r.a.nfailures = 0;
    check_decision(&r, "nccl-remote-error", NULL, 1, "elimination");
    correlator_analysis_free(&r.a);

    /* four ranks known (per-rank folders); the agent listed two and stopped one (rank 3, which
     * had printed its closed connection): the fourth, rank 1, ended cleanly, not stopped */
    run_init(&r, 4);
    add_candidate(&r, "nccl-remote-error", (long[]){0, 2, 3}, 3, TS_UNKNOWN, 0);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 0, 1);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 2, 2);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 3, 3);
    set_launcher(&r, lost, 2, one_stop, 1);
    check_decision(&r, "uneven-inputs-hang", NULL, 1, NULL);
    /* three ranks known: every worker is accounted for, the silent one was stopped */
    r.a.nranks = 3;
    r.a.nexc = 2;
    r.a.ncand = 0;
    add_candidate(&r, "nccl-remote-error", (long[]){0, 2}, 2, TS_UNKNOWN, 0);
    check_decision(&r, "rank-stuck-outside-collective", NULL, 1, NULL);
    correlator_analysis_free(&r.a);
}

/* A console without rank prefixes: three ranks listed with exitcode 1, two consequences printed.
 * One rank printed nothing, but any of the three may be it: no rank, not the highest, and not
 * torchrun's root cause either (the lowest of failures collected at once). */
static void silent_rank_among_equals(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 3);
    add_candidate(&r, "nccl-remote-error", (long[]){-1}, 1, TS_UNKNOWN, 0);
    add_exception(&r, "RuntimeError", CLOSED_MSG, -1, 1);
    add_exception(&r, "RuntimeError", CLOSED_MSG, -1, 2);
    struct launcher_failure all[] = {{.rank = 1, .local_rank = 1, .exitcode = 1},
                                     {.rank = 2, .local_rank = 2, .exitcode = 1},
                                     {.rank = 0, .local_rank = 0, .exitcode = 1}};
    r.a.failures = all;
    r.a.nfailures = 3;
    r.a.launcher_root_rank = 0;
    check_decision(&r, "child-failed", NULL, -1, "silent_rank");
    correlator_analysis_free(&r.a);
}

static void stopped_from_outside_is_preemption(void **state)
{
    (void)state;
    static const char *SIGTERM_MSG = "Process 3600 got signal: 15";
    static const char *SIGTERM_TYPE = "torch.distributed.elastic.multiprocessing.api.SignalException";
    struct run r;
    /* two agents got SIGTERM from outside and nothing failed before */
    run_init(&r, 4);
    add_exception(&r, SIGTERM_TYPE, SIGTERM_MSG, -1, 1);
    add_exception(&r, SIGTERM_TYPE, "Process 3611 got signal: 15", -1, 2);
    check_decision(&r, "slurm-preemption", "stopped_from_outside", ANY_RANK, NULL);
    /* SIGHUP from a closed terminal, SIGINT from Ctrl-C: a person's doing */
    r.exc[0].message = r.exc[1].message = (char *)"Process 3600 got signal: 1";
    check_decision(&r, "unclassified", NULL, ANY_RANK, NULL);
    r.exc[0].message = r.exc[1].message = (char *)"Process 3600 got signal: 2";
    check_decision(&r, "unclassified", NULL, ANY_RANK, NULL);
    correlator_analysis_free(&r.a);

    /* a worker failed by itself before the stop: torchrun's summary lists it */
    run_init(&r, 2);
    add_exception(&r, SIGTERM_TYPE, SIGTERM_MSG, -1, 1);
    struct launcher_failure failed[] = {{.rank = 1, .local_rank = 1, .exitcode = 3}};
    r.a.failures = failed;
    r.a.nfailures = 1;
    correlator_decide(&r.a);
    assert_string_not_equal(headline_id(&r), "slurm-preemption");
    correlator_analysis_free(&r.a);

    /* a peer's closed connection beside the stop: something else ended first */
    run_init(&r, 2);
    add_exception(&r, SIGTERM_TYPE, SIGTERM_MSG, -1, 1);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 0, 2);
    correlator_decide(&r.a);
    assert_string_not_equal(headline_id(&r), "slurm-preemption");
    correlator_analysis_free(&r.a);
}

static void silent_rank_on_another_node(void **state)
{
    (void)state;
    /* two nodes of two workers, one console each: node 0 lists ranks 0 and 1, node 1 lists rank 3
     * (its local rank 1) and stopped one worker, its local rank 0: global rank 2 */
    struct run r;
    run_init(&r, 0);
    add_exception(&r, "RuntimeError", TIMED_OUT, -1, 1)->src = 0;
    add_exception(&r, "RuntimeError", TIMED_OUT, -1, 2)->src = 1;
    struct launcher_failure f[] = {{.rank = 1, .local_rank = 1, .exitcode = 1, .src = 0},
                                   {.rank = 0, .local_rank = 0, .exitcode = 1, .src = 0},
                                   {.rank = 3, .local_rank = 1, .exitcode = 1, .src = 1}};
    static const int stops[] = {1};
    set_launcher(&r, f, 3, stops, 1);
    r.a.unranked_tracebacks = 3;
    check_decision(&r, "rank-stuck-outside-collective", NULL, 2, NULL);
    correlator_analysis_free(&r.a);
}

static void late_arriver_kept_the_others_waiting(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    add_exception(&r, "RuntimeError", TIMED_OUT, 0, 1);
    add_exception(&r, "RuntimeError", TIMED_OUT, 1, 2);
    add_exception(&r, "RuntimeError", TIMED_OUT, 2, 3);
    add_exception(&r, "RuntimeError", CLOSED_MSG, 3, 4);
    check_decision(&r, "rank-stuck-outside-collective", "late_arriver", 3, NULL);
    /* rank 0 came late: its solo work kept them */
    r.exc[0].message = (char *)CLOSED_MSG;
    r.exc[3].message = (char *)TIMED_OUT;
    check_decision(&r, "rank0-long-work-timeout", NULL, 0, NULL);
    /* everyone lost a peer: nobody waited, a peer died */
    r.exc[1].message = r.exc[2].message = r.exc[3].message = (char *)CLOSED_MSG;
    correlator_decide(&r.a);
    assert_null(r.a.headline_rule == NULL ? NULL : strstr(r.a.headline_rule, "late_arriver"));
    /* a console without rank prefixes: three timeouts and one closed connection say one rank
     * came late, not which */
    r.exc[0].message = r.exc[1].message = r.exc[2].message = (char *)TIMED_OUT;
    r.exc[0].rank = r.exc[1].rank = r.exc[2].rank = r.exc[3].rank = -1;
    r.a.unranked_tracebacks = 4;
    check_decision(&r, "rank-stuck-outside-collective", "late_arriver", -1, NULL);
    /* the same console, where the script's own lines came out as printed: rank 2's go on after
     * the first timeout (line 40), while the ranks that timed out were blocked; it came late */
    for (size_t i = 0; i < 4; i++)
        r.exc[i].line_no = 40 + 10 * i;
    struct own_lines own[] = {{.rank = 0, .line_no = 20, .lines = 4, .runs = 3},
                              {.rank = 1, .line_no = 21, .lines = 4, .runs = 3},
                              {.rank = 2, .line_no = 45, .lines = 9, .runs = 3},
                              {.rank = 3, .line_no = 22, .lines = 4, .runs = 3}};
    r.a.own = own;
    r.a.nown = 4;
    check_decision(&r, "rank-stuck-outside-collective", NULL, 2, "printed_while_others_waited");
    /* two closed connections, not the shape of one late arriver (a second rank lost its peer,
     * or a timeout interleaved with another's lines was not read): rank 2's lines after the first
     * timeout still say it came late; on rank 0, that is rank 0's long work */
    r.exc[2].message = (char *)CLOSED_MSG;
    r.a.unranked_tracebacks = 4;
    check_decision(&r, "rank-stuck-outside-collective", "printed_while_others_waited", 2, NULL);
    own[2].rank = 0;
    own[0].rank = 2;
    check_decision(&r, "rank0-long-work-timeout", NULL, 0, NULL);
    own[2].rank = 2;
    own[0].rank = 0;
    r.exc[2].message = (char *)TIMED_OUT;
    /* two ranks printed after it: not decided */
    own[1].line_no = 44;
    check_decision(&r, NULL, NULL, -1, "late_arriver");
    /* lines in blocks (a block-buffered stdout comes out at exit): where they stand says nothing */
    own[1].line_no = 21;
    own[0].runs = own[1].runs = own[2].runs = own[3].runs = 1;
    check_decision(&r, NULL, NULL, -1, NULL);
    r.a.nown = 0;
    /* a fifth traceback hidden in the others' lines may be anything: no decision */
    r.a.unranked_tracebacks = 5;
    correlator_decide(&r.a);
    assert_string_not_equal(headline_id(&r), "rank-stuck-outside-collective");
    correlator_analysis_free(&r.a);
}

static void healthy_run_has_no_headline(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 2);
    add_exception(&r, "ValueError", "bad value", 0, 1);
    struct progress p = {.rank = 0, .src = 0, .line_no = 99};
    r.exc[0].line_no = 10;
    r.a.progress = &p;
    r.a.nprogress = 1; /* the rank went on training: the exception was handled */
    correlator_decide(&r.a);
    assert_int_equal(r.a.kind, HEADLINE_NONE);
    correlator_analysis_free(&r.a);
}

/* ---------------------------------------------------------------- through the scanner */

struct source {
    const char *name, *text;
};

static struct fl_report *scan(const struct source *src, size_t n)
{
    struct fl_scanner *s;
    assert_int_equal(fl_scanner_new(kb, NULL, &s), FL_OK);
    for (size_t i = 0; i < n; i++) {
        int id;
        assert_int_equal(fl_scanner_open_source(s, src[i].name, &id), FL_OK);
        assert_int_equal(fl_scanner_feed(s, id, src[i].text, strlen(src[i].text)), FL_OK);
    }
    struct fl_report *r;
    assert_int_equal(fl_scanner_finish(s, &r), FL_OK);
    fl_scanner_free(s);
    return r;
}

/* Scans src[0..n) and checks the report's first diagnosis: its entry and its rank. */
static void check_scan(const struct source *src, size_t n, const char *id, long rank)
{
    struct fl_report *r = scan(src, n);
    assert_string_equal(fl_report_diagnosis_id(r, 0), id);
    assert_int_equal(fl_report_diagnosis_rank(r, 0), rank);
    fl_report_free(r);
}

/* Scans src[0..n) and checks the report's first diagnosis: its entry, and the text of its first
 * piece of evidence, which holds has (and also, unless NULL). */
static void check_evidence(const struct source *src, size_t n, const char *id, const char *has,
                           const char *also)
{
    struct fl_report *r = scan(src, n);
    assert_string_equal(fl_report_diagnosis_id(r, 0), id);
    assert_non_null(strstr(r->diagnoses[0].evidence[0].text, has));
    if (also)
        assert_non_null(strstr(r->diagnoses[0].evidence[0].text, also));
    fl_report_free(r);
}

static const char *CLOSED =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 20, in main\n"
    "    dist.all_reduce(t)\n"
    "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
    "    work.wait()\n"
    "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:5865\n";

static const char *KEYERROR =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 18, in main\n"
    "    for step, b in enumerate(dl):\n"
    "  File \"/usr/lib/python3/dist-packages/torch/utils/data/_utils/fetch.py\", line 58, in <listcomp>\n"
    "    data = [self.dataset[idx] for idx in possibly_batched_index]\n"
    "  File \"/w/data.py\", line 11, in __getitem__\n"
    "    return self.items[key]\n"
    "KeyError: 'path'\n";

static void rank_from_path_and_frames(void **state)
{
    (void)state;
    const struct source src[] = {
        {"logs/none_x/attempt_0/0/stderr.log", CLOSED},
        {"logs/none_x/attempt_0/1/stderr.log", CLOSED},
        {"logs/none_x/attempt_0/2/stderr.log", KEYERROR},
        {"logs/none_x/attempt_0/3/stderr.log", CLOSED},
    };
    struct fl_report *r = scan(src, 4);
    assert_string_equal(fl_report_diagnosis_id(r, 0), "corrupt-data-sample");
    assert_int_equal(fl_report_diagnosis_rank(r, 0), 2);
    assert_non_null(strstr(r->diagnoses[0].evidence[0].text, "/w/data.py:11 in __getitem__"));
    assert_null(strstr(r->note, "Only collateral"));
    fl_report_free(r);
}

/* One failure of torchrun's summary (errors/__init__.py's template), as a node's agent lists it. */
static void failure_block(struct buf *b, const char *host, long rank, long local)
{
    buf_printf(b, "[0]:\n"
                  "  time      : 2026-12-01_19:56:16\n"
                  "  host      : %s\n"
                  "  rank      : %ld (local_rank: %ld)\n"
                  "  exitcode  : 1 (pid: %ld)\n"
                  "  error_file: <N/A>\n"
                  "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n",
               host, rank, local, 8900 + rank);
}

/* A node's summary: its workers' failures, the root cause last. */
static void summary(struct buf *b, const char *host, long root, long root_local, long other,
                    long other_local)
{
    buf_printf(b, "train.py FAILED\n------------------------------------------------------------\n"
                  "Failures:\n");
    if (other >= 0)
        failure_block(b, host, other, other_local);
    else
        buf_printf(b, "  <NO_OTHER_FAILURES>\n");
    buf_printf(b, "------------------------------------------------------------\n"
                  "Root Cause (first observed failure):\n");
    failure_block(b, host, root, root_local);
    buf_printf(b, "============================================================\n");
}

/* Two nodes of two workers: node 1's per-rank folders and its console's [defaultN]: prefixes
 * carry local ranks 0 and 1, which are global ranks 2 and 3 (its summary says so). */
static void local_ranks_of_another_node(void **state)
{
    (void)state;
    struct buf node0, node1;
    buf_init(&node0, 4096);
    buf_init(&node1, 4096);
    summary(&node0, "node0", 0, 0, 1, 1);
    summary(&node1, "node1", 3, 1, -1, -1);
    const struct source logs[] = {
        {"in/node0/none_a/attempt_0/0/stderr.log", CLOSED},
        {"in/node0/none_a/attempt_0/1/stderr.log", CLOSED},
        {"in/node1/none_b/attempt_0/0/stderr.log", CLOSED},
        {"in/node1/none_b/attempt_0/1/stderr.log", KEYERROR},
        {"in/node0.log", node0.data},
        {"in/node1.log", node1.data},
    };
    struct fl_report *r = scan(logs, 6);
    assert_string_equal(fl_report_diagnosis_id(r, 0), "corrupt-data-sample");
    assert_int_equal(fl_report_diagnosis_rank(r, 0), 3);
    /* the ranks the report lists are global ones: 0-3, no local rank twice */
    assert_int_equal(r->nranks, 4);
    for (size_t i = 0; i < r->nranks; i++)
        assert_int_equal(r->ranks[i], (long)i);
    fl_report_free(r);

    /* the same from node 1's console with --tee: "[default1]:" is local rank 1 */
    struct buf tee;
    buf_init(&tee, 4096);
    for (const char *p = KEYERROR; *p;) {
        const char *nl = strchr(p, '\n');
        buf_printf(&tee, "[default1]:%.*s\n", (int)(nl - p), p);
        p = nl + 1;
    }
    buf_printf(&tee, "%s", node1.data);
    const struct source console[] = {{"in/node1.log", tee.data}};
    check_scan(console, 1, "corrupt-data-sample", 3);
    buf_free(&tee);

    /* per-rank folders of two nodes and no summary to place them: no rank is made up */
    const struct source bare[] = {
        {"in/node0/none_a/attempt_0/0/stderr.log", CLOSED},
        {"in/node1/none_b/attempt_0/1/stderr.log", KEYERROR},
    };
    check_scan(bare, 2, "corrupt-data-sample", -1);
    buf_free(&node0);
    buf_free(&node1);
}

static void script_stop_on_nan_loss(void **state)
{
    (void)state;
    const struct source src[] = {
        {"logs/none_x/attempt_0/0/stderr.log", CLOSED},
        {"logs/none_x/attempt_0/1/stdout.log", "step 0 loss 1.0000\nstep 1 loss 0.5000\n"
                                               "Loss is nan, stopping training\n"},
        {"logs/none_x/attempt_0/2/stderr.log", CLOSED},
    };
    check_scan(src, 3, "loss-nan", 1);
    /* the loss is reduced before the check: every rank stops on it, rank 2's own loss was nan */
    const struct source reduced[] = {
        {"logs/none_x/attempt_0/0/stdout.log", "[rank 0] step 5 local loss 1.1446\n"
                                               "Loss is nan, stopping training\n"},
        {"logs/none_x/attempt_0/1/stdout.log", "[rank 1] step 5 local loss 1.1066\n"
                                               "Loss is nan, stopping training\n"},
        {"logs/none_x/attempt_0/2/stdout.log", "[rank 2] step 5 local loss nan\n"
                                               "Loss is nan, stopping training\n"},
    };
    check_scan(reduced, 3, "loss-nan", 2);
    /* one console: the first rank-labelled line with a non-finite loss */
    const struct source console[] = {
        {"console.log", "[rank 1] step 4 loss 1.10\n[rank 0] step 4 loss 1.07\n"
                        "[rank 1] step 5 loss nan\n[rank 0] step 5 loss: inf\n"
                        "Loss is nan, stopping training\nLoss is nan, stopping training\n"},
    };
    check_scan(console, 1, "loss-nan", 1);
}

/* Horovod's stall inspector is printed by the coordinator, rank 0, about the ranks that have not
 * submitted the tensor: the rank on its list is the stuck one, though Slurm's "N: " task label
 * reads the same */
static void stall_report_names_the_missing_rank(void **state)
{
    (void)state;
    const struct source src[] = {
        {"horovod.log",
         "[1,0]<stderr>:[2022-06-14 11:02:51.418206: W horovod/common/stall_inspector.cc:107] One or "
         "more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are "
         "waiting for remainder of ranks for more than 60 seconds. This may indicate that different "
         "ranks are trying to submit different tensors or that only subset of ranks is submitting "
         "tensors, which will cause deadlock.\n"
         "[1,0]<stderr>:Missing ranks:\n"
         "[1,0]<stderr>:3: [allreduce.fc2.bias, allreduce.fc2.weight]\n"},
    };
    check_scan(src, 1, "rank-stuck-outside-collective", 3);
}

/* The rule over a run built by hand: the first rank whose own loss was nan, else nothing. */
static void first_nonfinite_loss_decides(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 4);
    for (long i = 0; i < 4; i++)
        add_exception(&r, "SystemExit", "Loss is nan, stopping training", i, 10 + (uint64_t)i);
    struct progress nf[] = {{.rank = 3, .src = 3, .line_no = 40, .ts_ms = TS_UNKNOWN},
                            {.rank = 1, .src = 1, .line_no = 9, .ts_ms = TS_UNKNOWN}};
    r.a.nonfinite = nf;
    r.a.nnonfinite = 1;
    check_decision(&r, "loss-nan", NULL, 3, "first_nonfinite_loss");
    /* two ranks in two files, no clock: nothing orders them */
    r.a.nnonfinite = 2;
    check_decision(&r, NULL, NULL, 0, "rank_where_written");
    /* ... the clock does */
    nf[0].ts_ms = 5000;
    nf[1].ts_ms = 7000;
    check_decision(&r, NULL, NULL, 3, NULL);
    correlator_analysis_free(&r.a);
}

static void error_file_and_launcher_summary(void **state)
{
    (void)state;
    const struct source src[] = {
        {"run/attempt_0/1/error.json",
         "{\"message\": {\"message\": \"ZeroDivisionError: division by zero\", \"extraInfo\": "
         "{\"py_callstack\": \"Traceback (most recent call last):\\n  File \\\"/w/train.py\\\", line 9, "
         "in main\\n    x = 1 / 0\\nZeroDivisionError: division by zero\\n\", \"timestamp\": "
         "\"1714564803\"}}}"},
    };
    struct fl_report *r = scan(src, 1);
    assert_string_equal(fl_report_diagnosis_id(r, 0), "unclassified");
    assert_int_equal(fl_report_diagnosis_rank(r, 0), 1);
    assert_int_equal(r->diagnoses[0].first_ts, 1714564803000LL);
    assert_non_null(strstr(r->diagnoses[0].evidence[0].text, "/w/train.py:9 in main"));
    fl_report_free(r);

    /* torchrun's summary: the failure listed under rank 2 carries its traceback; the root cause
     * it names (rank 0, only a peer that lost its connection) does not decide */
    const struct source console[] = {
        {"torchrun.log",
         "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
         "============================================================\n"
         "train.py FAILED\n"
         "------------------------------------------------------------\n"
         "Failures:\n"
         "[1]:\n"
         "  time      : 2026-12-01_15:53:56\n"
         "  host      : localhost\n"
         "  rank      : 2 (local_rank: 2)\n"
         "  exitcode  : 1 (pid: 2215)\n"
         "  error_file: /tmp/x/attempt_0/2/error.json\n"
         "  traceback : Traceback (most recent call last):\n"
         "    File \"/w/train.py\", line 30, in main\n"
         "      y = table[k]\n"
         "  IndexError: list index out of range\n"
         "  \n"
         "------------------------------------------------------------\n"
         "Root Cause (first observed failure):\n"
         "[0]:\n"
         "  time      : 2026-12-01_15:53:56\n"
         "  host      : localhost\n"
         "  rank      : 0 (local_rank: 0)\n"
         "  exitcode  : 1 (pid: 2213)\n"
         "  error_file: /tmp/x/attempt_0/0/error.json\n"
         "  traceback : Traceback (most recent call last):\n"
         "    File \"/w/train.py\", line 20, in main\n"
         "      dist.all_reduce(t)\n"
         "  RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:5865\n"
         "  \n"
         "============================================================\n"},
    };
    check_scan(console, 1, "unclassified", 2);
}

static void console_of_a_stuck_rank(void **state)
{
    (void)state;
    /* torchrun's console without rank prefixes: two tracebacks interleaved, one worker stopped */
    const struct source src[] = {
        {"console.log",
         "step 1 rank 0\n"
         "Traceback (most recent call last):\n"
         "Traceback (most recent call last):\n"
         "  File \"/w/stuck.py\", line 9, in <module>\n"
         "  File \"/w/stuck.py\", line 9, in <module>\n"
         "    dist.barrier()\n"
         "    dist.barrier()\n"
         "RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:133] Timed out waiting 6000ms for send operation to complete\n"
         "RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 6000ms for recv operation to complete\n"
         "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 20313 closing signal SIGTERM\n"
         "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 20309) of binary: /usr/bin/python3.11\n"
         "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
         "============================================================\n"
         "stuck.py FAILED\n"
         "------------------------------------------------------------\n"
         "Failures:\n"
         "[1]:\n"
         "  time      : 2026-12-01_18:58:23\n"
         "  host      : localhost\n"
         "  rank      : 1 (local_rank: 1)\n"
         "  exitcode  : 1 (pid: 20312)\n"
         "  error_file: <N/A>\n"
         "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
         "------------------------------------------------------------\n"
         "Root Cause (first observed failure):\n"
         "[0]:\n"
         "  time      : 2026-12-01_18:58:23\n"
         "  host      : localhost\n"
         "  rank      : 0 (local_rank: 0)\n"
         "  exitcode  : 1 (pid: 20309)\n"
         "  error_file: <N/A>\n"
         "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
         "============================================================\n"},
    };
    check_scan(src, 1, "rank-stuck-outside-collective", 2);
}

static void summary_block(struct buf *b, long rank, bool root)
{
    buf_printf(b, "%s[%ld]:\n  time      : 2026-12-01_18:55:20\n  host      : localhost\n"
               "  rank      : %ld (local_rank: %ld)\n  exitcode  : 1 (pid: %ld)\n"
               "  error_file: <N/A>\n  traceback : To enable traceback see: "
               "https://pytorch.org/docs/stable/elastic/errors.html\n",
               root ? "Root Cause (first observed failure):\n" : "", rank, rank, rank, 100 + rank);
}

static void own_lines_of_a_plain_console(void **state)
{
    (void)state;
    /* torch 1.13, no --tee: every rank exits 1, torchrun lists them all at one second (its root
     * cause is then the lowest rank); the script's own "[rank N]" lines show ranks 0 and 1
     * printing after the KeyError, two of them written onto one line */
    struct buf b;
    buf_init(&b, 8192);
    buf_printf(&b, "[rank 0] step 0 loss 1.0\n[rank 1] step 0 loss 1.0\n[rank 2] step 0 loss 1.0\n"
               "[rank 0] step 1 loss 1.0\n[rank 2] step 1 loss 1.0\n[rank 1] step 1 loss 1.0\n%s"
               "[rank 0] step 2 loss 1.0[rank 1] step 2 loss 1.0\n%s%s"
               "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \nFailures:\n",
               KEYERROR, CLOSED, CLOSED);
    summary_block(&b, 1, false);
    summary_block(&b, 2, false);
    summary_block(&b, 0, true);
    const struct source src[] = {{"console.log", b.data}};
    check_scan(src, 1, "corrupt-data-sample", 2);
    buf_free(&b);
}

/* The same console with the script's lines in another common style: 'style' is the line's
 * start before " step N loss 1.0", with %ld for the rank. */
static long rank_of_console_in_style(const char *style)
{
    struct buf b;
    buf_init(&b, 8192);
    static const long order[] = {0, 1, 2, 0, 2, 1};
    for (size_t i = 0; i < 6; i++) {
        buf_printf(&b, style, order[i]);
        buf_printf(&b, " step %zu loss 1.0\n", i / 3);
    }
    buf_printf(&b, "%s", KEYERROR);
    for (long rank = 0; rank < 2; rank++) {
        buf_printf(&b, style, rank);
        buf_printf(&b, " step 2 loss 1.0\n");
    }
    buf_printf(&b, "%s%storch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
               "Failures:\n", CLOSED, CLOSED);
    summary_block(&b, 1, false);
    summary_block(&b, 2, false);
    summary_block(&b, 0, true);
    const struct source src[] = {{"console.log", b.data}};
    struct fl_report *r = scan(src, 1);
    assert_string_equal(fl_report_diagnosis_id(r, 0), "corrupt-data-sample");
    long rank = fl_report_diagnosis_rank(r, 0);
    fl_report_free(r);
    buf_free(&b);
    return rank;
}

static void own_lines_in_other_styles(void **state)
{
    (void)state;
    /* print(f"rank {rank}: ..."), and DeepSpeed's log_dist "[Rank 0] ...": ranks 0 and 1
     * printed after the KeyError, so rank 2 raised it */
    assert_int_equal(rank_of_console_in_style("rank %ld:"), 2);
    assert_int_equal(rank_of_console_in_style("Rank %ld:"), 2);
    assert_int_equal(rank_of_console_in_style("[Rank %ld]"), 2);
    assert_int_equal(rank_of_console_in_style("[default0]:rank %ld:"), 2);
    /* a logging format's rank field, "%(asctime)s %(levelname)s pid=%(process)d rank=%(rank)s
     * %(name)s: ...", and one without the time */
    assert_int_equal(rank_of_console_in_style("2026-12-02 10:13:05,052 INFO pid=4104 rank=%ld train:"), 2);
    assert_int_equal(rank_of_console_in_style("INFO rank=%ld train:"), 2);
    /* "rank N: " in the middle of a line is words about a rank, not its own line: nothing
     * decides, and torchrun's root cause shares its second with the others */
    assert_int_equal(rank_of_console_in_style("waiting for rank %ld:"), -1);
}

/* logger.exception("batch failed") on the rank that raised: its own record at ERROR level comes
 * before the unranked traceback and before the peers' consequences */
static void error_record_names_its_rank(void **state)
{
    (void)state;
    struct run r;
    run_init(&r, 0);
    struct exception_event *e = add_exception(&r, "IndexError", "index 0 is out of bounds", -1, 1);
    e->flags = FRAME_DATA;
    e->line_no = 36;
    struct exception_event *c = add_exception(&r, "RuntimeError",
                                              "[./gloo/transport/tcp/pair.cc:598] Connection closed by peer", -1, 2);
    c->line_no = 70;
    struct launcher_failure f[] = {{.rank = 1, .exitcode = 1, .root = true, .time = "2026-12-02_10:13:07"},
                                   {.rank = 2, .exitcode = 1, .time = "2026-12-02_10:13:07"},
                                   {.rank = 3, .exitcode = 1, .time = "2026-12-02_10:13:07"}};
    r.a.failures = f;
    r.a.nfailures = 3;
    static const int stop[] = {0};
    r.a.stops = stop;
    r.a.nstops = 1;
    /* every rank's lines came out in blocks, none after the traceback: nothing else decides */
    struct own_lines own[] = {{.rank = 0, .line_no = 10, .lines = 3, .runs = 1},
                              {.rank = 1, .line_no = 11, .lines = 3, .runs = 1},
                              {.rank = 2, .line_no = 16, .lines = 4, .runs = 1, .error_line = 16},
                              {.rank = 3, .line_no = 12, .lines = 3, .runs = 1}};
    r.a.own = own;
    r.a.nown = 4;
    check_decision(&r, NULL, NULL, 2, "error_record");
    /* another rank's record before the traceback too: either may be a consequence */
    own[0].error_line = 9;
    check_decision(&r, NULL, NULL, -1, NULL);
    /* a record after the first consequence says nothing: rank 0 logged it once it had failed */
    own[0].error_line = 71;
    check_decision(&r, NULL, NULL, 2, NULL);
    /* nor does one after the headline's traceback */
    own[2].error_line = 40;
    own[0].error_line = 0;
    check_decision(&r, NULL, NULL, -1, NULL);
    correlator_analysis_free(&r.a);
}

static void traceback_without_source_lines(void **state)
{
    (void)state;
    /* python -c prints no code line under a frame: the line after the frame is the exception */
    const struct source src[] = {
        {"train.log",
         "Traceback (most recent call last):\n"
         "  File \"<string>\", line 4, in <module>\n"
         "  File \"<string>\", line 3, in f\n"
         "KeyError: 'x'\n"},
    };
    check_evidence(src, 1, "unclassified", "KeyError: 'x'", NULL);
    /* a log that lost its indentation keeps its code lines */
    const struct source flat[] = {
        {"train.log",
         "Traceback (most recent call last):\n"
         "File \"/w/train.py\", line 9, in main\n"
         "x = table[k]\n"
         "IndexError: list index out of range\n"},
    };
    check_evidence(flat, 1, "unclassified", "IndexError: list index out of range", NULL);
}

static void traceback_with_interleaved_lines(void **state)
{
    (void)state;
    /* other ranks' prints land between the frames of one rank's traceback in a shared console */
    const struct source src[] = {
        {"console.log",
         "Traceback (most recent call last):\n"
         "  File \"/w/train.py\", line 30, in main\n"
         "[rank 0] loading resume/shard_0.pt\n"
         "    batch = next(it)\n"
         "  File \"/w/data.py\", line 11, in __getitem__\n"
         "[rank 1] resumed at step 1200\n"
         "    return self.items[key]\n"
         "step 4 loss 0.52\n"
         "KeyError: 'missing-5'\n"},
    };
    check_evidence(src, 1, "corrupt-data-sample", "KeyError: 'missing-5'",
                   "/w/data.py:11 in __getitem__");
}

static void tracebacks_printed_at_once(void **state)
{
    (void)state;
    /* two ranks raise at the same moment and their tracebacks reach the console that they share
     * line by line, as torchrun's consoles show it: each is read to its own exception line */
    const struct source src[] = {
        {"console.log",
         "Traceback (most recent call last):\n"
         "Traceback (most recent call last):\n"
         "  File \"/w/train.py\", line 30, in main\n"
         "  File \"/w/train.py\", line 20, in main\n"
         "    for x, y in loader:\n"
         "    dist.all_reduce(t)\n"
         "  File \"/w/data.py\", line 11, in __getitem__\n"
         "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:5865\n"
         "    return row[\"label\"]\n"
         "KeyError: 'label'\n"},
    };
    check_evidence(src, 1, "corrupt-data-sample", "KeyError: 'label'",
                   "/w/data.py:11 in __getitem__");
}

static void advice_is_not_a_setting(void **state)
{
    (void)state;
    const struct source src[] = {
        {"train.log",
         "PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128 torchrun --nproc-per-node 8 train.py\n"
         "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB. If reserved "
         "but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
         "to avoid fragmentation.\n"},
        {"other.log",
         "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. If reserved "
         "but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
         "to avoid fragmentation.\n"
         "export NCCL_DEBUG=INFO\n"},
    };
    struct fl_report *r = scan(src, 2);
    assert_string_equal(facts_get(&r->facts, "PYTORCH_CUDA_ALLOC_CONF"), "max_split_size_mb:128");
    assert_string_equal(facts_get(&r->facts, "NCCL_DEBUG"), "INFO");
    fl_report_free(r);
    r = scan(&src[1], 1);
    assert_null(facts_get(&r->facts, "PYTORCH_CUDA_ALLOC_CONF"));
    fl_report_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(primary_beats_collateral),
        cmocka_unit_test(earliest_primary_first),
        cmocka_unit_test(exception_beats_collateral),
        cmocka_unit_test(data_exception_is_data),
        cmocka_unit_test(loss_check_is_numerics),
        cmocka_unit_test(consequences_never_lead),
        cmocka_unit_test(elimination_names_the_silent_rank),
        cmocka_unit_test(consequence_exceptions_point_at_the_rest),
        cmocka_unit_test(launcher_hint_is_only_a_hint),
        cmocka_unit_test(launcher_hint_tie_names_no_rank),
        cmocka_unit_test(own_lines_decide_where_they_are_evidence),
        cmocka_unit_test(hang_rules),
        cmocka_unit_test(signal_death_names_the_killed_rank),
        cmocka_unit_test(mismatch_names_the_odd_fingerprint),
        cmocka_unit_test(model_mismatch_names_the_odd_count),
        cmocka_unit_test(store_address_names_the_odd_rank),
        cmocka_unit_test(silent_rank_says_how_it_ended),
        cmocka_unit_test(silent_rank_on_another_node),
        cmocka_unit_test(silent_rank_among_equals),
        cmocka_unit_test(stopped_from_outside_is_preemption),
        cmocka_unit_test(late_arriver_kept_the_others_waiting),
        cmocka_unit_test(healthy_run_has_no_headline),
        cmocka_unit_test(rank_from_path_and_frames),
        cmocka_unit_test(local_ranks_of_another_node),
        cmocka_unit_test(script_stop_on_nan_loss),
        cmocka_unit_test(first_nonfinite_loss_decides),
        cmocka_unit_test(stall_report_names_the_missing_rank),
        cmocka_unit_test(error_file_and_launcher_summary),
        cmocka_unit_test(console_of_a_stuck_rank),
        cmocka_unit_test(own_lines_of_a_plain_console),
        cmocka_unit_test(own_lines_in_other_styles),
        cmocka_unit_test(error_record_names_its_rank),
        cmocka_unit_test(traceback_without_source_lines),
        cmocka_unit_test(traceback_with_interleaved_lines),
        cmocka_unit_test(tracebacks_printed_at_once),
        cmocka_unit_test(advice_is_not_a_setting),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
