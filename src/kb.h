/*
 * kb.h — the knowledge base as the engine sees it (internal).
 *
 * An entry is parsed from Markdown (kb_load.c), its condition compiled to a small program
 * (kb_condition.c), and all entries' literal and regex signals flattened into one pattern table
 * that becomes one Vectorscan database (kb_compile.c). The pattern table also holds the built-in
 * patterns of the extractors (tracebacks, facts, progress lines), after the KB's own, so one scan
 * serves both. After fl_kb_compile the whole structure is read-only and may be shared by threads.
 *
 * Ownership: struct fl_kb owns everything reachable from it.
 */
#ifndef FL_KB_H
#define FL_KB_H

#include "faultline.h"
#include "buf.h"

#include <hs/hs.h>
#include <stdatomic.h>
#include <stdbool.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#define KB_MAX_ENTRIES 4096
#define KB_MAX_SIGNALS 64
#define KB_DIFFERENTIAL_MAX 2 /* alternatives a report adds after a headline (kb/README.md) */
#define KB_MAX_STRINGS (4u << 20) /* an entry's list items and signal texts (struct entry) */

enum signal_kind { SIGNAL_LITERAL, SIGNAL_REGEX, SIGNAL_CONFIG };
enum cmp_op { CMP_EQ, CMP_NE, CMP_GE, CMP_LE, CMP_GT, CMP_LT, CMP_PRESENT, CMP_ABSENT, CMP_MULTIPLE };

/* A config test as config_parse makes it (its texts malloc'd: config_test_free), or as
 * signal_config shows a signal's (its texts in the entry's strings). */
struct config_test {
    const char *fact;
    enum cmp_op op;
    const char *value;
};

/* tools/kbgen.c writes struct signal, struct cond_insn, struct kb_entry_image and struct pattern
 * as C initialisers, field by field: a new field must be written there too (test_kb_embedded
 * checks the written KB against the one parsed and built at run time).
 *
 * A signal's texts, like the items of an entry's lists, are offsets into its entry's strings
 * (entry_str), not pointers, for the reason struct pattern's are: the build's signals (52 KB) and
 * lists are then read-only data that the dynamic loader of a position-independent program need
 * not relocate, which would write, and so copy, every page of them at every start. Offset 0 is
 * no text. */
struct signal {
    uint32_t name;
    enum signal_kind kind;
    uint32_t text;      /* literal or regex source; config source for SIGNAL_CONFIG */
    uint32_t prefilter; /* regex: what Vectorscan looks for instead (every match holds it), or 0 */
    bool nocase;
    bool positive;     /* appears outside any `not` in the condition: its lines are evidence */
    bool supporting;   /* not named by the condition: evidence that never decides or ranks */
    bool observer;     /* printed by one rank about others (a coordinator's report): the rank
                          that printed it is not the rank it is about */
    struct {           /* SIGNAL_CONFIG: the parsed test (signal_config) */
        uint32_t fact;
        enum cmp_op op;
        uint32_t value;
    } cfg;
    int pattern;       /* index into kb->patterns, or -1 for config signals */
    unsigned line;     /* where it is defined in the entry's file */
};

/* A compiled condition: postfix program over signal indexes. */
enum cond_op { COND_SIGNAL, COND_COUNT, COND_AND, COND_OR, COND_NOT };
struct cond_insn {
    enum cond_op op;
    int signal;
    enum cmp_op cmp;
    long n;
};
struct condition {
    struct cond_insn *code;
    size_t len;
};

struct entry {
    char *id, *title, *category, *severity, *path;
    bool collateral;
    char *strings;          /* the texts that the lists and signals hold offsets of */
    uint32_t *tags, *systems, *related, *references; /* offsets into strings */
    size_t ntags, nsystems, nrelated, nreferences;
    uint32_t *differential; /* entries whose failure shows the same lines when its own are missing */
    size_t ndifferential;
    struct signal *signals;
    size_t nsignals;
    struct condition cond;  /* len 0: any literal/regex signal */
    char *markdown;         /* whole file */
    size_t body_offset;     /* where the Markdown body starts */
    bool embedded;          /* compiled in (kb_embedded.c): every string, list and the condition
                               are read-only data of the program, and `signals` too until the KB
                               builds its own patterns, which write to them (signals_owned) */
    bool signals_owned;     /* an embedded entry's `signals` are a copy the KB owns */
};

