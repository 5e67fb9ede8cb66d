/*
 * rankmap.c — local ranks and the global ranks they stand for; see rankmap.h.
 *
 * A stored local rank is RANK_LOCAL | node << 16 | local: above every global rank (RANKS_MAX),
 * so it sorts, compares and counts as a rank of its own until the end, and two nodes' local
 * rank 0 never merge before they are translated.
 */
#include "rankmap.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(long) >= 8, "a stored local rank needs 64 bits");

#define RANK_LOCAL ((long)1 << 52)
#define LOCAL_BITS 16

/* FNV-1a: a node's tag from its name, the same in every scanner that reads a piece of the run */
static uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

uint32_t rankmap_node(const char *source_name)
{
    size_t len;
    if (prefix_run_folder(source_name, &len, NULL))
        return fnv1a(source_name, len);
    return fnv1a(source_name, strlen(source_name));
}

long rankmap_local(uint32_t node, long local)
{
    if (local < 0 || local >= (1L << LOCAL_BITS) || rankmap_is_local(local))
        return local;
    return RANK_LOCAL | (long)node << LOCAL_BITS | local;
}

bool rankmap_is_local(long rank)
{
    return rank >= RANK_LOCAL;
}

long rankmap_local_part(long rank)
{
    return rankmap_is_local(rank) ? rank & ((1L << LOCAL_BITS) - 1) : rank;
}

static uint32_t node_part(long rank)
{
    return (uint32_t)((rank & ~RANK_LOCAL) >> LOCAL_BITS);
}

static enum fl_status add_node(struct rank_map *m, uint32_t node, long base)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].node == node) {
            if (m->v[i].base != base)
                m->v[i].base = -1; /* two answers: none */
            return FL_OK;
        }
    struct rank_node *g = realloc(m->v, (m->n + 1) * sizeof *g);
    if (g == NULL)
        return FL_ERR_NOMEM;
    m->v = g;
    m->v[m->n++] = (struct rank_node){node, base};
    return FL_OK;
}

/* Whether a component of path before its run folder (which ends at run_name) is host, or host's
 * first label (a short name in a folder, the fully qualified one in the summary). */
static bool path_names_host(const char *path, size_t run_name, const char *host)
{
    size_t hl = strlen(host), short_len = strcspn(host, ".");
    if (hl == 0)
        return false;
    for (size_t i = 0; i < run_name;) {
        size_t l = strcspn(path + i, "/");
        if (l > run_name - i)
            l = run_name - i;
        if ((l == hl && memcmp(path + i, host, hl) == 0) ||
            (l == short_len && memcmp(path + i, host, short_len) == 0))
            return true;
        i += l + 1;
    }
    return false;
}

/* Whether a summary's failure gives its node's first global rank (rank - local_rank). */
static bool places_node(const struct launcher_failure *f)
{
    return f->rank >= 0 && f->local_rank >= 0 && f->local_rank <= f->rank;
}

enum fl_status rankmap_build(struct rank_map *m, const char *const *sources, size_t nsources,
                             const struct launcher_failure *f, size_t nf)
{
    memset(m, 0, sizeof *m);
    enum fl_status st = FL_OK;
    bool have_base = false;
    long first_base = 0;
    const char *first_host = NULL;
    for (size_t i = 0; i < nf && st == FL_OK; i++) {
        if (!places_node(&f[i]) || f[i].src < 0 || (size_t)f[i].src >= nsources)
            continue;
        long base = f[i].rank - f[i].local_rank;
        m->multi_node |= base != 0 || (have_base && base != first_base) ||
                         (first_host && f[i].host[0] && strcmp(first_host, f[i].host) != 0);
        if (!have_base)
            first_base = base;
        have_base = true;
        if (first_host == NULL && f[i].host[0])
            first_host = f[i].host;
        /* the console that printed the summary is that node's */
        st = add_node(m, rankmap_node(sources[f[i].src]), base);
    }
    uint32_t first_run = 0;
    bool any_run = false;
    for (size_t s = 0; s < nsources && st == FL_OK; s++) {
        size_t len, name;
        if (!prefix_run_folder(sources[s], &len, &name))
            continue;
        uint32_t node = rankmap_node(sources[s]);
        m->multi_node |= any_run && node != first_run;
        if (!any_run)
            first_run = node;
        any_run = true;
        for (size_t i = 0; i < nf && st == FL_OK; i++) {
            if (!places_node(&f[i]))
                continue;
            bool same_run = f[i].run[0] && len - name == strlen(f[i].run) &&
                            memcmp(sources[s] + name, f[i].run, len - name) == 0;
            if (same_run || (!f[i].run[0] && path_names_host(sources[s], name, f[i].host)))
                st = add_node(m, node, f[i].rank - f[i].local_rank);
        }
    }
    return st;
}

long rankmap_global(const struct rank_map *m, long rank)
{
    if (!rankmap_is_local(rank))
        return rank;
    long local = rankmap_local_part(rank);
    uint32_t node = node_part(rank);
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].node == node)
            return m->v[i].base >= 0 ? m->v[i].base + local : -1;
    return m->multi_node ? -1 : local;
}

void rankmap_free(struct rank_map *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}
