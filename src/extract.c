/*
 * extract.c — tracebacks, C++ exceptions, facts, progress and sequence numbers.
 *
 * A Python traceback is a small grammar: a header, pairs of frame and code lines (Python 3.11+
 * adds caret lines), and one exception line. We read it with a state machine per open traceback,
 * keyed by source and rank because several ranks' tracebacks interleave in one combined log.
 * Only the innermost frame and the exception are kept: they are what a person reads first, and
 * keeping more would let a deep recursion grow memory.
 */
#include "extract.h"
#include "pcre_lazy.h"
#include "rankmap.h"

#include <ctype.h>
#include <jansson.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPEN_MAX 64
#define PROGRESS_MAX 65536
#define SEQNUMS_MAX 65536

static const struct builtin_pattern builtins[] = {
    {BUILTIN_TRACEBACK, "Traceback \\(most recent call last\\):", 0, NULL},
    {BUILTIN_TERMINATE, "terminate called after throwing an instance of", 0,
     "instance of '(?<type>[^']+)'"},
    {BUILTIN_MEGATRON_ARG, "[a-z0-9_] \\.{4,} [^ \\n]", 0,
     "^\\s*(?<key>[a-z_][a-z0-9_]*) \\.{4,} (?<value>.*)$"},
    {BUILTIN_CMDLINE, "(?:torchrun|python[0-9.]*|deepspeed|accelerate launch|srun|mpirun)[ \\t][^\\n]*--[a-z]",
     0, "--(?<key>[a-z][a-z0-9_-]*)(?:[ =](?<value>[^\\s-][^\\s]*))?"},
    {BUILTIN_ENV, "(?:NCCL|CUDA|TORCH|PYTORCH|GLOO)_[A-Z0-9_]+=|MASTER_ADDR=|MASTER_PORT=|WORLD_SIZE=",
     0,
     "\\b(?<key>(?:NCCL|CUDA|TORCH|PYTORCH|GLOO)_[A-Z0-9_]+|MASTER_ADDR|MASTER_PORT|WORLD_SIZE)=(?<value>\"[^\"]*\"|'[^']*'|[^\\s,;]*)"},
    {BUILTIN_NCCL_ENV, "NCCL INFO NCCL_[A-Z0-9_]+ set by environment to", 0,
     "NCCL INFO (?<key>NCCL_[A-Z0-9_]+) set by environment to (?<value>\\S+)"},
    {BUILTIN_VERSION, "NCCL INFO NCCL version [0-9]", 0,
     "NCCL version (?<nccl_version>[0-9][0-9.]*)"},
    {BUILTIN_VERSION, "PyTorch version: [0-9]", 0, "PyTorch version: (?<torch_version>[0-9]\\S*)"},
    {BUILTIN_VERSION, "CUDA used to build PyTorch: [0-9]", 0,
     "CUDA used to build PyTorch: (?<cuda_version>[0-9][0-9.]*)"},
    {BUILTIN_VERSION, "Driver Version: [0-9]", 0, "Driver Version: (?<driver_version>[0-9][0-9.]*)"},
    {BUILTIN_VERSION, "Nvidia driver version: [0-9]", 0,
     "Nvidia driver version: (?<driver_version>[0-9][0-9.]*)"},
    {BUILTIN_VERSION, "GPU 0: NVIDIA ", 0, "GPU 0: (?<gpu_name>NVIDIA [^(\\n]*[^ (\\n])"},
    /* Step lines are the commonest match by far: the two commonest forms go to Vectorscan as
     * plain literals, which it reports several times more cheaply than regexes, and
     * extract_progress_shape checks what follows them. Megatron's line also says "per
     * iteration (ms)": the one character class, which Vectorscan expands into ten literals,
     * keeps that second report off every step line. */
    {BUILTIN_PROGRESS, " iteration [ 1-9]", 0, NULL},
    {BUILTIN_PROGRESS, "\\{'loss': ", 0, NULL},
    {BUILTIN_PROGRESS, "step=[0-9]+, skipped=[0-9]+|Epoch [0-9]+: +[0-9]+%\\|", 0, NULL},
    /* a training script's own line about its rank, print(f"[rank {rank}] ..."), "[Rank 0] ...",
     * print(f"rank {rank}: ...") at the message's start (prefix_message_rank checks where): read
     * like step lines, only the last of each rank and how many (scan.c) */
    {BUILTIN_RANK_LINE, "\\[rank [0-9]{1,7}\\] ", HS_FLAG_CASELESS, NULL},
    {BUILTIN_RANK_LINE, "rank [0-9]{1,7}: ", HS_FLAG_CASELESS, NULL},
    /* a logging record's field, "%(asctime)s %(levelname)s pid=%(process)d rank=%(rank)s ...":
     * among the header's fields only (prefix_message_rank) */
    {BUILTIN_RANK_LINE, "rank=[0-9]{1,7}[] :]", HS_FLAG_CASELESS, NULL},
    {BUILTIN_WATCHDOG_SEQ, "WorkNCCL\\(SeqNum=[0-9]+, OpType=", 0,
     "WorkNCCL\\(SeqNum=(?<seq>[0-9]+), OpType=(?<op>[A-Za-z_]+)"},
    {BUILTIN_WATCHDOG_SEQ, "last enqueued NCCL work: [0-9]+", HS_FLAG_CASELESS,
     "(?i)last enqueued NCCL work: (?<seq>[0-9]+)"},
    {BUILTIN_STACK_THREAD, "Thread (?:0x[0-9A-Fa-f]+|[0-9]+) \\([a-z+]+\\): \"", 0, NULL},
    {BUILTIN_STACK_THREAD, "(?:Current thread|Thread) 0x[0-9a-fA-F]+ \\(most recent call first\\):", 0,
     NULL},
    {BUILTIN_CHAIN, "During handling of the above exception, another exception occurred:", 0,
     NULL},
    {BUILTIN_CHAIN, "The above exception was the direct cause of the following exception:", 0,
     NULL},
    {BUILTIN_RANK_HOST, "NCCL INFO comm 0x[0-9a-f]+ rank [0-9]+ nranks [0-9]+", 0,
     "NCCL INFO comm 0x[0-9a-f]+ rank (?<rank>[0-9]+) nranks"},
    /* torchelastic's ChildFailedError summary (errors/__init__.py, _FAILURE_FORMAT_TEMPLATE):
     * "  rank      : 2 (local_rank: 2)", then the failure's traceback under "  traceback : " */
    {BUILTIN_LAUNCHER_RANK, "rank +: [0-9]+ \\(local_rank: [0-9]+\\)", 0,
     "rank +: (?<grank>[0-9]+) \\(local_rank: [0-9]+\\)"},
    {BUILTIN_LAUNCHER_ROOT, "Root Cause \\(first observed failure\\):", 0, NULL},
    /* the same template's next line: "  exitcode  : -9 (pid: 4104)" */
    {BUILTIN_LAUNCHER_CODE, "exitcode +: -?[0-9]+ \\(pid: [0-9]+\\)", 0,
     "exitcode +: (?<code>-?[0-9]+) \\(pid"},
    /* the agent stopping the workers still running after one failed (multiprocessing/api.py
     * close): "Sending process 4104 closing signal SIGTERM" */
    {BUILTIN_LAUNCHER_STOP, "Sending process [0-9]+ closing signal SIG", 0, NULL},
    /* the same template's host and error file: which node a failure is on, and (with @record)
     * its run folder: "  host      : node1", "  error_file: /tmp/x/none_ab12/attempt_0/1/error.json"
     * ("<N/A>" without @record). They map a node's local ranks to global ones (rankmap.h). */
    {BUILTIN_LAUNCHER_HOST, "host {2,}: [^ <]", 0, "host {2,}: (?<lhost>[^ ]+)"},
    {BUILTIN_LAUNCHER_ERRFILE, "error_file: [^ <]", 0, "error_file: (?<efile>[^ ]+)"},
    /* the same template's first line: "  time      : 2026-12-01_18:55:20" */
    {BUILTIN_LAUNCHER_TIME, "time {2,}: [0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}:[0-9]{2}:[0-9]{2}", 0,
     "time {2,}: (?<ltime>[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}:[0-9]{2}:[0-9]{2})"},
    /* torchelastic's monitor (multiprocessing/api.py): "failed (exitcode: -9) local_rank: 3 (pid:
     * 4104) of binary: /usr/bin/python3", one line per failed worker, the first one first */
    {BUILTIN_LAUNCHER_EXIT, "failed \\(exitcode: -?[0-9]+\\) local_rank: [0-9]+ \\(pid: ", 0,
     "local_rank: (?<lrank>[0-9]+) \\(pid"},
    /* error_handler.py record_exception: {"message": {"message": "T: m", "extraInfo":
     * {"py_callstack": "Traceback ...", "timestamp": "1714564803"}}} */
    {BUILTIN_ERROR_FILE, "\"py_callstack\": ?\"", 0, NULL},
    /* the reference training loops of DETR, DeiT, MAE, DINO and the torchvision detection
     * references: print("Loss is {}, stopping training".format(loss_value)); sys.exit(1) */
    {BUILTIN_LOSS_STOP, "Loss is -?(?:nan|inf), stopping training", 0, NULL},
    /* a loss value printed as nan or inf, in a training loop's own words ("step 5 loss nan",
     * "loss: nan", "loss=inf", "'loss': nan"); the reduced "Loss is nan" above is every rank's */
    {BUILTIN_LOSS_NONFINITE, "\\bloss['\"]?[ :=]+\\(?-?(?:nan|inf)\\b", HS_FLAG_CASELESS, NULL},
};

const struct builtin_pattern *extract_builtin_patterns(size_t *n)
{
    *n = sizeof builtins / sizeof builtins[0];
    return builtins;
}

enum tb_phase { TB_FRAMES, TB_CODE, TB_CPP_WHAT };

