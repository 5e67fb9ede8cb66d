/*
 * routes.c — what each path answers: the paste page and its form, samples, assets, the
 * encyclopedia, and the JSON API. The route table is the one place that lists them.
 */
#include "diagnose.h"
#include "embedded.h"
#include "http.h"
#include "kbindex.h"
#include "kbpages.h"
#include "render.h"
#include "store.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

int http_fail(struct request *rq, unsigned status, const char *msg);

static int html_answer(struct request *rq, unsigned status, char *body, size_t len)
{
    return respond(rq, status, "text/html; charset=utf-8", body, len, true);
}

/* ---------------------------------------------------------------- CSRF */

/* Double-submit token: a random value in a SameSite=Strict cookie, repeated in the form. A page
 * of another site can make a browser post the form, but can neither read nor set the cookie. */
static bool csrf_valid(const char *v)
{
    if (v == NULL || strlen(v) != 32)
        return false;
    for (const char *p = v; *p; p++)
        if (!isxdigit((unsigned char)*p))
            return false;
    return true;
}

static const char *csrf_cookie(struct request *rq, char fresh[33])
{
    const char *c = req_cookie(rq, "fl_csrf");
    if (csrf_valid(c))
        return c;
    unsigned char r[16];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
        return NULL;
    for (size_t i = 0; i < sizeof r; i++)
        sprintf(fresh + 2 * i, "%02x", r[i]);
    char cookie[128];
    snprintf(cookie, sizeof cookie, "fl_csrf=%s; Path=/; HttpOnly; SameSite=Strict", fresh);
    respond_header(rq, "Set-Cookie", cookie);
    return fresh;
}

/* A browser sends Origin with a form post; when it does, its host must be ours. */
static bool same_origin(struct request *rq)
{
    const char *origin = req_header(rq, "Origin"), *host = req_header(rq, "Host");
    if (origin == NULL)
        return true;
    const char *h = strstr(origin, "://");
    return host && h && strcmp(h + 3, host) == 0;
}

/* The token the form repeated (rq->csrf, NUL-terminated) is the one in its cookie. */
static bool csrf_matches(struct request *rq)
{
    const char *cookie = req_cookie(rq, "fl_csrf");
    return csrf_valid(cookie) && strcmp(cookie, rq->csrf) == 0;
}

/* Before a form's body is read: a post from this site, by a browser that holds the cookie. */
static bool form_may_post(struct request *rq)
{
    return same_origin(rq) && csrf_valid(req_cookie(rq, "fl_csrf"));
}

/* ---------------------------------------------------------------- pages */

static int index_answer(struct request *rq, unsigned status, const char *csrf, const char *error)
{
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f == NULL)
        return -1;
    render_index(f, csrf, error);
    fclose(f);
    return html_answer(rq, status, body, len);
}

static int page_index(struct request *rq)
{
    char fresh[33];
    const char *csrf = csrf_cookie(rq, fresh);
    if (csrf == NULL)
        return http_fail(rq, 500, "No random bytes for the form's token.");
    return index_answer(rq, 200, csrf, NULL);
}

static const char *asset_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    static const char *const types[][2] = {{".css", "text/css; charset=utf-8"},
                                           {".js", "text/javascript; charset=utf-8"},
                                           {".svg", "image/svg+xml"},
                                           {".png", "image/png"}};
    for (size_t i = 0; dot && i < sizeof types / sizeof *types; i++)
        if (strcmp(dot, types[i][0]) == 0)
            return types[i][1];
    return "application/octet-stream";
}

static int page_static(struct request *rq)
{
    const struct embedded_file *a = embedded_find(web_assets, web_assets_count, rq->tail);
    if (a == NULL)
        return http_fail(rq, 404, "No such file.");
    respond_header(rq, "Cache-Control", "public, max-age=3600");
    return respond_static(rq, 200, asset_type(a->path), a->data, a->len);
}

