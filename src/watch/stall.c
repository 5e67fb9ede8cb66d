/*
 * stall.c — hangs: ranks that stop printing training progress while nothing says why.
 *
 * The costliest failures print nothing: a pipeline rank waits for a tensor shape that never
 * comes, and every other rank waits in the next collective behind it, until NCCL's watchdog
 * fires ten or thirty minutes later, if it is enabled at all. What a watcher can see sooner is
 * that progress lines (Megatron's "iteration N", DeepSpeed's "step=N", Hugging Face's
 * "{'loss': ...}") stop coming. The scanner counts them per rank (fl_scanner_rank_progress);
 * here each rank's cadence is learnt as the median wall-clock time per progress line over its
 * last CADENCE_SAMPLES observations, and a rank is quiet when nothing came for longer than
 * max(--hang-after, factor x that median): a job that logs every 40 minutes is not hung after
 * 5, and one that logs every 200 ms is hung long before NCCL's timeout.
 *
 * The alert names the ranks that stopped first (the others stopped later because they waited
 * for them), the last step each reached, the suspects of the latest diagnosis (NCCL sequence
 * numbers, the odd stack out, a stalled rank from the logs' own timestamps), and the py-spy
 * command that shows where each stopped rank is stuck. It fires once, until progress resumes
 * (a "recovered" event). Times are when the watcher saw the lines, not the lines' own stamps:
 * those may be missing, skewed between hosts, or from a replayed log.
 */
#include "watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CADENCE_SAMPLES 32
#define RANKS_MAX 65536

struct rank_state {
    long rank;
    uint64_t lines;
    long long step;
    int64_t changed_ms;                 /* when its last progress line was seen */
    int64_t samples[CADENCE_SAMPLES];   /* ms per progress line */
    size_t nsamples, next;
    char *source;
    uint64_t line;
    long pid;
    char host[64];
    bool stopped;                       /* named by the current hang */
};

struct stall {
    struct stall_opts o;
    struct rank_state *ranks;
    size_t nranks, cap;
    bool hung;
    int64_t hung_ms;
};

enum fl_status stall_new(const struct stall_opts *o, struct stall **out)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL)
        return FL_ERR_NOMEM;
    (*out)->o = *o;
    if ((*out)->o.cadence_factor == 0)
        (*out)->o.cadence_factor = 10;
    return FL_OK;
}

void stall_free(struct stall *st)
{
    if (st == NULL)
        return;
    for (size_t i = 0; i < st->nranks; i++)
        free(st->ranks[i].source);
    free(st->ranks);
    free(st);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int64_t median_ms(const struct rank_state *r)
{
    if (r->nsamples == 0)
        return 0;
    int64_t v[CADENCE_SAMPLES];
    memcpy(v, r->samples, r->nsamples * sizeof *v);
    qsort(v, r->nsamples, sizeof *v, cmp_i64);
    return v[r->nsamples / 2];
}

static int64_t threshold_ms(const struct stall *st, const struct rank_state *r)
{
    int64_t t = (int64_t)st->o.cadence_factor * median_ms(r);
    return t > st->o.min_quiet_ms ? t : st->o.min_quiet_ms;
}

static struct rank_state *state_of(struct stall *st, long rank)
{
    for (size_t i = 0; i < st->nranks; i++)
        if (st->ranks[i].rank == rank)
            return &st->ranks[i];
    if (watch_grow((void **)&st->ranks, &st->cap, st->nranks, sizeof *st->ranks, RANKS_MAX) != FL_OK)
        return NULL;
    struct rank_state *r = &st->ranks[st->nranks++];
    *r = (struct rank_state){.rank = rank, .step = -1};
    return r;
}

void stall_observe(struct stall *st, const struct fl_scanner *s, int64_t now)
{
    size_t n = fl_scanner_rank_count(s);
    for (size_t i = 0; i < n; i++) {
        struct fl_rank_progress p;
        if (fl_scanner_rank_progress(s, i, &p) != FL_OK || p.progress_lines == 0)
            continue;
        struct rank_state *r = state_of(st, p.rank);
        if (r == NULL)
            continue;
        if (p.pid)
            r->pid = p.pid;
        if (p.host && !r->host[0])
            snprintf(r->host, sizeof r->host, "%s", p.host);
        if (p.progress_lines == r->lines)
            continue;
        if (r->lines > 0) {
            /* lines that arrived together share the interval: the cadence is per line */
            r->samples[r->next] = (now - r->changed_ms) / (int64_t)(p.progress_lines - r->lines);
            r->next = (r->next + 1) % CADENCE_SAMPLES;
            if (r->nsamples < CADENCE_SAMPLES)
                r->nsamples++;
        }
        r->lines = p.progress_lines;
        r->step = p.last_step;
        r->changed_ms = now;
        r->line = p.line;
        if (p.source && (r->source == NULL || strcmp(r->source, p.source) != 0)) {
            free(r->source);
            r->source = strdup(p.source);
        }
    }
}

bool stall_hung(const struct stall *st)
{
    return st->hung;
}

int64_t stall_next_ms(const struct stall *st, int64_t now)
{
    int64_t next = -1;
    for (size_t i = 0; i < st->nranks && !st->hung; i++) {
        const struct rank_state *r = &st->ranks[i];
        int64_t due = r->changed_ms + threshold_ms(st, r) + 1 - now;
        if (due < 0)
            due = 0;
        if (next < 0 || due < next)
            next = due;
    }
    return next;
}

size_t stall_ranks(const struct stall *st, int64_t now, struct rank_metric *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < st->nranks && n < max; i++)
        out[n++] = (struct rank_metric){st->ranks[i].rank, (double)(now - st->ranks[i].changed_ms) / 1000.0,
                                        st->ranks[i].step};
    return n;
}

