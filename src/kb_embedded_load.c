/*
 * kb_embedded_load.c — the entries compiled into the library.
 *
 * The build turns kb/ entries into kb_embedded.c (by tools/kbgen.c): the entries already parsed
 * (strings, signals, condition programs and Markdown texts as read-only data), their pattern
 * table, and the Vectorscan database compiled from it, as the image used where it lies
 * (db_image.h). Start-up then parses no YAML, builds no pattern table and compiles no pattern,
 * which is what keeps a diagnosis of a small log in milliseconds: it makes the table of entries
 * from the build's (whose pointers are offsets: struct kb_entry_image) and copies nothing else
 * (their signals are copied only when a KB that --kb folders changed is compiled, which writes
 * to them: kb_compile.c).
 */
#include "kb.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

struct entry kb_embedded_entry(size_t i)
{
    const struct kb_entry_image *m = &kb_embedded_images[i];
    /* the build's tables are read-only; `embedded` tells kb_entry_free and kb_compile.c so */
    char *s = (char *)kb_embedded_strings;
    uint32_t *lists = (uint32_t *)kb_embedded_lists;
    return (struct entry){
        .id = s + m->id, .title = s + m->title, .category = s + m->category,
        .severity = s + m->severity, .path = s + m->path, .collateral = m->collateral,
        .strings = s,
        .tags = lists + m->tags, .systems = lists + m->systems, .related = lists + m->related,
        .references = lists + m->references, .ntags = m->ntags, .nsystems = m->nsystems,
        .nrelated = m->nrelated, .nreferences = m->nreferences,
        .differential = lists + m->differential, .ndifferential = m->ndifferential,
        .signals = (struct signal *)kb_embedded_signals + m->signals, .nsignals = m->nsignals,
        .cond = {m->cond_len ? (struct cond_insn *)kb_embedded_conds + m->cond : NULL, m->cond_len},
        .markdown = s + m->markdown, .body_offset = m->body_offset, .embedded = true};
}

enum fl_status fl_kb_add_embedded(struct fl_kb *kb, struct fl_error *err)
{
    (void)err; /* the build validated every entry: nothing here can be the user's mistake */
    if (kb->nentries == 0 && !kb->compiled) {
        /* the usual start: the build's ids are distinct, so no entry replaces another, and the
         * table is taken whole rather than grown and searched entry by entry */
        kb->entries = malloc(kb_embedded_count * sizeof *kb->entries);
        if (kb->entries == NULL)
            return FL_ERR_NOMEM;
        for (size_t i = 0; i < kb_embedded_count; i++)
            kb->entries[i] = kb_embedded_entry(i);
        kb->nentries = kb->entries_cap = kb_embedded_count;
    } else {
        for (size_t i = 0; i < kb_embedded_count; i++) {
            struct entry e = kb_embedded_entry(i);
            enum fl_status st = kb_add_entry(kb, &e);
            if (st != FL_OK)
                return st;
        }
    }
    enum fl_status cs = kb_set_common_lines(kb, kb_embedded_common, strlen(kb_embedded_common));
    if (cs != FL_OK)
        return cs;
    if (kb->nentries == kb_embedded_count)
        kb->prebuilt = &kb_embedded_prebuilt;
    return FL_OK;
}
