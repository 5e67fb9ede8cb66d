/*
 * cmd_serve.c — `faultline serve`: options and configuration file, `serve token add|list|revoke`,
 * and the server's start-up and shutdown around http_run.
 *
 * The configuration file is a YAML mapping (libyaml) with the long options' names as keys
 * (listen, db, kb, anon-per-day, token-per-day, max-body-mb, max-connections,
 * connection-timeout, request-timeout, access-log); options on the command line win over it.
 */
#include "../app/app.h"
#include "kbindex.h"
#include "server.h"
#include "store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static void help(FILE *out)
{
    fputs("usage: faultline serve [--listen ADDR:PORT] [--db PATH] [--kb DIR] [--config FILE]\n"
          "       faultline serve token add NAME [--per-day N] [--db PATH]\n"
          "       faultline serve token list|revoke NAME [--db PATH]\n"
          "\n"
          "Serves the diagnosis page, the encyclopedia and the JSON API. Logs are masked and never\n"
          "stored; reports of token holders are kept, masked, in the database.\n"
          "\n"
          "options:\n"
          "  --listen ADDR:PORT      where to listen (default 127.0.0.1:8080; port 0 picks one)\n"
          "  --db PATH               SQLite database for tokens, usage and history\n"
          "                          (default faultline-serve.db)\n"
          "  --kb DIR                add the knowledge-base entries under DIR; repeatable\n"
          "  --config FILE           a YAML mapping of these options (the command line wins)\n"
          "  --anon-per-day N        diagnoses per day per address without a token (default 50)\n"
          "  --token-per-day N       default daily quota of a new token (default 5000)\n"
          "  --max-body-mb N         largest request body, in MiB (default 4096; 413 past it)\n"
          "  --max-connections N     connections at once (default 64)\n"
          "  --connection-timeout S  idle seconds before a connection is closed (default 30)\n"
          "  --request-timeout S     seconds one request may take in all (default 600)\n"
          "  --access-log PATH       one line per request, never a body (- for stderr, the default)\n"
          "  -h, --help              this help\n",
          out);
}

struct opts {
    struct serve_config cfg;
    char *owned[64]; /* strings from the configuration file */
    int nowned;
};

static int set_option(struct opts *o, const char *key, const char *val)
{
    struct serve_config *c = &o->cfg;
    char *end = NULL;
    unsigned long long n = strtoull(val, &end, 10);
    bool num = end && *end == '\0' && *val;
    if (strcmp(key, "listen") == 0)
        snprintf(c->listen, sizeof c->listen, "%s", val);
    else if (strcmp(key, "db") == 0)
        c->db_path = val;
    else if (strcmp(key, "kb") == 0) {
        if (c->nkb == SERVE_MAX_KB_DIRS)
            return -1;
        c->kb_dirs[c->nkb++] = val;
    } else if (strcmp(key, "access-log") == 0)
        snprintf(c->access_log, sizeof c->access_log, "%s", val);
    else if (!num)
        return -1;
    else if (strcmp(key, "anon-per-day") == 0)
        c->anon_per_day = (unsigned)n;
    else if (strcmp(key, "token-per-day") == 0)
        c->token_per_day = (unsigned)n;
    else if (strcmp(key, "max-body-mb") == 0 && n > 0)
        c->max_body = n << 20;
    else if (strcmp(key, "max-connections") == 0 && n > 0)
        c->max_connections = (unsigned)n;
    else if (strcmp(key, "connection-timeout") == 0)
        c->connection_timeout_s = (unsigned)n;
    else if (strcmp(key, "request-timeout") == 0)
        c->request_timeout_s = (unsigned)n;
    else
        return -1;
    return 0;
}

static int load_config(struct opts *o, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "faultline: %s: %s\n", path, strerror(errno));
        return -1;
    }
    yaml_parser_t p;
    yaml_document_t doc;
    int rc = -1;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, f);
    if (!yaml_parser_load(&p, &doc)) {
        fprintf(stderr, "faultline: %s:%zu: %s\n", path, p.problem_mark.line + 1,
                p.problem ? p.problem : "not YAML");
        goto out_parser;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root == NULL || root->type != YAML_MAPPING_NODE) {
        fprintf(stderr, "faultline: %s: expected a mapping of options\n", path);
        goto out_doc;
    }
    rc = 0;
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(&doc, pr->key), *v = yaml_document_get_node(&doc, pr->value);
        yaml_node_item_t one = pr->value, *items = &one, *top = &one + 1;
        if (v && v->type == YAML_SEQUENCE_NODE) {
            items = v->data.sequence.items.start;
            top = v->data.sequence.items.top;
        }
        for (yaml_node_item_t *it = items; it < top; it++) {
            yaml_node_t *s = yaml_document_get_node(&doc, *it);
            if (k == NULL || k->type != YAML_SCALAR_NODE || s == NULL || s->type != YAML_SCALAR_NODE ||
                o->nowned == 64) {
                fprintf(stderr, "faultline: %s:%zu: expected option: value\n", path,
                        (k ? k->start_mark.line : 0) + 1);
                rc = -1;
                continue;
            }
            char *val = strdup((const char *)s->data.scalar.value);
            if (val == NULL) {
                rc = -1;
                continue;
            }
            o->owned[o->nowned++] = val;
            if (set_option(o, (const char *)k->data.scalar.value, val) != 0) {
                fprintf(stderr, "faultline: %s:%zu: unknown option or bad value '%s: %s'\n", path,
                        k->start_mark.line + 1, k->data.scalar.value, val);
                rc = -1;
            }
        }
    }