/* The py-spy command for a rank: exact when its pid is known, a template naming the part that
 * is the user's otherwise; over ssh when it runs on another host. */
static void py_spy(const struct rank_state *r, char *out, size_t n)
{
    char local[256] = "";
    gethostname(local, sizeof local - 1);
    bool remote = r->host[0] && strcmp(r->host, local) != 0 && strcmp(r->host, "localhost") != 0;
    char ssh[96] = "";
    if (remote)
        snprintf(ssh, sizeof ssh, "ssh %s ", r->host);
    if (r->pid)
        snprintf(out, n, "%spy-spy dump --pid %ld", ssh, r->pid);
    else
        snprintf(out, n, "%spy-spy dump --pid <PID of rank %ld%s%s: see pgrep -af python there>", ssh,
                 r->rank, r->host[0] ? " on " : "", r->host);
}

static void add_suspect(json_t *suspects, long rank, const char *why)
{
    size_t i;
    json_t *s;
    json_array_foreach(suspects, i, s)
        if (json_integer_value(json_object_get(s, "rank")) == rank)
            return;
    json_array_append_new(suspects, json_pack("{s:I, s:s}", "rank", (json_int_t)rank, "why", why));
}

/* The suspects of the latest diagnosis, by the rules `diagnose` applies. */
static void report_suspects(json_t *suspects, const json_t *report)
{
    const json_t *facts = json_object_get(report, "facts");
    static const char *const keys[][2] = {
        {"stack_odd_rank", "its stack differs from every other rank's (py-spy/faulthandler dumps)"},
        {"progress_stalled_rank", "its last training step came well before any other rank's (log timestamps)"}};
    for (size_t k = 0; k < 2; k++) {
        const char *v = json_string_value(json_object_get(facts, keys[k][0]));
        if (v)
            add_suspect(suspects, strtol(v, NULL, 10), keys[k][1]);
    }
    const json_t *d = json_array_get(json_object_get(report, "diagnoses"), 0);
    const json_t *rank = json_object_get(d, "initiating_rank");
    if (json_is_integer(rank)) {
        char why[256];
        snprintf(why, sizeof why, "named by the diagnosis so far: %s",
                 json_string_value(json_object_get(d, "id")));
        add_suspect(suspects, (long)json_integer_value(rank), why);
    }
}

