/*
 * load_kb.c — the knowledge base of the program: what was compiled in, plus --kb folders,
 * whose entries override shipped ones with the same id.
 */
#include "app.h"

#include <stdio.h>

static void print_error(const struct fl_error *e)
{
    if (e->file[0] && e->line)
        fprintf(stderr, "faultline: %s:%u:%u: %s\n", e->file, e->line, e->col, e->msg);
    else if (e->file[0])
        fprintf(stderr, "faultline: %s: %s\n", e->file, e->msg);
    else
        fprintf(stderr, "faultline: %s\n", e->msg);
}

struct fl_kb *app_load_kb(const char *const *dirs, int ndirs)
{
    struct fl_kb *kb;
    struct fl_error err = {0};
    if (fl_kb_new(&kb) != FL_OK) {
        fprintf(stderr, "faultline: out of memory\n");
        return NULL;
    }
    enum fl_status st = fl_kb_add_embedded(kb, &err);
    for (int i = 0; i < ndirs && st == FL_OK; i++)
        st = fl_kb_add_dir(kb, dirs[i], &err);
    if (st == FL_OK)
        st = fl_kb_compile(kb, &err);
    if (st != FL_OK) {
        print_error(&err);
        fl_kb_free(kb);
        return NULL;
    }
    return kb;
}
