/*
 * http.c — the HTTP server: libmicrohttpd with a thread per connection, the access handler
 * that walks the route table, security headers, limits, the access log and a clean shutdown.
 *
 * A thread per connection because a diagnosis reads its body through a pipe into the library's
 * reader (ingest.h): the connection's thread blocks while the reader is behind, which is the
 * back-pressure that keeps a 1 GB upload in bounded memory, and which a shared event loop could
 * not afford. The connection cap bounds the threads.
 */
#include "http.h"
#include "render.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Pages and assets are the program's own; nothing runs inline, nothing is framed. */
static const char *const security_headers[][2] = {
    {"Content-Security-Policy",
     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"},
    {"X-Content-Type-Options", "nosniff"},
    {"X-Frame-Options", "DENY"},
    /* same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the
     * form, and the CSRF check could not tell our own form from a sandboxed frame */
    {"Referrer-Policy", "same-origin"},
    {"Cross-Origin-Opener-Policy", "same-origin"},
};

void respond_header(struct request *rq, const char *name, const char *value)
{
    if (rq->nextra >= (int)(sizeof rq->extra / sizeof *rq->extra))
        return;
    snprintf(rq->extra[rq->nextra].name, sizeof rq->extra[0].name, "%s", name);
    snprintf(rq->extra[rq->nextra].value, sizeof rq->extra[0].value, "%s", value);
    rq->nextra++;
}

static int queue(struct request *rq, unsigned status, const char *ctype, struct MHD_Response *r,
                 size_t len)
{
    if (r == NULL)
        return -1;
    for (size_t i = 0; i < sizeof security_headers / sizeof *security_headers; i++)
        MHD_add_response_header(r, security_headers[i][0], security_headers[i][1]);
    MHD_add_response_header(r, "Content-Type", ctype);
    if (strncmp(ctype, "text/html", 9) == 0 || strncmp(rq->path, "/api/", 5) == 0)
        MHD_add_response_header(r, "Cache-Control", "no-store");
    for (int i = 0; i < rq->nextra; i++)
        MHD_add_response_header(r, rq->extra[i].name, rq->extra[i].value);
    enum MHD_Result ok = MHD_queue_response(rq->c, status, r);
    MHD_destroy_response(r);
    if (ok != MHD_YES)
        return -1;
    rq->status = status;
    rq->bytes_out = len;
    rq->answered = true;
    return 0;
}

int respond(struct request *rq, unsigned status, const char *ctype, char *body, size_t len, bool owned)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, body, owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_MUST_COPY);
    if (r == NULL && owned)
        free(body);
    return queue(rq, status, ctype, r, len);
}

int respond_static(struct request *rq, unsigned status, const char *ctype, const void *body, size_t len)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_PERSISTENT);
    return queue(rq, status, ctype, r, len);
}

const char *req_header(struct request *rq, const char *name)
{
    return MHD_lookup_connection_value(rq->c, MHD_HEADER_KIND, name);
}

const char *req_cookie(struct request *rq, const char *name)
{
    return MHD_lookup_connection_value(rq->c, MHD_COOKIE_KIND, name);
}

const char *req_arg(struct request *rq, const char *name)
{
    return MHD_lookup_connection_value(rq->c, MHD_GET_ARGUMENT_KIND, name);
}

static const struct route *match(const char *method, const char *path, const char **tail,
                                 bool *method_ok)
{
    *method_ok = true;
    bool path_seen = false;
    for (size_t i = 0; i < routes_count; i++) {
        const struct route *r = &routes[i];
        size_t n = strlen(r->path);
        bool hit = (r->flags & ROUTE_PREFIX) ? strncmp(path, r->path, n) == 0 && path[n] != '\0'
                                            : strcmp(path, r->path) == 0;
        if (!hit)
            continue;
        path_seen = true;
        if (strcmp(method, r->method) == 0 || (strcmp(method, "HEAD") == 0 && strcmp(r->method, "GET") == 0)) {
            *tail = path + ((r->flags & ROUTE_PREFIX) ? n : strlen(path));
            return r;
        }
    }
    *method_ok = !path_seen;
    return NULL;
}