/* The text at offset off of e's strings, or NULL for offset 0. */
static inline const char *entry_str(const struct entry *e, uint32_t off)
{
    return off ? e->strings + off : NULL;
}

/* Config signal sig's test, its texts in e's strings (not to be freed). */
static inline struct config_test signal_config(const struct entry *e, const struct signal *sig)
{
    return (struct config_test){entry_str(e, sig->cfg.fact), sig->cfg.op,
                                entry_str(e, sig->cfg.value)};
}

/* Built-in patterns of the extractors; their handler lives in extract.c. */
enum builtin {
    BUILTIN_NONE = 0,
    BUILTIN_TRACEBACK,     /* Traceback (most recent call last): */
    BUILTIN_TERMINATE,     /* terminate called after throwing an instance of */
    BUILTIN_MEGATRON_ARG,  /*   name ............ value */
    BUILTIN_CMDLINE,       /* a launcher or python command line with --flags */
    BUILTIN_ENV,           /* NCCL_*=, CUDA_*=, TORCH_*=, PYTORCH_*= */
    BUILTIN_NCCL_ENV,      /* NCCL INFO NCCL_X set by environment to v */
    BUILTIN_VERSION,       /* torch/cuda/nccl/driver versions, gpu name, world size */
    BUILTIN_PROGRESS,      /* training progress lines */
    BUILTIN_WATCHDOG_SEQ,  /* WorkNCCL(SeqNum=..., OpType=...) */
    BUILTIN_STACK_THREAD,  /* py-spy `Thread 0x... (active): "MainThread"`, faulthandler
                              `Current thread 0x... (most recent call first):` */
    BUILTIN_RANK_HOST,     /* NCCL INFO comm 0x... rank N nranks M: which host rank N runs on */
    BUILTIN_CHAIN,         /* During handling of the above exception / The above exception was
                              the direct cause: the next traceback continues a chain */
    BUILTIN_LAUNCHER_RANK, /* torchrun's summary: "  rank      : 2 (local_rank: 2)" */
    BUILTIN_LAUNCHER_ROOT, /* torchrun's summary: "Root Cause (first observed failure):" */
    BUILTIN_LAUNCHER_EXIT, /* torchelastic: "failed (exitcode: 1) local_rank: 2 (pid: 7012)" */
    BUILTIN_ERROR_FILE,    /* torchelastic's error.json: {"message": {..., "py_callstack": ...}} */
    BUILTIN_LOSS_STOP,     /* a training script's own stop: "Loss is nan, stopping training" */
    BUILTIN_LAUNCHER_CODE, /* torchrun's summary: "  exitcode  : -9 (pid: 4104)" */
    BUILTIN_LAUNCHER_STOP, /* torchelastic: "Sending process 4104 closing signal SIGTERM" */
    BUILTIN_LOSS_NONFINITE, /* a loss printed as nan or inf: "loss: nan", "local loss inf" */
    BUILTIN_LAUNCHER_HOST, /* torchrun's summary: "  host      : node1" */
    BUILTIN_LAUNCHER_ERRFILE, /* torchrun's summary: "  error_file: <run>/attempt_0/1/error.json" */
    BUILTIN_LAUNCHER_TIME, /* torchrun's summary: "  time      : 2026-12-01_18:55:20" */
    BUILTIN_RANK_LINE,     /* a training script's own line about its rank: "[rank 3] step 4 ..." */
    BUILTIN_COUNT
};

/* A pattern's texts are offsets into its KB's pattern text (kb_text), not pointers: the build's
 * table (kb_embedded.c) is then read-only data that the dynamic loader of a position-independent
 * program need not relocate, which would write, and so copy, every page of it at every start.
 * Offset 0 is no text; equal texts have one offset. */
