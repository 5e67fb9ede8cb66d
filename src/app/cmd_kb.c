/*
 * cmd_kb.c — `faultline kb`: list, show, search, lint and patterns, for knowledge-base readers
 * and authors.
 */
#include "app.h"

#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void help(FILE *out)
{
    fputs("usage: faultline kb <subcommand> [--kb DIR]\n"
          "\n"
          "  list             one line per entry: id<TAB>category<TAB>title\n"
          "  show [--format text|markdown] ID\n"
          "                   the entry, for a terminal or as a Markdown document\n"
          "  search WORDS...  entries ranked by how well they match the words\n"
          "  lint [DIR] [--fixtures DIR] [--strict]\n"
          "                   check every entry under DIR (default: kb) and its fixtures\n"
          "                   (default: DIR/../tests/fixtures/kb when it exists); --strict fails on warnings\n"
          "  patterns [--for grep|rg]\n"
          "                   every literal and regex pattern, one per line: for grep -E -f (default),\n"
          "                   or for rg -f (ASCII word boundaries, as faultline reads them)\n"
          "\n"
          "  export --html DIR\n"
          "                   the encyclopedia as a static web site (the pages faultline serve shows)\n"
          "  --kb DIR         also load the entries under DIR (list, show, search, patterns, export)\n",
          out);
}

/* Case-insensitive substring search. */
static bool contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; hay && *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return false;
}

static int search(struct fl_kb *kb, int nwords, char **words)
{
    size_t n = fl_kb_count(kb);
    struct hit {
        size_t i;
        int score;
    } *hits = calloc(n ? n : 1, sizeof *hits);
    if (hits == NULL)
        return 2;
    size_t nh = 0;
    for (size_t i = 0; i < n; i++) {
        struct fl_kb_entry_info e;
        fl_kb_entry_at(kb, i, &e);
        int score = 0;
        for (int w = 0; w < nwords; w++) {
            int s = 0;
            s += contains(e.id, words[w]) ? 4 : 0;
            s += contains(e.title, words[w]) ? 5 : 0;
            s += contains(e.category, words[w]) ? 2 : 0;
            s += contains(e.markdown, words[w]) ? 1 : 0;
            if (s == 0) {
                score = 0; /* every word must appear somewhere */
                break;
            }
            score += s;
        }
        if (score > 0)
            hits[nh++] = (struct hit){i, score};
    }
    for (size_t a = 1; a < nh; a++)
        for (size_t b = a; b > 0 && hits[b].score > hits[b - 1].score; b--) {
            struct hit t = hits[b];
            hits[b] = hits[b - 1];
            hits[b - 1] = t;
        }
    for (size_t k = 0; k < nh && k < 20; k++) {
        struct fl_kb_entry_info e;
        fl_kb_entry_at(kb, hits[k].i, &e);
        printf("%s\t%s\t%s\n", e.id, e.category, e.title);
    }
    free(hits);
    if (nh == 0)
        fprintf(stderr, "faultline: no entry matches\n");
    return nh ? 0 : 1;
}

/* The body after the front matter. */
static const char *entry_body(const struct fl_kb_entry_info *e)
{
    const char *p = strstr(e->markdown + 3, "\n---");
    p = p ? strchr(p + 1, '\n') : e->markdown;
    return p ? p + 1 : e->markdown;
}

/* The entry as a Markdown document: a title, its metadata, then its body as written. */
static void show_markdown(const struct fl_kb_entry_info *e)
{
    printf("# %s\n\n`%s` · category %s · severity %s · role %s · source `%s`\n", e->title, e->id,
           e->category, e->severity, e->role, e->path);
    const char *body = entry_body(e);
    printf("%s%s", *body == '\n' ? "" : "\n", body);
}