static void plain(struct request *rq, unsigned status, const char *msg)
{
    if (strncmp(rq->path, "/api/", 5) == 0 || strcmp(rq->path, "/healthz") == 0 ||
        strcmp(rq->path, "/metrics") == 0) {
        char *body = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&body, &len);
        if (f == NULL)
            return;
        /* a JSON string: the message is ours, but quote it properly all the same */
        fputs("{\"error\": \"", f);
        for (const char *p = msg; *p; p++) {
            if (*p == '"' || *p == '\\')
                fputc('\\', f);
            if ((unsigned char)*p >= 0x20)
                fputc(*p, f);
        }
        fprintf(f, "\", \"status\": %u}\n", status);
        fclose(f);
        respond(rq, status, "application/json", body, len, true);
        return;
    }
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f == NULL)
        return;
    render_error(f, status, msg);
    fclose(f);
    respond(rq, status, "text/html; charset=utf-8", body, len, true);
}

int http_fail(struct request *rq, unsigned status, const char *msg);
int http_fail(struct request *rq, unsigned status, const char *msg)
{
    plain(rq, status, msg);
    return (int)status;
}

/* A connection's state: whether it has begun a request. A connection accepted just before
 * SIGTERM, whose request line is still in the socket, is waited for like a request in flight. */
struct conn {
    bool begun;
};

static void connection_event(void *cls, struct MHD_Connection *c, void **socket_context,
                             enum MHD_ConnectionNotificationCode code)
{
    (void)c;
    struct server *srv = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct conn *k = calloc(1, sizeof *k);
        *socket_context = k;
        if (k)
            atomic_fetch_add(&srv->conns_fresh, 1);
    } else {
        struct conn *k = *socket_context;
        if (k && !k->begun)
            atomic_fetch_sub(&srv->conns_fresh, 1);
        free(k);
        *socket_context = NULL;
    }
}

static void connection_begun(struct server *srv, struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    struct conn *k = ci ? ci->socket_context : NULL;
    if (k && !k->begun) {
        k->begun = true;
        atomic_fetch_sub(&srv->conns_fresh, 1);
    }
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
                               const char *method, const char *version, const char *upload_data,
                               size_t *upload_data_size, void **con_cls)
{
    (void)version;
    struct server *srv = cls;
    struct request *rq = *con_cls;
    if (rq == NULL) {
        rq = calloc(1, sizeof *rq);
        if (rq == NULL)
            return MHD_NO;
        *con_cls = rq;
        rq->srv = srv;
        rq->c = c;
        rq->start_us = now_us();
        rq->method = method;
        rq->path = url;
        rq->token_id = -1;
        atomic_fetch_add(&srv->in_flight, 1);
        connection_begun(srv, c);
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (ci && ci->client_addr) {
            const struct sockaddr *sa = ci->client_addr;
            if (sa->sa_family == AF_INET)
                inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, rq->client, sizeof rq->client);
            else if (sa->sa_family == AF_INET6)
                inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, rq->client, sizeof rq->client);
        }
        bool method_ok;
        rq->route = match(method, url, &rq->tail, &method_ok);
        if (rq->route == NULL) {
            if (!method_ok)
                respond_header(rq, "Allow", "GET, HEAD, POST");
            plain(rq, method_ok ? 404 : 405, method_ok ? "No such page." : "Method not allowed here.");
            return rq->answered ? MHD_YES : MHD_NO;
        }
        if (rq->route->flags & ROUTE_BODY) {
            const char *cl = req_header(rq, MHD_HTTP_HEADER_CONTENT_LENGTH);
            if (cl && strtoull(cl, NULL, 10) > srv->cfg.max_body) {
                http_fail(rq, 413, "The log is larger than this server accepts.");
                return rq->answered ? MHD_YES : MHD_NO;
            }
            if (rq->route->begin(rq) != 0)
                return rq->answered ? MHD_YES : MHD_NO;
        }
        return MHD_YES;
    }
    if (rq->answered) {
        /* answered before the body ended: the rest of the body is read and dropped */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        rq->body_bytes += n;
        /* the whole time a request may take: past it the connection is dropped, because an
         * answer can only be sent once the body has been read (libmicrohttpd's rule) */
        if (srv->cfg.request_timeout_s &&
            now_us() - rq->start_us > (uint64_t)srv->cfg.request_timeout_s * 1000000u)
            return MHD_NO;
        if (rq->failed)
            return MHD_YES; /* the rest of the body is read and dropped; the answer comes at its end */
        if (rq->body_bytes > srv->cfg.max_body) {
            rq->failed = 413;
            snprintf(rq->failmsg, sizeof rq->failmsg, "The log is larger than this server accepts.");
            return MHD_YES;
        }
        rq->route->data(rq, upload_data, n);
        return MHD_YES;
    }
    if (rq->failed)
        http_fail(rq, rq->failed, rq->failmsg);
    else if (rq->route->answer(rq) != 0 && !rq->answered)
        http_fail(rq, 500, "The answer could not be written.");
    return rq->answered ? MHD_YES : MHD_NO;
}

