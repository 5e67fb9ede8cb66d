/*
 * watch.c — the watcher's loop: one scanner fed by the follower, snapshots of its report, and
 * the alerts, hang checks and metrics on top.
 *
 * One scanner spans every followed file, so the diagnosis is `diagnose`'s own: same engine,
 * same rules, same report (at exit the report is printed like diagnose prints it). While lines
 * come in, a snapshot (fl_scanner_snapshot) is taken at most every snapshot_ms; a diagnosis id
 * seen for the first time starts its drain window, and only when the window is over is the
 * event written, from a fresh snapshot: by then the other ranks' late lines are in, and a
 * watchdog timeout that was printed before the exception that caused it has been folded under
 * that exception as collateral (its id is no longer a diagnosis, and it is never alerted).
 * Each id is alerted once per run.
 *
 * The loop sleeps in poll(2) on the inotify descriptor, until the nearest deadline: the stat
 * poll, a drain window's end, a rank's hang threshold, the metrics refresh. Idle, it wakes once
 * per --poll period (and per second with metrics on), reads nothing and sleeps again.
 * Memory is the scanner's (bounded by matched events, not by input) plus one record per file
 * and per rank.
 */
#include "watch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PENDING_MAX 1024
#define METRICS_MS 1000
#define RANK_METRICS_MAX 4096

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

int64_t watch_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void watch_iso_time(char *out, size_t n)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char base[32];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, n, "%s.%03ldZ", base, ts.tv_nsec / 1000000);
}

enum fl_status watch_grow(void **arr, size_t *cap, size_t n, size_t size, size_t max)
{
    if (n < *cap)
        return FL_OK;
    if (n >= max)
        return FL_ERR_LIMIT;
    size_t nc = *cap ? *cap * 2 : 16;
    if (nc > max)
        nc = max;
    void *p = realloc(*arr, nc * size);
    if (p == NULL)
        return FL_ERR_NOMEM;
    *arr = p;
    *cap = nc;
    return FL_OK;
}

struct pending {
    char id[128];
    int64_t first_ms;   /* when a snapshot first showed it */
    bool alerted;
};

struct watcher {
    const struct watch_opts *o;
    struct fl_scanner *s;
    struct follower *f;
    struct alerts *a;
    struct stall *stall;
    struct metrics *m;
    struct webhook *wh;
    struct fl_masker *masker;   /* one per run: the same host is the same pseudonym in every event */
    struct fl_report *latest;   /* the last snapshot */
    struct pending pending[PENDING_MAX];
    size_t npending;
    bool failed;
};

/* The report as the JSON contract's object, or NULL. */
static json_t *report_json(const struct fl_report *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem == NULL)
        return NULL;
    struct fl_report_options ro = {.format = FL_FORMAT_JSON};
    enum fl_status st = fl_report_write(r, &ro, mem);
    fclose(mem);
    json_t *j = st == FL_OK ? json_loadb(text, len, 0, NULL) : NULL;
    free(text);
    return j;
}

static void stamp(json_t *ev, const char *kind)
{
    char now[40];
    watch_iso_time(now, sizeof now);
    json_object_set_new(ev, "event", json_string(kind));
    json_object_set_new(ev, "time", json_string(now));
}

/* Masks every string of a hang event as the reports are masked (its hosts registered first). */
static json_t *mask_event(struct watcher *w, json_t *ev)
{
    if (w->masker == NULL)
        return ev;
    const char *host = json_string_value(json_object_get(ev, "initiating_host"));
    if (host)
        fl_masker_add_host(w->masker, host);
    char *text = json_dumps(ev, EVENT_JSON), *masked = NULL;
    size_t n = 0;
    json_t *out = NULL;
    if (text && fl_masker_apply(w->masker, text, strlen(text), &masked, &n) == FL_OK)
        out = json_loadb(masked, n, 0, NULL);
    free(text);
    free(masked);
    json_decref(ev);
    if (out == NULL)
        fprintf(stderr, "faultline: an event could not be masked; it is not written (use --no-mask)\n");
    return out;
}

static struct pending *pending_of(struct watcher *w, const char *id)
{
    for (size_t i = 0; i < w->npending; i++)
        if (strcmp(w->pending[i].id, id) == 0)
            return &w->pending[i];
    return NULL;
}

/* Starts the drain window of each diagnosis of r seen for the first time. A differential (listed
 * because the knowledge base names it as another reading of the headline's lines, none of its own
 * matched) is not a failure seen: it gets no window, so it is never alerted, nor counted in the
 * metrics; should its own lines come later, it is a diagnosis like any other. */