static void show(const struct fl_kb *kb, size_t index, const struct fl_kb_entry_info *e, bool tty)
{
    const char *bold = tty ? "\033[1m" : "", *reset = tty ? "\033[0m" : "";
    printf("%s%s%s  (%s)\ncategory: %s   severity: %s   role: %s\nsource: %s\n", bold, e->title,
           reset, e->id, e->category, e->severity, e->role, e->path);
    /* the body after the front matter; headings in bold on a terminal */
    const char *p = entry_body(e);
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n > 3 && strncmp(p, "## ", 3) == 0)
            printf("%s%.*s%s\n", bold, (int)(n - 3), p + 3, reset);
        else
            printf("%.*s\n", (int)n, p);
        p += n + (nl != NULL);
    }
    /* the front matter's references and related entries, which the body does not repeat */
    const char *ref = fl_kb_entry_reference(kb, index, 0);
    if (ref)
        printf("\n%sReferences%s\n", bold, reset);
    for (size_t j = 0; (ref = fl_kb_entry_reference(kb, index, j)) != NULL; j++)
        printf("  %s\n", ref);
    const char *rel = fl_kb_entry_related(kb, index, 0);
    if (rel)
        printf("\n%sRelated%s\n", bold, reset);
    for (size_t j = 0; (rel = fl_kb_entry_related(kb, index, j)) != NULL; j++) {
        long k = fl_kb_find(kb, rel);
        struct fl_kb_entry_info r;
        if (k >= 0 && fl_kb_entry_at(kb, (size_t)k, &r) == FL_OK)
            printf("  %s  %s\n", rel, r.title);
        else
            printf("  %s\n", rel);
    }
}

static void lint_print(void *ctx, int is_error, const struct fl_error *e)
{
    (void)ctx;
    if (e->line)
        fprintf(stderr, "%s:%u:%u: %s: %s\n", e->file, e->line, e->col,
                is_error ? "error" : "warning", e->msg);
    else
        fprintf(stderr, "%s: %s: %s\n", e->file, is_error ? "error" : "warning", e->msg);
}

static const struct sub {
    const char *name, *usage;
} subs[] = {
    {"list", "usage: faultline kb list [--kb DIR]\n\nOne line per entry: id<TAB>category<TAB>title.\n"},
    {"show", "usage: faultline kb show [--kb DIR] [--format text|markdown] ID\n\nThe entry ID for a "
             "terminal: its sections, references and related entries; or, with --format markdown,\n"
             "the entry as a Markdown document.\n"},
    {"search", "usage: faultline kb search [--kb DIR] WORDS...\n\nEntries ranked by how well they "
               "match the words (every word must match).\n"},
    {"lint", "usage: faultline kb lint [--fixtures DIR] [--strict] [DIR]\n\nChecks every entry under "
             "DIR (default: kb) and its fixtures (default: DIR/../tests/fixtures/kb when it\n"
             "exists); --strict fails on warnings too.\n"},
    {"patterns", "usage: faultline kb patterns [--kb DIR] [--for grep|rg]\n\nEvery literal and regex "
                 "pattern, one per line: for grep -E -f (default) or rg -f.\n"},
};

