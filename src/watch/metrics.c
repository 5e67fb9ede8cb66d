/*
 * metrics.c — the watcher's state in Prometheus' text exposition format, two ways:
 *
 *   --metrics-listen ADDR:PORT  served by libmicrohttpd on its own thread at /metrics; the
 *                               handler copies the last published text under a mutex, so a
 *                               scrape never waits for the reader and never sees half an update;
 *   --metrics-textfile PATH     for node_exporter's textfile collector: written to a hidden
 *                               temporary beside PATH and renamed over it, so the collector never
 *                               reads a partial file (its documented requirement).
 *
 * watch.c builds the text (metric names and help there); this module only carries it.
 */
#include "watch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct metrics {
    struct MHD_Daemon *d;
    pthread_mutex_t mu;
    char *text;
    size_t len;
    char *textfile;
    char *tmpfile;
};

static enum MHD_Result serve(void *cls, struct MHD_Connection *c, const char *url,
                             const char *method, const char *version, const char *upload,
                             size_t *upload_len, void **req)
{
    (void)version;
    (void)upload;
    (void)upload_len;
    (void)req;
    struct metrics *m = cls;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return MHD_NO;
    bool found = strcmp(url, "/metrics") == 0;
    static const char nf[] = "not found: the metrics are at /metrics\n";
    pthread_mutex_lock(&m->mu);
    struct MHD_Response *resp =
        found ? MHD_create_response_from_buffer(m->len, m->text ? m->text : (char *)"",
                                                MHD_RESPMEM_MUST_COPY)
              : MHD_create_response_from_buffer(sizeof nf - 1, (void *)nf, MHD_RESPMEM_PERSISTENT);
    pthread_mutex_unlock(&m->mu);
    if (resp == NULL)
        return MHD_NO;
    MHD_add_response_header(resp, "Content-Type",
                            found ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain");
    enum MHD_Result r = MHD_queue_response(c, found ? MHD_HTTP_OK : MHD_HTTP_NOT_FOUND, resp);
    MHD_destroy_response(resp);
    return r;
}

/* "ADDR:PORT" (ADDR an IPv4 address, empty or * for every interface) into sa. */
static bool parse_listen(const char *spec, struct sockaddr_in *sa)
{
    const char *colon = strrchr(spec, ':');
    if (colon == NULL)
        return false;
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || port < 1 || port > 65535)
        return false;
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_port = htons((uint16_t)port);
    char host[64];
    size_t hl = (size_t)(colon - spec);
    if (hl >= sizeof host)
        return false;
    memcpy(host, spec, hl);
    host[hl] = '\0';
    if (hl == 0 || strcmp(host, "*") == 0 || strcmp(host, "0.0.0.0") == 0) {
        sa->sin_addr.s_addr = htonl(INADDR_ANY);
        return true;
    }
    if (strcmp(host, "localhost") == 0)
        snprintf(host, sizeof host, "127.0.0.1");
    return inet_pton(AF_INET, host, &sa->sin_addr) == 1;
}

enum fl_status metrics_new(const char *listen, const char *textfile, struct metrics **out,
                           char *err, size_t errlen)
{
    *out = NULL;
    struct metrics *m = calloc(1, sizeof *m);
    if (m == NULL)
        return FL_ERR_NOMEM;
    pthread_mutex_init(&m->mu, NULL);
    if (textfile) {
        const char *slash = strrchr(textfile, '/');
        size_t dl = slash ? (size_t)(slash + 1 - textfile) : 0;
        size_t n = strlen(textfile) + 16;
        m->textfile = strdup(textfile);
        m->tmpfile = malloc(n);
        if (m->textfile == NULL || m->tmpfile == NULL) {
            metrics_free(m);
            return FL_ERR_NOMEM;
        }
        snprintf(m->tmpfile, n, "%.*s.%s.tmp", (int)dl, textfile, textfile + dl);
        FILE *f = fopen(textfile, "ae"); /* exists from the start: a watched folder skips it */
        if (f == NULL) {
            snprintf(err, errlen, "--metrics-textfile %s: %s", textfile, strerror(errno));
            metrics_free(m);
            return FL_ERR_IO;
        }
        fclose(f);
    }
    if (listen) {
        struct sockaddr_in sa;
        if (!parse_listen(listen, &sa)) {
            snprintf(err, errlen, "--metrics-listen %s: expected ADDR:PORT, e.g. 127.0.0.1:9464", listen);
            metrics_free(m);
            return FL_ERR_USAGE;
        }
        m->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL,
                                serve, m, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                                MHD_OPTION_CONNECTION_LIMIT, 16u,
                                MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
        if (m->d == NULL) {
            snprintf(err, errlen, "--metrics-listen %s: cannot listen (%s)", listen,
                     errno ? strerror(errno) : "address in use?");
            metrics_free(m);
            return FL_ERR_IO;
        }
    }
    *out = m;
    return FL_OK;
}

void metrics_free(struct metrics *m)
{
    if (m == NULL)
        return;
    if (m->d)
        MHD_stop_daemon(m->d);
    pthread_mutex_destroy(&m->mu);
    free(m->text);
    free(m->textfile);
    free(m->tmpfile);
    free(m);
}

void metrics_publish(struct metrics *m, const char *text, size_t len)
{
    if (m->d) {
        char *copy = malloc(len + 1);
        if (copy) {
            memcpy(copy, text, len);
            copy[len] = '\0';
            pthread_mutex_lock(&m->mu);
            free(m->text);
            m->text = copy;
            m->len = len;
            pthread_mutex_unlock(&m->mu);
        }
    }
    if (m->textfile) {
        FILE *f = fopen(m->tmpfile, "we");
        if (f == NULL)
            return;
        bool ok = fwrite(text, 1, len, f) == len;
        ok &= fclose(f) == 0;
        if (!ok || rename(m->tmpfile, m->textfile) != 0) {
            fprintf(stderr, "faultline: --metrics-textfile %s: %s\n", m->textfile, strerror(errno));
            unlink(m->tmpfile);
        }
    }
}