void route_cleanup(struct request *rq);

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    (void)c;
    struct server *srv = cls;
    struct request *rq = *con_cls;
    if (rq == NULL)
        return;
    route_cleanup(rq);
    uint64_t us = now_us() - rq->start_us;
    unsigned status = rq->answered ? rq->status : 499;
    serve_metrics_request(&srv->metrics, status, us);
    if (srv->log) {
        /* the access log names the request, never its body nor its query string */
        char when[32];
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        pthread_mutex_lock(&srv->log_lock);
        fprintf(srv->log, "%s %s %s %.*s %u %llu %llu %.3f%s\n", when, rq->client[0] ? rq->client : "-",
                rq->method, (int)strcspn(rq->path, "?"), rq->path, status,
                (unsigned long long)rq->body_bytes, (unsigned long long)rq->bytes_out, (double)us / 1000.0,
                toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" : " aborted");
        fflush(srv->log);
        pthread_mutex_unlock(&srv->log_lock);
    }
    atomic_fetch_sub(&srv->in_flight, 1);
    free(rq);
    *con_cls = NULL;
}

static int parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len)
{
    char host[128];
    const char *colon = strrchr(s, ':');
    if (colon == NULL || colon == s || (size_t)(colon - s) >= sizeof host)
        return -1;
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || port < 0 || port > 65535)
        return -1;
    snprintf(host, sizeof host, "%.*s", (int)(colon - s), s);
    char *h = host;
    if (h[0] == '[' && h[strlen(h) - 1] == ']') {
        h[strlen(h) - 1] = '\0';
        h++;
    }
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
    if (inet_pton(AF_INET, h, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        *len = sizeof *a4;
        return 0;
    }
    if (inet_pton(AF_INET6, h, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        *len = sizeof *a6;
        return 1;
    }
    return -1;
}

int http_run(struct server *srv)
{
    struct sockaddr_storage ss;
    socklen_t sslen;
    int fam = parse_listen(srv->cfg.listen, &ss, &sslen);
    if (fam < 0) {
        fprintf(stderr, "faultline: --listen takes ADDR:PORT (an IP address), not '%s'\n", srv->cfg.listen);
        return 2;
    }
    /* SIGTERM and SIGINT are taken by sigwait below; every thread inherits the mask */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_ERROR_LOG | MHD_USE_ITC | (fam == 1 ? MHD_USE_IPv6 : 0);
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, handler, srv,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
        MHD_OPTION_NOTIFY_COMPLETED, completed, srv,
        MHD_OPTION_NOTIFY_CONNECTION, connection_event, srv,
        MHD_OPTION_CONNECTION_LIMIT, srv->cfg.max_connections,
        MHD_OPTION_CONNECTION_TIMEOUT, srv->cfg.connection_timeout_s,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024),
        MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
        MHD_OPTION_END);
    if (d == NULL) {
        fprintf(stderr, "faultline: cannot listen on %s: %s\n", srv->cfg.listen, strerror(errno));
        return 2;
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    char shown[160];
    snprintf(shown, sizeof shown, "%s", srv->cfg.listen);
    if (di && di->port)
        snprintf(strrchr(shown, ':') + 1, sizeof shown - (size_t)(strrchr(shown, ':') + 1 - shown), "%u",
                 (unsigned)di->port);
    fprintf(stderr, "faultline: serving on http://%s/ (%zu knowledge-base entries); SIGTERM stops\n",
            shown, fl_kb_count(srv->kb));
    int sig = 0;
    sigwait(&sigs, &sig);
    /* stop accepting, then let the requests in flight finish before the daemon goes */
    MHD_quiesce_daemon(d);
    fprintf(stderr, "faultline: %s received, finishing %d request(s) in flight\n",
            sig == SIGTERM ? "SIGTERM" : "SIGINT", atomic_load(&srv->in_flight));
    /* requests in flight, and for a short while connections accepted but not yet read (they may
     * be idle pre-connections, which a browser opens and never uses) */
    uint64_t start = now_us();
    uint64_t deadline = start + (uint64_t)(srv->cfg.request_timeout_s ? srv->cfg.request_timeout_s : 60) * 1000000u;
    while (now_us() < deadline &&
           (atomic_load(&srv->in_flight) > 0 ||
            (atomic_load(&srv->conns_fresh) > 0 && now_us() - start < 2000000u)))
        usleep(10000);
    MHD_stop_daemon(d);
    fprintf(stderr, "faultline: stopped\n");
    return 0;
}
