/*
 * extract.h — structure out of matched lines (internal): Python tracebacks and C++ exceptions
 * as one event each, facts, training progress, NCCL watchdog sequence numbers.
 *
 * The extractors own built-in patterns that join the KB's in the one Vectorscan database; when
 * one fires, its handler runs on that line only. A traceback needs the lines that follow its
 * header: the source then enters "follow" mode and the scanner hands it each next line until the
 * exception line closes it (bounded: at most TRACEBACK_MAX_LINES lines).
 *
 * Stack dumps (py-spy, faulthandler) are read the same way, by stackdump.c.
 *
 * Ownership: struct extractor owns everything it collects; the scanner owns the extractor.
 */
#ifndef FL_EXTRACT_H
#define FL_EXTRACT_H

#include "facts.h"
#include "kb.h"
#include "prefix.h"
#include "stackdump.h"

#define TRACEBACK_MAX_LINES 400
#define EXCEPTIONS_MAX 256
#define TEXT_MAX 1024

struct builtin_pattern {
    enum builtin kind;
    const char *hs_expr;
    unsigned hs_flags;
    const char *pcre_expr; /* named captures become facts; NULL: none */
};

const struct builtin_pattern *extract_builtin_patterns(size_t *n);

/* One line as handed to the extractors and the correlator. */
struct line_view {
    int src;
    uint32_t node;           /* the node its local ranks are numbered on (rankmap.h) */
    uint64_t line_no;        /* 1-based */
    const char *text;        /* cleaned line */
    size_t len;
    const char *msg;         /* text after the prefixes */
    size_t msg_len;
    struct line_meta meta;
};

/* Where a traceback's frames ran, as far as classifying the exception needs it. */
enum frame_flags {
    FRAME_DATA = 1,          /* Dataset.__getitem__, a collate function, a DataLoader worker */
    FRAME_COLLATE = 2,       /* the innermost frame is a collate function */
};

/* A Python exception (with its innermost frame) or a C++ terminate/what(). */
struct exception_event {
    char *type;
    char *message;
    char *frame;             /* innermost frame "file:line in func", or NULL */
    char *user_frame;        /* innermost frame of the program's own code (not site-packages,
                                dist-packages, the standard library or torch), or NULL */
    char *code;              /* the source line of the innermost frame, or NULL */
    unsigned flags;          /* enum frame_flags */
    int entry;               /* a KB entry that matched the exception line (primary first), or -1 */
    bool collateral_line;    /* a collateral KB entry matched the exception line */
    bool block_pending;      /* printed in torchrun's summary, whose rank line came before this
                                piece of the file: the previous piece knows it */
    bool reraised;           /* the "Original Traceback" of a re-raised exception whose first
                                part is in the piece of the file before this one: it completes
                                that exception when the pieces are joined */
    int src;
    uint64_t line_no;        /* of the exception line */
    uint64_t header_line;    /* of its traceback's header, 0 where it has none */
    long rank;
    char host[HOST_MAX];
    int64_t ts_ms;
    bool ts_no_year, ts_no_zone; /* as in struct line_meta */
    uint64_t seq;            /* global order of arrival */
    uint64_t next_seq;       /* the exception raised while handling this one, or UINT64_MAX */
    bool next_is_cause;      /* ... and this one was its direct cause ("raise ... from") */
};

/* A chain marker seen after an exception of (src, rank): the next one continues the chain. */
struct chain_mark {
    int src;
    long rank;
    uint64_t prev_seq;
    bool cause;
};

struct progress {
    long rank;
    int src;
    uint64_t line_no;
    int64_t ts_ms;
};

/* A script's own lines of one rank in one source ("[rank 3] step 4 loss 2.31", printed by the
 * program, not by a launcher or a library): how many, the last one, and in how many separate
 * runs (a line whose previous such line in the source is another rank's starts a run). */
struct own_lines {
    long rank;
    int src;
    uint64_t line_no;        /* the last one */
    unsigned long lines;
    unsigned long runs;
    uint64_t error_line;     /* the first one whose record is at ERROR level or worse, 0 none */
};

struct seqnum {
    long rank;
    long seq;
    char op[32];
    int src;
    uint64_t line_no;
};

struct tb_state;

/* torchrun's summary gives each failure's time to the second: "2026-12-01_18:55:20" */
#define LAUNCHER_TIME_LEN 19

/* What torchrun's failure summary says, per source: the rank of the failure being listed (its
 * traceback follows), and the rank under "Root Cause (first observed failure)". */
struct launcher_block {
    int src;
    long rank;               /* of the failure listed last, or -1 */
    long local_rank;
    bool root_next;          /* the next failure listed is the root cause */
    /* a file cut into segments: what this piece leaves for the piece before it to settle */
    bool saw_rank;           /* a failure's rank line was read in this piece */
    long head_rank;          /* the first one, or -1 */
    bool head_settled;       /* ... and a root-cause marker of this piece came before it */
    char host[HOST_MAX];     /* the host of the failure being listed, until its exitcode line */
    char time[LAUNCHER_TIME_LEN + 1]; /* ... and its time */
    bool root;               /* ... and it is the root cause */
};

