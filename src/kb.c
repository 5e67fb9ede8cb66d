/*
 * kb.c — the knowledge base's lifecycle: new, add entries, compile, query, free.
 *
 * Entries come from the build (fl_kb_add_embedded) or from folders (fl_kb_add_dir); an entry with
 * an id already present replaces it, so `--kb DIR` can override a shipped entry. fl_kb_compile
 * sorts entries by category and id (a stable order for pattern ids, lists and reports). A KB of
 * exactly the shipped entries then takes the pattern table and the database that the build made
 * from them (kb_embedded.c); any other is flattened into patterns and compiled here.
 */
#include "kb.h"
#include "db_image.h"
#include "status.h"
#include "walk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define KB_MAX_FILE (1u << 20)

enum fl_status fl_kb_new(struct fl_kb **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? FL_OK : FL_ERR_NOMEM;
}

void fl_kb_free(struct fl_kb *kb)
{
    if (kb == NULL)
        return;
    for (size_t i = 0; i < kb->nentries; i++)
        kb_entry_free(&kb->entries[i]);
    free(kb->entries);
    if (kb->prebuilt == NULL) {
        kb_free_patterns(kb);
        free(kb->patterns);
    }
    free(kb->common_lines);
    pcre2_match_context_free(kb->mctx);
    hs_free_scratch(atomic_load(&kb->spare_scratch));
    if (!kb->db_borrowed)
        hs_free_database(kb->db);
    free(kb);
}

hs_scratch_t *kb_take_scratch(const struct fl_kb *kb)
{
    /* kb is the caller's read-only view: the spare is the KB's one mutable member (kb.h) */
    hs_scratch_t *s = atomic_exchange(&((struct fl_kb *)(uintptr_t)kb)->spare_scratch, NULL);
    if (s == NULL && hs_alloc_scratch(kb->db, &s) != HS_SUCCESS)
        return NULL;
    return s;
}

enum fl_status kb_read_file(const char *path, char **text, size_t *len, struct fl_error *err)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return error_set(err, FL_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    struct buf b;
    buf_init(&b, KB_MAX_FILE);
    char chunk[16384];
    size_t n;
    enum fl_status st = FL_OK;
    while (st == FL_OK && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        st = buf_append(&b, chunk, n);
    if (st == FL_OK && ferror(f))
        st = error_set(err, FL_ERR_IO, path, 0, 0, "read error");
    else if (st == FL_ERR_LIMIT)
        st = error_set(err, FL_ERR_LIMIT, path, 0, 0, "entry larger than 1 MiB");
    fclose(f);
    if (st != FL_OK) {
        buf_free(&b);
        return st;
    }
    *len = b.len;
    *text = buf_steal(&b);
    return FL_OK;
}

enum fl_status kb_set_common_lines(struct fl_kb *kb, const char *text, size_t len)
{
    struct buf b;
    buf_init(&b, KB_MAX_FILE);
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (n && p[0] != '#') {
            buf_append(&b, p, n);
            buf_putc(&b, '\n');
        }
        p += n + 1;
    }
    free(kb->common_lines);
    kb->common_lines = buf_steal(&b);
    return kb->common_lines ? FL_OK : FL_ERR_NOMEM;
}

enum fl_status kb_load_common_lines(struct fl_kb *kb, const char *dir, struct fl_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/common-lines.txt", dir);
    struct stat sb;
    if (stat(path, &sb) != 0)
        return FL_OK;
    char *text;
    size_t len;
    enum fl_status st = kb_read_file(path, &text, &len, err);
    if (st != FL_OK)
        return st;
    st = kb_set_common_lines(kb, text, len);
    free(text);
    return st;
}

