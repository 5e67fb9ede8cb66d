/*
 * mask_db.c — the masking database of the build (mask_embedded.c, written by tools/maskgen.c as
 * the database's in-memory image, used where it lies: db_image.h); compiled anew only when the
 * image does not run here (another CPU generation than the build machine's, or an instrumented
 * run such as valgrind).
 */
#include "db_image.h"
#include "mask_rules.h"

enum fl_status mask_database(enum fl_mask_mode mode, hs_database_t **db, hs_scratch_t **scratch,
                             bool *borrowed)
{
    *db = db_image_use(mask_embedded_db[mode], mask_embedded_len[mode], scratch);
    *borrowed = *db != NULL;
    if (*db != NULL)
        return FL_OK;
    enum fl_status st = mask_compile_db(mode, db);
    if (st == FL_OK && hs_alloc_scratch(*db, scratch) != HS_SUCCESS)
        st = FL_ERR_NOMEM;
    return st;
}
