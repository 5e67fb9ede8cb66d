/*
 * webhook.c — alerts POSTed as JSON, on a thread of their own.
 *
 * A receiver that is slow or down must never stall the reader: the watcher only appends to a
 * bounded queue and signals; this thread sends with libcurl (connect and total timeouts), and
 * retries a failed POST (a transport error or a status other than 2xx) with exponential backoff,
 * then gives up with a message on stderr. Waits are on a condition variable, so stopping does not
 * sit out a backoff.
 *
 * libcurl is opened with dlopen when the first webhook is set up, not linked: it brings some twenty
 * libraries (TLS, HTTP/2, LDAP, Kerberos) that every other command would map at start-up.
 *
 * The body serves Slack and everything else at once: Slack's incoming webhooks read "text" (a
 * one-line summary) and ignore the rest; generic receivers read "faultline", the event object
 * exactly as --events writes it.
 */
#include "watch.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QUEUE_MAX 256

struct job {
    char *url;
    char *body;
};

/* The functions we use, typed by curl.h's own declarations. */
struct curl_api {
    void *lib;
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_global_cleanup) *global_cleanup;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_reset) *easy_reset;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_perform) *easy_perform;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
};

/* A symbol into its typed slot; POSIX makes dlsym's void * convertible to a function pointer. */
#define API_LOAD(api, field, sym)                                                                 \
    ((api)->field = (__typeof__((api)->field))dlsym((api)->lib, sym)) != NULL

static bool curl_api_open(struct curl_api *api)
{
    api->lib = dlopen(FL_LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (api->lib == NULL) {
        fprintf(stderr, "faultline: webhooks need libcurl (Debian: libcurl4): %s\n", dlerror());
        return false;
    }
    if (API_LOAD(api, global_init, "curl_global_init") &&
        API_LOAD(api, global_cleanup, "curl_global_cleanup") &&
        API_LOAD(api, easy_init, "curl_easy_init") &&
        API_LOAD(api, easy_cleanup, "curl_easy_cleanup") &&
        API_LOAD(api, easy_reset, "curl_easy_reset") &&
        API_LOAD(api, easy_setopt, "curl_easy_setopt") &&
        API_LOAD(api, easy_perform, "curl_easy_perform") &&
        API_LOAD(api, easy_getinfo, "curl_easy_getinfo") &&
        API_LOAD(api, easy_strerror, "curl_easy_strerror") &&
        API_LOAD(api, slist_append, "curl_slist_append") &&
        API_LOAD(api, slist_free_all, "curl_slist_free_all"))
        return true;
    fprintf(stderr, "faultline: webhooks: libcurl lacks a function: %s\n", dlerror());
    dlclose(api->lib);
    return false;
}

struct webhook {
    struct curl_api curl;
    char **urls;
    size_t nurls;
    unsigned retries, backoff_ms;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct job queue[QUEUE_MAX];
    size_t head, n;
    bool busy, stop;
};

static size_t discard(char *p, size_t size, size_t n, void *ctx)
{
    (void)p;
    (void)ctx;
    return size * n;
}

/* One POST: true when the receiver answered 2xx. */
static bool post(const struct curl_api *api, CURL *c, const char *url, const char *body,
                 char *why, size_t whylen)
{
    struct curl_slist *h = api->slist_append(NULL, "Content-Type: application/json");
    api->easy_reset(c);
    api->easy_setopt(c, CURLOPT_URL, url);
    api->easy_setopt(c, CURLOPT_POSTFIELDS, body);
    api->easy_setopt(c, CURLOPT_HTTPHEADER, h);
    api->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 3000L);
    api->easy_setopt(c, CURLOPT_TIMEOUT_MS, 10000L);
    api->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    api->easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    api->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    CURLcode rc = api->easy_perform(c);
    long status = 0;
    api->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    api->slist_free_all(h);
    if (rc != CURLE_OK) {
        snprintf(why, whylen, "%s", api->easy_strerror(rc));
        return false;
    }
    if (status < 200 || status > 299) {
        snprintf(why, whylen, "HTTP status %ld", status);
        return false;
    }
    return true;
}

/* The wall-clock time ms from now, as pthread_cond_timedwait takes it. */
static struct timespec deadline_in(unsigned ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    return until;
}

/* Sleeps ms unless stopped; the mutex is held on entry and exit. */
static void pause_ms(struct webhook *w, unsigned ms)
{
    struct timespec until = deadline_in(ms);
    while (!w->stop && pthread_cond_timedwait(&w->cv, &w->mu, &until) != ETIMEDOUT)
        ;
}