static void track_new(struct watcher *w, const struct fl_report *r, int64_t now)
{
    for (size_t i = 0; i < fl_report_diagnosis_count(r); i++) {
        const char *id = fl_report_diagnosis_id(r, i);
        if (fl_report_diagnosis_differential_of(r, i) || pending_of(w, id) || w->npending == PENDING_MAX)
            continue;
        struct pending *p = &w->pending[w->npending++];
        snprintf(p->id, sizeof p->id, "%s", id);
        p->first_ms = now;
        p->alerted = false;
    }
}

static void take_snapshot(struct watcher *w, int64_t now)
{
    struct fl_report *r;
    if (fl_scanner_snapshot(w->s, &r) != FL_OK) {
        fprintf(stderr, "faultline: the analysis failed; retrying with the next lines\n");
        return;
    }
    fl_report_free(w->latest);
    w->latest = r;
    track_new(w, r, now);
}

/* Emits the diagnoses of report r whose drain window is over (every pending one with force). An id
 * that matched once and is now only listed as a differential (its lines folded as collateral) is,
 * like one folded away entirely, no longer a diagnosis: not alerted. */
static void emit_due(struct watcher *w, struct fl_report *r, int64_t now, bool force)
{
    json_t *j = NULL;
    for (size_t i = 0; i < fl_report_diagnosis_count(r); i++) {
        struct pending *p = pending_of(w, fl_report_diagnosis_id(r, i));
        if (p == NULL || p->alerted || fl_report_diagnosis_differential_of(r, i) ||
            (!force && now - p->first_ms < w->o->drain_ms))
            continue;
        if (j == NULL) {
            if (w->masker && fl_report_mask(r, w->masker) != FL_OK) {
                fprintf(stderr, "faultline: a report could not be masked; no alert (use --no-mask)\n");
                return;
            }
            if ((j = report_json(r)) == NULL)
                return;
        }
        json_t *d = json_deep_copy(json_array_get(json_object_get(j, "diagnoses"), i));
        if (d == NULL)
            continue;
        stamp(d, "diagnosis");
        alerts_emit(w->a, d);
        json_decref(d);
        p->alerted = true;
        w->failed = true;
    }
    json_decref(j);
}

/* The nearest drain deadline, in ms from now, or -1. */
static int64_t drain_next_ms(const struct watcher *w, int64_t now)
{
    int64_t next = -1;
    for (size_t i = 0; i < w->npending; i++) {
        if (w->pending[i].alerted)
            continue;
        int64_t due = w->pending[i].first_ms + w->o->drain_ms - now;
        if (due < 0)
            due = 0;
        if (next < 0 || due < next)
            next = due;
    }
    return next;
}

static bool any_due(const struct watcher *w, int64_t now)
{
    return drain_next_ms(w, now) == 0;
}

/* Prometheus label values escape \, " and newline. */
static void label(FILE *out, const char *v)
{
    for (; *v; v++) {
        if (*v == '\\' || *v == '"')
            fputc('\\', out);
        if (*v == '\n')
            fputs("\\n", out);
        else
            fputc(*v, out);
    }
}