static json_t *hang_event(struct stall *st, const json_t *report, int64_t now)
{
    /* the ranks that stopped first: quiet, and within a tolerance of the earliest stop */
    int64_t earliest = INT64_MAX, tol = 1000;
    for (size_t i = 0; i < st->nranks; i++) {
        const struct rank_state *r = &st->ranks[i];
        if (now - r->changed_ms > threshold_ms(st, r) && r->changed_ms < earliest)
            earliest = r->changed_ms;
        if (2 * median_ms(r) > tol)
            tol = 2 * median_ms(r);
    }
    json_t *ev = json_object(), *stopped = json_array(), *blocked = json_array(),
           *steps = json_object(), *evidence = json_array(), *suspects = json_array(),
           *cmds = json_array();
    const struct rank_state *first = NULL;
    char text[512], cmd[320];
    struct buf_like {
        char s[2048];
        size_t n;
    } verify = {"", 0}, ranks_txt = {"", 0};
    for (size_t i = 0; i < st->nranks; i++) {
        struct rank_state *r = &st->ranks[i];
        char key[32];
        snprintf(key, sizeof key, "%ld", r->rank);
        json_object_set_new(steps, key, r->step >= 0 ? json_integer(r->step) : json_null());
        r->stopped = r->changed_ms <= earliest + tol && now - r->changed_ms > threshold_ms(st, r);
        if (!r->stopped) {
            if (now - r->changed_ms > 2 * tol)
                json_array_append_new(blocked, json_integer(r->rank));
            continue;
        }
        if (first == NULL || r->rank < first->rank)
            first = r;
        json_array_append_new(stopped, json_integer(r->rank));
        py_spy(r, cmd, sizeof cmd);
        json_array_append_new(cmds, json_string(cmd));
        verify.n += (size_t)snprintf(verify.s + verify.n, sizeof verify.s - verify.n, "%s%s",
                                     verify.n ? "; " : "", cmd);
        if (verify.n >= sizeof verify.s)
            verify.n = sizeof verify.s - 1;
        ranks_txt.n += (size_t)snprintf(ranks_txt.s + ranks_txt.n, sizeof ranks_txt.s - ranks_txt.n,
                                        "%s%ld", ranks_txt.n ? ", " : "", r->rank);
        if (ranks_txt.n >= sizeof ranks_txt.s)
            ranks_txt.n = sizeof ranks_txt.s - 1;
        if (r->step >= 0)
            snprintf(text, sizeof text, "last progress line (step %lld), then nothing for %lld s",
                     r->step, (long long)((now - r->changed_ms) / 1000));
        else
            snprintf(text, sizeof text, "last progress line, then nothing for %lld s",
                     (long long)((now - r->changed_ms) / 1000));
        json_array_append_new(evidence, json_pack("{s:s?, s:I, s:I, s:s}", "source", r->source,
                                                  "line", (json_int_t)r->line, "rank",
                                                  (json_int_t)r->rank, "text", text));
        add_suspect(suspects, r->rank, "stopped printing progress first");
    }
    report_suspects(suspects, report);
    int64_t quiet = first ? now - first->changed_ms : 0;
    bool all = json_array_size(stopped) == st->nranks;
    char title[2400], cause[4096], fix[4096];
    snprintf(title, sizeof title, "%s: no training progress for %lld s",
             all && st->nranks > 1 ? "Every rank stopped together" : "Ranks stopped",
             (long long)(quiet / 1000));
    snprintf(cause, sizeof cause,
             "Rank(s) %s stopped printing training progress %lld s ago, past the threshold of "
             "%lld s (the larger of --hang-after and %u times the rank's median step time)%s. "
             "A rank that stops while the others wait in the next collective is stuck outside "
             "it: a data-loader or I/O wait, a deadlock, or a point-to-point exchange that "
             "never completes.",
             ranks_txt.s, (long long)(quiet / 1000),
             (long long)(first ? threshold_ms(st, first) / 1000 : 0), st->o.cadence_factor,
             json_array_size(blocked) ? "; the other ranks went quiet after it, waiting for it"
                                      : "");
    snprintf(fix, sizeof fix,
             "While the job is still hung, dump the Python stacks of the stopped ranks: %s. "
             "Write each dump into the watched folder (or run faultline diagnose on it): the "
             "stacks are clustered and the rank whose stack differs is named.",
             verify.s);
    char first_seen[40] = "";
    if (first) {
        time_t t = time(NULL) - (time_t)((now - first->changed_ms) / 1000);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(first_seen, sizeof first_seen, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    json_object_set_new(ev, "id", json_string("training-hang"));
    json_object_set_new(ev, "title", json_string(title));
    json_object_set_new(ev, "category", json_string("hang"));
    json_object_set_new(ev, "severity", json_string("critical"));
    json_object_set_new(ev, "confidence", json_real(json_array_size(suspects) > json_array_size(stopped) ? 0.8 : 0.6));
    json_object_set_new(ev, "initiating_rank", first ? json_integer(first->rank) : json_null());
    json_object_set_new(ev, "initiating_host",
                        first && first->host[0] ? json_string(first->host) : json_null());
    json_object_set_new(ev, "first_seen", first ? json_string(first_seen) : json_null());
    json_object_set_new(ev, "collateral", json_array());
    json_object_set_new(ev, "evidence", evidence);
    json_object_set_new(ev, "root_cause", json_string(cause));
    json_object_set_new(ev, "fix", json_string(fix));
    json_object_set_new(ev, "verify", json_string(verify.s));
    json_object_set_new(ev, "references", json_pack("[s]", "https://github.com/benfred/py-spy"));
    json_object_set_new(ev, "stopped_ranks", stopped);
    json_object_set_new(ev, "blocked_ranks", blocked);
    json_object_set_new(ev, "last_steps", steps);
    json_object_set_new(ev, "quiet_seconds", json_integer(quiet / 1000));
    json_object_set_new(ev, "threshold_seconds",
                        json_integer(first ? threshold_ms(st, first) / 1000 : 0));
    json_object_set_new(ev, "suspects", suspects);
    json_object_set_new(ev, "py_spy", cmds);
    json_object_set_new(ev, "event", json_string("hang"));
    return ev;
}

json_t *stall_check(struct stall *st, const struct fl_scanner *s, const json_t *report, int64_t now)
{
    (void)s;
    if (st->hung) {
        for (size_t i = 0; i < st->nranks; i++) {
            const struct rank_state *r = &st->ranks[i];
            if (r->stopped && r->changed_ms > st->hung_ms) {
                st->hung = false;
                char title[128];
                snprintf(title, sizeof title, "Rank %ld is making progress again (step %lld)",
                         r->rank, r->step);
                return json_pack("{s:s, s:s, s:s, s:s, s:I, s:s}", "id", "training-hang",
                                 "title", title, "category", "hang", "severity", "low",
                                 "initiating_rank", (json_int_t)r->rank, "event", "recovered");
            }
        }
        return NULL;
    }
    for (size_t i = 0; i < st->nranks; i++) {
        const struct rank_state *r = &st->ranks[i];
        if (now - r->changed_ms > threshold_ms(st, r)) {
            st->hung = true;
            st->hung_ms = now;
            return hang_event(st, report, now);
        }
    }
    return NULL;
}