struct tb_state {
    int src;
    long rank;
    enum tb_phase phase;
    unsigned lines;
    char *frame;
    char *user_frame;     /* the innermost frame of the program's own code so far */
    char *code;           /* the source line under the innermost frame */
    unsigned flags;       /* enum frame_flags */
    bool original;        /* "Original Traceback": where a re-raised exception (a DataLoader
                             worker's) really came from */
    bool block_pending;   /* its rank is in torchrun's summary before this piece of the file */
    size_t frame_lead;    /* the indentation of the last frame line: its code line is deeper */
    uint64_t header_line; /* the line of its header */
    uint64_t fed;         /* the line it read last (the header, a frame, a code line) */
    bool chained;         /* a chain marker ("During handling of the above exception") of its
                             source and rank came after that line */
    char *cpp_type;       /* C++: the type from "instance of 'X'" */
    struct line_meta meta; /* of the header */
};

static void tb_free(struct tb_state *t)
{
    free(t->frame);
    free(t->user_frame);
    free(t->code);
    free(t->cpp_type);
}

enum fl_status extractor_init(struct extractor *x, const struct fl_kb *kb)
{
    memset(x, 0, sizeof *x);
    x->launcher_root_rank = x->launcher_exit_rank = -1;
    x->line_entry = -1;
    x->tail_src = -1;
    x->npcre = kb->npatterns;
    x->pcre = calloc(x->npcre ? x->npcre : 1, sizeof *x->pcre);
    x->pcre_uses = calloc(x->npcre ? x->npcre : 1, sizeof *x->pcre_uses);
    x->pcre_over = calloc(x->npcre ? x->npcre : 1, sizeof *x->pcre_over);
    x->reach = malloc((x->npcre ? x->npcre : 1) * sizeof *x->reach);
    x->mctx_reach = kb->mctx ? pcre2_match_context_copy(kb->mctx) : pcre2_match_context_create(NULL);
    if (x->pcre == NULL || x->pcre_uses == NULL || x->pcre_over == NULL || x->reach == NULL ||
        x->mctx_reach == NULL)
        return FL_ERR_NOMEM;
    for (size_t i = 0; i < x->npcre; i++)
        x->reach[i] = -1;
    facts_init(&x->facts);
    stacks_init(&x->stacks);
    x->md = pcre2_match_data_create(32, NULL);
    return x->md ? FL_OK : FL_ERR_NOMEM;
}

static void exception_free(struct exception_event *e)
{
    free(e->type);
    free(e->message);
    free(e->frame);
    free(e->user_frame);
    free(e->code);
}

void extractor_free(struct extractor *x)
{
    facts_free(&x->facts);
    stacks_free(&x->stacks);
    for (size_t i = 0; i < x->nexceptions; i++)
        exception_free(&x->exceptions[i]);
    free(x->exceptions);
    free(x->progress);
    free(x->own);
    free(x->nonfinite);
    free(x->seqnums);
    free(x->hosts);
    free(x->line_hosts);
    free(x->chains);
    free(x->blocks);
    free(x->failures);
    free(x->stops);
    free(x->head_verdicts);
    free(x->tail_headers);
    for (size_t i = 0; i < x->nopen; i++)
        tb_free(&x->open[i]);
    free(x->open);
    pcre2_match_data_free(x->md);
    for (size_t i = 0; i < x->npcre && x->pcre; i++)
        pcre2_code_free(x->pcre[i]);
    free(x->pcre);
    free(x->pcre_uses);
    free(x->pcre_over);
    free(x->reach);
    free(x->starts);
    pcre2_match_context_free(x->mctx_reach);
    memset(x, 0, sizeof *x);
}

static char *clip(const char *s, size_t n)
{
    return xstrndup(s, n < TEXT_MAX ? n : TEXT_MAX);
}

/* The compiled PCRE2 of a pattern, compiled on first use: a run that never matches a pattern
 * never pays for it, which keeps start-up to milliseconds. NULL when it has none. */
static pcre2_code *code_of(struct extractor *x, const struct fl_kb *kb, int pattern)
{
    const struct pattern *p = &kb->patterns[pattern];
    if (p->pcre_expr == 0)
        return NULL;
    /* PCRE2_USE_OFFSET_LIMIT: extract_captures bounds where its second run may start */
    return pcre_lazy_use(&x->pcre[pattern], &x->pcre_uses[pattern], kb_text(kb, p->pcre_expr),
                         (p->nocase ? PCRE2_CASELESS : 0) | PCRE2_USE_OFFSET_LIMIT);
}

/* Runs pattern's PCRE2 on s[0..n) from start under the match context mctx; returns the number
 * of pairs or <= 0. */
static int run_pcre_in(struct extractor *x, const struct fl_kb *kb, int pattern, const char *s,
                       size_t n, size_t start, pcre2_match_context *mctx)
{
    if (x->pcre_over[pattern] >= PATTERN_BUDGET)
        return PCRE2_ERROR_MATCHLIMIT; /* disabled: see PATTERN_BUDGET */
    pcre2_code *re = code_of(x, kb, pattern);
    if (re == NULL)
        return -1;
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, start, 0, x->md, mctx); /* bounded: kb.h */
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT)
        x->pcre_over[pattern]++;
    return rc;
}

/* Runs pattern's PCRE2 on the message; returns the number of pairs or <= 0. */
static int run_pcre(struct extractor *x, const struct fl_kb *kb, int pattern, const char *s,
                    size_t n, size_t start)
{
    return run_pcre_in(x, kb, pattern, s, n, start, kb->mctx);
}

bool extract_disabled(const struct extractor *x, int pattern)
{
    return pattern >= 0 && (size_t)pattern < x->npcre && x->pcre_over[pattern] >= PATTERN_BUDGET;
}

static const char *group(struct extractor *x, const struct fl_kb *kb, int pattern, const char *s,
                         const char *name, size_t *len)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(x->md);
    int num = pcre2_substring_number_from_name(code_of(x, kb, pattern), (PCRE2_SPTR)name);
    if (num < 0 || ov[2 * num] == PCRE2_UNSET)
        return NULL;
    *len = ov[2 * num + 1] - ov[2 * num];
    return s + ov[2 * num];
}

/* Calls fn for every named group of re; with x, only those that took part in the last match
 * (x->md), with their values. */
static enum fl_status each_named_group(struct extractor *x, pcre2_code *re, const char *s,
                                       enum fl_status (*fn)(void *ctx, const char *name,
                                                            const char *v, size_t vl),
                                       void *ctx)
{
    uint32_t count, entry_size;
    PCRE2_SPTR table;
    pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
    pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
    PCRE2_SIZE *ov = x ? pcre2_get_ovector_pointer(x->md) : NULL;
    for (uint32_t i = 0; i < count; i++, table += entry_size) {
        int num = (table[0] << 8) | table[1];
        if (ov && ov[2 * num] == PCRE2_UNSET)
            continue;
        const char *v = ov ? s + ov[2 * num] : NULL;
        size_t vl = ov ? ov[2 * num + 1] - ov[2 * num] : 0;
        enum fl_status st = fn(ctx, (const char *)table + 2, v, vl);
        if (st != FL_OK)
            return st;
    }
    return FL_OK;
}

static enum fl_status add_fact(void *ctx, const char *name, const char *v, size_t vl)
{
    return facts_add(ctx, name, strlen(name), v, vl, false);
}

/* Every named group that matched becomes a fact named after the group. */
static enum fl_status captures_to_facts(struct extractor *x, pcre2_code *re, const char *s)
{
    return each_named_group(x, re, s, add_fact, &x->facts);
}

/* A few capture names say which rank or host the line is about, which is not always the one
 * that printed it: torchelastic's summary names the failed rank, c10d's monitored barrier the
 * rank that did not arrive. Other *_rank captures (peer_rank, reference_rank) are only facts. */
static const char *const culprit_rank_names[] = {"rank", "culprit_rank", "failed_rank", "stuck_rank",
                                                 "straggler_rank", "slowest_rank", "exhausted_rank",
                                                 NULL};

static const char *const culprit_host_names[] = {"host", "culprit_host", "failed_host",
                                                 "failed_node", NULL};

