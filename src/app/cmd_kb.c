/*
 * cmd_kb.c — `faultline kb`: list, show, search, lint and patterns, for knowledge-base readers
 * and authors.
 */
#include "app.h"

#include <ctype.h>
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
          "                   the entry, for a terminal (text, default) or as Markdown\n"
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

static void show(const struct fl_kb_entry_info *e, bool tty)
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

static int lint(int argc, char **argv)
{
    const char *dir = "kb", *fixtures = NULL;
    bool strict = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--fixtures") == 0 && i + 1 < argc)
            fixtures = argv[++i];
        else if (strcmp(argv[i], "--strict") == 0)
            strict = true;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "faultline: unknown option '%s'\n", argv[i]);
            return 2;
        } else
            dir = argv[i];
    }
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
    if (strcmp(sub, "lint") == 0)
        return lint(argc - 2, argv + 2);
    /* the encyclopedia as a static site: the server's pages (src/server/cmd_kb_export.c) */
    if (strcmp(sub, "export") == 0)
        return cmd_kb_export(argc - 1, argv + 1);
    const char *dirs[16];
    int ndirs = 0;
    char **rest = calloc((size_t)argc, sizeof *rest);
    int nrest = 0;
    const char *format = "text";
    if (rest == NULL)
        return 2;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--kb") == 0 && i + 1 < argc && ndirs < 16)
            dirs[ndirs++] = argv[++i];
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc && strcmp(sub, "show") == 0)
            format = argv[++i];
        else
            rest[nrest++] = argv[i];
    }
    int rc = 2;
    struct fl_kb *kb = app_load_kb(dirs, ndirs);
    if (kb == NULL)
        goto out;
    if (strcmp(sub, "list") == 0) {
        for (size_t i = 0; i < fl_kb_count(kb); i++) {
            struct fl_kb_entry_info e;
            fl_kb_entry_at(kb, i, &e);
            printf("%s\t%s\t%s\n", e.id, e.category, e.title);
        }
        rc = 0;
    } else if (strcmp(sub, "show") == 0) {
        if (nrest != 1) {
            fprintf(stderr, "faultline: kb show needs one ID\n");
            goto out;
        }
        bool markdown = strcmp(format, "markdown") == 0 || strcmp(format, "md") == 0;
        if (!markdown && strcmp(format, "text") != 0) {
            fprintf(stderr, "faultline: unknown format '%s' (text, markdown)\n", format);
            goto out;
        }
        long i = fl_kb_find(kb, rest[0]);
        if (i < 0) {
            fprintf(stderr, "faultline: no entry '%s' (try: faultline kb search WORDS)\n", rest[0]);
            rc = 1;
            goto out;
        }
        struct fl_kb_entry_info e;
        fl_kb_entry_at(kb, (size_t)i, &e);
        if (markdown)
            show_markdown(&e);
        else
            show(&e, isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL);
        rc = 0;
    } else if (strcmp(sub, "search") == 0) {
        if (nrest == 0) {
            fprintf(stderr, "faultline: kb search needs WORDS\n");
            goto out;
        }
        rc = search(kb, nrest, rest);
    } else if (strcmp(sub, "patterns") == 0) {
        bool dialect_given = nrest == 2 && strcmp(rest[0], "--for") == 0;
        bool rg = dialect_given && strcmp(rest[1], "rg") == 0;
        if (nrest && !(dialect_given && (rg || strcmp(rest[1], "grep") == 0))) {
            fprintf(stderr, "faultline: kb patterns takes only --for grep|rg\n");
            goto out;
        }
        enum fl_pattern_dialect d = rg ? FL_DIALECT_RG : FL_DIALECT_ERE;
        rc = fl_kb_write_patterns(kb, d, stdout) == FL_OK ? 0 : 2;
    } else {
        fprintf(stderr, "faultline: unknown kb subcommand '%s'\n", sub);
        help(stderr);
    }
out:
    fl_kb_free(kb);
    free(rest);
    return rc;
}