struct pattern {
    int entry;            /* -1 for built-ins */
    int signal;
    enum builtin builtin;
    uint32_t hs_expr;     /* what Vectorscan compiles */
    unsigned hs_flags;
    uint32_t pcre_expr;   /* what PCRE2 runs on the line for captures; 0: no captures */
    bool nocase;
    bool names_location;  /* a capture names the line's rank or host: run PCRE2 on every match */
    bool confirm;         /* Vectorscan finds only an atom or a prefilter: PCRE2 decides */
    uint32_t literal;     /* a literal signal of which Vectorscan finds a window: the line must
                             hold all of it; 0 when hs_expr is the whole literal */
    unsigned literal_len; /* its length, which every matched line's test of it needs */
    unsigned window_end;  /* with literal: where the window ends in it, so that the literal is
                             looked for first where the window's match puts it */
};

/* What the build made of the shipped entries (kb_embedded.c): their pattern table, its texts,
 * and its Vectorscan database, as the image that is used where it lies (db_image.h). */
struct kb_prebuilt {
    const struct pattern *patterns;
    size_t npatterns;
    const char *text;
    const unsigned char *db_image;
    size_t db_image_len;
};

struct fl_kb {
    struct entry *entries;
    size_t nentries, entries_cap;
    struct pattern *patterns;
    size_t npatterns, patterns_cap;
    const char *text;        /* the patterns' texts: the build's, or pattern_text's */
    struct buf pattern_text; /* the texts of patterns built here (kb_compile.c) */
    hs_database_t *db;
    bool db_borrowed; /* db is the build's read-only image (db_image.h), not freed */
    /* The scratch hs_alloc_scratch made while checking the image: the first scanner takes it
     * (kb_take_scratch) rather than allocate and check again. The one member that changes
     * after fl_kb_compile, by an atomic exchange, since scanners may be made on any thread. */
    _Atomic(hs_scratch_t *) spare_scratch;
    bool compiled;
    /* Set by fl_kb_add_embedded while the KB holds exactly the shipped entries, cleared by
     * fl_kb_add_dir: fl_kb_compile then takes this pattern table (borrowed, never freed) and
     * database instead of building them. */
    const struct kb_prebuilt *prebuilt;
    /* kb/common-lines.txt without its comments: lines healthy logs print all the time; a regex
     * whose atom occurs in them is compiled whole (kb_compile.c). */
    char *common_lines;
    /* PCRE2 limits for every match on a line (fl_kb_compile): a pattern that backtracks
     * without end, such as a user's (a+)+$, fails that line instead of stalling the scan.
     * Read-only once made, so scanners on every thread share it. */
    pcre2_match_context *mctx;
};
/* Backtracking steps and nested backtracking depth allowed to one PCRE2 match: far above what
 * a KB pattern needs on a 64 KiB line, about a millisecond of work at most. */
#define KB_MATCH_LIMIT 100000u
#define KB_DEPTH_LIMIT 10000u

/* kb_load.c */
enum fl_status kb_parse_entry(const char *path, const char *text, size_t len, struct entry *out,
                              struct fl_error *err);
void kb_entry_free(struct entry *e);
/* Reads a whole file of at most 1 MiB; *text is malloc'd and NUL-terminated. */
enum fl_status kb_read_file(const char *path, char **text, size_t *len, struct fl_error *err);
/* Adds (or replaces by id) a parsed entry; takes ownership of *e. */
enum fl_status kb_add_entry(struct fl_kb *kb, struct entry *e);
/* The first paragraph (and with_code: the first fenced block) of section `name`, as plain text;
 * malloc'd, NULL when absent. */
char *kb_section_text(const struct entry *e, const char *name, bool paragraph, bool code);
bool kb_has_section(const struct entry *e, const char *name);

/* Loads dir/common-lines.txt when it exists (replacing what was loaded). */
enum fl_status kb_load_common_lines(struct fl_kb *kb, const char *dir, struct fl_error *err);
/* Keeps the non-comment lines of text as kb->common_lines. */
enum fl_status kb_set_common_lines(struct fl_kb *kb, const char *text, size_t len);

/* kb_condition.c */
enum fl_status condition_compile(struct entry *e, const char *src, struct fl_error *err,
                                 unsigned line);
/* counts[i]: matches of signal i (config signals: 1 when true). */
bool condition_eval(const struct entry *e, const unsigned long *counts);
void condition_free(struct condition *c);
/* value (a fact, NULL when absent) against the test's value; numbers and sizes ("546.00 MiB")
 * compare numerically, other text case-insensitively. */
