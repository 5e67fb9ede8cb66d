/*
 * metrics.c — the server's Prometheus counters: requests by status, a latency histogram, bytes
 * diagnosed and diagnoses by id. Plain atomics: one relaxed increment per request, no lock.
 */
#include "server.h"

#include <stdlib.h>
#include <string.h>

const double latency_bounds_ms[LATENCY_BUCKETS] = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000,
                                                   5000, 30000};

void serve_metrics_init(struct serve_metrics *m, size_t nentries)
{
    memset(m, 0, sizeof *m);
    m->by_diagnosis = calloc(nentries + 1, sizeof *m->by_diagnosis);
}

void serve_metrics_free(struct serve_metrics *m)
{
    free(m->by_diagnosis);
    m->by_diagnosis = NULL;
}

void serve_metrics_request(struct serve_metrics *m, unsigned status, uint64_t micros)
{
    if (status < 600)
        atomic_fetch_add_explicit(&m->by_status[status], 1, memory_order_relaxed);
    size_t b = 0;
    while (b < LATENCY_BUCKETS && (double)micros > latency_bounds_ms[b] * 1000.0)
        b++;
    atomic_fetch_add_explicit(&m->latency[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->latency_sum_us, micros, memory_order_relaxed);
}

void serve_metrics_diagnosis(struct serve_metrics *m, const struct fl_kb *kb, const char *id)
{
    if (m->by_diagnosis == NULL)
        return;
    long i = fl_kb_find(kb, id);
    size_t slot = i >= 0 ? (size_t)i : fl_kb_count(kb);
    atomic_fetch_add_explicit(&m->by_diagnosis[slot], 1, memory_order_relaxed);
}

char *serve_metrics_text(const struct server *srv, size_t *len)
{
    char *out = NULL;
    FILE *f = open_memstream(&out, len);
    if (f == NULL)
        return NULL;
    const struct serve_metrics *m = &srv->metrics;
    fputs("# HELP faultline_http_requests_total HTTP requests answered, by status code.\n"
          "# TYPE faultline_http_requests_total counter\n", f);
    for (unsigned s = 100; s < 600; s++) {
        uint64_t n = atomic_load_explicit(&m->by_status[s], memory_order_relaxed);
        if (n)
            fprintf(f, "faultline_http_requests_total{code=\"%u\"} %llu\n", s, (unsigned long long)n);
    }
    fputs("# HELP faultline_http_request_duration_seconds Time from a request's first byte to its answer.\n"
          "# TYPE faultline_http_request_duration_seconds histogram\n", f);
    uint64_t cum = 0;
    for (size_t b = 0; b <= LATENCY_BUCKETS; b++) {
        cum += atomic_load_explicit(&m->latency[b], memory_order_relaxed);
        if (b < LATENCY_BUCKETS)
            fprintf(f, "faultline_http_request_duration_seconds_bucket{le=\"%g\"} %llu\n",
                    latency_bounds_ms[b] / 1000.0, (unsigned long long)cum);
        else
            fprintf(f, "faultline_http_request_duration_seconds_bucket{le=\"+Inf\"} %llu\n",
                    (unsigned long long)cum);
    }
    fprintf(f, "faultline_http_request_duration_seconds_sum %.6f\n",
            (double)atomic_load_explicit(&m->latency_sum_us, memory_order_relaxed) / 1e6);
    fprintf(f, "faultline_http_request_duration_seconds_count %llu\n", (unsigned long long)cum);
    fprintf(f, "# HELP faultline_diagnosed_bytes_total Log bytes read by diagnoses.\n"
               "# TYPE faultline_diagnosed_bytes_total counter\n"
               "faultline_diagnosed_bytes_total %llu\n",
            (unsigned long long)atomic_load_explicit(&m->bytes_diagnosed, memory_order_relaxed));
    fprintf(f, "# HELP faultline_quota_rejections_total Requests refused with 429.\n"
               "# TYPE faultline_quota_rejections_total counter\n"
               "faultline_quota_rejections_total %llu\n",
            (unsigned long long)atomic_load_explicit(&m->rejected_quota, memory_order_relaxed));
    fprintf(f, "# HELP faultline_http_requests_in_flight Requests begun and not yet answered.\n"
               "# TYPE faultline_http_requests_in_flight gauge\n"
               "faultline_http_requests_in_flight %d\n", atomic_load(&srv->in_flight));
    fputs("# HELP faultline_diagnoses_total Reports whose first diagnosis had this id.\n"
          "# TYPE faultline_diagnoses_total counter\n", f);
    size_t n = fl_kb_count(srv->kb);
    for (size_t i = 0; m->by_diagnosis && i <= n; i++) {
        uint64_t c = atomic_load_explicit(&m->by_diagnosis[i], memory_order_relaxed);
        if (c == 0)
            continue;
        struct fl_kb_entry_info e = {.id = "unclassified"};
        if (i < n)
            fl_kb_entry_at(srv->kb, i, &e);
        fprintf(f, "faultline_diagnoses_total{id=\"%s\"} %llu\n", e.id, (unsigned long long)c);
    }
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}