/* The result of one diagnosis: the page, or the JSON. */
static int answer_report(struct request *rq, struct ingest *in, bool page)
{
    struct diag_result r;
    enum fl_status st = diag_run(in->s, page, &r);
    if (st != FL_OK)
        return http_fail(rq, 500, fl_strerror(st));
    atomic_fetch_add(&rq->srv->metrics.bytes_diagnosed, in->bytes);
    if (r.top_id[0])
        serve_metrics_diagnosis(&rq->srv->metrics, rq->srv->kb, r.top_id);
    if (rq->token_id >= 0 && rq->srv->store)
        store_report_add(rq->srv->store, rq->token_id, r.top_id, r.json, r.json_len);
    int rc;
    if (page) {
        char *body = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&body, &len);
        if (f == NULL) {
            diag_result_free(&r);
            return -1;
        }
        int ok = render_result(f, rq->srv->idx, &r);
        fclose(f);
        if (ok != 0) {
            free(body);
            diag_result_free(&r);
            return http_fail(rq, 500, "The report could not be read back.");
        }
        rc = html_answer(rq, 200, body, len);
    } else {
        rc = respond(rq, 200, "application/json", r.json, r.json_len, true);
        r.json = NULL;
    }
    diag_result_free(&r);
    return rc;
}

static int page_sample(struct request *rq)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s/", rq->tail);
    size_t plen = strlen(prefix);
    struct ingest in;
    if (ingest_init(&in, rq->srv->kb) != FL_OK)
        return http_fail(rq, 500, "Out of memory.");
    for (size_t i = 0; i < sample_files_count; i++) {
        const struct embedded_file *e = &sample_files[i];
        if (strncmp(e->path, prefix, plen) != 0 || strcmp(e->path + plen, "README.md") == 0)
            continue;
        /* named as `faultline diagnose examples/NAME/FILE` names it, for the same JSON */
        char name[300];
        snprintf(name, sizeof name, "examples/%s", e->path);
        if (ingest_begin(&in, name) != FL_OK || ingest_write(&in, e->data, e->len) != FL_OK)
            break;
    }
    ingest_end(&in);
    int rc;
    if (in.sources == 0)
        rc = http_fail(rq, 404, "No such sample.");
    else
        rc = answer_report(rq, &in, strncmp(rq->path, "/api/", 5) != 0);
    ingest_free(&in);
    return rc;
}

/* ---------------------------------------------------------------- diagnosis bodies */

static bool is_form(struct request *rq)
{
    return strcmp(rq->route->path, "/diagnose") == 0;
}

static void fail(struct request *rq, unsigned status, const char *msg)
{
    if (rq->failed == 0) {
        rq->failed = status;
        snprintf(rq->failmsg, sizeof rq->failmsg, "%s", msg);
    }
}

static void feed(struct request *rq, const char *name, bool new_part, const char *data, size_t len)
{
    if (!rq->ingest_ready) {
        if (ingest_init(&rq->in, rq->srv->kb) != FL_OK) {
            fail(rq, 500, "Out of memory.");
            return;
        }
        rq->ingest_ready = true;
    }
    if ((new_part || !rq->in.running) && ingest_begin(&rq->in, name) != FL_OK) {
        fail(rq, 500, "The log could not be read.");
        return;
    }
    if (ingest_write(&rq->in, data, len) != FL_OK)
        fail(rq, 500, "The log could not be read.");
}

