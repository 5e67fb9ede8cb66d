/*
 * kb_embedded_load.c — the entries compiled into the library.
 *
 * The build turns kb/ entries into kb_embedded.c (by tools/kbgen.c): the Markdown texts and the
 * Vectorscan database already compiled and serialised from them, with the hash of its pattern
 * list. Start-up then parses the small front matters and deserialises the database instead of
 * compiling hundreds of patterns, which is what keeps a diagnosis of a small log in milliseconds.
 */
#include "kb.h"
#include "status.h"

#include <string.h>

enum fl_status fl_kb_add_embedded(struct fl_kb *kb, struct fl_error *err)
{
    for (size_t i = 0; i < kb_embedded_count; i++) {
        const struct kb_embedded_file *f = &kb_embedded_files[i];
        struct entry e;
        enum fl_status st = kb_parse_entry(f->path, f->text, f->len, &e, err);
        if (st != FL_OK)
            return st;
        if ((st = kb_add_entry(kb, &e)) != FL_OK) {
            kb_entry_free(&e);
            return st;
        }
    }
    enum fl_status cs = kb_set_common_lines(kb, kb_embedded_common, strlen(kb_embedded_common));
    if (cs != FL_OK)
        return cs;
    if (kb->nentries == kb_embedded_count) {
        kb->prebuilt_db = kb_embedded_db;
        kb->prebuilt_len = kb_embedded_db_len;
        kb->prebuilt_hash = kb_embedded_hash;
    }
    return FL_OK;
}