/* The KB's verdict on a line near the start of a piece: the exception of a traceback that the
 * previous piece's reader finished may be on it (a file cut into segments). */
struct line_verdict {
    uint64_t line_no;
    int entry;
    bool collateral;
};

#define RANK_HOSTS_MAX 65536
#define LINE_HOSTS_MAX 64 /* enough to tell one host from several */
#define LAUNCHER_FAILURES_MAX 4096

/* One failure of torchrun's summary: the worker's rank and how it ended. exitcode 1 is Python's
 * uncaught exception; a negative one is the signal that killed the worker. */
#define RUN_FOLDER_MAX 128
#define LINE_MISSES_MAX 16 /* patterns found missing on one line, remembered for its others */

struct launcher_failure {
    long rank, local_rank;
    int exitcode;
    int src;
    uint64_t line_no;        /* of the exitcode line */
    bool block_pending;      /* its rank line is in the piece of the file before this one */
    bool root;               /* listed under "Root Cause (first observed failure)" */
    char host[HOST_MAX];     /* "host      : node1", or "" */
    char time[LAUNCHER_TIME_LEN + 1]; /* "time      : 2026-12-01_18:55:20": when the agent saw
                                it (the error file's timestamp with @record, else the time of
                                the agent's poll that found it), or "" */
    char run[RUN_FOLDER_MAX]; /* the run folder of "error_file: <run>/attempt_K/N/error.json",
                                or "" (no @record: "<N/A>") */
};

/* A line of a source. */
struct src_line {
    int src;
    uint64_t line_no;
};

#define TAIL_HEADERS_MAX 1024

struct rank_host {
    long rank;
    char host[HOST_MAX];
};

struct extractor {
    struct facts facts;
    struct exception_event *exceptions;
    size_t nexceptions, exceptions_cap;
    unsigned long exceptions_total;
    struct progress *progress;  /* the last progress line of each (source, rank) */
    struct progress *nonfinite; /* the first line of each (source, rank) that printed its loss as
                                   nan or inf */
    size_t nnonfinite, nonfinite_cap;
    unsigned long progress_lines;
    size_t progress_last;       /* the record the previous step line updated */
    size_t nprogress, progress_cap;
    struct own_lines *own;      /* per (source, rank): a script's own lines about its rank */
    size_t nown, own_cap, own_last;
    struct seqnum *seqnums;     /* the highest watchdog SeqNum reported by each rank */
    size_t nseqnums, seqnums_cap;
    size_t seqnum_last;         /* the record the previous watchdog line updated */
    struct rank_host *hosts;    /* which host each rank runs on, when a line says both */
    size_t nhosts, hosts_cap;
    char (*line_hosts)[HOST_MAX]; /* the distinct hosts that matched lines name in their prefix
                                     (NCCL's host:pid:tid, pdsh's host:), up to LINE_HOSTS_MAX */
    size_t nline_hosts, line_hosts_cap;
    struct stacks stacks;       /* py-spy / faulthandler main-thread stacks per rank */
    struct chain_mark *chains;  /* pending chain markers, at most one per (source, rank) */
    size_t nchains, chains_cap;
    struct tb_state *open;      /* open tracebacks, at most a few per source */
    int tail_src;               /* the source read past its segment's end, or -1 */
    struct src_line *tail_headers; /* headers of tracebacks opened there past that end, while
                                      another was printed (interleaved): the next segment's
                                      reader opens them too, and its reading gives way */
    size_t ntail_headers, tail_headers_cap;
    struct launcher_block *blocks; /* torchrun summaries being read, one per source */
    size_t nblocks, blocks_cap;
    long launcher_root_rank;    /* torchrun's "Root Cause (first observed failure)" rank, or -1 */
    long launcher_exit_rank;    /* the local rank of the first worker its agent saw fail, or -1 */
    struct launcher_failure *failures; /* torchrun's summary, one per rank (the first listing) */
    size_t nfailures, failures_cap;
    int *stops;                 /* the source (a node's console) of each worker the agent sent a
                                   closing signal, still running when another one failed; up to
                                   LAUNCHER_FAILURES_MAX */
    size_t nstops, stops_cap;
    unsigned long unranked_tracebacks; /* traceback headers of no known rank, less the chained
                                          ones ("During handling of the above exception") */
    struct line_verdict *head_verdicts; /* source 0's first TRACEBACK_MAX_LINES lines */
    size_t nhead_verdicts, head_verdicts_cap;
    int line_src;               /* the line the KB matched last (extract_note_entry) */
    uint64_t line_no;
    int line_entry;             /* the first primary entry that matched it, or -1 */
    bool line_collateral;       /* a collateral entry matched it */
    size_t nopen, open_cap;
    uint64_t seq;
    pcre2_match_data *md;
    pcre2_code **pcre;          /* per pattern, compiled on first use */
    unsigned *pcre_uses;        /* per pattern, up to PCRE_JIT_AFTER (pcre_lazy.h) */
    unsigned *pcre_over;        /* per pattern: lines where PCRE2 ran out of its match or depth
                                   limit; at PATTERN_BUDGET the pattern is not run again */
    size_t npcre;
    pcre2_match_context *mctx_reach; /* the KB's limits and an offset limit (extract_captures) */
    short *reach;               /* per pattern: how far back of a match start its assertions look
                                   (PCRE2_INFO_MAXLOOKBEHIND), -2 no bound, -1 not known yet */
    struct start_bytes *starts; /* per pattern, set with its reach: what a match may start with
                                   (extract_captures); allocated at the first rerun */
    /* the patterns whose PCRE2 found nothing on the line being handled (extract_captures) */
    const char *miss_text;
    int miss_src;
    uint64_t miss_line_no;
    int misses[LINE_MISSES_MAX];
    size_t nmisses;
};