static bool is_entry_file(const char *path)
{
    size_t n = strlen(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return n > 3 && strcmp(path + n - 3, ".md") == 0 && strcmp(base, "README.md") != 0;
}

struct add_ctx {
    struct fl_kb *kb;
    struct fl_error *err;
};

static enum fl_status add_file(void *vctx, const char *path)
{
    struct add_ctx *ctx = vctx;
    if (!is_entry_file(path))
        return FL_OK;
    char *text;
    size_t len;
    enum fl_status st = kb_read_file(path, &text, &len, ctx->err);
    if (st != FL_OK)
        return st;
    struct entry e;
    st = kb_parse_entry(path, text, len, &e, ctx->err);
    free(text);
    if (st == FL_OK && (st = kb_add_entry(ctx->kb, &e)) != FL_OK)
        kb_entry_free(&e);
    return st;
}

static void walk_error(void *vctx, const char *path, const char *msg)
{
    struct add_ctx *ctx = vctx;
    error_set(ctx->err, FL_ERR_IO, path, 0, 0, "%s", msg);
}

enum fl_status fl_kb_add_dir(struct fl_kb *kb, const char *dir, struct fl_error *err)
{
    if (kb->compiled)
        return error_set(err, FL_ERR_USAGE, NULL, 0, 0, "the knowledge base is already compiled");
    struct add_ctx ctx = {kb, err};
    struct stat sb;
    if (stat(dir, &sb) != 0)
        return error_set(err, FL_ERR_IO, dir, 0, 0, "%s", strerror(errno));
    kb->prebuilt = NULL; /* what the build made no longer describes this KB */
    if (S_ISREG(sb.st_mode))
        return add_file(&ctx, dir);
    enum fl_status st = kb_load_common_lines(kb, dir, err);
    return st != FL_OK ? st : walk_dir(dir, add_file, walk_error, &ctx);
}

static int cmp_entries(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->category, y->category);
    return c ? c : strcmp(x->id, y->id);
}

enum fl_status fl_kb_compile(struct fl_kb *kb, struct fl_error *err)
{
    if (kb->compiled)
        return FL_OK;
    if (kb->nentries == 0)
        return error_set(err, FL_ERR_KB, NULL, 0, 0, "the knowledge base has no entries");
    if (kb->mctx == NULL) {
        if ((kb->mctx = pcre2_match_context_create(NULL)) == NULL)
            return FL_ERR_NOMEM;
        pcre2_set_match_limit(kb->mctx, KB_MATCH_LIMIT);
        pcre2_set_depth_limit(kb->mctx, KB_DEPTH_LIMIT);
    }
    qsort(kb->entries, kb->nentries, sizeof *kb->entries, cmp_entries);
    enum fl_status st;
    if (kb->prebuilt) {
        /* the build sorted the same entries the same way: the table's entry and signal indexes,
         * and the signals' pattern indexes, hold */
        kb->patterns = (struct pattern *)kb->prebuilt->patterns;
        kb->npatterns = kb->prebuilt->npatterns;
        kb->text = kb->prebuilt->text;
        hs_scratch_t *scratch = NULL;
        kb->db = db_image_use(kb->prebuilt->db_image, kb->prebuilt->db_image_len, &scratch);
        if (kb->db != NULL) {
            atomic_store(&kb->spare_scratch, scratch);
            kb->db_borrowed = true;
            kb->compiled = true;
            return FL_OK;
        }
        /* a database this Vectorscan cannot load (another version or CPU): compile the table */
    } else if ((st = kb_build_patterns(kb, err)) != FL_OK) {
        return st;
    }
    if ((st = kb_compile_pattern_db(kb, err)) != FL_OK)
        return st;
    kb->compiled = true;
    return FL_OK;
}

size_t fl_kb_count(const struct fl_kb *kb)
{
    return kb->nentries;
}

enum fl_status fl_kb_entry_at(const struct fl_kb *kb, size_t i, struct fl_kb_entry_info *out)
{
    if (i >= kb->nentries)
        return FL_ERR_NOTFOUND;
    const struct entry *e = &kb->entries[i];
    *out = (struct fl_kb_entry_info){e->id, e->title, e->category, e->severity,
                                     e->collateral ? "collateral" : "primary", e->path,
                                     e->markdown};
    return FL_OK;
}

const char *fl_kb_entry_reference(const struct fl_kb *kb, size_t i, size_t j)
{
    if (kb == NULL || i >= kb->nentries || j >= kb->entries[i].nreferences)
        return NULL;
    return entry_str(&kb->entries[i], kb->entries[i].references[j]);
}

