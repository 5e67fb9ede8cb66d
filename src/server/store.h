/*
 * store.h — the server's SQLite database: API tokens (hashed), daily usage per token or address,
 * and the masked JSON reports of token holders (their history). Never the text of a log.
 *
 * The schema is versioned with PRAGMA user_version; store_open applies the migrations the file
 * lacks, in one transaction each. The database runs in WAL mode, and with secure_delete, so that
 * a deleted report's bytes are overwritten. One connection, serialized by SQLite, serves every
 * thread; every statement is short.
 */
#ifndef FL_SERVER_STORE_H
#define FL_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct store;

/* Opens (creates) the database at path (":memory:" for none on disk). On failure, a message in
 * err. */
int store_open(const char *path, struct store **out, char *err, size_t errlen);
void store_close(struct store *s);
int store_schema_version(struct store *s);

/* Tokens. A token is shown once, when added: only its SHA-256 is kept. */
int store_token_add(struct store *s, const char *name, unsigned per_day, char *token, size_t toklen,
                    char *err, size_t errlen);
int store_token_list(struct store *s, FILE *out);
int store_token_revoke(struct store *s, const char *name, char *err, size_t errlen);
/* The id and daily quota of a live token, or -1 when it is unknown or revoked. */
long store_token_check(struct store *s, const char *token, unsigned *per_day);

/* Counts one use by `who` today (UTC) if fewer than `limit` were counted; returns 1 when counted,
 * 0 when the quota is spent (then *retry_after is the seconds until it renews), -1 on error. */
int store_take(struct store *s, const char *who, unsigned limit, unsigned *retry_after);

/* History of a token: a masked report. */
int store_report_add(struct store *s, long token_id, const char *top_id, const char *json, size_t len);
/* A JSON array of the token's last `limit` reports (id, created, top diagnosis, report), newest
 * first, as a new string; NULL on error. */
char *store_history_json(struct store *s, long token_id, unsigned limit, size_t *len);
/* One report of the token's history, as a new string; NULL when the token has no such report. */
char *store_report_json(struct store *s, long token_id, long report_id, size_t *len);

#endif