static enum MHD_Result part(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                            const char *content_type, const char *transfer_encoding,
                            const char *data, uint64_t off, size_t size)
{
    (void)kind;
    (void)content_type;
    (void)transfer_encoding;
    struct request *rq = cls;
    if (rq->failed)
        return MHD_NO;
    if (key == NULL)
        key = "";
    if (is_form(rq) && strcmp(key, "csrf") == 0) {
        if (rq->csrf_len + size >= sizeof rq->csrf) {
            fail(rq, 403, "The form's token is not valid.");
            return MHD_NO;
        }
        memcpy(rq->csrf + rq->csrf_len, data, size);
        rq->csrf_len += size;
        return MHD_YES;
    }
    if (is_form(rq) && !rq->csrf_done) {
        /* the token comes first in the form: nothing is read before it is checked */
        rq->csrf[rq->csrf_len] = '\0';
        rq->csrf_done = true;
        rq->csrf_ok = csrf_matches(rq);
        if (!rq->csrf_ok) {
            fail(rq, 403, "The form's token is missing or does not match: reload the page and paste again.");
            return MHD_NO;
        }
    }
    if (size == 0)
        return MHD_YES;
    /* a form's text field reads like standard input; a file keeps its name, for rank hints */
    char name[256];
    if (filename && *filename) {
        snprintf(name, sizeof name, "%s", filename);
        for (char *p = name; *p; p++)
            if ((unsigned char)*p < 0x20)
                *p = '_';
    } else {
        snprintf(name, sizeof name, "-");
    }
    bool new_part = off == 0 || !rq->part_open || strcmp(key, rq->part_key) != 0 ||
                    strcmp(name, rq->part_file) != 0;
    snprintf(rq->part_key, sizeof rq->part_key, "%s", key);
    snprintf(rq->part_file, sizeof rq->part_file, "%s", name);
    rq->part_open = true;
    feed(rq, name, new_part, data, size);
    return rq->failed ? MHD_NO : MHD_YES;
}

static const char *bearer(struct request *rq)
{
    const char *a = req_header(rq, MHD_HTTP_HEADER_AUTHORIZATION);
    if (a && strncasecmp(a, "Bearer ", 7) == 0)
        return a + 7;
    return NULL;
}

/* Who is asking, and may they: a token's quota, or the address's anonymous allowance. */
static int take_quota(struct request *rq)
{
    struct server *srv = rq->srv;
    char who[96];
    unsigned limit = srv->cfg.anon_per_day, retry = 0;
    const char *tok = bearer(rq);
    if (tok == NULL && is_form(rq))
        tok = req_cookie(rq, "fl_token"); /* signed in on the History page */
    if (tok) {
        unsigned per_day = 0;
        long id = srv->store ? store_token_check(srv->store, tok, &per_day) : -1;
        if (id < 0) {
            respond_header(rq, "WWW-Authenticate", "Bearer");
            return http_fail(rq, 401, "Unknown or revoked token.");
        }
        rq->token_id = id;
        limit = per_day;
        snprintf(who, sizeof who, "token:%ld", id);
    } else {
        snprintf(who, sizeof who, "addr:%s", rq->client);
    }
    int got = srv->store ? store_take(srv->store, who, limit, &retry) : 1;
    if (got < 0)
        return http_fail(rq, 503, "The usage database is not available.");
    if (got == 0) {
        char ra[16];
        snprintf(ra, sizeof ra, "%u", retry);
        respond_header(rq, "Retry-After", ra);
        atomic_fetch_add(&srv->metrics.rejected_quota, 1);
        return http_fail(rq, 429, tok ? "This token's diagnoses for today are spent."
                                      : "The diagnoses allowed per day without a token are spent: "
                                        "ask your team for an API token, or come back tomorrow.");
    }
    return 0;
}