static void publish_metrics(struct watcher *w, int64_t now)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out == NULL)
        return;
    fputs("# HELP faultline_diagnosis_total Diagnoses alerted by faultline watch, by knowledge-base id.\n"
          "# TYPE faultline_diagnosis_total counter\n", out);
    for (size_t i = 0; i < w->npending; i++) {
        fputs("faultline_diagnosis_total{id=\"", out);
        label(out, w->pending[i].id);
        fprintf(out, "\"} %d\n", w->pending[i].alerted ? 1 : 0);
    }
    fprintf(out, "# HELP faultline_hang_total Hang alerts (ranks quiet past their threshold).\n"
                 "# TYPE faultline_hang_total counter\nfaultline_hang_total %lu\n",
            alerts_count(w->a, "hang"));
    struct rank_metric *rm = malloc(RANK_METRICS_MAX * sizeof *rm);
    size_t nr = rm ? stall_ranks(w->stall, now, rm, RANK_METRICS_MAX) : 0;
    fputs("# HELP faultline_rank_last_progress_age_seconds Seconds since the rank's last progress line was read.\n"
          "# TYPE faultline_rank_last_progress_age_seconds gauge\n", out);
    for (size_t i = 0; i < nr; i++)
        fprintf(out, "faultline_rank_last_progress_age_seconds{rank=\"%ld\"} %.3f\n", rm[i].rank,
                rm[i].age_s);
    fputs("# HELP faultline_rank_last_step The step or iteration number of the rank's last progress line.\n"
          "# TYPE faultline_rank_last_step gauge\n", out);
    for (size_t i = 0; i < nr; i++)
        if (rm[i].last_step >= 0)
            fprintf(out, "faultline_rank_last_step{rank=\"%ld\"} %lld\n", rm[i].rank, rm[i].last_step);
    free(rm);
    const char *state = w->failed ? "failed" : stall_hung(w->stall) ? "stalled" : "running";
    fputs("# HELP faultline_state The job's state as the watcher sees it (1 for the current one).\n"
          "# TYPE faultline_state gauge\n", out);
    static const char *const states[] = {"running", "stalled", "failed"};
    for (int i = 0; i < 3; i++)
        fprintf(out, "faultline_state{state=\"%s\"} %d\n", states[i], strcmp(state, states[i]) == 0);
    struct follow_stats fs;
    follower_stats(w->f, &fs);
    fprintf(out,
            "# HELP faultline_read_bytes_total Bytes read from the followed files.\n"
            "# TYPE faultline_read_bytes_total counter\nfaultline_read_bytes_total %llu\n"
            "# HELP faultline_read_lines_total Lines read from the followed files.\n"
            "# TYPE faultline_read_lines_total counter\nfaultline_read_lines_total %llu\n"
            "# HELP faultline_files_followed Files followed now.\n"
            "# TYPE faultline_files_followed gauge\nfaultline_files_followed %zu\n",
            (unsigned long long)fs.bytes, (unsigned long long)fs.lines, fs.files);
    fclose(out);
    metrics_publish(w->m, text, len);
    free(text);
}

