/*
 * faultline.h — the public API of libfaultline.
 *
 * faultline reads the logs of a distributed training run and tells why it failed. The library is
 * a streaming engine with three objects:
 *
 *   struct fl_kb       the knowledge base, compiled once (one Vectorscan database for every
 *                      pattern of every entry) and read-only afterwards; share it freely.
 *   struct fl_scanner  one analysis: per-source streams, scratch space, events and facts.
 *                      Feed it chunks of any size, from any number of sources, then finish it.
 *   struct fl_report   the result: diagnoses, evidence, facts. Print it as text, JSON or Markdown.
 *
 *   fl_kb_new → fl_kb_add_embedded / fl_kb_add_dir → fl_kb_compile
 *   fl_scanner_new(kb) → fl_scanner_open_source → fl_scanner_feed… → fl_scanner_close_source
 *   fl_scanner_finish → struct fl_report → fl_report_write → fl_report_free
 *   (fl_scanner_snapshot: the report so far, while feeding goes on; for live watching)
 *
 * Ownership: every fl_*_new / fl_*_finish result is owned by the caller and released with the
 * matching fl_*_free. Pointers returned by getters (fl_kb_entry_at, fl_report_*) are borrowed and
 * live as long as their owner. Strings passed in are copied; the library keeps no pointer to them.
 *
 * Errors: functions return enum fl_status; those that can fail for a reason the user must read
 * fill a caller-provided struct fl_error (may be NULL). The library never exits or aborts, and
 * holds no global mutable state: two scanners on two threads need nothing but their own objects.
 */
#ifndef FAULTLINE_H
#define FAULTLINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FL_VERSION "0.1.0"

enum fl_status {
    FL_OK = 0,
    FL_ERR_NOMEM,    /* an allocation failed */
    FL_ERR_IO,       /* a file could not be opened or read */
    FL_ERR_FORMAT,   /* input is not what it claims to be (bad gzip, truncated archive) */
    FL_ERR_KB,       /* a knowledge-base entry is invalid */
    FL_ERR_PATTERN,  /* a pattern does not compile */
    FL_ERR_USAGE,    /* the caller broke the API contract (bad argument, wrong state) */
    FL_ERR_LIMIT,    /* a hard bound was reached (sources, line length, entries) */
    FL_ERR_NOTFOUND, /* no such entry, file or source */
    FL_ERR_INTERNAL, /* a library (Vectorscan, PCRE2, jansson) failed unexpectedly */
    FL_STATUS_COUNT
};

/* A static string naming the status; never NULL. */
const char *fl_strerror(enum fl_status status);

/* Where and why something failed. `file` is empty and `line` 0 when there is no location. */
struct fl_error {
    char file[512];
    unsigned line;
    unsigned col;
    char msg[512];
};

/* ---------------------------------------------------------------- knowledge base */

struct fl_kb;

/* Metadata of one entry, borrowed from the KB. */
struct fl_kb_entry_info {
    const char *id;
    const char *title;
    const char *category;
    const char *severity;
    const char *role;      /* "primary" or "collateral" */
    const char *path;      /* kb/<category>/<id>.md, or the file given with --kb */
    const char *markdown;  /* the whole source text of the entry */
};

enum fl_status fl_kb_new(struct fl_kb **out);
/* Adds the entries compiled into the library at build time. */
enum fl_status fl_kb_add_embedded(struct fl_kb *kb, struct fl_error *err);
/* Adds every *.md under dir (recursively, README.md excepted). An entry whose id is already
 * present replaces it. Fails on the first invalid entry, with its location in err. */
enum fl_status fl_kb_add_dir(struct fl_kb *kb, const char *dir, struct fl_error *err);
/* Validates every entry and builds the pattern database. No entry may be added afterwards. */
enum fl_status fl_kb_compile(struct fl_kb *kb, struct fl_error *err);
void fl_kb_free(struct fl_kb *kb);

