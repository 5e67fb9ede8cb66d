/*
 * report_evidence.c — evidence chosen for information, once the correlator has picked it.
 *
 * A person reads the evidence to see what happened: the exception line, not the same
 * `File "...", line 777, in load` three times, not the `^^^^` under a source line, not a 1 KiB
 * error.json blob of which only the message matters. This pass runs on every report before it
 * is masked or written, so all formats (and the JSON contract's `evidence`) show the same lines:
 *   - caret lines (only ^ and ~ under a source line) are dropped;
 *   - a line whose text (after its rank or host prefix) repeats an earlier one is dropped;
 *   - a JSON object is replaced by its message (torchelastic's error.json:
 *     {"message": {"message": "...", "extraInfo": ...}}) or dropped when it has none;
 *   - the first exception line ("SomethingError: ...") goes first.
 * evidence_total still counts every matching line.
 */
#include "report.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The text after a rank or host prefix ("[rank3]: ", "[default0]:", "node-1: "), if any. */
static const char *body(const char *t)
{
    const char *p = strstr(t, "]:");
    if (p && p - t < 48)
        t = p + 2;
    while (*t == ' ' || *t == '\t')
        t++;
    return t;
}

static bool caret_line(const char *b)
{
    bool mark = false;
    for (; *b; b++) {
        if (*b == '^' || *b == '~')
            mark = true;
        else if (*b != ' ' && *b != '\t' && *b != '\r')
            return false;
    }
    return mark;
}

/* "ValueError: ...", "torch.OutOfMemoryError: ...", "RuntimeError: ..." */
static bool exception_line(const char *b)
{
    const char *p = b;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
        p++;
    if (p == b || *p != ':')
        return false;
    size_t n = (size_t)(p - b);
    return (n > 5 && strncmp(p - 5, "Error", 5) == 0) || (n > 9 && strncmp(p - 9, "Exception", 9) == 0);
}

/* The message of a JSON object, as a new string; NULL when the text is no JSON object or has no
 * message (an evidence line is capped, so a long blob may be cut and unreadable). */
static char *json_message(const char *b)
{
    if (*b != '{')
        return NULL;
    json_t *root = json_loads(b, JSON_DECODE_ANY, NULL);
    if (root == NULL)
        return NULL;
    json_t *m = json_object_get(root, "message");
    if (json_is_object(m))
        m = json_object_get(m, "message");
    char *out = NULL;
    if (json_is_string(m)) {
        const char *s = json_string_value(m);
        size_t n = strcspn(s, "\n");
        out = malloc(n + 1);
        if (out) {
            memcpy(out, s, n);
            out[n] = '\0';
        }
    }
    json_decref(root);
    return out;
}

static void tidy(struct diagnosis *d)
{
    size_t kept = 0;
    for (size_t j = 0; j < d->nevidence; j++) {
        struct evidence e = d->evidence[j];
        const char *b = e.text ? body(e.text) : "";
        bool drop = caret_line(b);
        if (!drop && *b == '{') {
            char *msg = json_message(b);
            if (msg) {
                free(e.text);
                e.text = msg;
                b = msg;
            } else {
                drop = true; /* a blob without a readable message says nothing */
            }
        }
        for (size_t k = 0; k < kept && !drop; k++)
            drop = strcmp(body(d->evidence[k].text ? d->evidence[k].text : ""), b) == 0;
        if (drop) {
            free(e.source);
            free(e.text);
            continue;
        }
        d->evidence[kept++] = e;
    }
    d->nevidence = kept;
    /* the exception line first */
    for (size_t j = 1; j < d->nevidence; j++) {
        if (!d->evidence[j].text || !exception_line(body(d->evidence[j].text)))
            continue;
        if (d->evidence[0].text && exception_line(body(d->evidence[0].text)))
            break;
        struct evidence e = d->evidence[j];
        memmove(&d->evidence[1], &d->evidence[0], j * sizeof e);
        d->evidence[0] = e;
        break;
    }
}

void report_tidy_evidence(struct fl_report *r)
{
    for (size_t i = 0; i < r->ndiagnoses; i++)
        tidy(&r->diagnoses[i]);
}