static int64_t min_wait(int64_t a, int64_t b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

static void run_loop(struct watcher *w)
{
    const struct watch_opts *o = w->o;
    int64_t now = watch_now_ms(), last_full = now, last_snapshot = -1, last_metrics = -1,
            last_data = now;
    bool dirty = true;
    stall_observe(w->stall, w->s, now);
    while (!stop_signal) {
        now = watch_now_ms();
        int64_t wait = last_full + o->poll_ms - now;
        if (dirty)
            wait = min_wait(wait, last_snapshot < 0 ? 0 : last_snapshot + o->snapshot_ms - now);
        wait = min_wait(wait, drain_next_ms(w, now));
        if (!w->failed)
            wait = min_wait(wait, stall_next_ms(w->stall, now));
        if (w->m)
            wait = min_wait(wait, last_metrics < 0 ? 0 : last_metrics + METRICS_MS - now);
        if (o->exit_idle_ms > 0)
            wait = min_wait(wait, last_data + o->exit_idle_ms - now);
        if (wait < 0)
            wait = 0;
        if (!follower_wait(w->f, (int)(wait > 60000 ? 60000 : wait)) && stop_signal)
            break;
        now = watch_now_ms();
        bool full = now - last_full >= o->poll_ms;
        if (full)
            last_full = now;
        bool fed = follower_read(w->f, full) > 0;
        if (fed) {
            dirty = true;
            last_data = now;
            stall_observe(w->stall, w->s, now);
        }
        if (dirty && (last_snapshot < 0 || now - last_snapshot >= o->snapshot_ms)) {
            take_snapshot(w, now);
            last_snapshot = now;
            dirty = false;
        }
        if (any_due(w, now)) {
            struct fl_report *r;
            if (fl_scanner_snapshot(w->s, &r) == FL_OK) {
                emit_due(w, r, now, false);
                fl_report_free(r);
            }
            /* a due id that is no longer a diagnosis (folded as collateral) is never alerted */
            for (size_t i = 0; i < w->npending; i++)
                if (!w->pending[i].alerted && now - w->pending[i].first_ms >= o->drain_ms)
                    w->pending[i].first_ms = INT64_MAX / 2;
        }
        /* a hang is due when a rank's threshold passed; a recovery needs new lines */
        if (!w->failed && (stall_hung(w->stall) ? fed : stall_next_ms(w->stall, now) == 0)) {
            json_t *rep = w->latest ? report_json(w->latest) : NULL;
            json_t *ev = stall_check(w->stall, w->s, rep, now);
            json_decref(rep);
            if (ev) {
                const char *kind = json_string_value(json_object_get(ev, "event"));
                char k[16];
                snprintf(k, sizeof k, "%s", kind ? kind : "hang");
                stamp(ev, k);
                if ((ev = mask_event(w, ev)) != NULL) {
                    alerts_emit(w->a, ev);
                    json_decref(ev);
                }
            }
        }
        alerts_reap(w->a);
        if (w->m && (last_metrics < 0 || now - last_metrics >= METRICS_MS)) {
            publish_metrics(w, now);
            last_metrics = now;
        }
        if (o->exit_idle_ms > 0 && now - last_data >= o->exit_idle_ms)
            break;
    }
}

int watch_run(const struct fl_kb *kb, const struct watch_opts *o)
{
    struct watcher w = {.o = o};
    char err[1024] = "";
    int rc = 2;
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    const char *skip[2] = {o->alerts.events_path, o->metrics_textfile};
    struct alert_opts ao = o->alerts;
    if (fl_scanner_new(kb, &o->scan, &w.s) != FL_OK) {
        fprintf(stderr, "faultline: cannot create a scanner\n");
        goto out;
    }
    if (o->mask >= 0 && fl_masker_new((enum fl_mask_mode)o->mask, &w.masker) != FL_OK) {
        fprintf(stderr, "faultline: cannot create the masker\n");
        goto out;
    }
    if (o->nwebhooks && webhook_new(o->webhooks, o->nwebhooks, o->webhook_retries,
                                    o->webhook_backoff_ms, &w.wh) != FL_OK) {
        fprintf(stderr, "faultline: cannot start the webhook sender\n");
        goto out;
    }
    ao.webhook = w.wh;
    if (alerts_new(&ao, &w.a, err, sizeof err) != FL_OK || stall_new(&o->stall, &w.stall) != FL_OK) {
        fprintf(stderr, "faultline: %s\n", err[0] ? err : "out of memory");
        goto out;
    }
    if ((o->metrics_listen || o->metrics_textfile) &&
        metrics_new(o->metrics_listen, o->metrics_textfile, &w.m, err, sizeof err) != FL_OK) {
        fprintf(stderr, "faultline: %s\n", err[0] ? err : "out of memory");
        goto out;
    }
    /* the events file may not exist before the first event: created now, so it can be skipped */
    if (follower_new(w.s, o->paths, o->npaths, skip, 2, o->inotify, &w.f, err, sizeof err) != FL_OK) {
        fprintf(stderr, "faultline: %s\n", err[0] ? err : "cannot follow the inputs");
        goto out;
    }
    run_loop(&w);
    /* the input is over (or we were asked to stop): what is left is read, and diagnoses still
     * in their drain window are alerted from the final report */
    follower_drain(w.f);
    struct fl_report *r = NULL;
    if (fl_scanner_finish(w.s, &r) != FL_OK) {
        fprintf(stderr, "faultline: the analysis failed\n");
        goto out;
    }
    track_new(&w, r, watch_now_ms());
    rc = fl_report_diagnosis_count(r) > 0 ? 1 : 0;
    if (o->final_report) {
        /* printed as diagnose prints it: a fresh masker, so the pseudonyms are diagnose's too */
        struct fl_masker *fm = NULL;
        bool ok = o->mask < 0 || fl_masker_new((enum fl_mask_mode)o->mask, &fm) == FL_OK;
        if (ok && fm)
            ok = fl_report_mask(r, fm) == FL_OK;
        fl_masker_free(fm);
        if (!ok || fl_report_write(r, &o->report, stdout) != FL_OK) {
            fprintf(stderr, "faultline: cannot write the report\n");
            rc = 2;
        }
        fflush(stdout);
        /* the alerts below need a report masked with the run's masker: take it again */
        fl_report_free(r);
        r = NULL;
        struct fl_report *again = NULL;
        if (fl_scanner_snapshot(w.s, &again) == FL_OK)
            r = again;
    }
    if (r)
        emit_due(&w, r, watch_now_ms(), true);
    fl_report_free(r);
    if (w.m)
        publish_metrics(&w, watch_now_ms());
    alerts_reap(w.a);
out:
    if (stop_signal)
        fprintf(stderr, "faultline: watch stopped (%s)\n", stop_signal == SIGINT ? "interrupt" : "terminated");
    webhook_free(w.wh, 30000);
    follower_free(w.f);
    metrics_free(w.m);
    stall_free(w.stall);
    alerts_free(w.a);
    fl_report_free(w.latest);
    fl_masker_free(w.masker);
    fl_scanner_free(w.s);
    return rc;
}