size_t fl_kb_count(const struct fl_kb *kb);
/* Entries are ordered by category then id. Returns FL_ERR_NOTFOUND past the end. */
enum fl_status fl_kb_entry_at(const struct fl_kb *kb, size_t i, struct fl_kb_entry_info *out);
/* The j-th reference (an upstream URL) and the j-th related entry id of entry i, in the order of
 * its front matter; NULL past the end. Borrowed from the KB. */
const char *fl_kb_entry_reference(const struct fl_kb *kb, size_t i, size_t j);
const char *fl_kb_entry_related(const struct fl_kb *kb, size_t i, size_t j);
/* Index of the entry with this id, or -1. */
long fl_kb_find(const struct fl_kb *kb, const char *id);
/* How fl_kb_write_patterns writes patterns. */
enum fl_pattern_dialect {
    FL_DIALECT_ERE, /* POSIX ERE with GNU's \b: `grep -E -f` (and `rg -f`, which reads \b as a
                       Unicode word boundary that its fast engines cannot run) */
    FL_DIALECT_RG   /* the same with ASCII word boundaries, `(?-u:\b)`, as faultline reads them:
                       `rg -f` */
};
/* Writes every literal/regex pattern of the compiled KB, one per line, in the given dialect. */
enum fl_status fl_kb_write_patterns(const struct fl_kb *kb, enum fl_pattern_dialect dialect,
                                    FILE *out);

/* Lint: every problem of the entries under dir, reported through the callback with its location.
 * Returns the number of errors; warnings are counted in *warnings. Loading continues past errors. */
typedef void (*fl_lint_cb)(void *ctx, int is_error, const struct fl_error *e);
unsigned fl_kb_lint_dir(const char *dir, const char *fixtures_dir, fl_lint_cb cb, void *ctx,
                        unsigned *entries, unsigned *warnings);

/* ---------------------------------------------------------------- scanning */

struct fl_scanner;
struct fl_report;

struct fl_scan_options {
    unsigned max_evidence;   /* evidence lines kept per diagnosis; 0 = default (8) */
    uint64_t segment_bytes;  /* fl_scan_paths cuts plain files of at least twice this size into
                                segments that threads share; 0 = default (8 MiB) */
    uint64_t thread_bytes;   /* fl_scan_paths starts a thread beyond the first only for at least
                                this many bytes of input per thread (a thread and its scanner
                                cost about a millisecond to start); 0 = no minimum */
};

enum fl_status fl_scanner_new(const struct fl_kb *kb, const struct fl_scan_options *opts,
                              struct fl_scanner **out);
void fl_scanner_free(struct fl_scanner *s);

/* Opens a source (a file, an archive member, stdin). `name` is used for evidence and for rank
 * and host hints in the path (rank_3.log, attempt_0/3/stderr.log, node-2/worker-5.log).
 * Returns the source handle in *src. Sources may be fed interleaved. */
enum fl_status fl_scanner_open_source(struct fl_scanner *s, const char *name, int *src);
enum fl_status fl_scanner_feed(struct fl_scanner *s, int src, const void *buf, size_t len);
enum fl_status fl_scanner_close_source(struct fl_scanner *s, int src);
/* Records that a source could not be read completely; the report lists it. */
void fl_scanner_note_error(struct fl_scanner *s, const char *name, const char *msg);

/* Correlates everything fed so far into a report. Open sources are closed first. The scanner
 * can be freed afterwards; the report does not borrow from it (it borrows from the KB). */
enum fl_status fl_scanner_finish(struct fl_scanner *s, struct fl_report **out);

/* The report of everything fed so far, without closing anything: feeding may go on afterwards,
 * and a later fl_scanner_finish gives the same report as if no snapshot had been taken. Lines
 * not yet complete (no '\n' yet) and a traceback or stack dump still being written are left for
 * later: feed whole lines to see each one in the next snapshot. The report is the caller's
 * (fl_report_free) and borrows from the KB only. This is what `faultline watch` calls while a
 * job runs. */