static bool in_names(const char *const *names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static bool names_culprit(const char *name)
{
    return in_names(culprit_rank_names, name);
}

static bool names_culprit_host(const char *name)
{
    return in_names(culprit_host_names, name);
}

static enum fl_status set_location(void *ctx, const char *name, const char *v, size_t vl)
{
    struct line_meta *meta = ctx;
    if (names_culprit(name) && vl > 0 && isdigit((unsigned char)v[0])) {
        meta->rank = strtol(v, NULL, 10);
        meta->rank_named = true;
    }
    else if (names_culprit_host(name) && vl > 0 && vl < HOST_MAX) {
        memcpy(meta->host, v, vl);
        meta->host[vl] = '\0';
    }
    return FL_OK;
}

bool extract_names_location(const char *expr)
{
    /* the names of the named groups: (?<name>...) and (?P<name>...) */
    for (const char *p = strstr(expr, "(?"); p; p = strstr(p + 2, "(?")) {
        const char *n = p[2] == '<' ? p + 3 : p[2] == 'P' && p[3] == '<' ? p + 4 : NULL;
        const char *end = n ? strchr(n, '>') : NULL;
        if (end == NULL || n == end || *n == '=' || *n == '!')
            continue;
        char name[64];
        size_t len = (size_t)(end - n) < sizeof name - 1 ? (size_t)(end - n) : sizeof name - 1;
        memcpy(name, n, len);
        name[len] = '\0';
        if (names_culprit(name) || names_culprit_host(name))
            return true;
    }
    return false;
}

/* What a match of re may start with, as PCRE2's own start-of-match optimisation knows it: its
 * first code unit (and, caseless, the unit's other case, which only an ASCII letter has here),
 * or its bitmap of first bytes; any byte when it knows neither, or when the pattern has verbs or
 * options of its own ("(*"), which may turn that optimisation off and so let a match start
 * elsewhere. */
static struct start_bytes start_bytes(const pcre2_code *re, const char *expr)
{
    struct start_bytes b = {.kind = START_ANY};
    uint32_t type = 0, unit = 0;
    const uint8_t *map = NULL;
    if (re == NULL || strstr(expr, "(*") || pcre2_pattern_info(re, PCRE2_INFO_FIRSTCODETYPE, &type) != 0)
        return b;
    if (type == 1 && pcre2_pattern_info(re, PCRE2_INFO_FIRSTCODEUNIT, &unit) == 0 && unit < 128) {
        b.kind = START_UNITS;
        b.unit[0] = b.unit[1] = (unsigned char)unit;
        if ((unit | 0x20) >= 'a' && (unit | 0x20) <= 'z')
            b.unit[1] = (unsigned char)(unit ^ 0x20);
    } else if (type == 0 && pcre2_pattern_info(re, PCRE2_INFO_FIRSTBITMAP, &map) == 0 && map) {
        b.kind = START_MAP;
        memcpy(b.map, map, sizeof b.map);
    }
    return b;
}

/* How far before a match's start pattern's assertions may look (\b and \B one byte, a
 * lookbehind its length), or -2 when that is not bounded by PCRE2_INFO_MAXLOOKBEHIND (a
 * lookbehind, which may nest). Its start bytes (start_bytes) are noted with it, when there is
 * room for them. */
static int reach_of(struct extractor *x, const struct fl_kb *kb, int pattern)
{
    if (x->reach[pattern] == -1) {
        pcre2_code *re = code_of(x, kb, pattern);
        const char *e = kb_text(kb, kb->patterns[pattern].pcre_expr);
        uint32_t lb = 0;
        x->reach[pattern] = re == NULL || strstr(e, "(?<=") || strstr(e, "(?<!") ||
                                    pcre2_pattern_info(re, PCRE2_INFO_MAXLOOKBEHIND, &lb) != 0 ||
                                    lb > 255
                                ? -2
                                : (short)lb;
        if (x->starts == NULL)
            x->starts = malloc((x->npcre ? x->npcre : 1) * sizeof *x->starts);
        if (x->starts)
            x->starts[pattern] = start_bytes(re, e);
    }
    return x->reach[pattern];
}

/* Whether s[0..n) holds a byte a match of pattern may start with (reach_of noted them): when
 * none of the bytes where the second run of extract_captures may start a match does, that run
 * cannot match, and is not made. */
static bool may_start_in(const struct extractor *x, int pattern, const char *s, size_t n)
{
    const struct start_bytes *b = x->starts ? &x->starts[pattern] : NULL;
    if (b == NULL || b->kind == START_ANY)
        return true;
    if (b->kind == START_UNITS)
        return memchr(s, b->unit[0], n) || (b->unit[1] != b->unit[0] && memchr(s, b->unit[1], n));
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (b->map[c >> 3] & 1u << (c & 7))
            return true;
    }
    return false;
}

/* Whether lv is the line whose misses are noted: only one line's are kept, the last one's. */
static bool is_miss_line(const struct extractor *x, const struct line_view *lv)
{
    return x->miss_text == lv->text && x->miss_src == lv->src && x->miss_line_no == lv->line_no;
}

/* Whether a pattern of the same expression as pattern found nothing on the line already: several
 * entries share a regex (the watchdog's "Exception (either an error or timeout)" line is read by
 * four), and a log of errors puts the line that almost matches on every rank. */
static bool missed_before(const struct extractor *x, const struct fl_kb *kb, int pattern,
                          const struct line_view *lv)
{
    if (!is_miss_line(x, lv))
        return false;
    const struct pattern *p = &kb->patterns[pattern];
    for (size_t i = 0; i < x->nmisses; i++) {
        const struct pattern *q = &kb->patterns[x->misses[i]];
        if (q->nocase == p->nocase && q->pcre_expr == p->pcre_expr) /* equal texts, one offset */
            return true;
    }
    return false;
}

static void note_miss(struct extractor *x, int pattern, const struct line_view *lv)
{
    if (!is_miss_line(x, lv)) {
        x->miss_text = lv->text;
        x->miss_src = lv->src;
        x->miss_line_no = lv->line_no;
        x->nmisses = 0;
    }
    if (x->nmisses < LINE_MISSES_MAX)
        x->misses[x->nmisses++] = pattern;
}

bool extract_captures(struct extractor *x, const struct fl_kb *kb, int pattern,
                      const struct line_view *lv, bool want_facts, struct line_meta *meta,
                      enum fl_status *st)
{
    *st = FL_OK;
    const char *s = lv->msg;
    if (missed_before(x, kb, pattern, lv))
        return false;
    int rc = run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0);
    if (rc <= 0) {
        /* a prefix parser may have taken the start of what the pattern reads (Slurm's "3: " task
         * label looks like the "2: [tensor, ...]" lines of Horovod's stall inspector): the whole
         * line, as Vectorscan saw it. A match there that starts past the prefix and its
         * assertions' reach would have been found in the message: it may start only before. */
        if (lv->msg != lv->text && rc == PCRE2_ERROR_NOMATCH) {
            int reach = reach_of(x, kb, pattern);
            pcre2_match_context *mctx = kb->mctx;
            size_t limit = lv->len; /* the last offset where a match may start */
            if (reach >= 0) {
                limit = lv->meta.msg_off + (size_t)reach;
                pcre2_set_offset_limit(x->mctx_reach, limit);
                mctx = x->mctx_reach;
            }
            /* most lines hold none of the bytes the match may start with before that offset
             * (a log of errors: half of the PCRE2 runs were this second run, found nothing) */
            rc = may_start_in(x, pattern, lv->text, limit < lv->len ? limit + 1 : lv->len)
                     ? run_pcre_in(x, kb, pattern, lv->text, lv->len, 0, mctx)
                     : PCRE2_ERROR_NOMATCH;
            s = lv->text;
        } else if (lv->msg != lv->text) {
            rc = run_pcre(x, kb, pattern, lv->text, lv->len, 0);
            s = lv->text;
        }
        if (rc <= 0) {
            if (rc == PCRE2_ERROR_NOMATCH)
                note_miss(x, pattern, lv);
            return false;
        }
    }
    if (kb->patterns[pattern].names_location) /* else set_location has nothing to find */
        each_named_group(x, code_of(x, kb, pattern), s, set_location, meta);
    if (want_facts)
        *st = captures_to_facts(x, code_of(x, kb, pattern), s);
    return true;
}

/* Whether the words before a setting on its line advise it rather than report it: PyTorch's
 * out-of-memory message ends "try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
 * which says nothing about how the run was configured. */
static bool advised(const char *line, size_t at)
{
#define WORD(w) {w, sizeof w - 1}
    static const struct {
        const char *text;
        size_t len;
    } words[] = {WORD("try "),        WORD("consider "),      WORD("please set"), WORD("you can set"),
                 WORD("you may set"), WORD("you should set"), WORD("recommend"),  WORD("suggest"),
                 WORD("to enable"),   WORD("to disable")};
#undef WORD
    /* the advice is in the same sentence: a bounded look-back keeps long lines linear. The
     * window is lowered once (ASCII, as strncasecmp in the C locale), and a word compared only
     * where memchr finds its first letter: a word per position with strncasecmp cost 800 calls
     * per setting, then a memmem per word was most of the rest (NCCL_DEBUG=INFO logs print
     * settings by the thousand) */
    char low[80];
    size_t from = at > sizeof low ? at - sizeof low : 0, n = at - from;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)line[from + i];
        low[i] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    }
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t k = words[w].len;
        for (const char *p = n >= k ? memchr(low, words[w].text[0], n - k + 1) : NULL; p;
             p = memchr(p + 1, words[w].text[0], (size_t)(low + n - k - p))) {
            if (memcmp(p, words[w].text, k) == 0)
                return true;
        }
    }
    return false;
}

/* Pairs of key/value groups, for every occurrence on the line (flags, environment). */
static enum fl_status key_values(struct extractor *x, const struct fl_kb *kb, int pattern,
                                 const struct line_view *lv, bool keep_case, bool flag)
{
    size_t start = 0;
    for (int guard = 0; guard < 256 && start < lv->msg_len; guard++) {
        if (run_pcre(x, kb, pattern, lv->msg, lv->msg_len, start) <= 0)
            break;
        size_t kl = 0, vl = 0;
        const char *k = group(x, kb, pattern, lv->msg, "key", &kl);
        const char *v = group(x, kb, pattern, lv->msg, "value", &vl);
        if (k && (v || flag) && !(keep_case && advised(lv->msg, (size_t)(k - lv->msg)))) {
            if (v && vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0]) {
                v++;
                vl -= 2;
            }
            enum fl_status st = facts_add(&x->facts, k, kl, v ? v : "true", v ? vl : 4, keep_case);
            if (st != FL_OK)
                return st;
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(x->md);
        start = ov[1] > start ? ov[1] : start + 1;
    }
    return FL_OK;
}

