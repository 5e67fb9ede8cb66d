/*
 * scan.c — the scanner: one Vectorscan stream per source, lines found around matches.
 *
 * The hot loop is Vectorscan's: each chunk is scanned once, in streaming mode, so a match that
 * straddles two chunks is still found. Lines are never split up front. When a pattern matches,
 * the scanner looks for the line around the match end (memrchr back, memchr forward), counts the
 * newlines it skipped in bulk (for line numbers), and hands that one line to the prefix parser,
 * the extractors and the correlator. A line that is not complete at the end of a chunk waits,
 * with its matches, for the next chunk: the partial line is carried over, up to LINE_CAP bytes.
 *
 * The one exception to "only matched lines": while a Python traceback is open, the extractor
 * needs each following line (frames, then the exception), so the scanner walks them one by one
 * until the traceback closes, which is bounded by TRACEBACK_MAX_LINES.
 */
#include "correlate.h"
#include "extract.h"
#include "framer.h"
#include "kb.h"
#include "rankmap.h"
#include "report.h"
#include "scan.h"
#include "scan_time.h"
#include "status.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define SOURCES_MAX 100000
#define PENDING_MAX 65536
#define SEEN_RANKS_MAX 65536
#define SEGMENT_BYTES_DEFAULT (8u << 20)
#define STEPS_MAX 65536      /* step matches kept per chunk; beyond, they go through process() */
#define STEP_RANKS_MAX 64    /* ranks one note_steps run tells apart; beyond, every step line is noted */

struct match {
    unsigned id;
    uint64_t to;
};

struct source {
    char *name;
    struct line_meta path_meta;
    uint32_t node;          /* the node its local ranks are numbered on (rankmap.h) */
    hs_stream_t *stream;
    bool open;
    uint64_t base;          /* absolute offset of the chunk being processed */
    uint64_t next_line;     /* absolute offset of the first line not yet handled */
    uint64_t counted_to;    /* newlines are counted up to here */
    uint64_t lines;         /* newlines before counted_to */
    uint64_t handled_end;   /* past the '\n' of the last line handled, when counted_to lies in
                               that line: that '\n' is the one newline between them; else 0 */
    struct buf carry;       /* the partial last line of the previous chunks */
    uint64_t carry_start;
    struct match *pending;
    size_t npending, pending_cap;
    struct source_time time;
    bool tail;              /* fed past the end of its segment (scanner_feed_tail) */
    long own_rank;          /* the rank of the last own line noted (extract.h), OWN_NONE */
    uint64_t segment_lines; /* lines at the end of the segment */
};

/* No own line noted yet in the source. */
#define OWN_NONE LONG_MIN

/* A step line's match, kept for note_steps: every step line lies whole in its chunk. A script's
 * own line about its rank ("[rank 3] ...", struct own_lines) is read the same way: only the last
 * of each rank is numbered, the others only counted. */
struct step {
    uint64_t to;    /* where the match ends */
    bool own;       /* an own line, not a step line */
    uint64_t start; /* note_steps': where its line starts */
    long rank;      /* note_steps' */
    bool kept;      /* the last step line of its rank among those noted together */
    bool error;     /* note_steps': an own line at ERROR level or worse */
};

/* A rank's training progress, for live watching (fl_scanner_rank_progress). */
struct rank_live {
    long rank;
    uint64_t lines;      /* progress lines */
    long long step;      /* step number of the last one, -1 none */
    int src;             /* source of the last one, -1 none */
    uint64_t line_no;
    long pid;            /* 0: unknown */
};

/* A step line note_steps found to be its rank's last so far in the chunk: noted at the chunk's
 * end (flush_steps), unless a later line of the rank replaces it. */
struct held_step {
    long rank;
    bool own;
    uint64_t start, end, line_no;
};

struct source_error_rec {
    char *name;
    char *msg;
};

struct fl_scanner {
    const struct fl_kb *kb;
    struct fl_scan_options opts;
    hs_scratch_t *scratch;
    struct source *sources;
    size_t nsources, sources_cap;
    struct source *cur;     /* the source being scanned, for the match callback */
    unsigned long dropped;  /* matches beyond PENDING_MAX on one line */
    struct extractor x;
    struct correlator corr;
    struct buf line, clean;
    struct step *steps;     /* the step matches of the chunk being scanned */
    struct held_step held[STEP_RANKS_MAX]; /* per rank, its last step line of the chunk so far */
    size_t nheld;
    size_t nsteps, steps_cap;
    size_t steps_noted;     /* steps[0..steps_noted) are noted */
    /* the chunk's first and last '\n': a match ending in (steps_from, steps_to] lies in a line
     * whole in the chunk; steps_from is UINT64_MAX when no chunk is being scanned */
    uint64_t steps_from, steps_to;
    uint64_t bytes;
    int year;               /* the current year, for sources without one (scan_time.h) */
    long *ranks;
    size_t nranks, ranks_cap;
    size_t rank_last;       /* where note_rank found or put the last rank */
    struct rank_live *live;  /* sorted by rank */
    size_t nlive, live_cap;
    struct source_error_rec *errors;
    size_t nerrors, errors_cap;
};

enum fl_status fl_scanner_new(const struct fl_kb *kb, const struct fl_scan_options *opts,
                              struct fl_scanner **out)
{
    *out = NULL;
    if (kb == NULL || !kb->compiled)
        return FL_ERR_USAGE;
    struct fl_scanner *s = calloc(1, sizeof *s);
    if (s == NULL)
        return FL_ERR_NOMEM;
    if (opts)
        s->opts = *opts;
    if (s->opts.max_evidence == 0)
        s->opts.max_evidence = 8;
    buf_init(&s->line, 2 * LINE_CAP);
    buf_init(&s->clean, 2 * LINE_CAP);
    s->steps_from = UINT64_MAX;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    s->year = tm.tm_year + 1900;
    enum fl_status st = FL_ERR_INTERNAL;
    if ((s->scratch = kb_take_scratch(kb)) == NULL)
        goto fail;
    if ((st = extractor_init(&s->x, kb)) != FL_OK || (st = correlator_init(&s->corr, kb)) != FL_OK)
        goto fail;
    s->kb = kb;
    *out = s;
    return FL_OK;
fail:
    s->kb = kb;
    fl_scanner_free(s);
    return st;
}

enum fl_status scanner_new_like(const struct fl_scanner *s, struct fl_scanner **out)
{
    return fl_scanner_new(s->kb, &s->opts, out);
}