static void *sender(void *arg)
{
    struct webhook *w = arg;
    CURL *c = w->curl.easy_init();
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->n == 0 && !w->stop)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->n == 0 && w->stop)
            break;
        struct job j = w->queue[w->head];
        w->head = (w->head + 1) % QUEUE_MAX;
        w->n--;
        w->busy = true;
        char why[256] = "curl unavailable";
        bool ok = false;
        unsigned wait = w->backoff_ms;
        for (unsigned attempt = 0; attempt <= w->retries && c && !ok; attempt++) {
            if (attempt) {
                fprintf(stderr, "faultline: webhook %s: %s; retrying in %u ms (%u/%u)\n", j.url,
                        why, wait, attempt, w->retries);
                pause_ms(w, wait);
                wait *= 2;
                if (w->stop && attempt < w->retries) {
                    snprintf(why, sizeof why, "stopping");
                    break;
                }
            }
            pthread_mutex_unlock(&w->mu);
            ok = post(&w->curl, c, j.url, j.body, why, sizeof why);
            pthread_mutex_lock(&w->mu);
        }
        if (!ok)
            fprintf(stderr, "faultline: webhook %s: %s; alert given up after %u attempt(s)\n",
                    j.url, why, w->retries + 1);
        free(j.url);
        free(j.body);
        w->busy = false;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    if (c)
        w->curl.easy_cleanup(c);
    return NULL;
}

enum fl_status webhook_new(const char *const *urls, size_t nurls, unsigned retries,
                           unsigned backoff_ms, struct webhook **out)
{
    *out = NULL;
    struct webhook *w = calloc(1, sizeof *w);
    if (w == NULL || (w->urls = calloc(nurls, sizeof *w->urls)) == NULL) {
        free(w);
        return FL_ERR_NOMEM;
    }
    if (!curl_api_open(&w->curl)) {
        free(w->urls);
        free(w);
        return FL_ERR_INTERNAL;
    }
    if (w->curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        free(w->urls);
        free(w);
        return FL_ERR_INTERNAL;
    }
    for (size_t i = 0; i < nurls; i++)
        if ((w->urls[w->nurls] = strdup(urls[i])) != NULL)
            w->nurls++;
    w->retries = retries;
    w->backoff_ms = backoff_ms ? backoff_ms : 1;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->thread, NULL, sender, w) != 0) {
        w->curl.global_cleanup();
        for (size_t i = 0; i < w->nurls; i++)
            free(w->urls[i]);
        free(w->urls);
        free(w);
        return FL_ERR_INTERNAL;
    }
    *out = w;
    return FL_OK;
}

void webhook_send(struct webhook *w, const json_t *event, const char *summary)
{
    json_t *body = json_pack("{s:s, s:O}", "text", summary, "faultline", (json_t *)event);
    char *text = body ? json_dumps(body, EVENT_JSON) : NULL;
    json_decref(body);
    if (text == NULL)
        return;
    pthread_mutex_lock(&w->mu);
    for (size_t i = 0; i < w->nurls; i++) {
        if (w->n == QUEUE_MAX) {
            fprintf(stderr, "faultline: webhook %s: %d alerts already waiting; this one is dropped\n",
                    w->urls[i], QUEUE_MAX);
            continue;
        }
        struct job *j = &w->queue[(w->head + w->n) % QUEUE_MAX];
        j->url = strdup(w->urls[i]);
        j->body = strdup(text);
        if (j->url && j->body) {
            w->n++;
        } else {
            free(j->url);
            free(j->body);
        }
    }
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    free(text);
}

void webhook_free(struct webhook *w, unsigned wait_ms)
{
    if (w == NULL)
        return;
    pthread_mutex_lock(&w->mu);
    struct timespec until = deadline_in(wait_ms);
    while ((w->n > 0 || w->busy) &&
           pthread_cond_timedwait(&w->cv, &w->mu, &until) != ETIMEDOUT)
        ;
    if (w->n > 0)
        fprintf(stderr, "faultline: webhook: %zu alert(s) not sent before exit\n", w->n);
    w->stop = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    for (size_t i = 0; i < w->n; i++) {
        struct job *j = &w->queue[(w->head + i) % QUEUE_MAX];
        free(j->url);
        free(j->body);
    }
    for (size_t i = 0; i < w->nurls; i++)
        free(w->urls[i]);
    free(w->urls);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    w->curl.global_cleanup();
    free(w);
}