static size_t skip_digits(const char *s, size_t n, size_t i)
{
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

bool extract_progress_shape(const char *line, size_t n, size_t end)
{
    static const char iteration[] = " iteration ", loss[] = "{'loss': ";
    if (end >= sizeof iteration && end <= n &&
        memcmp(line + end - sizeof iteration, iteration, sizeof iteration - 1) == 0) {
        /* Megatron: "iteration {:8d}/{:8d} |"; the match ends after the first space or digit */
        size_t i = end - 1;
        while (i < n && line[i] == ' ')
            i++;
        size_t j = skip_digits(line, n, i);
        if (j == i || j >= n || line[j] != '/')
            return false;
        for (i = j + 1; i < n && line[i] == ' ';)
            i++;
        j = skip_digits(line, n, i);
        return j > i && j + 1 < n && line[j] == ' ' && line[j + 1] == '|';
    }
    if (end >= sizeof loss - 1 && end <= n &&
        memcmp(line + end - (sizeof loss - 1), loss, sizeof loss - 1) == 0)
        return end < n && (line[end] == '-' || (line[end] >= '0' && line[end] <= '9'));
    return true; /* the regex forms are exact */
}

/* Keeps p as the last step of its (source, rank), unless a later line is kept already. */
static void keep_progress(struct extractor *x, const struct progress *p)
{
    /* consecutive step lines mostly come from the same source and rank: try the last one first */
    size_t i = x->progress_last < x->nprogress ? x->progress_last : 0;
    for (size_t k = 0; k < x->nprogress; k++, i = (i + 1) % x->nprogress) {
        struct progress *q = &x->progress[i];
        if (q->src == p->src && q->rank == p->rank) {
            if (q->line_no > p->line_no)
                return; /* lines may come newest first: the last one in the source wins */
            /* the time is the last line's own, known or not: keeping an older line's time would
             * depend on which older lines were noted, that is on where chunks end */
            q->line_no = p->line_no;
            q->ts_ms = p->ts_ms;
            x->progress_last = i;
            return;
        }
    }
    if (GROW(x->progress, x->progress_cap, x->nprogress, PROGRESS_MAX) == FL_OK) {
        x->progress_last = x->nprogress;
        x->progress[x->nprogress++] = *p;
    }
}

/* Keeps p as its (source, rank)'s first non-finite loss line. */
static void keep_nonfinite(struct extractor *x, const struct progress *p)
{
    for (size_t i = 0; i < x->nnonfinite; i++) {
        struct progress *q = &x->nonfinite[i];
        if (q->src == p->src && q->rank == p->rank) {
            if (p->line_no < q->line_no)
                *q = *p;
            return;
        }
    }
    if (GROW(x->nonfinite, x->nonfinite_cap, x->nnonfinite, PROGRESS_MAX) == FL_OK)
        x->nonfinite[x->nnonfinite++] = *p;
}

void extract_note_progress(struct extractor *x, const struct line_view *lv, unsigned long lines)
{
    x->progress_lines += lines;
    if (lv != NULL)
        keep_progress(x, &(struct progress){lv->meta.rank, lv->src, lv->line_no, lv->meta.ts_ms});
}

/* The record of rank's own lines in src, or NULL when there is none. */
static struct own_lines *own_record(struct extractor *x, int src, long rank)
{
    /* consecutive calls mostly concern one record: try the last one first */
    size_t i = x->own_last < x->nown ? x->own_last : 0;
    for (size_t k = 0; k < x->nown; k++, i = (i + 1) % x->nown)
        if (x->own[i].src == src && x->own[i].rank == rank) {
            x->own_last = i;
            return &x->own[i];
        }
    return NULL;
}

void extract_note_own_lines(struct extractor *x, int src, long rank, uint64_t line_no,
                            unsigned long lines, unsigned long runs)
{
    struct own_lines *o = own_record(x, src, rank);
    if (o) {
        o->lines += lines;
        o->runs += runs;
        if (line_no > o->line_no)
            o->line_no = line_no;
    } else if (GROW(x->own, x->own_cap, x->nown, PROGRESS_MAX) == FL_OK) {
        x->own_last = x->nown;
        x->own[x->nown++] = (struct own_lines){rank, src, line_no, lines, runs, 0};
    }
}

void extract_note_own_error(struct extractor *x, int src, long rank, uint64_t line_no)
{
    struct own_lines *o = own_record(x, src, rank);
    if (o && (o->error_line == 0 || line_no < o->error_line))
        o->error_line = line_no;
}

/* Keeps rec as its (source, rank)'s last collective, when its sequence number is the highest. */
static void keep_seqnum(struct extractor *x, const struct seqnum *rec)
{
    struct seqnum *slot = NULL;
    /* a rank prints its watchdog lines together, and a job has thousands of ranks: the record
     * of the line before is tried first (records are unique per rank and source) */
    size_t last = x->seqnum_last;
    if (last < x->nseqnums && x->seqnums[last].rank == rec->rank && x->seqnums[last].src == rec->src)
        slot = &x->seqnums[last];
    for (size_t i = 0; i < x->nseqnums && !slot; i++)
        if (x->seqnums[i].rank == rec->rank && x->seqnums[i].src == rec->src)
            slot = &x->seqnums[x->seqnum_last = i];
    if (slot == NULL) {
        if (GROW(x->seqnums, x->seqnums_cap, x->nseqnums, SEQNUMS_MAX) != FL_OK)
            return;
        x->seqnum_last = x->nseqnums;
        slot = &x->seqnums[x->nseqnums++];
        *slot = *rec;
    } else if (rec->seq > slot->seq) {
        char op[sizeof slot->op];
        memcpy(op, slot->op, sizeof op);
        *slot = *rec;
        if (slot->op[0] == '\0') /* "last enqueued NCCL work" names no op: keep the known one */
            memcpy(slot->op, op, sizeof op);
    }
}

static void note_seqnum(struct extractor *x, const struct fl_kb *kb, int pattern,
                        const struct line_view *lv)
{
    if (run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0) <= 0)
        return;
    size_t sl = 0, ol = 0;
    const char *s = group(x, kb, pattern, lv->msg, "seq", &sl);
    const char *op = group(x, kb, pattern, lv->msg, "op", &ol);
    if (s == NULL)
        return;
    struct seqnum rec = {.rank = lv->meta.rank, .seq = strtol(s, NULL, 10), .src = lv->src,
                         .line_no = lv->line_no};
    if (op) {
        size_t n = ol < sizeof rec.op - 1 ? ol : sizeof rec.op - 1;
        memcpy(rec.op, op, n);
    }
    keep_seqnum(x, &rec);
}

static struct launcher_block *block_of(struct extractor *x, int src, bool create)
{
    for (size_t i = 0; i < x->nblocks; i++)
        if (x->blocks[i].src == src)
            return &x->blocks[i];
    if (!create || GROW(x->blocks, x->blocks_cap, x->nblocks, OPEN_MAX) != FL_OK)
        return NULL;
    x->blocks[x->nblocks] = (struct launcher_block){.src = src, .rank = -1, .local_rank = -1,
                                                    .head_rank = -1};
    return &x->blocks[x->nblocks++];
}

/* The rank a traceback header belongs to: its own, else, for the traceback torchrun's summary
 * prints under "  traceback : ", the rank of the failure being listed. */
static long header_rank(struct extractor *x, const struct line_view *lv, bool *pending)
{
    *pending = false;
    if (lv->meta.rank >= 0)
        return lv->meta.rank;
    if (!memmem(lv->msg, lv->msg_len, "traceback : ", 12))
        return -1;
    const struct launcher_block *b = block_of(x, lv->src, false);
    if (b && b->saw_rank)
        return b->rank;
    *pending = true;
    return -1;
}

/* How close (in lines of its source) an open traceback's last line must be to a new header for
 * the two to be read as printed at the same time: ranks that raise together write their
 * tracebacks line by line into the console they share; a traceback left open for longer, whose
 * exception line was not one the reader knows, is done with. */
#define INTERLEAVE_GAP 4

/* An open Python traceback whose last line (its header, a frame, a code line) came just before
 * lv, with no chain marker since: it is still being printed when lv's header comes. Only of a
 * rank the lines do not name: lines that carry their rank are one process's, written in order
 * (and an error file's call stack is read as lines that all have its one line number). */
static bool still_printing(const struct tb_state *t, const struct line_view *lv)
{
    return t->rank < 0 && t->phase != TB_CPP_WHAT && !t->chained &&
           lv->line_no - t->fed <= INTERLEAVE_GAP;
}

/* Opens the traceback whose header is lv. */
static struct tb_state *open_lane(struct extractor *x, const struct line_view *lv)
{
    bool pending;
    long rank = header_rank(x, lv, &pending);
    struct tb_state fresh = {.src = lv->src, .rank = rank, .meta = lv->meta,
                             .block_pending = pending, .header_line = lv->line_no,
                             .fed = lv->line_no};
    fresh.original = buf_find(lv->msg, lv->msg_len, "Original Traceback (", 20) != NULL;
    /* a new header for the same source and rank replaces an open one that is done with (a
     * chained exception, or one whose exception line was not read); one still being printed is
     * another process's, whose lines come interleaved with this one's: both stay open */
    for (size_t i = 0; i < x->nopen; i++)
        if (x->open[i].src == lv->src && x->open[i].rank == rank && !still_printing(&x->open[i], lv)) {
            tb_free(&x->open[i]);
            x->open[i] = fresh;
            return &x->open[i];
        }
    if (GROW(x->open, x->open_cap, x->nopen, OPEN_MAX) != FL_OK)
        return NULL;
    struct tb_state *t = &x->open[x->nopen++];
    *t = fresh;
    return t;
}

/* A header the KB's patterns found: traceback_line opened it already when another traceback of
 * its source and rank was open (a reader following a traceback past its segment's end finds no
 * patterns, and must open it the same way). */
static struct tb_state *open_tb(struct extractor *x, const struct line_view *lv)
{
    struct tb_state *t = NULL;
    for (size_t i = 0; i < x->nopen && t == NULL; i++)
        if (x->open[i].src == lv->src && x->open[i].header_line == lv->line_no)
            t = &x->open[i];
    if (t == NULL && (t = open_lane(x, lv)) == NULL)
        return NULL;
    /* the headers of ranks a console does not name count the ranks that raised, even where an
     * interleaved traceback could not be read to its exception line */
    x->unranked_tracebacks += t->rank < 0 && !t->block_pending && !t->original;
    return t;
}