void fl_scanner_free(struct fl_scanner *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->nsources; i++) {
        struct source *src = &s->sources[i];
        if (src->stream)
            hs_close_stream(src->stream, s->scratch, NULL, NULL);
        free(src->name);
        buf_free(&src->carry);
        scanner_time_free(&src->time);
        free(src->pending);
    }
    free(s->sources);
    hs_free_scratch(s->scratch);
    extractor_free(&s->x);
    if (s->corr.st)
        correlator_free(&s->corr);
    buf_free(&s->line);
    free(s->steps);
    buf_free(&s->clean);
    free(s->ranks);
    free(s->live);
    for (size_t i = 0; i < s->nerrors; i++) {
        free(s->errors[i].name);
        free(s->errors[i].msg);
    }
    free(s->errors);
    free(s);
}

static void note_rank(struct fl_scanner *s, long rank)
{
    if (rank < 0)
        return;
    /* matched lines come in runs of one rank's: its place is looked at first */
    if (s->rank_last < s->nranks && s->ranks[s->rank_last] == rank)
        return;
    size_t lo = 0, hi = s->nranks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->ranks[mid] < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->nranks && s->ranks[lo] == rank) {
        s->rank_last = lo;
        return;
    }
    if (GROW(s->ranks, s->ranks_cap, s->nranks, SEEN_RANKS_MAX) != FL_OK)
        return;
    memmove(&s->ranks[lo + 1], &s->ranks[lo], (s->nranks - lo) * sizeof *s->ranks);
    s->ranks[lo] = rank;
    s->nranks++;
    s->rank_last = lo;
}

