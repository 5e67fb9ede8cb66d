/*
 * rankmap.h — local ranks, and the global ranks they stand for (internal).
 *
 * torchrun numbers what it writes per node: the per-rank folders (<run>/attempt_K/N/) and the
 * --tee prefixes of torch 1.x ([defaultN]:) carry the worker's local rank, which is its global
 * rank only on the job's first node. Which node's first global rank that is, is known only once
 * the agent's summary (`rank : 3 (local_rank: 1)`, its host and error file) has been read, at
 * the end. So a local rank is stored as itself plus the node it was read on (a tag of the node's
 * console or run folder), and translated once, by the correlator, when the report is made. A
 * snapshot (watch) translates what was read so far with what is known then, for good: a summary
 * read later places only the lines after it.
 */
#ifndef FL_RANKMAP_H
#define FL_RANKMAP_H

#include "extract.h"

#include <stdbool.h>
#include <stdint.h>

/* The node a source's local ranks belong to: the run folder of a per-rank file, else the source
 * (a node's console) itself. */
uint32_t rankmap_node(const char *source_name);
/* Local rank `local` of node, as stored until the end: a value no global rank takes. */
long rankmap_local(uint32_t node, long local);
bool rankmap_is_local(long rank);
/* The local rank a stored one was read as. */
long rankmap_local_part(long rank);

struct rank_node {
    uint32_t node;
    long base;               /* the node's first global rank */
};

struct rank_map {
    struct rank_node *v;
    size_t n;
    bool multi_node;         /* the logs are of more than one node */
};

/* What the logs say of each node: torchrun's summary in a node's console lists its failed
 * workers with global and local rank, its host and, with @record, the error file in the run
 * folder; a per-rank folder is that node's when its run folder is the error file's, or when its
 * path names the summary's host. */
enum fl_status rankmap_build(struct rank_map *m, const char *const *sources, size_t nsources,
                             const struct launcher_failure *f, size_t nf);
/* The global rank of a stored rank: itself when global; a local one translated by its node's
 * first rank, kept as it is when the logs are of one node, else -1 (not known). */
long rankmap_global(const struct rank_map *m, long rank);
void rankmap_free(struct rank_map *m);

#endif