static void close_tb(struct extractor *x, struct tb_state *t)
{
    tb_free(t);
    *t = x->open[--x->nopen];
}

/* The KB's verdict on the line just read, kept until the exception of that line is added (the
 * built-in that reads an error file may run after the KB's patterns on its line). */
static void apply_line_entry(const struct extractor *x, struct exception_event *e)
{
    if (x->line_src != e->src || x->line_no != e->line_no)
        return;
    if (e->entry < 0)
        e->entry = x->line_entry;
    e->collateral_line |= x->line_collateral;
}

void extract_note_entry(struct extractor *x, const struct line_view *lv, int entry, bool collateral)
{
    if (x->line_src != lv->src || x->line_no != lv->line_no) {
        x->line_src = lv->src;
        x->line_no = lv->line_no;
        x->line_entry = -1;
        x->line_collateral = false;
    }
    if (collateral)
        x->line_collateral = true;
    else if (x->line_entry < 0)
        x->line_entry = entry;
    if (lv->src == 0 && lv->line_no <= TRACEBACK_MAX_LINES + 1) {
        struct line_verdict *v = x->nhead_verdicts ? &x->head_verdicts[x->nhead_verdicts - 1] : NULL;
        if ((v == NULL || v->line_no != lv->line_no) &&
            GROW(x->head_verdicts, x->head_verdicts_cap, x->nhead_verdicts,
                 TRACEBACK_MAX_LINES + 1) == FL_OK) {
            v = &x->head_verdicts[x->nhead_verdicts++];
            *v = (struct line_verdict){lv->line_no, -1, false};
        }
        if (v && v->line_no == lv->line_no) {
            v->collateral = x->line_collateral;
            v->entry = x->line_entry;
        }
    }
    if (x->nexceptions)
        apply_line_entry(x, &x->exceptions[x->nexceptions - 1]);
}

/* "Original Traceback" of a re-raised exception: its frames say where the error happened; they
 * complete the exception it follows instead of counting as one more. */
static void complete_with(struct exception_event *e, unsigned flags, const char *user_frame,
                          const char *code, const char *frame)
{
    e->flags |= flags;
    if (user_frame) {
        free(e->user_frame);
        e->user_frame = xstrdup(user_frame);
    }
    if (code) {
        free(e->code);
        e->code = xstrdup(code);
    }
    if (frame) {
        free(e->frame);
        e->frame = xstrdup(frame);
    }
}

/* The last exception of src and rank, or NULL. */
static struct exception_event *last_exception(struct extractor *x, int src, long rank)
{
    for (size_t i = x->nexceptions; i-- > 0;)
        if (x->exceptions[i].src == src && x->exceptions[i].rank == rank)
            return &x->exceptions[i];
    return NULL;
}

static bool complete_reraised(struct extractor *x, const struct tb_state *t)
{
    struct exception_event *e = t->original ? last_exception(x, t->src, t->rank) : NULL;
    if (e == NULL)
        return false;
    complete_with(e, t->flags, t->user_frame, t->code, t->frame);
    return true;
}

static void add_exception(struct extractor *x, struct tb_state *t, const struct line_view *lv,
                          const char *type, size_t tl, const char *msg, size_t ml)
{
    if (complete_reraised(x, t))
        return;
    x->exceptions_total++;
    if (x->nexceptions >= EXCEPTIONS_MAX ||
        GROW(x->exceptions, x->exceptions_cap, x->nexceptions, EXCEPTIONS_MAX) != FL_OK)
        return;
    struct exception_event *e = &x->exceptions[x->nexceptions];
    memset(e, 0, sizeof *e);
    e->type = clip(type, tl);
    e->message = clip(msg, ml);
    e->frame = t->frame ? xstrdup(t->frame) : NULL;
    e->user_frame = t->user_frame ? xstrdup(t->user_frame) : NULL;
    e->code = t->code ? xstrdup(t->code) : NULL;
    e->flags = t->flags;
    if (memmem(msg, ml, " in DataLoader worker process ", 30))
        e->flags |= FRAME_DATA; /* torch/_utils.py ExceptionWrapper: "Caught X in DataLoader worker process N." */
    e->entry = -1;
    e->src = lv->src;
    e->line_no = lv->line_no;
    e->header_line = t->header_line;
    e->rank = lv->meta.rank >= 0 ? lv->meta.rank : t->rank;
    e->block_pending = e->rank < 0 && t->block_pending;
    e->reraised = t->original;
    memcpy(e->host, lv->meta.host, HOST_MAX);
    /* the exception line's own time, which it rarely has, else the header's (own or
     * inherited): a time the exception line only inherits would depend on whether a pattern
     * matched it */
    const struct line_meta *tm = lv->meta.ts_ms != TS_UNKNOWN && !lv->meta.ts_inherited ? &lv->meta
                                                                                       : &t->meta;
    e->ts_ms = tm->ts_ms;
    e->ts_no_year = tm->ts_no_year;
    e->ts_no_zone = tm->ts_no_zone;
    e->seq = x->seq++;
    e->next_seq = UINT64_MAX;
    if (e->type == NULL || e->message == NULL) {
        exception_free(e);
        return;
    }
    apply_line_entry(x, e);
    x->nexceptions++;
    /* the second half of a chain: link the exception it was raised from */
    for (size_t i = 0; i < x->nchains; i++) {
        struct chain_mark *c = &x->chains[i];
        if (c->src != e->src || c->rank != e->rank)
            continue;
        for (size_t k = 0; k + 1 < x->nexceptions; k++)
            if (x->exceptions[k].seq == c->prev_seq) {
                x->exceptions[k].next_seq = e->seq;
                x->exceptions[k].next_is_cause = c->cause;
            }
        x->chains[i] = x->chains[--x->nchains];
        break;
    }
}

const struct exception_event *extract_exception(const struct extractor *x, uint64_t seq)
{
    for (size_t i = 0; i < x->nexceptions; i++)
        if (x->exceptions[i].seq == seq)
            return &x->exceptions[i];
    return NULL;
}

static void note_chain(struct extractor *x, const struct line_view *lv, bool cause)
{
    /* the exception it follows: the last one of this source and rank */
    const struct exception_event *prev = NULL;
    for (size_t i = x->nexceptions; i-- > 0 && prev == NULL;)
        if (x->exceptions[i].src == lv->src && x->exceptions[i].rank == lv->meta.rank)
            prev = &x->exceptions[i];
    if (prev == NULL)
        return;
    for (size_t i = 0; i < x->nchains; i++)
        if (x->chains[i].src == lv->src && x->chains[i].rank == lv->meta.rank) {
            x->chains[i].prev_seq = prev->seq;
            x->chains[i].cause = cause;
            return;
        }
    if (GROW(x->chains, x->chains_cap, x->nchains, 1024) == FL_OK)
        x->chains[x->nchains++] = (struct chain_mark){lv->src, lv->meta.rank, prev->seq, cause};
}

/* "  rank      : 2 (local_rank: 2)" of torchrun's summary: the traceback printed next is that
 * rank's; after "Root Cause (first observed failure):" it is the launcher's root cause. */
static void note_launcher_rank(struct extractor *x, const struct fl_kb *kb, int pattern,
                               const struct line_view *lv)
{
    size_t n;
    const char *r;
    struct launcher_block *b = block_of(x, lv->src, true);
    if (b == NULL || run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0) <= 0 ||
        (r = group(x, kb, pattern, lv->msg, "grank", &n)) == NULL)
        return;
    b->rank = strtol(r, NULL, 10);
    const char *l = memmem(lv->msg, lv->msg_len, "local_rank: ", 12);
    b->local_rank = l ? strtol(l + 12, NULL, 10) : b->rank;
    if (!b->saw_rank) {
        b->head_rank = b->rank;
        b->head_settled = b->root_next;
    }
    b->saw_rank = true;
    if (b->root_next && x->launcher_root_rank < 0)
        x->launcher_root_rank = b->rank;
    b->root = b->root_next;
    b->root_next = false;
}

/* Keeps f unless its rank is listed already (a summary printed twice, by torchrun and by a
 * wrapper around it, says the same). */
static void keep_failure(struct extractor *x, const struct launcher_failure *f)
{
    for (size_t i = 0; i < x->nfailures && f->rank >= 0; i++)
        if (x->failures[i].rank == f->rank)
            return;
    if (GROW(x->failures, x->failures_cap, x->nfailures, LAUNCHER_FAILURES_MAX) == FL_OK)
        x->failures[x->nfailures++] = *f;
}

/* The named group of a field line of torchrun's summary ("  host      : node1"), or NULL. The
 * agent prints its summary without a rank prefix: a line one claims is the program's own. */
static const char *summary_field(struct extractor *x, const struct fl_kb *kb, int pattern,
                                 const struct line_view *lv, const char *name, size_t *n)
{
    if (lv->meta.rank >= 0 || run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0) <= 0)
        return NULL;
    return group(x, kb, pattern, lv->msg, name, n);
}

/* "  exitcode  : -9 (pid: 4104)" of torchrun's summary: how the failure being listed ended. */
static void note_launcher_code(struct extractor *x, const struct fl_kb *kb, int pattern,
                               const struct line_view *lv)
{
    size_t n;
    const char *c;
    struct launcher_block *b = block_of(x, lv->src, true);
    if (b == NULL || (c = summary_field(x, kb, pattern, lv, "code", &n)) == NULL)
        return;
    struct launcher_failure f = {.rank = b->saw_rank ? b->rank : -1,
                                 .local_rank = b->saw_rank ? b->local_rank : -1,
                                 .exitcode = (int)strtol(c, NULL, 10), .src = lv->src,
                                 .line_no = lv->line_no, .block_pending = !b->saw_rank};
    memcpy(f.host, b->host, sizeof f.host);
    memcpy(f.time, b->time, sizeof f.time);
    f.root = b->saw_rank && b->root;
    b->host[0] = '\0';
    b->time[0] = '\0';
    b->root = false;
    keep_failure(x, &f);
}