const char *fl_kb_entry_related(const struct fl_kb *kb, size_t i, size_t j)
{
    if (kb == NULL || i >= kb->nentries || j >= kb->entries[i].nrelated)
        return NULL;
    return entry_str(&kb->entries[i], kb->entries[i].related[j]);
}

long fl_kb_find(const struct fl_kb *kb, const char *id)
{
    for (size_t i = 0; i < kb->nentries; i++)
        if (strcmp(kb->entries[i].id, id) == 0)
            return (long)i;
    return -1;
}

/* The ')' that closes the group opened at s, past escapes and bracket expressions; or the end. */
static const char *group_end(const char *s)
{
    int depth = 0;
    bool in_class = false;
    for (; *s; s++) {
        if (*s == '\\' && s[1])
            s++;
        else if (in_class)
            in_class = *s != ']';
        else if (*s == '[')
            in_class = true, s += s[1] == '^', s += s[1] == ']';
        else if (*s == '(')
            depth++;
        else if (*s == ')' && --depth == 0)
            return s;
    }
    return s - 1;
}

/* grep -E and rg share POSIX ERE for what KB regexes use, except named groups and the escapes
 * below; literals are escaped so that both read them as fixed text. Neither runs look-around or
 * back-references: a look-around is left out and a back-reference matches anything, so that
 * the pattern matches every line faultline's does (and a few more), which is what comparing the
 * cost of a scan needs. */
static void write_ere(FILE *out, const char *s, bool literal, enum fl_pattern_dialect dialect)
{
    if (literal) {
        for (; *s; s++) {
            if (strchr("\\.[]()*+?{}|^$", *s))
                fputc('\\', out);
            fputc(*s, out);
        }
        return;
    }
    for (; *s; s++) {
        if (s[0] == '(' && s[1] == '?' &&
            (s[2] == '=' || s[2] == '!' || (s[2] == '<' && (s[3] == '=' || s[3] == '!')))) {
            s = group_end(s);
            continue;
        }
        if (s[0] == '\\' && s[1] == 'k' && s[2] == '<' && strchr(s, '>')) {
            fputs(".*", out);
            s = strchr(s, '>');
            continue;
        }
        if (s[0] == '(' && s[1] == '?') {
            if (s[2] == ':') {
                fputc('(', out);
                s += 2;
                continue;
            }
            const char *close = NULL;
            if (s[2] == '<' && s[3] != '=' && s[3] != '!')
                close = strchr(s, '>');
            else if (s[2] == 'P' && s[3] == '<')
                close = strchr(s, '>');
            if (close) {
                fputc('(', out);
                s = close;
                continue;
            }
        }
        if (s[0] == '\\' && s[1]) {
            const char *cls = NULL;
            switch (s[1]) {
            case 'd': cls = "[0-9]"; break;
            case 'D': cls = "[^0-9]"; break;
            case 's': cls = "[[:space:]]"; break;
            case 'S': cls = "[^[:space:]]"; break;
            case 'w': cls = "[[:alnum:]_]"; break;
            case 'b': cls = dialect == FL_DIALECT_RG ? "(?-u:\\b)" : NULL; break;
            }
            if (cls) {
                fputs(cls, out);
                s++;
                continue;
            }
            fputc(*s++, out);
        }
        fputc(*s, out);
    }
}

enum fl_status fl_kb_write_patterns(const struct fl_kb *kb, enum fl_pattern_dialect dialect,
                                    FILE *out)
{
    for (size_t i = 0; i < kb->nentries; i++)
        for (size_t j = 0; j < kb->entries[i].nsignals; j++) {
            const struct entry *e = &kb->entries[i];
            const struct signal *sig = &e->signals[j];
            if (sig->kind == SIGNAL_CONFIG)
                continue;
            write_ere(out, entry_str(e, sig->text), sig->kind == SIGNAL_LITERAL, dialect);
            fputc('\n', out);
        }
    return ferror(out) ? FL_ERR_IO : FL_OK;
}