static int diagnose_begin(struct request *rq)
{
    if (is_form(rq) && !form_may_post(rq))
        return http_fail(rq, 403, "The form's token is missing or does not match: reload the page and paste again.");
    int rc = take_quota(rq);
    if (rc != 0)
        return rc;
    const char *ct = req_header(rq, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (ct && strncasecmp(ct, "multipart/form-data", 19) == 0) {
        rq->pp = MHD_create_post_processor(rq->c, 65536, part, rq);
        if (rq->pp == NULL)
            return http_fail(rq, 400, "The multipart body has no boundary.");
    } else if (is_form(rq)) {
        return http_fail(rq, 400, "The form must be sent as multipart/form-data.");
    }
    return 0;
}

static int diagnose_data(struct request *rq, const char *buf, size_t len)
{
    if (rq->pp) {
        if (MHD_post_process(rq->pp, buf, len) != MHD_YES)
            fail(rq, 400, "The multipart body is malformed.");
    } else {
        /* a raw body, plain or compressed: the reader tells gzip, zstd and tar by their bytes */
        feed(rq, "-", false, buf, len);
    }
    return 0;
}

static int diagnose_answer(struct request *rq)
{
    if (rq->pp) {
        enum MHD_Result ok = MHD_destroy_post_processor(rq->pp);
        rq->pp = NULL;
        if (ok != MHD_YES)
            fail(rq, 400, "The multipart body is malformed or truncated.");
        if (is_form(rq) && !rq->csrf_done)
            fail(rq, 403, "The form's token is missing: reload the page and paste again.");
    }
    if (rq->failed)
        return http_fail(rq, rq->failed, rq->failmsg);
    if (rq->ingest_ready)
        ingest_end(&rq->in);
    if (!rq->ingest_ready || rq->in.sources == 0) {
        if (!is_form(rq))
            return http_fail(rq, 400, "Nothing to diagnose: the body is empty.");
        return index_answer(rq, 400, req_cookie(rq, "fl_csrf"),
                            "Nothing to diagnose: paste a log or choose a file.");
    }
    return answer_report(rq, &rq->in, is_form(rq));
}

void route_cleanup(struct request *rq);
void route_cleanup(struct request *rq)
{
    if (rq->pp)
        MHD_destroy_post_processor(rq->pp);
    rq->pp = NULL;
    if (rq->ingest_ready)
        ingest_free(&rq->in);
    rq->ingest_ready = false;
}

/* ---------------------------------------------------------------- history: sign in with a team token */

/* A token is "flt_" and base64url (store.c): anything else is not worth a database look-up,
 * and could not be put in a cookie safely. */
static bool token_shaped(const char *t)
{
    if (t == NULL || strncmp(t, "flt_", 4) != 0 || strlen(t) > 80)
        return false;
    for (const char *p = t + 4; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            return false;
    return t[4] != '\0';
}

/* The signed-in token's id, or -1. */
static long cookie_token(struct request *rq)
{
    const char *t = req_cookie(rq, "fl_token");
    unsigned per_day;
    return token_shaped(t) && rq->srv->store ? store_token_check(rq->srv->store, t, &per_day) : -1;
}

static int history_answer(struct request *rq, unsigned status, long token_id, const char *error)
{
    char fresh[33];
    const char *csrf = csrf_cookie(rq, fresh);
    if (csrf == NULL)
        return http_fail(rq, 500, "No random bytes for the form's token.");
    size_t hlen = 0;
    char *h = token_id >= 0 ? store_history_json(rq->srv->store, token_id, 100, &hlen) : NULL;
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f == NULL) {
        free(h);
        return -1;
    }
    render_history(f, csrf, h, error);
    fclose(f);
    free(h);
    respond_header(rq, "Cache-Control", "no-store");
    return html_answer(rq, status, body, len);
}

static int page_history(struct request *rq)
{
    return history_answer(rq, 200, cookie_token(rq), NULL);
}

static int page_history_report(struct request *rq)
{
    long id = cookie_token(rq);
    char *end;
    long rid = strtol(rq->tail, &end, 10);
    if (id < 0)
        return history_answer(rq, 401, -1, "Sign in with your team token to see its reports.");
    struct diag_result r = {0};
    if (*rq->tail == '\0' || *end != '\0' || (r.json = store_report_json(rq->srv->store, id, rid, &r.json_len)) == NULL)
        return http_fail(rq, 404, "No such report in this token's history.");
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f == NULL) {
        free(r.json);
        return -1;
    }
    int ok = render_result(f, rq->srv->idx, &r);
    fclose(f);
    free(r.json);
    if (ok != 0) {
        free(body);
        return http_fail(rq, 500, "The stored report could not be read back.");
    }
    respond_header(rq, "Cache-Control", "no-store");
    return html_answer(rq, 200, body, len);
}