static const struct option longopts[] = {
    {"kb", required_argument, NULL, 'k'},       {"fixtures", required_argument, NULL, 'F'},
    {"strict", no_argument, NULL, 's'},         {"for", required_argument, NULL, 'f'},
    {"format", required_argument, NULL, 'o'},   {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int lint(const char *dir, const char *fixtures, bool strict)
{
    char guess[4096];
    if (fixtures == NULL) {
        snprintf(guess, sizeof guess, "%s/../tests/fixtures/kb", dir);
        struct stat sb;
        if (stat(guess, &sb) == 0 && S_ISDIR(sb.st_mode))
            fixtures = guess;
    }
    unsigned entries = 0, warnings = 0;
    unsigned errors = fl_kb_lint_dir(dir, fixtures, lint_print, NULL, &entries, &warnings);
    fprintf(stderr, "%u entries checked, %u error(s), %u warning(s)%s\n", entries, errors,
            warnings, fixtures ? "" : " (no fixtures folder: fixtures not checked)");
    return errors || (strict && warnings) ? 1 : 0;
}

int cmd_kb(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    /* the encyclopedia as a static site: the server's pages (src/server/cmd_kb_export.c) */
    if (strcmp(sub, "export") == 0)
        return app_run_module("faultline-serve.so", "cmd_kb_export", argc - 1, argv + 1);
    const struct sub *sd = NULL;
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(sub, subs[i].name) == 0)
            sd = &subs[i];
    if (sd == NULL) {
        fprintf(stderr, "faultline: unknown kb subcommand '%s'\n", sub);
        help(stderr);
        return 2;
    }
    const char *dirs[16], *fixtures = NULL;
    int ndirs = 0, c, v = 0, markdown = 0;
    bool strict = false, lint_sub = strcmp(sub, "lint") == 0, patterns = strcmp(sub, "patterns") == 0;
    static const char *const dialects[] = {"grep", "rg", NULL};
    static const char *const formats[] = {"text", "markdown", NULL};
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc - 1, argv + 1, ":h", longopts, NULL)) != -1) {
        /* options that belong to another subcommand are refused like unknown ones */
        if (c == 'h') {
            fputs(sd->usage, stdout);
            return 0;
        } else if (c == 'k' && !lint_sub) {
            if (ndirs == 16) {
                fprintf(stderr, "faultline: at most 16 --kb folders\n");
                return 2;
            }
            dirs[ndirs++] = optarg;
        } else if (c == 'F' && lint_sub) {
            fixtures = optarg;
        } else if (c == 's' && lint_sub) {
            strict = true;
        } else if (c == 'o' && strcmp(sub, "show") == 0) {
            if (app_enum_option("--format", optarg, formats, &markdown) != 0)
                return 2;
        } else if (c == 'f' && patterns) {
            if (app_enum_option("--for", optarg, dialects, &v) != 0)
                return 2;
        } else {
            if (c == '?' || c == ':')
                app_getopt_error(c, optopt, argv + 1, optind);
            else
                fprintf(stderr, "faultline: kb %s takes no %s\n", sub, (argv + 1)[optind - 1]);
            fputs(sd->usage, stderr);
            return 2;
        }
    }
    char **rest = argv + 1 + optind;
    int nrest = argc - 1 - optind;
    if (lint_sub) {
        if (nrest > 1) {
            fputs(sd->usage, stderr);
            return 2;
        }
        return lint(nrest ? rest[0] : "kb", fixtures, strict);
    }
    if ((strcmp(sub, "show") == 0 && nrest != 1) || (strcmp(sub, "search") == 0 && nrest == 0) ||
        ((strcmp(sub, "list") == 0 || patterns) && nrest != 0)) {
        fprintf(stderr, "faultline: kb %s: wrong arguments\n", sub);
        fputs(sd->usage, stderr);
        return 2;
    }
    int rc = 2;
    struct fl_kb *kb = app_load_kb(dirs, ndirs);
    if (kb == NULL)
        return 2;
    if (strcmp(sub, "list") == 0) {
        for (size_t i = 0; i < fl_kb_count(kb); i++) {
            struct fl_kb_entry_info e;
            fl_kb_entry_at(kb, i, &e);
            printf("%s\t%s\t%s\n", e.id, e.category, e.title);
        }
        rc = 0;
    } else if (strcmp(sub, "show") == 0) {
        long i = fl_kb_find(kb, rest[0]);
        if (i < 0) {
            fprintf(stderr, "faultline: no entry '%s' (try: faultline kb search WORDS)\n", rest[0]);
            rc = 1;
        } else {
            struct fl_kb_entry_info e;
            fl_kb_entry_at(kb, (size_t)i, &e);
            if (markdown)
                show_markdown(&e);
            else
                show(kb, (size_t)i, &e, app_color(-1, STDOUT_FILENO));
            rc = 0;
        }
    } else if (strcmp(sub, "search") == 0) {
        rc = search(kb, nrest, rest);
    } else {
        enum fl_pattern_dialect d = v == 1 ? FL_DIALECT_RG : FL_DIALECT_ERE;
        rc = fl_kb_write_patterns(kb, d, stdout) == FL_OK ? 0 : 2;
    }
    fl_kb_free(kb);
    return rc;
}