/* Where rank's progress record is, or would go: the records are sorted by rank. */
static size_t live_index(const struct fl_scanner *s, long rank)
{
    size_t lo = 0, hi = s->nlive;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->live[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The progress record of rank (created), or NULL past the bound. */
static struct rank_live *live_of(struct fl_scanner *s, long rank)
{
    size_t lo = live_index(s, rank);
    if (lo < s->nlive && s->live[lo].rank == rank)
        return &s->live[lo];
    if (GROW(s->live, s->live_cap, s->nlive, SEEN_RANKS_MAX) != FL_OK)
        return NULL;
    memmove(&s->live[lo + 1], &s->live[lo], (s->nlive - lo) * sizeof *s->live);
    s->live[lo] = (struct rank_live){.rank = rank, .step = -1, .src = -1};
    s->nlive++;
    return &s->live[lo];
}

/* The step number a progress line states: Megatron's "iteration N", DeepSpeed's "step=N",
 * Hugging Face's "'step': N" / "global_step"; -1 when it states none or one too long for a long
 * long (no counter reaches that: such digits are not a step). Runs on one line per rank per
 * chunk (the last step line of each), never on every line. */
static long long step_number(const char *p, size_t n)
{
    static const char *const keys[] = {"iteration", "step=", "'step': ", "global_step", NULL};
    for (int k = 0; keys[k]; k++) {
        const char *at = memmem(p, n, keys[k], strlen(keys[k]));
        if (at == NULL)
            continue;
        const char *q = at + strlen(keys[k]), *end = p + n;
        while (q < end && (*q == ' ' || *q == '=' || *q == ':'))
            q++;
        if (q == end || *q < '0' || *q > '9')
            continue;
        long long v = 0;
        for (; q < end && *q >= '0' && *q <= '9'; q++) {
            if (v > (LLONG_MAX - (*q - '0')) / 10)
                return -1;
            v = v * 10 + (*q - '0');
        }
        return v;
    }
    return -1;
}

/* A rank as the scan keeps it: a local one (a per-rank folder, [defaultN]:) tagged with the
 * source's node until the correlator knows which global rank it is (rankmap.h). */
static long stored_rank(const struct source *so, long rank, bool local)
{
    return local ? rankmap_local(so->node, rank) : rank;
}

enum fl_status fl_scanner_open_source(struct fl_scanner *s, const char *name, int *src)
{
    enum fl_status st = GROW(s->sources, s->sources_cap, s->nsources, SOURCES_MAX);
    if (st != FL_OK)
        return st;
    struct source *so = &s->sources[s->nsources];
    memset(so, 0, sizeof *so);
    so->name = xstrdup(name ? name : "-");
    if (so->name == NULL)
        return FL_ERR_NOMEM;
    so->path_meta = (struct line_meta){.rank = -1, .ts_ms = TS_UNKNOWN};
    so->own_rank = OWN_NONE;
    prefix_from_path(so->name, &so->path_meta);
    so->node = rankmap_node(so->name);
    so->path_meta.rank = stored_rank(so, so->path_meta.rank, so->path_meta.rank_local);
    note_rank(s, so->path_meta.rank);
    buf_init(&so->carry, LINE_CAP);
    scanner_time_init(&so->time, s->year);
    if (hs_open_stream(s->kb->db, 0, &so->stream) != HS_SUCCESS) {
        free(so->name);
        return FL_ERR_INTERNAL;
    }
    so->open = true;
    *src = (int)s->nsources++;
    return FL_OK;
}

void fl_scanner_note_error(struct fl_scanner *s, const char *name, const char *msg)
{
    if (GROW(s->errors, s->errors_cap, s->nerrors, 4096) != FL_OK)
        return;
    s->errors[s->nerrors].name = xstrdup(name);
    s->errors[s->nerrors].msg = xstrdup(msg);
    if (s->errors[s->nerrors].name && s->errors[s->nerrors].msg)
        s->nerrors++;
}

static int on_match(unsigned id, unsigned long long from, unsigned long long to, unsigned flags,
                    void *ctx)
{
    (void)from;
    (void)flags;
    struct fl_scanner *s = ctx;
    struct source *so = s->cur;
    /* a step line whole in the chunk goes to note_steps, never through process() */
    enum builtin b = s->kb->patterns[id].builtin;
    if ((b == BUILTIN_PROGRESS || b == BUILTIN_RANK_LINE) && to > s->steps_from &&
        to <= s->steps_to && GROW(s->steps, s->steps_cap, s->nsteps, STEPS_MAX) == FL_OK) {
        s->steps[s->nsteps++] = (struct step){.to = to, .own = b == BUILTIN_RANK_LINE};
        return 0;
    }
    if (GROW(so->pending, so->pending_cap, so->npending, PENDING_MAX) != FL_OK) {
        s->dropped++;
        return 0;
    }
    so->pending[so->npending++] = (struct match){id, to};
    return 0;
}

/* The chunk being processed, with the carried partial line in front of it. */
struct window {
    const char *chunk;
    size_t len;
};

/* Finds the end ('\n' offset, absolute) of the line holding absolute offset `at`, or false. */
static bool line_end(const struct source *so, const struct window *w, uint64_t at, uint64_t *end)
{
    uint64_t from = at > so->base ? at : so->base;
    if (from >= so->base + w->len)
        return false;
    const char *nl = memchr(w->chunk + (from - so->base), '\n', w->len - (size_t)(from - so->base));
    if (nl == NULL)
        return false;
    *end = so->base + (uint64_t)(nl - w->chunk);
    return true;
}

/* Start (absolute) of the line holding absolute offset `at`, not before so->next_line. */
static uint64_t line_start(const struct source *so, const struct window *w, uint64_t at)
{
    if (at < so->base || at == so->next_line)
        return so->next_line;
    uint64_t lo = so->next_line > so->base ? so->next_line : so->base;
    const char *p = w->chunk + (lo - so->base);
    size_t n = (size_t)(at - lo);
    const char *nl = memrchr(p, '\n', n);
    return nl ? so->base + (uint64_t)(nl - w->chunk) + 1 : so->next_line;
}

/* Copies or points at the bytes [ls, le) into p and n (the carry may hold the start). Returns
 * where the byte at absolute offset `at` lies in them: n when at is UINT64_MAX (no focus), at
 * most n when the byte was cut from the carry. */
static size_t line_bytes(struct fl_scanner *s, const struct source *so, const struct window *w,
                         uint64_t ls, uint64_t le, uint64_t at, const char **p, size_t *n)
{
    if (ls >= so->base) {
        *p = w->chunk + (ls - so->base);
        *n = (size_t)(le - ls);
        return at == UINT64_MAX ? *n : at > ls ? (size_t)(at - ls) : 0;
    }
    size_t in_chunk = (size_t)(le - so->base);
    if (at != UINT64_MAX && at >= so->base && at - so->base >= LINE_CAP / 2) {
        /* the focus lies far into this chunk: the start of the line, in the carry, is left out */
        *p = w->chunk;
        *n = in_chunk;
        return (size_t)(at - so->base);
    }
    buf_reset(&s->line);
    size_t skip = ls > so->carry_start ? (size_t)(ls - so->carry_start) : 0;
    if (skip < so->carry.len)
        buf_append(&s->line, so->carry.data + skip, so->carry.len - skip);
    size_t head = s->line.len;
    buf_append(&s->line, w->chunk, in_chunk < LINE_CAP ? in_chunk : LINE_CAP);
    *p = s->line.data ? s->line.data : "";
    *n = s->line.len;
    size_t focus = at == UINT64_MAX ? *n
                   : at >= so->base ? head + (size_t)(at - so->base)
                   : at > so->carry_start + skip ? (size_t)(at - so->carry_start - skip) : 0;
    return focus < *n ? focus : *n;
}

/* What the scanner holds of the source around the chunk, for scan_time.c. */
static struct time_view time_view(const struct source *so, const struct window *w)
{
    bool carried = so->carry.len > 0 && so->carry_start < so->base;
    return (struct time_view){w->chunk, w->len, so->base, carried ? so->carry.data : NULL,
                              carried ? so->carry.len : 0, carried ? so->carry_start : so->base};
}

/* A line holds a handful of matches: insertion sort beats qsort's calls through a pointer. The
 * match ends tos[] move with their ids; the sort is stable. */
static void sort_ids(unsigned *ids, uint64_t *tos, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        unsigned v = ids[i];
        uint64_t t = tos[i];
        size_t j = i;
        for (; j > 0 && ids[j - 1] > v; j--) {
            ids[j] = ids[j - 1];
            tos[j] = tos[j - 1];
        }
        ids[j] = v;
        tos[j] = t;
    }
}

/* Whether line[0..n) holds needle[0..k) at `at` (ASCII case folded when nocase). */
static bool holds_at(const char *line, size_t n, const char *needle, size_t k, bool nocase, size_t at)
{
    return at < n && k <= n - at &&
           (nocase ? strncasecmp(line + at, needle, k) : memcmp(line + at, needle, k)) == 0;
}

/* Whether line[0..n) holds needle[0..k) anywhere (ASCII case folded when nocase). */
static bool holds(const char *line, size_t n, const char *needle, size_t k, bool nocase)
{
    if (!nocase) /* glibc's memmem (two-way) cost more than the rest of the test on the lines
                    of a log of errors, where most windows found are not their literal */
        return buf_find(line, n, needle, k) != NULL;
    /* strncasecmp's own first test, inline: a call at every byte of every line was a tenth of
     * the time on a log where most lines are errors */
    int first = tolower((unsigned char)needle[0]);
    for (size_t i = 0; i + k <= n; i++)
        if (tolower((unsigned char)line[i]) == first && strncasecmp(line + i, needle, k) == 0)
            return true;
    return false;
}

/* Line numbers: counts the newlines between the last count and ls. The line after a handled
 * one (every line of a stack dump or a traceback) is counted without looking: a count call per
 * line was 5% of a log of stack dumps. */
static void count_lines_to(struct source *so, const struct window *w, uint64_t ls)
{
    if (ls > so->counted_to && so->counted_to >= so->base) {
        so->lines += ls == so->handled_end ? 1
                     : framer_count_newlines(w->chunk + (so->counted_to - so->base),
                                             (size_t)(ls - so->counted_to));
        so->counted_to = ls;
    }
}

/* The rank a step line counts for: its torchrun prefix's when it has one, whatever prefixes
 * follow (which lines are told apart as one rank's must not depend on where chunks end).
 * p[0..n) holds the line, and may go on past its '\n': the torchrun prefix is told without
 * looking for the line's end. */
static long step_rank(const struct source *so, const char *p, size_t n)
{
    long rank;
    bool local;
    if (prefix_torchrun_rank(p, n, &rank, NULL, &local))
        return stored_rank(so, rank, local);
    const char *le = memchr(p, '\n', n);
    struct line_meta m = so->path_meta;
    prefix_parse(p, le ? (size_t)(le - p) : n, &m, so->time.year);
    return stored_rank(so, m.rank, m.rank_local);
}

/* The rank of the own line line[0..len) whose marker the pattern matched up to line[at] (the
 * marker and the one byte after it): the number the program printed, a global rank; -1 when it
 * is not one (prefix_message_rank says which markers count where). *error: the line's record
 * is at ERROR level or worse. A line where two ranks' writes met has a marker of each. */
static long own_rank(const struct source *so, const char *line, size_t len, size_t at, bool *error)
{
    /* "[rank N]" counts wherever it stands (prefix_message_rank): unless the line may be an
     * error record, the number before its ']' is all there is to read, and the line's prefixes
     * are not parsed, which is what note_steps defers step lines for */
    *error = false;
    if (at >= 3 && line[at - 2] == ']' && isdigit((unsigned char)line[at - 3]) &&
        !prefix_may_be_error_record(line, at)) {
        size_t i = at - 2;
        long rank = 0, scale = 1;
        while (i > 0 && isdigit((unsigned char)line[i - 1]) && scale <= 1000000) {
            rank += (line[--i] - '0') * scale;
            scale *= 10;
        }
        return rank;
    }
    struct line_meta m = {.rank = -1, .ts_ms = TS_UNKNOWN};
    prefix_parse(line, len, &m, so->time.year);
    if (at == 0 || at - 1 <= m.msg_off)
        return -1;
    const char *msg = line + m.msg_off;
    size_t n = len - m.msg_off, want = at - 1 - m.msg_off, from = 0, end = 0;
    long rank;
    while ((rank = prefix_message_rank(msg, n, from, &end)) >= 0 && end < want)
        from = end;
    *error = m.level_error;
    return end == want ? rank : -1;
}

/* Notes the step line [ls, le), numbered line_no, as rank's, with its own time: the same
 * record whether note_steps or handle_line notes it. */
static void note_step(struct fl_scanner *s, struct source *so, const struct window *w,
                      uint64_t ls, uint64_t le, uint64_t line_no, long rank, const char *text, size_t n)
{
    struct line_view lv = {.src = (int)(so - s->sources), .node = so->node, .line_no = line_no,
                           .meta = so->path_meta};
    struct time_view tv = time_view(so, w);
    struct line_meta own = so->path_meta;
    scanner_time_of_span(&so->time, &tv, ls, le, &own);
    lv.meta.rank = rank;
    lv.meta.ts_ms = own.ts_ms;
    lv.meta.ts_no_year = own.ts_no_year;
    lv.meta.ts_no_zone = own.ts_no_zone;
    note_rank(s, rank);
    extract_note_progress(&s->x, &lv, 1);
    struct rank_live *rl = rank >= 0 ? live_of(s, rank) : NULL;
    if (rl) {
        rl->lines++;
        rl->step = step_number(text, n);
        rl->src = lv.src;
        rl->line_no = lv.line_no;
    }
}

/* A step line of rank that is not noted, because a later one of the rank is: counted only. */
static void count_step(struct fl_scanner *s, long rank)
{
    extract_note_progress(&s->x, NULL, 1);
    struct rank_live *rl = rank >= 0 ? live_of(s, rank) : NULL;
    if (rl)
        rl->lines++;
}

/* Drops rank's held step line, which a later line of the rank replaces. */
static void drop_held(struct fl_scanner *s, long rank, bool own)
{
    for (size_t i = 0; i < s->nheld; i++)
        if (s->held[i].rank == rank && s->held[i].own == own) {
            if (!own)
                count_step(s, rank); /* own lines were counted when note_steps read them */
            s->held[i] = s->held[--s->nheld];
            return;
        }
}

/* An own line of rank, numbered line_no, is the last of the rank in its source so far; lines and
 * runs add to its counts (0 where note_steps counted them already). */
static void note_own_line(struct fl_scanner *s, struct source *so, long rank, uint64_t line_no,
                          unsigned long lines, unsigned long runs)
{
    note_rank(s, rank);
    extract_note_own_lines(&s->x, (int)(so - s->sources), rank, line_no, lines, runs);
}

static void note_held(struct fl_scanner *s, struct source *so, const struct window *w,
                      const struct held_step *h)
{
    const char *p = w->chunk + (h->start - so->base);
    if (h->own)
        note_own_line(s, so, h->rank, h->line_no, 0, 0);
    else
        note_step(s, so, w, h->start, h->end, h->line_no, h->rank, p, (size_t)(h->end - h->start));
}

/* Holds the step (or own) line [start, end), numbered line_no, as rank's last in the chunk so
 * far; noted at once when STEP_RANKS_MAX ranks are held already. */
static void hold_step(struct fl_scanner *s, struct source *so, const struct window *w,
                      const struct held_step *h)
{
    drop_held(s, h->rank, h->own);
    if (s->nheld < STEP_RANKS_MAX)
        s->held[s->nheld++] = *h;
    else
        note_held(s, so, w, h);
}

/* Notes the held step lines: the last of each rank in the chunk. */
static void flush_steps(struct fl_scanner *s, struct source *so, const struct window *w)
{
    for (size_t i = 0; i < s->nheld; i++)
        note_held(s, so, w, &s->held[i]);
    s->nheld = 0;
}

/* The own lines of each rank that note_steps reads at once: how many, and how many of them start
 * a run. A rank beyond STEP_RANKS_MAX of them goes to the extractor line by line. */
struct own_tally {
    long rank[STEP_RANKS_MAX];
    unsigned long lines[STEP_RANKS_MAX], runs[STEP_RANKS_MAX];
    size_t n;
};

static void tally_own(struct fl_scanner *s, struct source *so, struct own_tally *t, long rank,
                      unsigned long lines, unsigned long runs)
{
    size_t r = 0;
    while (r < t->n && t->rank[r] != rank)
        r++;
    if (r == t->n && t->n < STEP_RANKS_MAX) {
        t->rank[t->n++] = rank;
        t->lines[r] = t->runs[r] = 0;
    }
    if (r < t->n) {
        t->lines[r] += lines;
        t->runs[r] += runs;
    } else {
        extract_note_own_lines(&s->x, (int)(so - s->sources), rank, 0, lines, runs);
    }
}

/* Step lines are the commonest match by far, and all one tells is that its rank was still
 * training there, and when: only the last one of each rank matters. So the match callback
 * only keeps where they end, and note_steps reads them newest first, finding each one's line
 * start and rank, to number and parse only the last line of each rank, in order. It runs at
 * the end of the chunk, and before a line after them is handled (counting newlines is one pass
 * forward): it notes the steps that end before `before`. */
static void note_steps(struct fl_scanner *s, struct source *so, const struct window *w,
                       uint64_t before)
{
    size_t lo = s->steps_noted, hi = lo;
    while (hi < s->nsteps && s->steps[hi].to <= before)
        hi++;
    if (hi == lo)
        return;
    s->steps_noted = hi;
    const char *end = w->chunk + (s->steps_to - so->base); /* the chunk's last '\n' */
    long ranks[STEP_RANKS_MAX];
    bool owns[STEP_RANKS_MAX];
    unsigned long also[STEP_RANKS_MAX]; /* per rank: its step lines that are not noted */
    size_t nranks = 0;
    unsigned long lines = 0, kept = 0;
    uint64_t counted = UINT64_MAX; /* the start of the last line counted */
    struct own_tally tally = {.n = 0};
    long newest_own = OWN_NONE, newer_own = OWN_NONE; /* the ranks of the newest own line, and of
                                                         the one after the line read */
    for (size_t k = hi; k-- > lo;) {
        struct step *st = &s->steps[k];
        const char *at = w->chunk + (st->to - so->base);
        const char *nl = memrchr(w->chunk, '\n', (size_t)(at - w->chunk));
        st->start = nl ? so->base + (uint64_t)(nl + 1 - w->chunk) : so->base;
        st->kept = false;
        const char *p = w->chunk + (st->start - so->base);
        st->error = false;
        if (st->own) {
            const char *le = memchr(p, '\n', (size_t)(end - p) + 1);
            st->rank = own_rank(so, p, (size_t)(le - p), (size_t)(at - p), &st->error);
            if (st->rank < 0)
                continue; /* "rank N: " not at the line's start: not the rank's own line */
            tally_own(s, so, &tally, st->rank, 1, 0);
            if (newer_own != OWN_NONE && newer_own != st->rank)
                tally_own(s, so, &tally, newer_own, 0, 1); /* the line after this one starts a run */
            if (newest_own == OWN_NONE)
                newest_own = st->rank;
            newer_own = st->rank;
        } else {
            if (st->start == counted || !extract_progress_shape(p, (size_t)(end - p), (size_t)(at - p)))
                continue; /* a second match on a counted line, or not a step line's shape */
            counted = st->start;
            lines++;
            st->rank = step_rank(so, p, (size_t)(end - p));
        }
        size_t r = 0;
        while (r < nranks && (ranks[r] != st->rank || owns[r] != st->own))
            r++;
        if (r < nranks) {
            also[r]++;
            continue;
        }
        if (nranks < STEP_RANKS_MAX) {
            also[nranks] = 0;
            owns[nranks] = st->own;
            ranks[nranks++] = st->rank;
        }
        st->kept = true;
        kept += !st->own;
    }
    /* the oldest own line read starts a run unless the source's last one before it was its rank's */
    if (newer_own != OWN_NONE && so->own_rank != newer_own)
        tally_own(s, so, &tally, newer_own, 0, 1);
    if (newest_own != OWN_NONE)
        so->own_rank = newest_own;
    for (size_t r = 0; r < tally.n; r++)
        extract_note_own_lines(&s->x, (int)(so - s->sources), tally.rank[r], 0, tally.lines[r],
                               tally.runs[r]);
    for (size_t k = lo; k < hi; k++) {
        const struct step *st = &s->steps[k];
        if (!st->kept && !st->error)
            continue;
        count_lines_to(so, w, st->start);
        if (st->error)
            extract_note_own_error(&s->x, (int)(so - s->sources), st->rank, so->lines + 1);
        if (!st->kept)
            continue;
        const char *p = w->chunk + (st->start - so->base);
        const char *le = memchr(p, '\n', (size_t)(end - p) + 1);
        hold_step(s, so, w, &(struct held_step){st->rank, st->own, st->start,
                                                so->base + (uint64_t)(le - w->chunk), so->lines + 1});
    }
    if (lines > kept)
        extract_note_progress(&s->x, NULL, lines - kept);
    for (size_t r = 0; r < nranks; r++) {
        struct rank_live *rl = also[r] && ranks[r] >= 0 && !owns[r] ? live_of(s, ranks[r]) : NULL;
        if (rl)
            rl->lines += also[r];
    }
}

/* Whether none of the matches m[0..nm) reads its line's time: NCCL's communicator lines
 * ("NCCL INFO comm 0x... rank N nranks M"), which only say which host a rank runs on, are most
 * of the matched lines of an NCCL_DEBUG=INFO log. */
static bool timeless(const struct fl_kb *kb, const struct match *m, size_t nm)
{
    for (size_t i = 0; i < nm; i++)
        if (kb->patterns[m[i].id].builtin != BUILTIN_RANK_HOST)
            return false;
    return nm > 0;
}

/* The time of the line [ls, le) (read as p[0..n), prefix-parsed into lv), by the rule the
 * look-back shares: its own, else the nearest earlier dated line's when it has matches. */
static void line_time(struct source *so, const struct window *w, uint64_t ls, uint64_t le,
                      const char *p, size_t n, size_t nm, struct line_view *lv)
{
    struct time_view tv = time_view(so, w);
    if (lv->text != p || ls < so->base || n != (size_t)(le - ls) || n > SCANNER_TIME_PREFIX) {
        /* the line's own time by the rule the look-back uses too, from its start, not from
         * what the match-focused cleaning kept; a short clean line was parsed just so before */
        struct line_meta own;
        scanner_time_of_span(&so->time, &tv, ls, le, &own);
        lv->meta.ts_ms = own.ts_ms;
        lv->meta.ts_no_year = own.ts_no_year;
        lv->meta.ts_no_zone = own.ts_no_zone;
    }
    if (lv->meta.ts_ms != TS_UNKNOWN) {
        scanner_time_dated(&so->time, ls, le, &lv->meta);
    } else if (nm) {
        scanner_time_inherit(&so->time, &tv, ls, le, &lv->meta);
    }
}

/* Whether the line lv (read from ls; `whole` when not cleaned or cut) holds the whole literal
 * of pat, of which Vectorscan found a window at tos[0] (and at the tos[] that follow with the
 * same id, ids[] sorted). Each window's match puts the literal at one place, looked at first.
 * Vectorscan reports every place the window is at, so when all the line's matches are at hand
 * (all_matches: none dropped) on the line as read, the literal is nowhere else; otherwise the
 * line is searched. Most windows on a log of errors are not their literal (a window in
 * "ProcessGroupNCCL" matches the file name of every c10d line): their search of the line was
 * 2% of that log. */
static bool holds_literal(const struct fl_kb *kb, const struct pattern *pat, const struct line_view *lv,
                          const char *whole, uint64_t ls, const unsigned *ids, const uint64_t *tos,
                          size_t n, bool all_matches)
{
    const char *lit = kb_text(kb, pat->literal);
    if (lv->text != whole)
        return holds(lv->text, lv->len, lit, pat->literal_len, pat->nocase);
    for (size_t k = 0; k < n && ids[k] == ids[0]; k++)
        if (tos[k] >= ls + pat->window_end &&
            holds_at(lv->text, lv->len, lit, pat->literal_len, pat->nocase, (size_t)(tos[k] - ls - pat->window_end)))
            return true;
    return !all_matches && holds(lv->text, lv->len, lit, pat->literal_len, pat->nocase);
}

/* Handles one line [ls, le) and the matches m[0..nm) that end in it. */
static enum fl_status handle_line(struct fl_scanner *s, struct source *so, const struct window *w,
                                  uint64_t ls, uint64_t le, const struct match *m, size_t nm)
{
    count_lines_to(so, w, ls);
    const char *p;
    size_t n;
    uint64_t at = nm ? (m[0].to > ls ? m[0].to - 1 : ls) : UINT64_MAX;
    size_t focus = line_bytes(s, so, w, ls, le, at, &p, &n);
    /* the whole line as read, for the shape of step lines; NULL when it was cut */
    const char *whole = n == (size_t)(le - ls) ? p : NULL;
    if (n > LINE_CAP) {
        size_t start = focus > LINE_CAP - 1024 ? focus - (LINE_CAP - 1024) : 0;
        p += start;
        n = n - start < LINE_CAP ? n - start : LINE_CAP;
        focus -= start;
    }
    /* every field is set below: an initialiser would zero the struct first (a `rep stos` of 144
     * bytes, measured 4% of the hang mix, whose every stack-dump line is handled) */
    struct line_view lv;
    lv.src = (int)(so - s->sources);
    lv.line_no = so->lines + 1;
    if (framer_is_clean(p, n)) {
        lv.text = p;
        lv.len = n;
    } else {
        framer_clean(p, n, focus, &s->clean);
        lv.text = s->clean.data ? s->clean.data : "";
        lv.len = s->clean.len;
    }
    lv.node = so->node;
    lv.meta = so->path_meta;
    prefix_parse(lv.text, lv.len, &lv.meta, so->time.year);
    lv.meta.rank = stored_rank(so, lv.meta.rank, lv.meta.rank_local);
    bool follow = extract_following(&s->x, lv.src);
    if (follow || !timeless(s->kb, m, nm)) {
        line_time(so, w, ls, le, p, n, nm, &lv);
    } else {
        /* nothing here reads the line's time: its look-back is left to the next line that does
         * (or to the chunk's end), which looks at the lines between from where this one would
         * have stopped, and finds the same nearest dated line */
        lv.meta.ts_ms = TS_UNKNOWN;
    }
    lv.msg = lv.text + lv.meta.msg_off;
    lv.msg_len = lv.len - lv.meta.msg_off;
    enum fl_status st = FL_OK;
    if (follow)
        st = extract_on_line(&s->x, &lv);
    bool matched_any = false; /* atoms and prefilters that PCRE2 or memmem turn down do not count */
    unsigned ids[64];
    uint64_t tos[64];
    size_t nids = 0;
    bool step = false;
    long own[8];
    bool own_error[8];
    size_t nown = 0;
    for (size_t i = 0; i < nm; i++) {
        enum builtin b = s->kb->patterns[m[i].id].builtin;
        if (b == BUILTIN_PROGRESS)
            step |= whole == NULL || extract_progress_shape(whole, (size_t)(le - ls), (size_t)(m[i].to - ls));
        else if (b == BUILTIN_RANK_LINE && nown < 8) {
            bool error = lv.meta.level_error;
            long r = whole ? own_rank(so, whole, (size_t)(le - ls), (size_t)(m[i].to - ls), &error)
                           : lv.meta.rank;
            if (r >= 0) {
                own_error[nown] = error;
                own[nown++] = r;
            }
        }
        else if (nids < 64) {
            ids[nids] = m[i].id;
            tos[nids++] = m[i].to;
        }
    }
    if (step) {
        long rank = whole ? step_rank(so, whole, (size_t)(le - ls)) : lv.meta.rank;
        drop_held(s, rank, false); /* noted before this line's, it would overwrite what this one tells */
        note_step(s, so, w, ls, le, so->lines + 1, rank, whole ? whole : lv.text,
                  whole ? (size_t)(le - ls) : lv.len);
    }
    for (size_t i = 0; i < nown; i++) {
        long rank = own[i];
        drop_held(s, rank, true);
        note_own_line(s, so, rank, so->lines + 1, 1, so->own_rank != rank);
        if (own_error[i])
            extract_note_own_error(&s->x, (int)(so - s->sources), rank, so->lines + 1);
        so->own_rank = rank;
    }
    sort_ids(ids, tos, nids);
    const struct pattern *tried = NULL; /* the last pattern whose line went past its literal */
    for (size_t i = 0; i < nids && st == FL_OK; i++) {
        if (i && ids[i] == ids[i - 1])
            continue;
        const struct pattern *pat = &s->kb->patterns[ids[i]];
        if (pat->entry < 0) {
            st = extract_on_match(&s->x, s->kb, (int)ids[i], &lv);
            matched_any = true;
            continue;
        }
        struct line_view ev = lv;
        if (tried && pat->entry == tried->entry && pat->signal == tried->signal)
            continue; /* two atoms of one regex on one line: one line, one confirmation */
        if (pat->literal && !holds_literal(s->kb, pat, &lv, whole, ls, ids + i, tos + i, nids - i,
                                           nm <= 64 && s->dropped == 0))
            continue; /* Vectorscan found a window of the literal (or of a regex's atom), not
                         all of it; the regex may still match by another branch's atom */
        tried = pat;
        bool want_facts = s->corr.st[pat->entry].counts[pat->signal] < 4;
        if (pat->pcre_expr && (want_facts || pat->names_location || pat->confirm)) {
            /* PCRE2 confirms atoms and prefilters, and reads the captures */
            bool matched = extract_captures(&s->x, s->kb, (int)ids[i], &lv, want_facts, &ev.meta, &st);
            if (st != FL_OK || (!matched && pat->confirm))
                continue;
        }
        st = correlator_add(&s->corr, pat->entry, pat->signal, &ev);
        if (s->kb->entries[pat->entry].signals[pat->signal].positive)
            extract_note_entry(&s->x, &lv, pat->entry, s->kb->entries[pat->entry].collateral);
        matched_any = true;
    }
    if (matched_any) {
        note_rank(s, lv.meta.rank);
        extract_note_host(&s->x, lv.meta.rank, lv.meta.host);
        extract_note_line_host(&s->x, lv.meta.host);
        struct rank_live *rl = lv.meta.pid > 0 && lv.meta.rank >= 0 ? live_of(s, lv.meta.rank) : NULL;
        if (rl && rl->pid == 0)
            rl->pid = lv.meta.pid;
    }
    so->next_line = le + 1;
    so->handled_end = so->counted_to >= ls && so->counted_to <= le ? le + 1 : 0;
    return st;
}

/* Handles every complete line of the window that has matches, or that an open traceback needs. */
static enum fl_status process(struct fl_scanner *s, struct source *so, const struct window *w)
{
    size_t i = 0, np = so->npending;
    enum fl_status st = FL_OK;
    while (st == FL_OK) {
        /* matches that end in lines already handled add nothing */
        while (i < np && so->pending[i].to <= so->next_line)
            i++;
        bool follow = extract_following(&s->x, (int)(so - s->sources));
        if (!follow && i >= np)
            break;
        uint64_t at = follow ? so->next_line : so->pending[i].to - 1;
        uint64_t ls = follow ? so->next_line : line_start(so, w, at), le;
        if (!line_end(so, w, at, &le))
            break;
        size_t j = i;
        while (j < np && so->pending[j].to - 1 <= le)
            j++;
        note_steps(s, so, w, ls); /* numbers the step lines before this line moves the count on */
        st = handle_line(s, so, w, ls, le, so->pending + i, j - i);
        i = j;
    }
    note_steps(s, so, w, UINT64_MAX);
    flush_steps(s, so, w);
    s->nsteps = s->steps_noted = 0;
    if (i > 0)
        memmove(so->pending, so->pending + i, (np - i) * sizeof *so->pending);
    so->npending = np - i;
    return st;
}

static void carry_over(struct fl_scanner *s, struct source *so, const struct window *w)
{
    const char *nl = memrchr(w->chunk, '\n', w->len);
    if (nl) {
        /* the complete lines' times, for undated matches in the next chunk */
        struct time_view v = time_view(so, w);
        scanner_time_chunk_end(&so->time, &v, so->base + (uint64_t)(nl - w->chunk) + 1);
    }
    uint64_t end = so->base + w->len;
    if (nl == NULL) {
        buf_append(&so->carry, w->chunk, w->len); /* stops at LINE_CAP: the rest of a long line is cut */
    } else {
        buf_reset(&so->carry);
        so->carry_start = so->base + (uint64_t)(nl - w->chunk) + 1;
        buf_append(&so->carry, nl + 1, (size_t)(end - so->carry_start));
    }
    if (so->next_line < so->carry_start)
        so->next_line = so->carry_start;
    /* count the newlines not yet counted */
    if (so->counted_to < end) {
        uint64_t from = so->counted_to > so->base ? so->counted_to : so->base;
        so->lines += framer_count_newlines(w->chunk + (from - so->base), (size_t)(end - from));
        so->counted_to = end;
    }
}

enum fl_status fl_scanner_feed(struct fl_scanner *s, int src, const void *buf, size_t len)
{
    if (src < 0 || (size_t)src >= s->nsources || !s->sources[src].open)
        return FL_ERR_USAGE;
    struct source *so = &s->sources[src];
    const char *p = buf;
    enum fl_status st = FL_OK;
    if (!so->time.year_probed && so->base == 0)
        scanner_time_probe_year(&so->time, buf, len);
    /* Vectorscan takes at most 4 GiB per call; we also keep windows small for the carry logic */
    while (len > 0 && st == FL_OK) {
        size_t n = len < (1u << 30) ? len : (1u << 30);
        s->cur = so;
        const char *first = memchr(p, '\n', n), *last = first ? memrchr(p, '\n', n) : NULL;
        s->steps_from = first ? so->base + (uint64_t)(first - p) : 0;
        s->steps_to = last ? so->base + (uint64_t)(last - p) : 0;
        hs_error_t err = hs_scan_stream(so->stream, p, (unsigned)n, 0, s->scratch, on_match, s);
        s->steps_from = UINT64_MAX; /* matches at the end of the stream go to process() */
        if (err != HS_SUCCESS)
            return FL_ERR_INTERNAL;
        struct window w = {p, n};
        st = process(s, so, &w);
        carry_over(s, so, &w);
        so->base += n;
        s->bytes += n;
        p += n;
        len -= n;
    }
    return st;
}

enum fl_status fl_scanner_close_source(struct fl_scanner *s, int src)
{
    if (src < 0 || (size_t)src >= s->nsources || !s->sources[src].open)
        return FL_ERR_USAGE;
    struct source *so = &s->sources[src];
    s->cur = so;
    hs_close_stream(so->stream, s->scratch, on_match, s);
    so->stream = NULL;
    so->open = false;
    enum fl_status st = FL_OK;
    /* the last line has no '\n': feed one so that it is handled like the others */
    if (so->carry.len > 0 || so->npending > 0) {
        char nl = '\n';
        struct window w = {&nl, 1};
        st = process(s, so, &w);
        so->lines += so->carry.len > 0;
        so->base += 1;
    }
    if (so->tail)
        so->lines = so->segment_lines; /* the next segment's scanner counts the tail's lines */
    extract_close_source(&s->x, src);
    buf_free(&so->carry);
    scanner_time_free(&so->time);
    free(so->pending); /* a closed source keeps only its name and counts: memory stays flat */
    so->pending = NULL;
    so->npending = so->pending_cap = 0;
    return st;
}

void scanner_segment_context(struct fl_scanner *s, int src, const char *before, size_t nbefore,
                             bool file_start, const char *head, size_t nhead)
{
    struct source *so = &s->sources[src];
    scanner_time_probe_year(&so->time, head, nhead);
    scanner_time_context(&so->time, before, nbefore, file_start);
}

enum fl_status scanner_feed_tail(struct fl_scanner *s, int src, const void *buf, size_t len,
                                 bool *more)
{
    if (src < 0 || (size_t)src >= s->nsources || !s->sources[src].open)
        return FL_ERR_USAGE;
    struct source *so = &s->sources[src];
    if (!so->tail) {
        so->tail = true;
        so->segment_lines = so->lines;
        extract_note_tail(&s->x, src);
    }
    enum fl_status st = FL_OK;
    if (len > 0 && extract_following(&s->x, src)) {
        /* nothing is pending: process() walks only the lines the open block needs */
        struct window w = {buf, len};
        st = process(s, so, &w);
        carry_over(s, so, &w);
        so->base += len;
    }
    *more = extract_following(&s->x, src);
    return st;
}

enum fl_status scanner_merge(struct fl_scanner *dst, struct fl_scanner *src, bool continues)
{
    for (size_t i = 0; i < src->nsources; i++)
        if (src->sources[i].open)
            return FL_ERR_USAGE;
    if (continues && (dst->nsources == 0 || src->nsources == 0))
        return FL_ERR_USAGE;
    struct merge_map map = {.src_offset = (int)dst->nsources - continues, .continues = continues};
    if (continues) {
        /* src's first source is the rest of dst's last one: its lines are numbered on */
        struct source *last = &dst->sources[dst->nsources - 1];
        map.line_offset = last->lines;
        last->lines += src->sources[0].lines;
    }
    enum fl_status st = FL_OK;
    for (size_t i = continues; i < src->nsources && st == FL_OK; i++) {
        if ((st = GROW(dst->sources, dst->sources_cap, dst->nsources, SOURCES_MAX)) != FL_OK)
            break;
        dst->sources[dst->nsources++] = src->sources[i];
        memset(&src->sources[i], 0, sizeof src->sources[i]); /* moved */
    }
    if (st == FL_OK)
        st = correlator_merge(&dst->corr, &src->corr, &map);
    if (st == FL_OK)
        st = extractor_merge(&dst->x, &src->x, &map);
    for (size_t i = 0; i < src->nranks; i++)
        note_rank(dst, src->ranks[i]);
    for (size_t i = 0; i < src->nlive; i++) {
        const struct rank_live *from = &src->live[i];
        struct rank_live *to = live_of(dst, from->rank);
        if (to == NULL)
            continue;
        to->lines += from->lines;
        if (from->src >= 0) { /* src's lines come after dst's */
            to->step = from->step;
            to->line_no = from->line_no + (continues && from->src == 0 ? map.line_offset : 0);
            to->src = from->src + map.src_offset;
        }
        if (to->pid == 0)
            to->pid = from->pid;
    }
    for (size_t i = 0; i < src->nerrors; i++)
        fl_scanner_note_error(dst, src->errors[i].name, src->errors[i].msg);
    dst->bytes += src->bytes;
    dst->dropped += src->dropped;
    return st;
}

uint64_t scanner_segment_bytes(const struct fl_scanner *s)
{
    return s->opts.segment_bytes ? s->opts.segment_bytes : SEGMENT_BYTES_DEFAULT;
}

uint64_t scanner_thread_bytes(const struct fl_scanner *s)
{
    return s->opts.thread_bytes;
}

uint64_t scanner_lines(const struct fl_scanner *s)
{
    uint64_t n = 0;
    for (size_t i = 0; i < s->nsources; i++)
        n += s->sources[i].lines;
    return n;
}

/* The report of what was read. The correlator adds the facts it derives (stack groups, a stalled
 * rank, progress_lines) to the extractor's and sets the counts of config signals from them:
 * fl_scanner_snapshot undoes both, so that a snapshot leaves no trace in what follows. */
static enum fl_status build_report(struct fl_scanner *s, struct fl_report **out);

enum fl_status fl_scanner_finish(struct fl_scanner *s, struct fl_report **out)
{
    *out = NULL;
    enum fl_status st = FL_OK;
    for (size_t i = 0; i < s->nsources && st == FL_OK; i++)
        if (s->sources[i].open)
            st = fl_scanner_close_source(s, (int)i);
    if (st != FL_OK)
        return st;
    return build_report(s, out);
}

enum fl_status fl_scanner_snapshot(struct fl_scanner *s, struct fl_report **out)
{
    *out = NULL;
    size_t nfacts = s->x.facts.n;
    enum fl_status st = build_report(s, out);
    facts_truncate(&s->x.facts, nfacts);
    for (size_t i = 0; i < s->kb->nentries; i++)
        for (size_t j = 0; j < s->kb->entries[i].nsignals; j++)
            if (s->kb->entries[i].signals[j].kind == SIGNAL_CONFIG)
                s->corr.st[i].counts[j] = 0; /* never counted from lines: the finish sets them */
    return st;
}

size_t fl_scanner_rank_count(const struct fl_scanner *s)
{
    return s->nranks;
}

enum fl_status fl_scanner_rank_progress(const struct fl_scanner *s, size_t i,
                                        struct fl_rank_progress *out)
{
    if (i >= s->nranks)
        return FL_ERR_NOTFOUND;
    long rank = s->ranks[i];
    /* while the run goes on, a node's local rank is shown as such: which global rank it is,
     * the agent's summary tells at the end (rankmap.h) */
    *out = (struct fl_rank_progress){.rank = rankmap_local_part(rank), .last_step = -1,
                                     .host = extract_host_of(&s->x, rank)};
    size_t lo = live_index(s, rank);
    if (lo < s->nlive && s->live[lo].rank == rank) {
        const struct rank_live *rl = &s->live[lo];
        out->progress_lines = rl->lines;
        out->last_step = rl->step;
        out->source = rl->src >= 0 ? s->sources[rl->src].name : NULL;
        out->line = rl->line_no;
        out->pid = rl->pid;
    }
    return FL_OK;
}

/* A warning per signal whose regex was disabled for its cost: its later lines were not matched,
 * so a diagnosis it would have made may be missing. */
static enum fl_status warn_disabled(const struct fl_scanner *s, struct fl_report *r)
{
    for (size_t p = 0; p < s->kb->npatterns; p++) {
        const struct pattern *pt = &s->kb->patterns[p];
        if (!extract_disabled(&s->x, (int)p) || pt->entry < 0)
            continue;
        const struct entry *e = &s->kb->entries[pt->entry];
        struct buf b;
        buf_init(&b, 1024);
        buf_printf(&b, "signal '%s' of entry '%s' was disabled after its regex ran out of PCRE2's "
                   "match limit on %d lines (nested quantifiers backtrack catastrophically; "
                   "`faultline kb lint` shows where): lines after that were not matched against it",
                   entry_str(e, e->signals[pt->signal].name), e->id, PATTERN_BUDGET);
        char *w = buf_steal(&b);
        char **grown = w ? realloc(r->warnings, (r->nwarnings + 1) * sizeof *grown) : NULL;
        if (grown == NULL) {
            free(w);
            return FL_ERR_NOMEM;
        }
        r->warnings = grown;
        r->warnings[r->nwarnings++] = w;
    }
    return FL_OK;
}

static enum fl_status build_report(struct fl_scanner *s, struct fl_report **out)
{
    enum fl_status st = FL_OK;
    struct fl_report *r = calloc(1, sizeof *r);
    if (r == NULL)
        return FL_ERR_NOMEM;
    facts_init(&r->facts);
    r->nsources = s->nsources;
    r->bytes = s->bytes;
    r->lines = scanner_lines(s);
    r->ranks = malloc((s->nranks ? s->nranks : 1) * sizeof *r->ranks);
    struct source_info *info = calloc(s->nsources ? s->nsources : 1, sizeof *info);
    r->errors = calloc(s->nerrors ? s->nerrors : 1, sizeof *r->errors);
    if (r->ranks == NULL || info == NULL || r->errors == NULL) {
        free(info);
        fl_report_free(r);
        return FL_ERR_NOMEM;
    }
    if (s->nranks)
        memcpy(r->ranks, s->ranks, s->nranks * sizeof *r->ranks);
    r->nranks = s->nranks;
    for (size_t i = 0; i < s->nsources; i++)
        info[i].name = s->sources[i].name;
    for (size_t i = 0; i < s->nerrors; i++) {
        r->errors[i].source = xstrdup(s->errors[i].name);
        r->errors[i].msg = xstrdup(s->errors[i].msg);
        r->nerrors++;
    }
    st = correlator_finish(&s->corr, &s->x, info, s->nsources, s->opts.max_evidence, r);
    if (st == FL_OK)
        report_tidy_evidence(r);
    if (st == FL_OK)
        st = warn_disabled(s, r);
    free(info);
    for (size_t i = 0; i < s->x.facts.n && st == FL_OK; i++) {
        const struct fact *f = &s->x.facts.items[i];
        st = facts_add(&r->facts, f->key, strlen(f->key), f->value, strlen(f->value), true);
    }
    if (st != FL_OK) {
        fl_report_free(r);
        return st;
    }
    *out = r;
    return FL_OK;
}
