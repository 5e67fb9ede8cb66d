/*
 * stackdump.h — py-spy and faulthandler dumps: one main-thread stack per rank, and clusters of
 * ranks by stack (internal).
 *
 * A hang leaves no error: every rank waits. What tells the culprit apart is where each rank
 * waits. `py-spy dump --pid` (with or without --locals) and Python's faulthandler print every
 * thread's stack; we keep the main thread's function names per (source, rank), then group ranks
 * whose stacks are identical. The ranks outside the largest group are where the hang started.
 *
 * Ownership: struct stacks owns its frames; clusters are computed into arrays the caller frees
 * with stacks_clusters_free.
 */
#ifndef FL_STACKDUMP_H
#define FL_STACKDUMP_H

#include "faultline.h"
#include "prefix.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STACK_MAX_FRAMES 64
#define STACKS_MAX 65536

struct stack {
    int src;
    long rank;
    char host[HOST_MAX];
    char **frames;          /* innermost first: "function (file:line)" */
    size_t nframes;
    bool complete;          /* the main thread was read (not only other threads) */
    bool current;           /* from faulthandler's "Current thread", which no later dump replaces */
};

/* How one scanner's records are renumbered when merged into another's (scanner_merge). */
struct merge_map {
    int src_offset;         /* the merged-in source i becomes source i + src_offset */
    bool continues;         /* its source 0 is the rest of the last source merged into */
    uint64_t line_offset;   /* added to the line numbers of its source 0 */
};

struct stack_block;         /* a dump being read */

struct stacks {
    struct stack *items;
    size_t n, cap;
    struct stack_block *open;
    size_t nopen, open_cap;
};

void stacks_init(struct stacks *st);
void stacks_free(struct stacks *st);

/* A thread header matched (py-spy `Thread 0x... (active): "MainThread"`, faulthandler
 * `Current thread 0x... (most recent call first):`). Opens a block for (src, rank). */
void stacks_on_thread(struct stacks *st, int src, const struct line_meta *m, const char *msg,
                      size_t len);
bool stacks_following(const struct stacks *st, int src);
/* Every next line of src while a block is open. */
void stacks_on_line(struct stacks *st, int src, const struct line_meta *m, const char *msg,
                    size_t len);
void stacks_close_source(struct stacks *st, int src);

/* Moves src's stacks into dst, their sources renumbered by m. A stack of a continued source
 * replaces dst's for the same rank only when it is a current thread's, as it would have had
 * dst read on. */
enum fl_status stacks_merge(struct stacks *dst, struct stacks *src, const struct merge_map *m);

struct stack_cluster {
    size_t *members;        /* indexes into st->items */
    size_t nmembers;
};

/* Groups the stacks by their frames' function names; clusters are sorted largest first. */
enum fl_status stacks_cluster(const struct stacks *st, struct stack_cluster **out, size_t *n);
void stacks_clusters_free(struct stack_cluster *c, size_t n);

/* A frame without its line number: "f (file.py:12)" → "f (file.py)". */
size_t stack_frame_key(const char *frame, char *out, size_t outlen);

#endif