/* "  host      : node1": the host of the failure listed next. */
static void note_launcher_host(struct extractor *x, const struct fl_kb *kb, int pattern,
                               const struct line_view *lv)
{
    size_t n;
    const char *h;
    struct launcher_block *b = block_of(x, lv->src, true);
    if (b == NULL || (h = summary_field(x, kb, pattern, lv, "lhost", &n)) == NULL)
        return;
    n = n < HOST_MAX - 1 ? n : HOST_MAX - 1;
    memcpy(b->host, h, n);
    b->host[n] = '\0';
}

/* "  time      : 2026-12-01_18:55:20": the time of the failure listed next. */
static void note_launcher_time(struct extractor *x, const struct fl_kb *kb, int pattern,
                               const struct line_view *lv)
{
    size_t n;
    const char *t;
    struct launcher_block *b = block_of(x, lv->src, true);
    if (b == NULL || (t = summary_field(x, kb, pattern, lv, "ltime", &n)) == NULL ||
        n != LAUNCHER_TIME_LEN)
        return;
    memcpy(b->time, t, n);
    b->time[n] = '\0';
}

/* "  error_file: <path>/<run>/attempt_0/1/error.json", after the exitcode line: the run folder of
 * the failure just listed. */
static void note_launcher_error_file(struct extractor *x, const struct fl_kb *kb, int pattern,
                                     const struct line_view *lv)
{
    size_t n, len, name;
    const char *p;
    if ((p = summary_field(x, kb, pattern, lv, "efile", &n)) == NULL)
        return;
    char path[1024];
    n = n < sizeof path - 1 ? n : sizeof path - 1;
    memcpy(path, p, n);
    path[n] = '\0';
    if (!prefix_run_folder(path, &len, &name) || len - name >= RUN_FOLDER_MAX)
        return;
    for (size_t i = x->nfailures; i-- > 0;)
        if (x->failures[i].src == lv->src) {
            struct launcher_failure *f = &x->failures[i];
            if (f->line_no < lv->line_no && f->run[0] == '\0') {
                memcpy(f->run, path + name, len - name);
                f->run[len - name] = '\0';
            }
            return;
        }
}

static enum fl_status traceback_line(struct extractor *x, const struct line_view *lv);

/* Feeds one line of an error file's py_callstack to the traceback reader, as if it were a line
 * of the log at lv. */
static void callstack_line(struct extractor *x, const struct line_view *lv, const char *s, size_t n)
{
    struct line_view v = *lv;
    v.text = v.msg = s;
    v.len = v.msg_len = n;
    v.meta.msg_off = 0;
    if (memmem(s, n, "Traceback (most recent call last):", 34)) {
        struct tb_state *t = open_tb(x, &v);
        if (t)
            t->meta = lv->meta;
        return;
    }
    (void)traceback_line(x, &v);
}

/* torchelastic's error.json, one JSON line written by @record (error_handler.py): the exception,
 * its traceback and the time it was raised, for the rank whose folder holds the file. Older
 * writers put the timestamp beside a plain string message. */
static void read_error_file(struct extractor *x, const struct line_view *lv)
{
    json_t *root = json_loadb(lv->text, lv->len, 0, NULL);
    if (root == NULL)
        return;
    json_t *msg = json_object_get(root, "message");
    json_t *extra = json_is_object(msg) ? json_object_get(msg, "extraInfo") : NULL;
    const char *stack = json_string_value(json_object_get(extra, "py_callstack"));
    json_t *ts = json_object_get(extra ? extra : root, "timestamp");
    long long secs = json_is_string(ts) ? strtoll(json_string_value(ts), NULL, 10)
                     : json_is_integer(ts) ? (long long)json_integer_value(ts) : 0;
    struct line_view v = *lv;
    if (secs > 0) {
        v.meta.ts_ms = (int64_t)secs * 1000;
        v.meta.ts_no_year = false;
        v.meta.ts_no_zone = false; /* seconds since the epoch: UTC */
        v.meta.ts_inherited = false;
    }
    for (const char *p = stack; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        callstack_line(x, &v, p, n);
        p = nl ? nl + 1 : p + n;
    }
    /* a traceback the file left unfinished ends with it */
    for (size_t i = x->nopen; i-- > 0;)
        if (x->open[i].src == lv->src && x->open[i].rank == lv->meta.rank)
            close_tb(x, &x->open[i]);
    json_decref(root);
}

enum fl_status extract_on_match(struct extractor *x, const struct fl_kb *kb, int pattern,
                                const struct line_view *lv)
{
    const struct pattern *p = &kb->patterns[pattern];
    switch (p->builtin) {
    case BUILTIN_TRACEBACK:
        open_tb(x, lv);
        return FL_OK;
    case BUILTIN_TERMINATE: {
        struct tb_state *t = open_tb(x, lv);
        if (t == NULL)
            return FL_OK;
        t->phase = TB_CPP_WHAT;
        size_t tl = 0;
        const char *type = NULL;
        if (run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0) > 0)
            type = group(x, kb, pattern, lv->msg, "type", &tl);
        t->cpp_type = type ? clip(type, tl) : xstrdup("C++ exception");
        return FL_OK;
    }
    case BUILTIN_MEGATRON_ARG:
        if (run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0) > 0) {
            size_t kl, vl;
            const char *k = group(x, kb, pattern, lv->msg, "key", &kl);
            const char *v = group(x, kb, pattern, lv->msg, "value", &vl);
            if (k && v)
                return facts_add(&x->facts, k, kl, v, vl, false);
        }
        return FL_OK;
    case BUILTIN_CMDLINE:
        return key_values(x, kb, pattern, lv, false, true);
    case BUILTIN_ENV:
    case BUILTIN_NCCL_ENV:
        return key_values(x, kb, pattern, lv, true, false);
    case BUILTIN_VERSION:
        if (run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0) > 0)
            return captures_to_facts(x, code_of(x, kb, pattern), lv->msg);
        return FL_OK;
    case BUILTIN_WATCHDOG_SEQ:
        note_seqnum(x, kb, pattern, lv);
        return FL_OK;
    case BUILTIN_STACK_THREAD:
        stacks_on_thread(&x->stacks, lv->src, &lv->meta, lv->msg, lv->msg_len);
        return FL_OK;
    case BUILTIN_CHAIN:
        x->unranked_tracebacks -= lv->meta.rank < 0 && x->unranked_tracebacks > 0;
        note_chain(x, lv, lv->msg_len > 4 && strncmp(lv->msg, "The ", 4) == 0);
        return FL_OK;
    case BUILTIN_LAUNCHER_RANK:
        note_launcher_rank(x, kb, pattern, lv);
        return FL_OK;
    case BUILTIN_LAUNCHER_ROOT: {
        struct launcher_block *b = block_of(x, lv->src, true);
        if (b)
            b->root_next = true;
        return FL_OK;
    }
    case BUILTIN_LAUNCHER_CODE:
        note_launcher_code(x, kb, pattern, lv);
        return FL_OK;
    case BUILTIN_LAUNCHER_HOST:
        note_launcher_host(x, kb, pattern, lv);
        return FL_OK;
    case BUILTIN_LAUNCHER_ERRFILE:
        note_launcher_error_file(x, kb, pattern, lv);
        return FL_OK;
    case BUILTIN_LAUNCHER_TIME:
        note_launcher_time(x, kb, pattern, lv);
        return FL_OK;
    case BUILTIN_LAUNCHER_STOP:
        if (GROW(x->stops, x->stops_cap, x->nstops, LAUNCHER_FAILURES_MAX) == FL_OK)
            x->stops[x->nstops++] = lv->src;
        return FL_OK;
    case BUILTIN_LAUNCHER_EXIT: {
        size_t n;
        const char *r;
        if (x->launcher_exit_rank < 0 && run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0) > 0 &&
            (r = group(x, kb, pattern, lv->msg, "lrank", &n)) != NULL)
            x->launcher_exit_rank = rankmap_local(lv->node, strtol(r, NULL, 10));
        return FL_OK;
    }
    case BUILTIN_ERROR_FILE:
        read_error_file(x, lv);
        return FL_OK;
    case BUILTIN_LOSS_STOP: {
        /* the script exits on its own: as fatal as an uncaught exception, and as telling */
        struct tb_state t = {.src = lv->src, .rank = lv->meta.rank, .meta = lv->meta};
        add_exception(x, &t, lv, "SystemExit", 10, lv->msg, lv->msg_len);
        return FL_OK;
    }
    case BUILTIN_LOSS_NONFINITE:
        if (lv->meta.rank >= 0) /* only a rank's own line says whose loss it was */
            keep_nonfinite(x, &(struct progress){lv->meta.rank, lv->src, lv->line_no, lv->meta.ts_ms});
        return FL_OK;
    case BUILTIN_RANK_HOST:
        if (lv->meta.host[0] && run_pcre(x, kb, pattern, lv->msg, lv->msg_len, 0) > 0) {
            size_t n;
            const char *r = group(x, kb, pattern, lv->msg, "rank", &n);
            if (r)
                extract_note_host(x, strtol(r, NULL, 10), lv->meta.host);
        }
        return FL_OK;
    default:
        return FL_OK;
    }
}

/* Where rank's slot is in x->hosts, which is sorted by rank: every matched line notes its
 * host, and a job has thousands of ranks. */