static enum MHD_Result signin_field(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                    const char *content_type, const char *transfer_encoding,
                                    const char *data, uint64_t off, size_t size)
{
    (void)kind, (void)filename, (void)content_type, (void)transfer_encoding, (void)off;
    struct request *rq = cls;
    char *buf = NULL;
    size_t *n = NULL, cap = 0;
    if (key && strcmp(key, "csrf") == 0)
        buf = rq->csrf, n = &rq->csrf_len, cap = sizeof rq->csrf;
    else if (key && strcmp(key, "token") == 0)
        buf = rq->token, n = &rq->token_len, cap = sizeof rq->token;
    if (buf == NULL)
        return MHD_YES;
    if (*n + size >= cap) {
        fail(rq, 400, "The form's fields are too long.");
        return MHD_NO;
    }
    memcpy(buf + *n, data, size);
    *n += size;
    buf[*n] = '\0';
    return MHD_YES;
}

static int signin_begin(struct request *rq)
{
    if (!form_may_post(rq))
        return http_fail(rq, 403, "The form's token is missing or does not match: reload the page.");
    rq->pp = MHD_create_post_processor(rq->c, 4096, signin_field, rq);
    if (rq->pp == NULL)
        return http_fail(rq, 400, "The sign-in form must be sent as a form.");
    return 0;
}

static int signin_data(struct request *rq, const char *buf, size_t len)
{
    if (rq->body_bytes > 16384)
        fail(rq, 413, "The sign-in form is too large.");
    else if (!rq->failed && MHD_post_process(rq->pp, buf, len) != MHD_YES)
        fail(rq, 400, "The form is malformed.");
    return 0;
}

/* After the form, the browser goes to /history (303: a reload does not post again). */
static int see_other(struct request *rq, const char *where)
{
    respond_header(rq, "Location", where);
    return respond_static(rq, 303, "text/plain; charset=utf-8", "", 0);
}

static int form_token_ok(struct request *rq)
{
    if (rq->pp) {
        MHD_destroy_post_processor(rq->pp);
        rq->pp = NULL;
    }
    if (rq->failed)
        return http_fail(rq, rq->failed, rq->failmsg);
    if (!csrf_matches(rq))
        return http_fail(rq, 403, "The form's token is missing or does not match: reload the page.");
    return 0;
}

static int signin_answer(struct request *rq)
{
    int rc = form_token_ok(rq);
    if (rc != 0)
        return rc;
    unsigned per_day;
    long id = token_shaped(rq->token) && rq->srv->store ? store_token_check(rq->srv->store, rq->token, &per_day) : -1;
    if (id < 0)
        return history_answer(rq, 401, -1, "Unknown or revoked token.");
    /* the token itself, since only its hash is stored: HttpOnly (no script reads it) and
     * SameSite=Strict (no other site's page sends it) */
    char cookie[160];
    snprintf(cookie, sizeof cookie, "fl_token=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000", rq->token);
    respond_header(rq, "Set-Cookie", cookie);
    return see_other(rq, "/history");
}

static int signout_answer(struct request *rq)
{
    int rc = form_token_ok(rq);
    if (rc != 0)
        return rc;
    respond_header(rq, "Set-Cookie", "fl_token=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    return see_other(rq, "/history");
}

/* ---------------------------------------------------------------- encyclopedia pages */

static int page_kb(struct request *rq)
{
    struct kb_filter flt = {req_arg(rq, "category"), req_arg(rq, "tag"), req_arg(rq, "system"),
                            req_arg(rq, "q")};
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f == NULL)
        return -1;
    kbpage_index(f, rq->srv->idx, &flt, "/", 1);
    fclose(f);
    return html_answer(rq, 200, body, len);
}

