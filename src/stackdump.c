/*
 * stackdump.c — reading py-spy and faulthandler dumps, and clustering ranks by stack.
 *
 * The formats:
 *   py-spy:        Thread 0x7F3A10B2C740 (active): "MainThread"
 *                      all_reduce (torch/distributed/distributed_c10d.py:2050)
 *                          Arguments: / Locals:  (with --locals: deeper indents, skipped)
 *   faulthandler:  Current thread 0x00007f8b5c9c8740 (most recent call first):
 *                    File "/x/train.py", line 120 in train_step
 * Both print the innermost frame first. We keep the main thread ("MainThread" for py-spy; the
 * current thread, else the first one, for faulthandler) because that is where the training loop
 * runs; helper threads (pin memory, logging) wait in the same places on every rank.
 *
 * Frames are compared by function and file, not line: two ranks in the same loop iteration can
 * stand on different lines of one function and are still "in the same place".
 */
#include "stackdump.h"
#include "buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MAX_LINES 2000

struct stack_block {
    int src;
    long rank;
    char host[HOST_MAX];
    bool faulthandler;
    bool keep;              /* this thread is the one we keep */
    bool current;           /* faulthandler's current thread */
    unsigned lines;
    char *frames[STACK_MAX_FRAMES];
    size_t nframes;
};

void stacks_init(struct stacks *st)
{
    memset(st, 0, sizeof *st);
}

static void block_free(struct stack_block *b)
{
    for (size_t i = 0; i < b->nframes; i++)
        free(b->frames[i]);
    b->nframes = 0;
}

static void stack_free_frames(struct stack *s)
{
    for (size_t j = 0; j < s->nframes; j++)
        free(s->frames[j]);
    free(s->frames);
    s->frames = NULL;
    s->nframes = 0;
}

void stacks_free(struct stacks *st)
{
    for (size_t i = 0; i < st->n; i++)
        stack_free_frames(&st->items[i]);
    free(st->items);
    for (size_t i = 0; i < st->nopen; i++)
        block_free(&st->open[i]);
    free(st->open);
    stacks_init(st);
}

static struct stack *find_stack(struct stacks *st, int src, long rank)
{
    for (size_t i = 0; i < st->n; i++)
        if (st->items[i].src == src && st->items[i].rank == rank)
            return &st->items[i];
    return NULL;
}

/* Stores the block's frames as the stack of (src, rank), unless a main-thread stack is there. */
static void commit(struct stacks *st, struct stack_block *b)
{
    if (!b->keep || b->nframes == 0) {
        block_free(b);
        return;
    }
    struct stack *s = find_stack(st, b->src, b->rank);
    if (s && s->complete) {
        block_free(b);
        return;
    }
    if (s == NULL) {
        if (GROW(st->items, st->cap, st->n, STACKS_MAX) != FL_OK) {
            block_free(b);
            return;
        }
        s = &st->items[st->n++];
        memset(s, 0, sizeof *s);
        s->src = b->src;
        s->rank = b->rank;
        memcpy(s->host, b->host, HOST_MAX);
    } else {
        stack_free_frames(s);
    }
    s->frames = malloc(b->nframes * sizeof *s->frames);
    if (s->frames == NULL) {
        s->nframes = 0;
        block_free(b);
        return;
    }
    memcpy(s->frames, b->frames, b->nframes * sizeof *s->frames);
    s->nframes = b->nframes;
    s->complete = true;
    s->current = b->current;
    b->nframes = 0;
}

static struct stack_block *open_block(struct stacks *st, int src, long rank)
{
    for (size_t i = 0; i < st->nopen; i++)
        if (st->open[i].src == src && st->open[i].rank == rank) {
            commit(st, &st->open[i]);
            return &st->open[i];
        }
    if (GROW(st->open, st->open_cap, st->nopen, 64) != FL_OK)
        return NULL;
    struct stack_block *b = &st->open[st->nopen++];
    memset(b, 0, sizeof *b);
    return b;
}

static void close_block(struct stacks *st, struct stack_block *b)
{
    commit(st, b);
    *b = st->open[--st->nopen];
}

void stacks_on_thread(struct stacks *st, int src, const struct line_meta *m, const char *msg,
                      size_t len)
{
    struct stack_block *b = open_block(st, src, m->rank);
    if (b == NULL)
        return;
    b->src = src;
    b->rank = m->rank;
    memcpy(b->host, m->host, HOST_MAX);
    b->lines = 0;
    b->faulthandler = buf_find(msg, len, "(most recent call first)", 24) != NULL;
    if (b->faulthandler) {
        /* the current thread wins; otherwise the first thread of the dump */
        bool current = len >= 14 && strncmp(msg, "Current thread", 14) == 0;
        struct stack *s = find_stack(st, src, m->rank);
        b->keep = current || s == NULL;
        b->current = current;
        if (current && s)
            s->complete = false; /* replace a first-thread guess */
    } else {
        b->keep = buf_find(msg, len, "\"MainThread\"", 12) != NULL;
        b->current = false;
    }
}

bool stacks_following(const struct stacks *st, int src)
{
    for (size_t i = 0; i < st->nopen; i++)
        if (st->open[i].src == src)
            return true;
    return false;
}

static char *py_spy_frame(const char *s, size_t n)
{
    return xstrndup(s, n < 512 ? n : 512);
}

