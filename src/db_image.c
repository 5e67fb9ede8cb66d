/*
 * db_image.c — a Vectorscan database shipped as its in-memory image (see db_image.h).
 */
#include "db_image.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define IMAGE_ALIGN 64 /* what hs_deserialize_database_at aligns the bytecode to */

int db_image_write(FILE *out, const char *name, const hs_database_t *db, size_t *len)
{
    char *ser = NULL;
    size_t ser_len = 0, size = 0;
    unsigned char *img = NULL;
    int rc = -1;
    if (hs_serialize_database(db, &ser, &ser_len) != HS_SUCCESS ||
        hs_serialized_database_size(ser, ser_len, &size) != HS_SUCCESS)
        goto out;
    img = aligned_alloc(IMAGE_ALIGN, (size + IMAGE_ALIGN - 1) / IMAGE_ALIGN * IMAGE_ALIGN);
    if (img == NULL || hs_deserialize_database_at(ser, ser_len, (hs_database_t *)img) != HS_SUCCESS)
        goto out;
    fprintf(out, "_Alignas(%d) static const unsigned char %s[] = {", IMAGE_ALIGN, name);
    for (size_t i = 0; i < size; i++)
        fprintf(out, "%s%u,", i % 24 == 0 ? "\n" : "", img[i]);
    fprintf(out, "0};\n");
    *len = size;
    rc = 0;
out:
    free(ser);
    free(img);
    return rc;
}

hs_database_t *db_image_use(const unsigned char *img, size_t len, hs_scratch_t **scratch)
{
    hs_database_t *db = (hs_database_t *)(uintptr_t)img; /* read-only: Vectorscan only reads it */
    hs_scratch_t *s = NULL;
    size_t size = 0;
    if (img == NULL || len < IMAGE_ALIGN || (uintptr_t)img % IMAGE_ALIGN != 0 ||
        hs_database_size(db, &size) != HS_SUCCESS || size != len ||
        hs_alloc_scratch(db, &s) != HS_SUCCESS)
        return NULL;
    if (scratch != NULL)
        *scratch = s;
    else
        hs_free_scratch(s);
    return db;
}