static int page_kb_entry(struct request *rq)
{
    const struct kb_meta *m = kbindex_find(rq->srv->idx, rq->tail);
    if (m == NULL)
        return http_fail(rq, 404, "No such entry in the encyclopedia.");
    char fresh[33];
    const char *csrf = csrf_cookie(rq, fresh);
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f == NULL)
        return -1;
    kbpage_entry(f, rq->srv->idx, m, "/", 1, csrf ? csrf : "");
    fclose(f);
    return html_answer(rq, 200, body, len);
}

static int page_api(struct request *rq)
{
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f == NULL)
        return -1;
    page_begin(f, "API", "api", "/");
    fputs("<section class=\"card prose\"><h1>JSON API</h1>"
          "<p>Every answer is JSON; a diagnosis is exactly what <code>faultline diagnose --format json</code> "
          "prints for the same input.</p><table><thead><tr><th>Request</th><th>Answer</th></tr></thead><tbody>"
          "<tr><td><code>POST /api/v1/diagnose</code></td><td>A report. The body is a log (plain, gzip or zstd; "
          "a tar archive of a log folder), or multipart/form-data with several files. "
          "<code>Authorization: Bearer TOKEN</code> uses a team token's quota and keeps the masked report in its history.</td></tr>"
          "<tr><td><code>GET /api/v1/kb</code></td><td>The encyclopedia's entries.</td></tr>"
          "<tr><td><code>GET /api/v1/kb/ID</code></td><td>One entry, with its Markdown.</td></tr>"
          "<tr><td><code>GET /api/v1/history</code></td><td>A token's last masked reports (needs the token).</td></tr>"
          "<tr><td><code>GET /healthz</code></td><td><code>ok</code> while the server runs.</td></tr>"
          "<tr><td><code>GET /metrics</code></td><td>Prometheus counters.</td></tr></tbody></table>"
          "<div class=\"code\"><button type=\"button\" class=\"copy\" data-copy=\"curl\" hidden>Copy</button>"
          "<pre id=\"curl\"><code>curl --data-binary @train.log http://127.0.0.1:8080/api/v1/diagnose\n"
          "curl -F files=@rank0.log -F files=@rank1.log http://127.0.0.1:8080/api/v1/diagnose\n"
          "curl -H 'Content-Encoding: zstd' --data-binary @logs.tar.zst http://127.0.0.1:8080/api/v1/diagnose</code></pre></div>"
          "</section>\n", f);
    page_end(f);
    fclose(f);
    return html_answer(rq, 200, body, len);
}

/* ---------------------------------------------------------------- JSON API */

static int json_answer(struct request *rq, unsigned status, json_t *v)
{
    char *s = json_dumps(v, JSON_INDENT(2));
    json_decref(v);
    if (s == NULL)
        return -1;
    size_t n = strlen(s);
    char *body = realloc(s, n + 2);
    if (body == NULL) {
        free(s);
        return -1;
    }
    body[n] = '\n';
    return respond(rq, status, "application/json", body, n + 1, true);
}

static json_t *strlist_json(const struct strlist *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++)
        json_array_append_new(a, json_string(l->v[i]));
    return a;
}

static json_t *entry_json(const struct kb_meta *m, bool full)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", m->info.id, "title", m->info.title,
                          "category", m->info.category, "severity", m->info.severity, "role",
                          m->info.role);
    json_object_set_new(o, "tags", strlist_json(&m->tags));
    json_object_set_new(o, "systems", strlist_json(&m->systems));
    json_object_set_new(o, "related", strlist_json(&m->related));
    if (full)
        json_object_set_new(o, "markdown", json_string(m->info.markdown));
    return o;
}