/* `File "/x/train.py", line 120 in train_step` → "train_step (/x/train.py:120)" */
static char *faulthandler_frame(const char *s, size_t n)
{
    const char *q = memchr(s + 6, '"', n - 6);
    const char *in = buf_find(s, n, " in ", 4);
    const char *ln = buf_find(s, n, ", line ", 7);
    if (q == NULL || in == NULL || ln == NULL)
        return NULL;
    struct buf b;
    buf_init(&b, 512);
    buf_append(&b, in + 4, (size_t)(s + n - in - 4));
    buf_append(&b, " (", 2);
    buf_append(&b, s + 6, (size_t)(q - s - 6));
    buf_putc(&b, ':');
    for (const char *d = ln + 7; d < in && isdigit((unsigned char)*d); d++)
        buf_putc(&b, *d);
    buf_putc(&b, ')');
    return buf_steal(&b);
}

void stacks_on_line(struct stacks *st, int src, const struct line_meta *m, const char *msg,
                    size_t len)
{
    struct stack_block *b = NULL;
    for (size_t i = 0; i < st->nopen && !b; i++)
        if (st->open[i].src == src && st->open[i].rank == m->rank)
            b = &st->open[i];
    if (b == NULL)
        return;
    size_t lead = 0;
    while (lead < len && msg[lead] == ' ')
        lead++;
    if (++b->lines > BLOCK_MAX_LINES || lead == len) {
        close_block(st, b);
        return;
    }
    const char *s = msg + lead;
    size_t n = len - lead;
    if (b->faulthandler) {
        if (n > 6 && strncmp(s, "File \"", 6) == 0) {
            if (b->keep && b->nframes < STACK_MAX_FRAMES) {
                char *f = faulthandler_frame(s, n);
                if (f)
                    b->frames[b->nframes++] = f;
            }
            return;
        }
    } else if (lead >= 4 && lead < 8 && n > 3 && s[n - 1] == ')' && memchr(s, '(', n)) {
        if (b->keep && b->nframes < STACK_MAX_FRAMES)
            b->frames[b->nframes++] = py_spy_frame(s, n);
        return;
    } else if (lead >= 8) {
        return; /* --locals: Arguments:, Locals: and their values */
    }
    close_block(st, b); /* the dump of this thread ended */
}

void stacks_close_source(struct stacks *st, int src)
{
    for (size_t i = st->nopen; i-- > 0;)
        if (st->open[i].src == src)
            close_block(st, &st->open[i]);
}

enum fl_status stacks_merge(struct stacks *dst, struct stacks *src, const struct merge_map *m)
{
    enum fl_status st = FL_OK;
    for (size_t i = 0; i < src->n; i++) {
        struct stack *s = &src->items[i];
        struct stack *d = m->continues && s->src == 0 ? find_stack(dst, m->src_offset, s->rank)
                                                      : NULL;
        if (d) {
            if (s->current) {
                stack_free_frames(d);
                d->frames = s->frames;
                d->nframes = s->nframes;
                d->current = true;
            } else {
                stack_free_frames(s);
            }
            continue;
        }
        if (st != FL_OK || (st = GROW(dst->items, dst->cap, dst->n, STACKS_MAX)) != FL_OK) {
            stack_free_frames(s);
            continue;
        }
        dst->items[dst->n] = *s;
        dst->items[dst->n++].src += m->src_offset;
    }
    src->n = 0; /* the frames now belong to dst, or were freed */
    return st;
}

size_t stack_frame_key(const char *frame, char *out, size_t outlen)
{
    /* drop ":123" before the closing parenthesis */
    size_t n = strlen(frame);
    size_t end = n;
    if (n && frame[n - 1] == ')') {
        size_t i = n - 1;
        while (i > 0 && isdigit((unsigned char)frame[i - 1]))
            i--;
        if (i > 0 && frame[i - 1] == ':' && i < n - 1)
            end = i - 1;
    }
    size_t k = end < outlen - 2 ? end : outlen - 2;
    memcpy(out, frame, k);
    out[k] = end < n ? ')' : '\0';
    out[k + 1] = '\0';
    return k + (end < n);
}

static bool same_stack(const struct stack *a, const struct stack *b)
{
    if (a->nframes != b->nframes)
        return false;
    char ka[600], kb[600];
    for (size_t i = 0; i < a->nframes; i++) {
        stack_frame_key(a->frames[i], ka, sizeof ka);
        stack_frame_key(b->frames[i], kb, sizeof kb);
        if (strcmp(ka, kb) != 0)
            return false;
    }
    return true;
}

static int cmp_clusters(const void *x, const void *y)
{
    const struct stack_cluster *a = x, *b = y;
    if (a->nmembers != b->nmembers)
        return a->nmembers > b->nmembers ? -1 : 1;
    return a->members[0] < b->members[0] ? -1 : 1;
}

enum fl_status stacks_cluster(const struct stacks *st, struct stack_cluster **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (st->n == 0)
        return FL_OK;
    struct stack_cluster *c = calloc(st->n, sizeof *c);
    size_t *rep = calloc(st->n, sizeof *rep); /* representative stack of each cluster */
    if (c == NULL || rep == NULL) {
        free(c);
        free(rep);
        return FL_ERR_NOMEM;
    }
    size_t nc = 0;
    /* quadratic in the number of distinct stacks, which is small: a hang has a few shapes */
    for (size_t i = 0; i < st->n; i++) {
        size_t k = 0;
        while (k < nc && !same_stack(&st->items[rep[k]], &st->items[i]))
            k++;
        if (k == nc) {
            rep[nc] = i;
            c[nc].members = malloc(st->n * sizeof *c[nc].members);
            if (c[nc].members == NULL) {
                stacks_clusters_free(c, nc);
                free(rep);
                return FL_ERR_NOMEM;
            }
            nc++;
        }
        c[k].members[c[k].nmembers++] = i;
    }
    free(rep);
    qsort(c, nc, sizeof *c, cmp_clusters);
    *out = c;
    *n = nc;
    return FL_OK;
}

void stacks_clusters_free(struct stack_cluster *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(c[i].members);
    free(c);
}
