/*
 * mask_db.c — the masking database of the build (mask_embedded.c, written by tools/maskgen.c),
 * deserialised at start; compiled anew only when the serialised one does not load (another CPU
 * generation than the build machine's, or an instrumented run such as valgrind).
 */
#include "mask_rules.h"

enum fl_status mask_database(enum fl_mask_mode mode, hs_database_t **db)
{
    if (hs_deserialize_database((const char *)mask_embedded_db[mode], mask_embedded_len[mode], db) ==
        HS_SUCCESS)
        return FL_OK;
    return mask_compile_db(mode, db);
}
