/*
 * http.h — one HTTP request as the routes see it, and the ways to answer it.
 *
 * libmicrohttpd calls the access handler several times per request: once with the headers, then
 * once per piece of body, then once more with nothing. A route that takes a body says so in its
 * flags; http.c then calls its `begin` with the headers (to refuse early: 413 on a declared
 * length past the cap, 429 past a quota), its `data` per piece, and its `answer` at the end.
 */
#ifndef FL_SERVER_HTTP_H
#define FL_SERVER_HTTP_H

#include "ingest.h"
#include "server.h"

#include <microhttpd.h>
#include <stdbool.h>
#include <stdint.h>

struct request;

enum route_flags {
    ROUTE_PREFIX = 1, /* the path starts with the pattern; the rest is in rq->tail */
    ROUTE_BODY = 2,   /* takes a body: begin, data, answer */
};

struct route {
    const char *method;
    const char *path;
    unsigned flags;
    /* for ROUTE_BODY: 0 to go on, or a status already answered */
    int (*begin)(struct request *rq);
    int (*data)(struct request *rq, const char *buf, size_t len);
    /* queues the answer; returns 0, or -1 when nothing could be queued */
    int (*answer)(struct request *rq);
};

struct request {
    struct server *srv;
    struct MHD_Connection *c;
    const struct route *route;
    const char *method, *path, *tail;
    char client[64];
    uint64_t start_us;
    unsigned status;
    uint64_t bytes_out;
    bool answered;
    /* a body route's state */
    uint64_t body_bytes;
    unsigned failed;        /* a status decided while reading the body (400, 403, 408, 413) */
    char failmsg[200];
    struct MHD_PostProcessor *pp;
    struct ingest in;
    bool ingest_ready;
    char csrf[80];
    size_t csrf_len;
    bool csrf_ok, csrf_done;
    char part_key[64], part_file[256];
    bool part_open;
    long token_id;          /* -1: anonymous */
    char token[96];         /* the sign-in form's token field */
    size_t token_len;
    struct {
        char name[32], value[200];
    } extra[4];             /* headers for the answer: Set-Cookie, Retry-After */
    int nextra;
};

extern const struct route routes[];
extern const size_t routes_count;

uint64_t now_us(void);

/* Queues an answer with the security headers. Takes ownership of body when `owned`. */
int respond(struct request *rq, unsigned status, const char *ctype, char *body, size_t len, bool owned);
int respond_static(struct request *rq, unsigned status, const char *ctype, const void *body, size_t len);
/* Adds a header to the next respond (at most a few per request). */
void respond_header(struct request *rq, const char *name, const char *value);
/* A request header, or NULL. */
const char *req_header(struct request *rq, const char *name);
const char *req_cookie(struct request *rq, const char *name);
const char *req_arg(struct request *rq, const char *name);

#endif