static size_t host_slot(const struct extractor *x, long rank)
{
    size_t lo = 0, hi = x->nhosts;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->hosts[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void extract_note_host(struct extractor *x, long rank, const char *host)
{
    if (rank < 0 || !host[0])
        return;
    size_t at = host_slot(x, rank);
    if (at < x->nhosts && x->hosts[at].rank == rank)
        return; /* the first host seen for a rank stays */
    if (GROW(x->hosts, x->hosts_cap, x->nhosts, RANK_HOSTS_MAX) != FL_OK)
        return;
    memmove(&x->hosts[at + 1], &x->hosts[at], (x->nhosts - at) * sizeof *x->hosts);
    x->hosts[at].rank = rank;
    snprintf(x->hosts[at].host, HOST_MAX, "%s", host);
    x->nhosts++;
}

void extract_note_line_host(struct extractor *x, const char *host)
{
    if (!host[0])
        return;
    for (size_t i = 0; i < x->nline_hosts; i++)
        if (strcmp(x->line_hosts[i], host) == 0)
            return;
    if (GROW(x->line_hosts, x->line_hosts_cap, x->nline_hosts, LINE_HOSTS_MAX) != FL_OK)
        return; /* past the bound, or out of memory: the count only says "several" */
    snprintf(x->line_hosts[x->nline_hosts++], HOST_MAX, "%s", host);
}

const char *extract_host_of(const struct extractor *x, long rank)
{
    size_t at = host_slot(x, rank);
    return at < x->nhosts && x->hosts[at].rank == rank ? x->hosts[at].host : NULL;
}

/* Whether the piece before the one being merged opened a traceback at this header while
 * following another past its end: that piece read it, interleaved as one reader would. */
static bool read_in_tail(const struct extractor *dst, int src, uint64_t header_line)
{
    for (size_t i = 0; i < dst->ntail_headers; i++)
        if (dst->tail_headers[i].src == src && dst->tail_headers[i].line_no == header_line)
            return true;
    return false;
}

enum fl_status extractor_merge(struct extractor *dst, struct extractor *src,
                               const struct merge_map *m)
{
    int src_offset = m->src_offset;
    uint64_t line_offset = m->line_offset;
    enum fl_status st = FL_OK;
    for (size_t i = 0; i < dst->npcre && i < src->npcre; i++)
        dst->pcre_over[i] = dst->pcre_over[i] + src->pcre_over[i] < PATTERN_BUDGET
                                ? dst->pcre_over[i] + src->pcre_over[i]
                                : PATTERN_BUDGET;
    for (size_t i = 0; i < src->facts.n && st == FL_OK; i++) {
        st = facts_add_all(&dst->facts, &src->facts.items[i]);
    }
    /* the piece before settles what this one could not: the rank of a summary's failure, the
     * root cause named across the cut, the KB's verdict on an exception line it finished */
    const struct launcher_block *before = m->continues ? block_of(dst, src_offset, false) : NULL;
    for (size_t i = 0; i < dst->nexceptions && m->continues; i++) {
        struct exception_event *e = &dst->exceptions[i];
        for (size_t k = 0; k < src->nhead_verdicts && e->src == src_offset; k++)
            if (src->head_verdicts[k].line_no + line_offset == e->line_no) {
                if (e->entry < 0)
                    e->entry = src->head_verdicts[k].entry;
                e->collateral_line |= src->head_verdicts[k].collateral;
            }
    }
    unsigned long absorbed = 0;
    for (size_t i = 0; i < src->nexceptions; i++) {
        struct exception_event *e = &src->exceptions[i];
        if (m->continues && e->src == 0 && e->block_pending) {
            e->rank = before ? before->rank : -1;
            e->block_pending = false;
        }
        /* a re-raised exception's original traceback, cut from its first part: one reader would
         * have completed that exception with it */
        struct exception_event *first = m->continues && e->src == 0 && e->reraised
                                            ? last_exception(dst, src_offset, e->rank)
                                            : NULL;
        if (first) {
            complete_with(first, e->flags, e->user_frame, e->code, e->frame);
            if (first->entry < 0)
                first->entry = e->entry;
            first->collateral_line |= e->collateral_line;
            exception_free(e);
            absorbed++;
            continue;
        }
        if (m->continues && e->src == 0 && e->header_line &&
            read_in_tail(dst, src_offset, e->header_line + line_offset)) {
            exception_free(e);
            absorbed++;
            continue;
        }
        e->reraised = false;
        if (dst->nexceptions < EXCEPTIONS_MAX &&
            GROW(dst->exceptions, dst->exceptions_cap, dst->nexceptions, EXCEPTIONS_MAX) == FL_OK) {
            if (e->src == 0)
                e->line_no += line_offset;
            e->src += src_offset;
            e->seq += dst->seq;
            if (e->next_seq != UINT64_MAX)
                e->next_seq += dst->seq;
            dst->exceptions[dst->nexceptions++] = *e;
        } else {
            exception_free(e);
        }
    }
    src->nexceptions = 0;
    dst->exceptions_total += src->exceptions_total - absorbed;
    /* what src's reader followed past its end is read by the piece merged after it */
    dst->ntail_headers = 0;
    for (size_t i = 0; i < src->ntail_headers; i++) {
        struct src_line h = src->tail_headers[i];
        h.line_no += m->continues && h.src == 0 ? line_offset : 0;
        h.src += src_offset;
        if (GROW(dst->tail_headers, dst->tail_headers_cap, dst->ntail_headers, TAIL_HEADERS_MAX) ==
            FL_OK)
            dst->tail_headers[dst->ntail_headers++] = h;
    }
    for (size_t i = 0; i < src->nfailures; i++) {
        struct launcher_failure f = src->failures[i];
        if (f.block_pending) {
            f.rank = m->continues && f.src == 0 && before ? before->rank : -1;
            f.local_rank = m->continues && f.src == 0 && before ? before->local_rank : -1;
            f.block_pending = false;
        }
        if (f.src == 0)
            f.line_no += line_offset;
        f.src += src_offset;
        keep_failure(dst, &f);
    }
    for (size_t i = 0; i < src->nstops; i++)
        if (GROW(dst->stops, dst->stops_cap, dst->nstops, LAUNCHER_FAILURES_MAX) == FL_OK)
            dst->stops[dst->nstops++] = src->stops[i] + src_offset;
    dst->unranked_tracebacks += src->unranked_tracebacks;
    for (size_t i = 0; i < src->nblocks; i++) {
        struct launcher_block b = src->blocks[i];
        bool cont = m->continues && b.src == 0;
        b.src += src_offset;
        struct launcher_block *d = cont ? block_of(dst, b.src, true) : NULL;
        if (cont && d) {
            if (d->root_next && b.head_rank >= 0 && !b.head_settled && dst->launcher_root_rank < 0)
                dst->launcher_root_rank = b.head_rank;
            if (b.saw_rank) {
                d->rank = b.rank;
                d->local_rank = b.local_rank;
                d->root_next = b.root_next;
                d->saw_rank = true;
            } else {
                d->root_next |= b.root_next;
            }
        } else if (GROW(dst->blocks, dst->blocks_cap, dst->nblocks, OPEN_MAX) == FL_OK) {
            dst->blocks[dst->nblocks++] = b;
        }
    }
    if (dst->launcher_root_rank < 0)
        dst->launcher_root_rank = src->launcher_root_rank;
    if (dst->launcher_exit_rank < 0)
        dst->launcher_exit_rank = src->launcher_exit_rank;
    dst->progress_lines += src->progress_lines;
    dst->seq += src->seq;
    /* a continued source's records meet dst's for the same rank: the same rules as one reader */
    for (size_t i = 0; i < src->nprogress; i++) {
        struct progress p = src->progress[i];
        p.line_no += p.src == 0 ? line_offset : 0;
        p.src += src_offset;
        keep_progress(dst, &p);
    }
    for (size_t i = 0; i < src->nown; i++) {
        const struct own_lines *o = &src->own[i];
        uint64_t line = o->line_no + (o->line_no && o->src == 0 ? line_offset : 0);
        extract_note_own_lines(dst, o->src + src_offset, o->rank, line, o->lines, o->runs);
        if (o->error_line)
            extract_note_own_error(dst, o->src + src_offset, o->rank,
                                   o->error_line + (o->src == 0 ? line_offset : 0));
    }
    for (size_t i = 0; i < src->nnonfinite; i++) {
        struct progress p = src->nonfinite[i];
        p.line_no += p.src == 0 ? line_offset : 0;
        p.src += src_offset;
        keep_nonfinite(dst, &p);
    }
    for (size_t i = 0; i < src->nseqnums; i++) {
        struct seqnum q = src->seqnums[i];
        q.line_no += q.src == 0 ? line_offset : 0;
        q.src += src_offset;
        keep_seqnum(dst, &q);
    }
    for (size_t i = 0; i < src->nhosts; i++)
        extract_note_host(dst, src->hosts[i].rank, src->hosts[i].host);
    for (size_t i = 0; i < src->nline_hosts; i++)
        extract_note_line_host(dst, src->line_hosts[i]);
    if (st == FL_OK)
        st = stacks_merge(&dst->stacks, &src->stacks, m);
    return st;
}

void extract_note_tail(struct extractor *x, int src)
{
    x->tail_src = src;
}

bool extract_following(const struct extractor *x, int src)
{
    for (size_t i = 0; i < x->nopen; i++)
        if (x->open[i].src == src)
            return true;
    return stacks_following(&x->stacks, src);
}

static bool caret_line(const char *s, size_t n)
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '^' || s[i] == '~')
            any = true;
        else if (s[i] != ' ')
            return false;
    }
    return any;
}

/* `File "x.py", line 12, in f` → "x.py:12 in f" */
static char *frame_text(const char *s, size_t n)
{
    const char *q = memchr(s + 6, '"', n - 6);
    if (q == NULL)
        return clip(s, n);
    struct buf b;
    buf_init(&b, TEXT_MAX);
    buf_append(&b, s + 6, (size_t)(q - s - 6));
    const char *ln = buf_find(q, n - (size_t)(q - s), ", line ", 7);
    if (ln) {
        buf_putc(&b, ':');
        const char *d = ln + 7;
        while (d < s + n && isdigit((unsigned char)*d))
            buf_putc(&b, *d++);
        if (d + 5 <= s + n && strncmp(d, ", in ", 5) == 0) {
            buf_append(&b, " in ", 4);
            buf_append(&b, d + 5, (size_t)(s + n - d - 5));
        }
    }
    return buf_steal(&b);
}

