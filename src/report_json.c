/*
 * report_json.c — the JSON contract of DESIGN.md, with jansson.
 *
 * Field names and types are fixed: other tools read them. New fields may be added; none may be
 * renamed or change type. initiating_rank and initiating_host are null when unknown.
 */
#include "report.h"

#include <jansson.h>
#include <string.h>

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *diagnosis_json(const struct diagnosis *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(d->id));
    json_object_set_new(o, "title", json_string(d->title));
    json_object_set_new(o, "category", json_string(d->category));
    json_object_set_new(o, "severity", json_string(d->severity));
    json_object_set_new(o, "confidence", json_real(d->confidence));
    json_object_set_new(o, "initiating_rank", d->rank >= 0 ? json_integer(d->rank) : json_null());
    json_object_set_new(o, "initiating_host", d->host[0] ? json_string(d->host) : json_null());
    char t[40];
    json_object_set_new(o, "first_seen", report_first_seen(d, t) ? json_string(t) : json_null());
    json_t *col = json_array();
    for (size_t i = 0; i < d->ncollateral; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "id", json_string(d->collateral[i].id));
        json_t *ranks = json_array();
        for (size_t j = 0; j < d->collateral[i].nranks; j++)
            json_array_append_new(ranks, json_integer(d->collateral[i].ranks[j]));
        json_object_set_new(c, "ranks", ranks);
        json_object_set_new(c, "count", json_integer((json_int_t)d->collateral[i].count));
        json_array_append_new(col, c);
    }
    json_object_set_new(o, "collateral", col);
    json_t *ev = json_array();
    for (size_t i = 0; i < d->nevidence; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "source", json_string(d->evidence[i].source));
        json_object_set_new(e, "line", json_integer((json_int_t)d->evidence[i].line));
        json_object_set_new(e, "rank", d->evidence[i].rank >= 0 ? json_integer(d->evidence[i].rank)
                                                                : json_null());
        json_object_set_new(e, "text", json_string(d->evidence[i].text));
        json_array_append_new(ev, e);
    }
    json_object_set_new(o, "evidence", ev);
    json_object_set_new(o, "evidence_total", json_integer((json_int_t)d->evidence_total));
    json_object_set_new(o, "root_cause", str_or_null(d->root_cause));
    json_object_set_new(o, "fix", str_or_null(d->fix));
    json_object_set_new(o, "verify", str_or_null(d->verify));
    json_t *refs = json_array();
    for (size_t i = 0; d->entry && i < d->entry->nreferences; i++)
        json_array_append_new(refs, json_string(entry_str(d->entry, d->entry->references[i])));
    json_object_set_new(o, "references", refs);
    json_object_set_new(o, "differential_of", str_or_null(d->differential_of));
    return o;
}

enum fl_status report_write_json(const struct fl_report *r, FILE *out)
{
    json_t *root = json_object();
    json_object_set_new(root, "version", json_string("faultline " FL_VERSION));
    json_t *input = json_object();
    json_object_set_new(input, "sources", json_integer((json_int_t)r->nsources));
    json_object_set_new(input, "bytes", json_integer((json_int_t)r->bytes));
    json_object_set_new(input, "lines", json_integer((json_int_t)r->lines));
    json_t *ranks = json_array();
    for (size_t i = 0; i < r->nranks; i++)
        json_array_append_new(ranks, json_integer(r->ranks[i]));
    json_object_set_new(input, "ranks", ranks);
    json_t *errors = json_array();
    for (size_t i = 0; i < r->nerrors; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "source", json_string(r->errors[i].source));
        json_object_set_new(e, "error", json_string(r->errors[i].msg));
        json_array_append_new(errors, e);
    }
    json_object_set_new(input, "errors", errors);
    if (r->nwarnings) { /* only when there are some: reports without stay as they were */
        json_t *w = json_array();
        for (size_t i = 0; i < r->nwarnings; i++)
            json_array_append_new(w, json_string(r->warnings[i]));
        json_object_set_new(input, "warnings", w);
    }
    /* false when a source could be read only in part: an empty "diagnoses" then proves nothing */
    json_object_set_new(input, "complete", json_boolean(r->nerrors == 0));
    json_object_set_new(root, "input", input);
    json_t *diags = json_array();
    for (size_t i = 0; i < r->ndiagnoses; i++)
        json_array_append_new(diags, diagnosis_json(&r->diagnoses[i]));
    json_object_set_new(root, "diagnoses", diags);
    json_t *facts = json_object();
    for (size_t i = 0; i < r->facts.n; i++)
        json_object_set_new(facts, r->facts.items[i].key, json_string(r->facts.items[i].value));
    json_object_set_new(root, "facts", facts);
    json_t *stacks = json_array();
    for (size_t i = 0; i < r->nstacks; i++) {
        json_t *g = json_object(), *members = json_array(), *frames = json_array();
        for (size_t j = 0; j < r->stacks[i].nranks; j++)
            json_array_append_new(members, r->stacks[i].ranks[j] >= 0
                                               ? json_integer(r->stacks[i].ranks[j])
                                               : json_null());
        for (size_t j = 0; j < r->stacks[i].nframes; j++)
            json_array_append_new(frames, json_string(r->stacks[i].frames[j]));
        json_object_set_new(g, "ranks", members);
        json_object_set_new(g, "frames", frames);
        json_array_append_new(stacks, g);
    }
    json_object_set_new(root, "stacks", stacks);
    if (r->note && r->note[0])
        json_object_set_new(root, "note", json_string(r->note));
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(3));
    fputc('\n', out);
    json_decref(root);
    return rc == 0 && !ferror(out) ? FL_OK : FL_ERR_IO;
}
