/*
 * alerts.c — where an event goes: a line on stderr, an object in the --events JSON Lines file,
 * a --exec (or, for hangs, --on-hang) command, the webhooks.
 *
 * An event is the JSON contract's diagnosis object plus "event" (diagnosis, hang, recovered)
 * and "time"; the caller decides when there is one (watch.c: once per diagnosis id, after the
 * drain window). Commands run through /bin/sh -c with posix_spawn (the process has threads:
 * no fork), the event in FAULTLINE_* environment variables and its JSON on stdin; they are
 * reaped without waiting, so a slow hook never stalls the reader. The stdin pipe is written
 * without blocking: an event larger than the pipe's buffer reaches a hook that does not read it
 * cut, never a stalled watcher (SIGPIPE is ignored by the watcher: a hook may exit at once).
 */
#include "watch.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct alerts {
    struct alert_opts o;
    FILE *events;
    unsigned long diagnoses, hangs, recovered;
    unsigned children;
};

enum fl_status alerts_new(const struct alert_opts *o, struct alerts **out, char *err, size_t errlen)
{
    *out = NULL;
    struct alerts *a = calloc(1, sizeof *a);
    if (a == NULL)
        return FL_ERR_NOMEM;
    a->o = *o;
    if (o->events_path && (a->events = fopen(o->events_path, "ae")) == NULL) {
        snprintf(err, errlen, "%s: %s", o->events_path, strerror(errno));
        free(a);
        return FL_ERR_IO;
    }
    *out = a;
    return FL_OK;
}

void alerts_free(struct alerts *a)
{
    if (a == NULL)
        return;
    if (a->events)
        fclose(a->events);
    free(a);
}

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* A one-line summary, for stderr, Slack and FAULTLINE_SUMMARY. */
static void summarise(const json_t *ev, char *out, size_t n)
{
    const char *kind = str_of(ev, "event");
    const json_t *rank = json_object_get(ev, "initiating_rank");
    char where[128] = "";
    if (json_is_integer(rank))
        snprintf(where, sizeof where, " on rank %lld%s%s", (long long)json_integer_value(rank),
                 *str_of(ev, "initiating_host") ? ", host " : "", str_of(ev, "initiating_host"));
    if (strcmp(kind, "diagnosis") == 0)
        snprintf(out, n, "faultline: %s (%s)%s, confidence %.2f", str_of(ev, "id"),
                 str_of(ev, "title"), where, json_number_value(json_object_get(ev, "confidence")));
    else if (strcmp(kind, "hang") == 0)
        snprintf(out, n, "faultline: hang: %s%s; %s", str_of(ev, "title"), where,
                 str_of(ev, "verify"));
    else
        snprintf(out, n, "faultline: %s: %s", kind, str_of(ev, "title"));
}

/* NAME=value for the environment, or NULL. */
static char *env_pair(const char *name, const char *value)
{
    size_t n = strlen(name) + strlen(value) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s=%s", name, value);
    return p;
}

static void run_hook(struct alerts *a, const char *cmd, const json_t *ev, const char *summary)
{
    char *json = json_dumps(ev, EVENT_JSON);
    int pfd[2];
    if (json == NULL || pipe2(pfd, O_CLOEXEC) != 0) {
        free(json);
        return;
    }
    char rank[32] = "";
    const json_t *r = json_object_get(ev, "initiating_rank");
    if (json_is_integer(r))
        snprintf(rank, sizeof rank, "%lld", (long long)json_integer_value(r));
    const char *names[] = {"FAULTLINE_EVENT", "FAULTLINE_ID", "FAULTLINE_TITLE", "FAULTLINE_RANK",
                           "FAULTLINE_HOST", "FAULTLINE_TIME", "FAULTLINE_SUMMARY",
                           "FAULTLINE_PY_SPY"};
    const char *values[] = {str_of(ev, "event"), str_of(ev, "id"), str_of(ev, "title"), rank,
                            str_of(ev, "initiating_host"), str_of(ev, "time"), summary,
                            str_of(ev, "verify")};
    enum { NEXTRA = sizeof names / sizeof names[0] };
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **envp = calloc(nenv + NEXTRA + 1, sizeof *envp);
    char *extra[NEXTRA] = {0};
    if (envp) {
        size_t k = 0;
        for (size_t i = 0; i < nenv; i++)
            if (strncmp(environ[i], "FAULTLINE_", 10) != 0)
                envp[k++] = environ[i];
        for (size_t i = 0; i < NEXTRA; i++)
            if ((extra[i] = env_pair(names[i], values[i])) != NULL)
                envp[k++] = extra[i];
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, pfd[0], STDIN_FILENO);
        char *argv[] = {"sh", "-c", (char *)cmd, NULL};
        pid_t pid;
        int rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, envp);
        posix_spawn_file_actions_destroy(&fa);
        if (rc != 0)
            fprintf(stderr, "faultline: cannot run '%s': %s\n", cmd, strerror(rc));
        else
            a->children++;
    }
    close(pfd[0]);
    fcntl(pfd[1], F_SETFL, O_NONBLOCK);
    size_t len = strlen(json), off = 0;
    while (off < len) {
        ssize_t w = write(pfd[1], json + off, len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    if (off == len && write(pfd[1], "\n", 1) < 0) {
        /* the hook closed its stdin: it did not want the JSON */
    }
    close(pfd[1]);
    for (size_t i = 0; i < NEXTRA; i++)
        free(extra[i]);
    free(envp);
    free(json);
}

void alerts_emit(struct alerts *a, json_t *ev)
{
    const char *kind = str_of(ev, "event");
    if (strcmp(kind, "diagnosis") == 0)
        a->diagnoses++;
    else if (strcmp(kind, "hang") == 0)
        a->hangs++;
    else
        a->recovered++;
    char summary[1024];
    summarise(ev, summary, sizeof summary);
    if (!a->o.quiet)
        fprintf(stderr, "%s\n", summary);
    if (a->events) {
        char *line = json_dumps(ev, EVENT_JSON);
        if (line) {
            fprintf(a->events, "%s\n", line);
            fflush(a->events);
            free(line);
        }
    }
    if (a->o.exec_cmd)
        run_hook(a, a->o.exec_cmd, ev, summary);
    if (a->o.on_hang_cmd && strcmp(kind, "hang") == 0)
        run_hook(a, a->o.on_hang_cmd, ev, summary);
    if (a->o.webhook)
        webhook_send(a->o.webhook, ev, summary);
}

void alerts_reap(struct alerts *a)
{
    while (a->children > 0) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0)
            return;
        a->children--;
        if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
            fprintf(stderr, "faultline: a hook exited with status %d\n", WEXITSTATUS(status));
    }
}

unsigned long alerts_count(const struct alerts *a, const char *event)
{
    return strcmp(event, "diagnosis") == 0 ? a->diagnoses
           : strcmp(event, "hang") == 0    ? a->hangs
                                           : a->recovered;
}