enum fl_status fl_scanner_snapshot(struct fl_scanner *s, struct fl_report **out);

/* What the scanner knows of one rank's training progress (step, iteration and loss lines). */
struct fl_rank_progress {
    long rank;
    uint64_t progress_lines;   /* progress lines of this rank so far */
    long long last_step;       /* the step or iteration number of its last progress line, -1
                                  when that line carries none (a bare {'loss': ...}) */
    const char *source;        /* borrowed from the scanner: the source of that line, or NULL */
    uint64_t line;             /* its line number (1-based), 0 when none */
    long pid;                  /* the rank's process id, from an NCCL host:pid:tid prefix; 0 unknown */
    const char *host;          /* borrowed: the rank's host when a line said it, or NULL */
};

/* Ranks seen so far (any line that named one), in increasing order. Getters are valid until
 * the next feed. */
size_t fl_scanner_rank_count(const struct fl_scanner *s);
enum fl_status fl_scanner_rank_progress(const struct fl_scanner *s, size_t i,
                                        struct fl_rank_progress *out);

/* Reads PATH (file, folder, .gz, .zst, tar archive, or "-" for stdin) and feeds every source in
 * it. Unreadable parts are reported to the scanner (fl_scanner_note_error) and to err, and the
 * rest is still read: the return is FL_OK when at least one source was read. */
enum fl_status fl_scan_path(struct fl_scanner *s, const char *path, struct fl_error *err);

/* Reads an open file descriptor (a pipe, a socket, a file) to its end by the rules of
 * fl_scan_path: gzip, zstd and tar are told apart by content. `name` names the source; "-" reads
 * like standard input (a compressed stream may hold a tar archive), any other name like a file
 * of that name (.tar.gz, .tgz, .tar.zst say it holds an archive). The descriptor is not closed.
 * A source that cannot be read completely is noted in the report, as with fl_scan_path. */
enum fl_status fl_scan_fd(struct fl_scanner *s, int fd, const char *name, struct fl_error *err);

/* Reads every PATH like fl_scan_path, on up to `threads` threads: the files (folders are walked
 * first) are cut into contiguous runs of about equal size, each read by its own scanner, and the
 * runs are merged in order, so the report is the same for any number of threads. Every input
 * that could not be read completely is passed to on_error (may be NULL), in path order, after
 * reading. Returns FL_OK when at least one source was read, FL_ERR_IO when none could be. */
typedef void (*fl_scan_error_cb)(void *ctx, const struct fl_error *e);
enum fl_status fl_scan_paths(struct fl_scanner *s, const char *const *paths, size_t npaths,
                             unsigned threads, fl_scan_error_cb on_error, void *ctx);

/* ---------------------------------------------------------------- reports */

enum fl_format { FL_FORMAT_TEXT, FL_FORMAT_JSON, FL_FORMAT_MARKDOWN };

struct fl_report_options {
    enum fl_format format;
    int color;    /* text only: ANSI colours */
    int explain;  /* text only: signals, scores and why the winner won */
};

size_t fl_report_diagnosis_count(const struct fl_report *r);
/* Id of the i-th diagnosis (best first), or NULL past the end. */
const char *fl_report_diagnosis_id(const struct fl_report *r, size_t i);
/* Initiating rank of the i-th diagnosis, or -1 when unknown. */
long fl_report_diagnosis_rank(const struct fl_report *r, size_t i);
/* Initiating host of the i-th diagnosis, or NULL. */
const char *fl_report_diagnosis_host(const struct fl_report *r, size_t i);
/* For a diagnosis that no line matched but that the knowledge base names as an alternative
 * reading of another's lines (its `differential`): the id of that diagnosis. NULL for a diagnosis
 * that matched, and past the end. */
const char *fl_report_diagnosis_differential_of(const struct fl_report *r, size_t i);
/* Id of the k-th collateral failure folded under the i-th diagnosis as its consequence, or NULL
 * past the end. */