/* The bytes a match of a pattern may start with, as PCRE2's own start-of-match optimisation
 * knows them (extract.c, start_bytes). */
struct start_bytes {
    enum { START_ANY, START_UNITS, START_MAP } kind;
    unsigned char unit[2];  /* START_UNITS: its first code unit and that unit's other case */
    unsigned char map[32];  /* START_MAP: a bit per byte value */
};

enum fl_status extractor_init(struct extractor *x, const struct fl_kb *kb);
/* A pattern whose PCRE2 ran out of its limits (kb.h) on this many lines costs up to that many
 * times KB_MATCH_LIMIT steps and is disabled for the rest of the scan: a regex that backtracks
 * catastrophically ("(a+)+$" in a --kb entry) cannot slow a diagnosis down by more than that.
 * The report says which signal was disabled (extract_disabled). */
#define PATTERN_BUDGET 8
/* Whether pattern was disabled for its cost. */
bool extract_disabled(const struct extractor *x, int pattern);
void extractor_free(struct extractor *x);

/* The exception with this seq, or NULL. */
const struct exception_event *extract_exception(const struct extractor *x, uint64_t seq);
/* A built-in pattern matched this line (not a step line: the scanner notes those with
 * extract_note_progress). */
enum fl_status extract_on_match(struct extractor *x, const struct fl_kb *kb, int pattern,
                                const struct line_view *lv);
/* Runs a KB signal's PCRE2 on the line: false when it does not match (a prefiltered pattern
 * that Vectorscan over-approximated). Captures named rank/host override *meta; with want_facts,
 * every named capture becomes a fact. */
/* True when the pattern has a capture that names a rank or host (see extract_captures). */
bool extract_names_location(const char *expr);
bool extract_captures(struct extractor *x, const struct fl_kb *kb, int pattern,
                      const struct line_view *lv, bool want_facts, struct line_meta *meta,
                      enum fl_status *st);
/* Records that rank runs on host (the first host seen for a rank wins). */
void extract_note_host(struct extractor *x, long rank, const char *host);
const char *extract_host_of(const struct extractor *x, long rank);
/* Records a host named by a matched line's prefix, with or without a rank: a job's logs that
 * name two hosts come from a job that spans two machines. */
void extract_note_line_host(struct extractor *x, const char *host);
/* Whether the progress pattern that matched line[0..n) up to `end` is followed by what a step
 * line has there (the literal forms need it; the others are exact). */
bool extract_progress_shape(const char *line, size_t n, size_t end);
/* A training progress line (step, iteration, loss) of lv's source and rank, the last of `lines`
 * such lines; lv NULL: only counts them. */
void extract_note_progress(struct extractor *x, const struct line_view *lv, unsigned long lines);
/* Adds `lines` own lines of rank in src, `runs` of them starting a run, the last at line_no (0:
 * not known here: a later call tells it). */
void extract_note_own_lines(struct extractor *x, int src, long rank, uint64_t line_no,
                            unsigned long lines, unsigned long runs);
/* The own line line_no of rank in src, noted by extract_note_own_lines, is a logging record at
 * ERROR level or worse ("ERROR pid=4104 rank=2 train: batch failed"). */
void extract_note_own_error(struct extractor *x, int src, long rank, uint64_t line_no);
/* From here on, src's lines are past its segment's end (scanner_feed_tail). */
void extract_note_tail(struct extractor *x, int src);
/* True while src has an open traceback and wants every next line. */
bool extract_following(const struct extractor *x, int src);
enum fl_status extract_on_line(struct extractor *x, const struct line_view *lv);
/* Adds what src extracted (its sources and lines renumbered by m, its lines all after dst's) to
 * dst: dst's facts win, as the first value seen does. Both must have no open block. */
enum fl_status extractor_merge(struct extractor *dst, struct extractor *src,
                               const struct merge_map *m);
/* A KB entry's signal matched lv: when lv is the line of the exception just read, the exception
 * is that entry's (collateral: a consequence, such as a closed connection). */
void extract_note_entry(struct extractor *x, const struct line_view *lv, int entry, bool collateral);
/* Closes what is open in src (end of input). */
void extract_close_source(struct extractor *x, int src);

#endif
