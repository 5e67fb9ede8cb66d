/* unit_kb.c — see unit_kb.h. */
#include "unit_kb.h"

struct fl_kb *unit_kb;

int unit_kb_setup(void **state)
{
    (void)state;
    struct fl_error err;
    if (fl_kb_new(&unit_kb) != FL_OK)
        return -1;
    return fl_kb_add_embedded(unit_kb, &err) == FL_OK && fl_kb_compile(unit_kb, &err) == FL_OK ? 0 : -1;
}

int unit_kb_teardown(void **state)
{
    (void)state;
    fl_kb_free(unit_kb);
    unit_kb = NULL;
    return 0;
}