/* A frame of a library rather than of the program being run: installed packages, the standard
 * library, PyTorch itself. The innermost frame of the program's own code is where a person starts
 * reading. */
static bool library_frame(const char *frame)
{
    static const char *const libs[] = {"site-packages/", "dist-packages/", "/lib/python", "<frozen ",
                                       "/torch/", "torch/distributed/", "torch/utils/", "<string>",
                                       NULL};
    for (int i = 0; libs[i]; i++)
        if (strstr(frame, libs[i]))
            return true;
    return strncmp(frame, "torch/", 6) == 0;
}

/* The function of a frame text "file:line in func", or "". */
static const char *frame_func(const char *frame)
{
    const char *in = strstr(frame, " in ");
    return in ? in + 4 : "";
}

static void note_frame(struct tb_state *t)
{
    if (t->frame == NULL)
        return;
    const char *fn = frame_func(t->frame);
    /* where a DataLoader fetches and collates samples (the main process, or a worker) */
    bool collate = strstr(fn, "collate") != NULL;
    if (strcmp(fn, "__getitem__") == 0 || strcmp(fn, "__getitems__") == 0 || collate ||
        strcmp(fn, "_worker_loop") == 0 || strstr(t->frame, "torch/utils/data/_utils/fetch.py"))
        t->flags |= FRAME_DATA;
    t->flags = collate ? t->flags | FRAME_COLLATE : t->flags & ~(unsigned)FRAME_COLLATE;
    if (!library_frame(t->frame)) {
        free(t->user_frame);
        t->user_frame = xstrdup(t->frame);
    }
}

static enum fl_status traceback_line(struct extractor *x, const struct line_view *lv);

enum fl_status extract_on_line(struct extractor *x, const struct line_view *lv)
{
    if (stacks_following(&x->stacks, lv->src))
        stacks_on_line(&x->stacks, lv->src, &lv->meta, lv->msg, lv->msg_len);
    return traceback_line(x, lv);
}

/* "Type: message" or a bare "Type", the class name (after any module path and leading
 * underscores) capitalised: what an exception line looks like, unlike a code line. */
static bool exception_shape(const char *s, size_t n)
{
    size_t i = 0, last = 0;
    for (; i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'); i++)
        if (s[i] == '.')
            last = i + 1;
    while (last < i && s[last] == '_')
        last++;
    return last < i && isupper((unsigned char)s[last]) && (i == n || s[i] == ':');
}

/* What a line is to an open traceback: 2 the kind of line it reads next, 1 one it also takes (a
 * frame without a code line, the exception under a frame Python shows no code for), 0 one it
 * passes over. */
static int lane_wants(const struct tb_state *t, const char *s, size_t n, size_t lead)
{
    if (t->phase == TB_CPP_WHAT)
        return n - lead > 6 && strncmp(s + lead, "what():", 7) == 0 ? 2 : 0;
    if (n - lead >= 6 && strncmp(s + lead, "File \"", 6) == 0)
        return t->phase == TB_FRAMES ? 2 : 1;
    if (t->frame == NULL || caret_line(s, n))
        return 0;
    if (lead <= t->frame_lead && exception_shape(s + lead, n - lead))
        return t->phase == TB_FRAMES ? 2 : 1;
    return t->phase == TB_CODE && lead > t->frame_lead ? 2 : 0;
}

/* Of the tracebacks of lv's source and rank printed at the same time, the one lv continues: the
 * one that reads such a line next, and of those the one that has waited longest for its next
 * line (processes writing to one console take turns), or NULL when none reads it. Which of two
 * like tracebacks a frame goes to can be wrong; each exception line still closes one of them. */
static struct tb_state *interleaved_lane(struct extractor *x, const struct line_view *lv)
{
    const char *s = lv->msg;
    size_t n = lv->msg_len, lead = 0;
    while (lead < n && (s[lead] == ' ' || s[lead] == '\t'))
        lead++;
    struct tb_state *best = NULL;
    int best_w = 0;
    for (size_t i = 0; i < x->nopen; i++) {
        struct tb_state *t = &x->open[i];
        if (t->src != lv->src || t->rank != lv->meta.rank)
            continue;
        int w = lane_wants(t, s, n, lead);
        if (w > best_w || (w == best_w && best && t->fed < best->fed)) {
            best = t;
            best_w = w;
        }
    }
    return best;
}

static enum fl_status traceback_line(struct extractor *x, const struct line_view *lv)
{
    struct tb_state *t = NULL;
    size_t in_src = 0, same = 0;
    for (size_t i = 0; i < x->nopen; i++) {
        if (x->open[i].src != lv->src)
            continue;
        in_src++;
        if (x->open[i].rank == lv->meta.rank) {
            t = &x->open[i];
            same++;
        }
    }
    /* every line while a traceback is open comes here: buf_find, not glibc's memmem, whose set-up
     * for each of these three calls cost more than the searches (5% of a log of errors) */
    if (same > 0 && buf_find(lv->msg, lv->msg_len, "Traceback (most recent call last):", 34)) {
        /* the header of another traceback of this source and rank (see open_tb) */
        if (x->tail_src == lv->src &&
            GROW(x->tail_headers, x->tail_headers_cap, x->ntail_headers, TAIL_HEADERS_MAX) == FL_OK)
            x->tail_headers[x->ntail_headers++] = (struct src_line){lv->src, lv->line_no};
        open_lane(x, lv);
        return FL_OK;
    }
    if (same > 0 && (buf_find(lv->msg, lv->msg_len, "During handling of the above exception", 38) ||
                     buf_find(lv->msg, lv->msg_len, "The above exception was the direct cause", 40))) {
        /* a chained exception follows: the tracebacks open here are done with */
        for (size_t i = 0; i < x->nopen; i++)
            x->open[i].chained |= x->open[i].src == lv->src && x->open[i].rank == lv->meta.rank;
        return FL_OK;
    }
    if (same > 1 && (t = interleaved_lane(x, lv)) == NULL)
        return FL_OK;
    if (t == NULL) {
        /* an unprefixed line cannot be attributed when several ranks are open */
        for (size_t i = 0; i < x->nopen && in_src == 1 && lv->meta.rank < 0; i++)
            if (x->open[i].src == lv->src)
                t = &x->open[i];
        if (t == NULL)
            return FL_OK;
    }
    if (++t->lines > TRACEBACK_MAX_LINES) {
        close_tb(x, t);
        return FL_OK;
    }
    const char *s = lv->msg;
    size_t n = lv->msg_len;
    size_t lead = 0;
    while (lead < n && (s[lead] == ' ' || s[lead] == '\t'))
        lead++;
    if (lead == n)
        return FL_OK;
    if (t->phase == TB_CPP_WHAT) {
        if (n - lead > 6 && strncmp(s + lead, "what():", 7) == 0) {
            size_t m = lead + 7;
            while (m < n && s[m] == ' ')
                m++;
            add_exception(x, t, lv, t->cpp_type, strlen(t->cpp_type), s + m, n - m);
            close_tb(x, t);
        } else if (t->lines > 3) {
            close_tb(x, t);
        }
        return FL_OK;
    }
    if (n - lead >= 6 && strncmp(s + lead, "File \"", 6) == 0) {
        free(t->frame);
        free(t->code);
        t->code = NULL;
        t->frame = frame_text(s + lead, n - lead);
        note_frame(t);
        t->phase = TB_CODE;
        t->frame_lead = lead;
        t->fed = lv->line_no;
        return FL_OK;
    }
    /* a line less indented than the frames that cannot be the exception's is another rank's or
     * a print's, interleaved in a console the ranks share: the traceback goes on after it */
    if (t->frame != NULL && lead < t->frame_lead && !exception_shape(s + lead, n - lead))
        return FL_OK;
    /* a frame of code Python cannot show (python -c, <stdin>, a .pyc alone) has no code line:
     * a line no deeper than the frame is the exception's */
    if (t->phase == TB_CODE && lead <= t->frame_lead && exception_shape(s + lead, n - lead))
        t->phase = TB_FRAMES;
    if (t->phase == TB_CODE) {
        t->phase = TB_FRAMES; /* the source line of the frame above */
        t->code = clip(s + lead, n - lead);
        t->fed = lv->line_no;
        return FL_OK;
    }
    if (caret_line(s, n) || strncmp(s + lead, "Traceback (most recent", 22) == 0 ||
        (lead > 0 && t->frame == NULL) || strncmp(s + lead, "[Previous line repeated", 23) == 0)
        return FL_OK;
    if (lead > 0 && n - lead > 0 && t->frame != NULL && s[lead] != '.' &&
        !(isalpha((unsigned char)s[lead]) && memchr(s + lead, ':', n - lead)))
        return FL_OK; /* more code lines (3.13 prints several) */
    /* the exception line: Type: message */
    size_t i = lead;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
        i++;
    if (i < n && s[i] == ':') {
        size_t m = i + 1;
        while (m < n && s[m] == ' ')
            m++;
        add_exception(x, t, lv, s + lead, i - lead, s + m, n - m);
    } else {
        add_exception(x, t, lv, s + lead, n - lead, "", 0);
    }
    close_tb(x, t);
    return FL_OK;
}

void extract_close_source(struct extractor *x, int src)
{
    stacks_close_source(&x->stacks, src);
    for (size_t i = x->nopen; i-- > 0;)
        if (x->open[i].src == src)
            close_tb(x, &x->open[i]);
}