static int api_kb(struct request *rq)
{
    const struct kbindex *x = rq->srv->idx;
    json_t *a = json_array();
    const char *q = req_arg(rq, "q");
    if (q && *q) {
        size_t hits[256];
        size_t n = kbindex_search(x, q, hits, 256);
        for (size_t i = 0; i < n; i++)
            json_array_append_new(a, entry_json(&x->e[hits[i]], false));
    } else {
        for (size_t i = 0; i < x->n; i++)
            json_array_append_new(a, entry_json(&x->e[i], false));
    }
    return json_answer(rq, 200, json_pack("{s:o}", "entries", a));
}

static int api_kb_entry(struct request *rq)
{
    const struct kb_meta *m = kbindex_find(rq->srv->idx, rq->tail);
    if (m == NULL)
        return http_fail(rq, 404, "No such entry.");
    return json_answer(rq, 200, entry_json(m, true));
}

static int api_history(struct request *rq)
{
    const char *tok = bearer(rq);
    unsigned per_day;
    long id = tok && rq->srv->store ? store_token_check(rq->srv->store, tok, &per_day) : -1;
    if (id < 0) {
        respond_header(rq, "WWW-Authenticate", "Bearer");
        return http_fail(rq, 401, "History needs a valid token: Authorization: Bearer TOKEN.");
    }
    const char *l = req_arg(rq, "limit");
    unsigned limit = l ? (unsigned)strtoul(l, NULL, 10) : 20;
    if (limit == 0 || limit > 200)
        limit = 20;
    size_t len = 0;
    char *s = store_history_json(rq->srv->store, id, limit, &len);
    if (s == NULL)
        return http_fail(rq, 503, "The history database is not available.");
    return respond(rq, 200, "application/json", s, len, true);
}

static int healthz(struct request *rq)
{
    return respond_static(rq, 200, "text/plain; charset=utf-8", "ok\n", 3);
}

static int metrics(struct request *rq)
{
    size_t len = 0;
    char *s = serve_metrics_text(rq->srv, &len);
    if (s == NULL)
        return -1;
    return respond(rq, 200, "text/plain; version=0.0.4; charset=utf-8", s, len, true);
}

const struct route routes[] = {
    {"GET", "/", 0, NULL, NULL, page_index},
    {"POST", "/diagnose", ROUTE_BODY, diagnose_begin, diagnose_data, diagnose_answer},
    {"GET", "/sample/", ROUTE_PREFIX, NULL, NULL, page_sample},
    {"GET", "/static/", ROUTE_PREFIX, NULL, NULL, page_static},
    {"GET", "/kb", 0, NULL, NULL, page_kb},
    {"GET", "/kb/", ROUTE_PREFIX, NULL, NULL, page_kb_entry},
    {"GET", "/history", 0, NULL, NULL, page_history},
    {"GET", "/history/", ROUTE_PREFIX, NULL, NULL, page_history_report},
    {"POST", "/signin", ROUTE_BODY, signin_begin, signin_data, signin_answer},
    {"POST", "/signout", ROUTE_BODY, signin_begin, signin_data, signout_answer},
    {"GET", "/api", 0, NULL, NULL, page_api},
    {"POST", "/api/v1/diagnose", ROUTE_BODY, diagnose_begin, diagnose_data, diagnose_answer},
    {"GET", "/api/v1/sample/", ROUTE_PREFIX, NULL, NULL, page_sample},
    {"GET", "/api/v1/kb", 0, NULL, NULL, api_kb},
    {"GET", "/api/v1/kb/", ROUTE_PREFIX, NULL, NULL, api_kb_entry},
    {"GET", "/api/v1/history", 0, NULL, NULL, api_history},
    {"GET", "/healthz", 0, NULL, NULL, healthz},
    {"GET", "/metrics", 0, NULL, NULL, metrics},
};
const size_t routes_count = sizeof routes / sizeof *routes;