out_doc:
    yaml_document_delete(&doc);
out_parser:
    yaml_parser_delete(&p);
    fclose(f);
    return rc;
}

static void defaults(struct serve_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->listen, sizeof c->listen, "127.0.0.1:8080");
    c->db_path = "faultline-serve.db";
    c->anon_per_day = 50;
    c->token_per_day = 5000;
    c->max_body = 4096ull << 20;
    c->max_connections = 64;
    c->connection_timeout_s = 30;
    c->request_timeout_s = 600;
    snprintf(c->access_log, sizeof c->access_log, "-");
}

static int cmd_token(struct opts *o, int argc, char **argv)
{
    if (argc < 1) {
        help(stderr);
        return 2;
    }
    const char *sub = argv[0], *name = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    unsigned per_day = o->cfg.token_per_day;
    for (int i = name ? 2 : 1; i < argc; i++) {
        if (strcmp(argv[i], "--per-day") == 0 && i + 1 < argc)
            per_day = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            o->cfg.db_path = argv[++i];
        else {
            fprintf(stderr, "faultline: serve token: unknown or incomplete option '%s'\n", argv[i]);
            return 2;
        }
    }
    if ((strcmp(sub, "add") == 0 || strcmp(sub, "revoke") == 0) && name == NULL) {
        fprintf(stderr, "faultline: serve token %s needs a NAME\n", sub);
        return 2;
    }
    struct store *s;
    char err[512];
    if (store_open(o->cfg.db_path, &s, err, sizeof err) != 0) {
        fprintf(stderr, "faultline: %s\n", err);
        return 2;
    }
    int rc = 0;
    if (strcmp(sub, "add") == 0) {
        char tok[128];
        if (store_token_add(s, name, per_day, tok, sizeof tok, err, sizeof err) != 0) {
            fprintf(stderr, "faultline: %s\n", err);
            rc = 2;
        } else {
            /* shown once: only its hash is kept */
            printf("%s\n", tok);
            fprintf(stderr, "faultline: token '%s' added (%u diagnoses a day); keep it now, it is not shown again\n",
                    name, per_day);
        }
    } else if (strcmp(sub, "list") == 0) {
        rc = store_token_list(s, stdout) == 0 ? 0 : 2;
    } else if (strcmp(sub, "revoke") == 0) {
        if (store_token_revoke(s, name, err, sizeof err) != 0) {
            fprintf(stderr, "faultline: %s\n", err);
            rc = 2;
        }
    } else {
        fprintf(stderr, "faultline: serve token: unknown subcommand '%s' (add, list, revoke)\n", sub);
        rc = 2;
    }
    store_close(s);
    return rc;
}

static int run(struct serve_config *cfg)
{
    struct server srv = {.cfg = *cfg};
    int rc = 2;
    char err[512];
    pthread_mutex_init(&srv.log_lock, NULL);
    if ((srv.kb = app_load_kb(cfg->kb_dirs, cfg->nkb)) == NULL)
        goto out;
    if (kbindex_new(srv.kb, &srv.idx, err, sizeof err) != 0) {
        fprintf(stderr, "faultline: %s\n", err);
        goto out;
    }
    if (store_open(cfg->db_path, &srv.store, err, sizeof err) != 0) {
        fprintf(stderr, "faultline: %s\n", err);
        goto out;
    }
    serve_metrics_init(&srv.metrics, fl_kb_count(srv.kb));
    if (strcmp(cfg->access_log, "-") == 0) {
        srv.log = stderr;
    } else if (cfg->access_log[0] && (srv.log = fopen(cfg->access_log, "a")) == NULL) {
        fprintf(stderr, "faultline: %s: %s\n", cfg->access_log, strerror(errno));
        goto out;
    }
    rc = http_run(&srv);
out:
    if (srv.log && srv.log != stderr)
        fclose(srv.log);
    serve_metrics_free(&srv.metrics);
    store_close(srv.store);
    kbindex_free(srv.idx);
    fl_kb_free(srv.kb);
    pthread_mutex_destroy(&srv.log_lock);
    return rc;
}

int cmd_serve(int argc, char **argv)
{
    struct opts o;
    defaults(&o.cfg);
    o.nowned = 0;
    int rc = 2;
    /* the configuration file first, so that the command line wins */
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--config") == 0 && load_config(&o, argv[i + 1]) != 0)
            goto out;
    if (argc > 1 && strcmp(argv[1], "token") == 0) {
        rc = cmd_token(&o, argc - 2, argv + 2);
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            help(stdout);
            rc = 0;
            goto out;
        }
        if (strcmp(a, "--config") == 0 && val) {
            i++;
            continue;
        }
        if (strncmp(a, "--", 2) == 0 && val && set_option(&o, a + 2, val) == 0) {
            i++;
            continue;
        }
        fprintf(stderr, "faultline: serve: unknown option, bad value or missing value: '%s'\n", a);
        help(stderr);
        goto out;
    }
    rc = run(&o.cfg);
out:
    for (int i = 0; i < o.nowned; i++)
        free(o.owned[i]);
    return rc;
}