bool config_eval(const struct config_test *t, const char *value);
/* The same against another value: the fact config_value_fact names, for a test written
 * `fact OP $other` or `fact OP $other*0.02` (a share of it; false when that fact is absent). */
bool config_eval_against(const struct config_test *t, const char *value, const char *against);
/* The other fact's name, written into name (len bytes), or NULL when the value is not `$name`. */
const char *config_value_fact(const struct config_test *t, char *name, size_t len);
enum fl_status config_parse(const char *src, struct config_test *out, char *why, size_t whylen);
/* Frees what config_parse allocated. */
void config_test_free(struct config_test *t);

/* kb_atoms.c */
#define ATOM_MIN 8      /* the shortest atom a regex may be reduced to */
#define ATOM_MAX 128
#define ATOMS_MAX 8     /* at most this many top-level alternatives get atoms */
#define ATOM_WINDOW 10  /* literals longer than this go to Vectorscan as their rarest window */
struct atom_model;
/* Byte and byte-pair frequencies of kb->common_lines; free with kb_atom_model_free. */
enum fl_status kb_atom_model_new(const struct fl_kb *kb, struct atom_model **out);
void kb_atom_model_free(struct atom_model *m);
/* The rarest window of s: its length (all of s when short) and offset. */
size_t kb_atom_window(const struct atom_model *m, const char *s, size_t *off);
/* The atoms of a regex signal (one per top-level alternative), or 0 when one alternative has
 * none of ATOM_MIN characters or one occurs in kb/common-lines.txt. */
size_t kb_regex_atoms(const struct fl_kb *kb, const struct entry *e, const struct signal *sig,
                      char atoms[ATOMS_MAX][ATOM_MAX + 1]);
/* True when text occurs in kb/common-lines.txt. */
bool kb_common_text(const struct fl_kb *kb, const char *text, bool nocase);

/* kb_compile.c */
enum fl_status kb_build_patterns(struct fl_kb *kb, struct fl_error *err);
void kb_free_patterns(struct fl_kb *kb);
enum fl_status kb_compile_pattern_db(struct fl_kb *kb, struct fl_error *err);

/* A pattern's text at offset off of kb's pattern text, or NULL for offset 0. */
static inline const char *kb_text(const struct fl_kb *kb, uint32_t off)
{
    return off ? kb->text + off : NULL;
}

/* kb.c: a scratch for kb->db, allocated or the spare one; the caller frees it. NULL: no memory. */
hs_scratch_t *kb_take_scratch(const struct fl_kb *kb);

/* A shipped entry as kb_embedded.c holds it: struct entry with every pointer an offset, into
 * kb_embedded_strings (texts), kb_embedded_lists (list items), kb_embedded_signals and
 * kb_embedded_conds, so that the table, like the signals and lists, is read-only data with no
 * relocation (struct signal). kb_embedded_entry makes the struct entry. */
struct kb_entry_image {
    uint32_t id, title, category, severity, path, markdown;
    uint32_t body_offset;
    bool collateral;
    uint32_t tags, systems, related, references, differential; /* first item in kb_embedded_lists */
    uint32_t ntags, nsystems, nrelated, nreferences, ndifferential;
    uint32_t signals; /* first signal in kb_embedded_signals */
    uint32_t nsignals;
    uint32_t cond;    /* first instruction in kb_embedded_conds */
    uint32_t cond_len;
};

/* kb_embedded.c (generated at build time): the entries already parsed. Their signals are copied
 * before use when a KB builds its own patterns (which writes their pattern indexes). */
extern const struct kb_entry_image kb_embedded_images[];
extern const size_t kb_embedded_count;
extern const char kb_embedded_strings[];
extern const uint32_t kb_embedded_lists[];
extern const struct signal kb_embedded_signals[];
extern const struct cond_insn kb_embedded_conds[];
/* kb_embedded_load.c: shipped entry i as a struct entry (with `embedded` set) pointing into the
 * tables above. */
struct entry kb_embedded_entry(size_t i);
extern const struct kb_prebuilt kb_embedded_prebuilt;
extern const char kb_embedded_common[];

#endif