const char *fl_report_collateral_id(const struct fl_report *r, size_t i, size_t k);
/* Number of sources that could not be read completely. */
size_t fl_report_error_count(const struct fl_report *r);

enum fl_status fl_report_write(const struct fl_report *r, const struct fl_report_options *opts,
                               FILE *out);
/* Groups of ranks whose main-thread stacks (py-spy dump, faulthandler) are the same, largest
 * first, with their innermost frames: where each rank of a hung job waits. */
enum fl_status fl_report_write_stacks(const struct fl_report *r, FILE *out);
size_t fl_report_stack_group_count(const struct fl_report *r);
void fl_report_free(struct fl_report *r);

/* ---------------------------------------------------------------- masking */

/* Secrets and private details never leave faultline unmasked: reports and `faultline mask`
 * output go through a masker. Secrets (tokens, keys, passwords, private key blocks) become
 * typed placeholders (<hf-token>, <api-key>, <secret>, ...). In FL_MASK_ALL mode private details
 * become pseudonyms that are consistent within one masker: the same address is ip-3 everywhere,
 * the same host host-2, the same e-mail <email-1>, the same home folder /home/user-1/.
 *
 * A masker holds pseudonym tables and streaming state: use one per output, on one thread.
 * Matching is never done on masked text: mask what is written, not what is scanned. */

enum fl_mask_mode { FL_MASK_ALL = 0, FL_MASK_SECRETS = 1 };

struct fl_masker;

/* Compiles the masking patterns (one Vectorscan database, PCRE2 for exact spans). The masker is
 * owned by the caller and released with fl_masker_free. */
enum fl_status fl_masker_new(enum fl_mask_mode mode, struct fl_masker **out);
void fl_masker_free(struct fl_masker *m);

/* Registers a host name: every later occurrence (as a whole name, or the first label of a
 * dotted name) is written host-N. Names that cannot be hosts (too short, no letter, localhost,
 * addresses) are ignored with FL_OK. A no-op in FL_MASK_SECRETS mode. The name is copied. */
enum fl_status fl_masker_add_host(struct fl_masker *m, const char *name);

/* Masks len bytes of text (any number of lines) into a new NUL-terminated string in *out
 * (length in *out_len, may be NULL), owned by the caller (free). A private key block left open
 * at the end of the text is closed: apply calls do not share line state, only pseudonyms. */
enum fl_status fl_masker_apply(struct fl_masker *m, const char *text, size_t len, char **out,
                               size_t *out_len);

/* Streaming: masks a log fed in chunks of any size, line by line (lines are cut at 64 KiB), and
 * writes it to out. A private key block is masked across lines. fl_masker_end writes what is
 * left of an unterminated last line and resets the line state (call it between two logs). */
enum fl_status fl_masker_write(struct fl_masker *m, const void *buf, size_t len, FILE *out);
enum fl_status fl_masker_end(struct fl_masker *m, FILE *out);
/* Reads in until end of file and writes it masked to out (write + end). */
enum fl_status fl_masker_stream(struct fl_masker *m, FILE *in, FILE *out);

/* Reads PATH by the rules of fl_scan_path (file, folder, .gz, .zst, tar archive, "-" for stdin)
 * and writes every source, masked, to out, one after the other. Host names in the paths
 * (node-2/rank_5.log) are registered first. The return follows fl_scan_path. */
enum fl_status fl_mask_path(struct fl_masker *m, const char *path, FILE *out,
                            struct fl_error *err);

/* Masks a report in place: evidence text and source names, facts values, initiating hosts,
 * explanations, the note and the unreadable-source messages. Hosts seen in the report (line
 * prefixes, paths, initiating hosts) are registered first, so that they are masked everywhere.
 * Field names and the report's shape do not change. Call it after fl_scanner_finish. */
enum fl_status fl_report_mask(struct fl_report *r, struct fl_masker *m);

#ifdef __cplusplus
}
#endif
#endif
