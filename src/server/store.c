/*
 * store.c — SQLite tokens, usage and history (store.h).
 *
 * Tokens are 32 random bytes from getrandom(2); what is kept is their SHA-256 (nettle, Debian's
 * nettle-dev: the smallest packaged library with the hash). A slow password hash would add
 * nothing here: the tokens are random, not chosen by people, so there is no dictionary to try.
 */
#include "store.h"

#include <nettle/sha2.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

struct store {
    sqlite3 *db;
};

/* Migration i takes the schema from version i to i + 1. Append only; never edit a shipped one. */
static const char *const migrations[] = {
    "CREATE TABLE token(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL,"
    " hash TEXT UNIQUE NOT NULL, per_day INTEGER NOT NULL, created TEXT NOT NULL, revoked TEXT);"
    "CREATE TABLE usage(who TEXT NOT NULL, day TEXT NOT NULL, n INTEGER NOT NULL,"
    " PRIMARY KEY(who, day)) WITHOUT ROWID;"
    "CREATE TABLE report(id INTEGER PRIMARY KEY, token_id INTEGER NOT NULL REFERENCES token(id),"
    " created TEXT NOT NULL, top_id TEXT NOT NULL, json TEXT NOT NULL);"
    "CREATE INDEX report_by_token ON report(token_id, id);",
};

static void set_err(char *err, size_t errlen, sqlite3 *db, const char *what)
{
    if (err)
        snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

int store_schema_version(struct store *s)
{
    sqlite3_stmt *st;
    int v = -1;
    if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

static int migrate(struct store *s, char *err, size_t errlen)
{
    int have = store_schema_version(s), want = (int)(sizeof migrations / sizeof *migrations);
    if (have > want) {
        snprintf(err, errlen, "the database has schema version %d; this faultline knows up to %d",
                 have, want);
        return -1;
    }
    for (int v = have; v < want; v++) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d;", v + 1);
        if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(s->db, migrations[v], NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(s->db, pragma, NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
            set_err(err, errlen, s->db, "schema migration");
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    return 0;
}

int store_open(const char *path, struct store **out, char *err, size_t errlen)
{
    struct store *s = calloc(1, sizeof *s);
    if (s == NULL)
        return -1;
    int rc = sqlite3_open_v2(path, &s->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc == SQLITE_OK)
        sqlite3_busy_timeout(s->db, 5000);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                                 " PRAGMA secure_delete=ON; PRAGMA foreign_keys=ON;", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        set_err(err, errlen, s->db, path);
        store_close(s);
        return -1;
    }
    if (migrate(s, err, errlen) != 0) {
        store_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

void store_close(struct store *s)
{
    if (s == NULL)
        return;
    sqlite3_close(s->db);
    free(s);
}

static void hash_hex(const char *token, char hex[2 * SHA256_DIGEST_SIZE + 1])
{
    struct sha256_ctx c;
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    sha256_update(&c, strlen(token), (const uint8_t *)token);
    sha256_digest(&c, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++)
        sprintf(hex + 2 * i, "%02x", d[i]);
}

static void utc_now(char *buf, size_t n, const char *fmt)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, fmt, &tm);
}

int store_token_add(struct store *s, const char *name, unsigned per_day, char *token, size_t toklen,
                    char *err, size_t errlen)
{
    static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    unsigned char rnd[32];
    if (toklen < 4 + 2 * sizeof rnd || getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        snprintf(err, errlen, "no random bytes");
        return -1;
    }
    char *p = token + sprintf(token, "flt_");
    for (size_t i = 0; i < sizeof rnd; i++)
        *p++ = b64url[rnd[i] & 63];
    *p = '\0';
    char hex[2 * SHA256_DIGEST_SIZE + 1], now[32];
    hash_hex(token, hex);
    utc_now(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ");
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "INSERT INTO token(name, hash, per_day, created) VALUES (?,?,?,?)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, hex, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, per_day);
        sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    }
    if (rc != SQLITE_OK)
        set_err(err, errlen, s->db, "cannot add the token");
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : -1;
}

int store_token_list(struct store *s, FILE *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT t.name, t.per_day, t.created, coalesce(t.revoked, ''),"
                                  " (SELECT count(*) FROM report r WHERE r.token_id = t.id)"
                                  " FROM token t ORDER BY t.id", -1, &st, NULL) != SQLITE_OK)
        return -1;
    fprintf(out, "name\tper_day\tcreated\trevoked\treports\n");
    while (sqlite3_step(st) == SQLITE_ROW)
        fprintf(out, "%s\t%d\t%s\t%s\t%d\n", sqlite3_column_text(st, 0), sqlite3_column_int(st, 1),
                sqlite3_column_text(st, 2), sqlite3_column_text(st, 3), sqlite3_column_int(st, 4));
    sqlite3_finalize(st);
    return 0;
}

int store_token_revoke(struct store *s, const char *name, char *err, size_t errlen)
{
    char now[32];
    utc_now(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ");
    sqlite3_stmt *st;
    int changed = -1;
    if (sqlite3_prepare_v2(s->db, "UPDATE token SET revoked = ? WHERE name = ? AND revoked IS NULL",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_DONE)
            changed = sqlite3_changes(s->db);
    }
    sqlite3_finalize(st);
    if (changed < 0)
        set_err(err, errlen, s->db, "cannot revoke");
    else if (changed == 0)
        snprintf(err, errlen, "no live token named '%s'", name);
    return changed == 1 ? 0 : -1;
}

long store_token_check(struct store *s, const char *token, unsigned *per_day)
{
    char hex[2 * SHA256_DIGEST_SIZE + 1];
    hash_hex(token, hex);
    sqlite3_stmt *st;
    long id = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT id, per_day FROM token WHERE hash = ? AND revoked IS NULL",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, hex, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW) {
            id = (long)sqlite3_column_int64(st, 0);
            *per_day = (unsigned)sqlite3_column_int64(st, 1);
        }
    }
    sqlite3_finalize(st);
    return id;
}

int store_take(struct store *s, const char *who, unsigned limit, unsigned *retry_after)
{
    char day[16];
    utc_now(day, sizeof day, "%Y-%m-%d");
    time_t t = time(NULL);
    *retry_after = (unsigned)(86400 - t % 86400);
    if (limit == 0)
        return 0;
    sqlite3_stmt *st;
    int got = -1;
    /* one statement counts and checks: no two threads can both take the last use */
    if (sqlite3_prepare_v2(s->db, "INSERT INTO usage(who, day, n) VALUES (?1, ?2, 1)"
                                  " ON CONFLICT(who, day) DO UPDATE SET n = n + 1 WHERE n < ?3"
                                  " RETURNING n", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, who, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, day, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, limit);
        int rc = sqlite3_step(st);
        got = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    }
    sqlite3_finalize(st);
    if (got == 1) {
        /* yesterday's counts are of no use: drop them once a day, on its first count */
        sqlite3_stmt *del;
        if (sqlite3_prepare_v2(s->db, "DELETE FROM usage WHERE day < ?1 AND"
                                      " (SELECT n FROM usage WHERE who = ?2 AND day = ?1) = 1",
                               -1, &del, NULL) == SQLITE_OK) {
            sqlite3_bind_text(del, 1, day, -1, SQLITE_STATIC);
            sqlite3_bind_text(del, 2, who, -1, SQLITE_STATIC);
            sqlite3_step(del);
        }
        sqlite3_finalize(del);
    }
    return got;
}

int store_report_add(struct store *s, long token_id, const char *top_id, const char *json, size_t len)
{
    char now[32];
    utc_now(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ");
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "INSERT INTO report(token_id, created, top_id, json) VALUES (?,?,?,?)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, token_id);
        sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, top_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, json, (int)len, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : -1;
}

/* The first row's first column as a new string (NULL when there is no row), and the statement
 * finalized. */
static char *first_text(sqlite3_stmt *st, size_t *len)
{
    char *out = NULL;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        if (t && (out = strdup(t)))
            *len = strlen(out);
    }
    sqlite3_finalize(st);
    return out;
}

char *store_history_json(struct store *s, long token_id, unsigned limit, size_t *len)
{
    sqlite3_stmt *st;
    /* the reports are stored as the CLI wrote them: SQLite's json() embeds them as values */
    if (sqlite3_prepare_v2(s->db, "SELECT json_group_array(json_object('id', id, 'created', created,"
                                  " 'top', top_id, 'report', json(json))) FROM"
                                  " (SELECT * FROM report WHERE token_id = ? ORDER BY id DESC LIMIT ?)",
                           -1, &st, NULL) != SQLITE_OK)
        return NULL;
    sqlite3_bind_int64(st, 1, token_id);
    sqlite3_bind_int64(st, 2, limit);
    return first_text(st, len);
}

char *store_report_json(struct store *s, long token_id, long report_id, size_t *len)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT json FROM report WHERE id = ? AND token_id = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return NULL;
    sqlite3_bind_int64(st, 1, report_id);
    sqlite3_bind_int64(st, 2, token_id);
    return first_text(st, len);
}
