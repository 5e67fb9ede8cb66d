/* test_db_image.c — a Vectorscan database shipped as its in-memory image (db_image.h): the
 * build's images are used where they lie and match as the compiled database does; a copy that is
 * misaligned, cut short or corrupted is refused, and the knowledge base then compiles its
 * patterns instead; the writer's output is the image of the database it was given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_image.h"
#include "kb.h"
#include "mask_rules.h"

static int count_hit(unsigned id, unsigned long long from, unsigned long long to, unsigned flags,
                     void *ctx)
{
    (void)id;
    (void)from;
    (void)to;
    (void)flags;
    (*(int *)ctx)++;
    return 0;
}

/* hits of the masking database db on a line that holds a PEM key's first line */
static int mask_hits(const hs_database_t *db, hs_scratch_t *scratch)
{
    static const char line[] = "-----BEGIN RSA PRIVATE KEY-----";
    int hits = 0;
    assert_int_equal(hs_scan(db, line, sizeof line - 1, 0, scratch, count_hit, &hits), HS_SUCCESS);
    return hits;
}

/* an aligned copy of the image of masking mode 0, shifted by shift bytes */
static unsigned char *copy_image(size_t shift, void **block)
{
    size_t len = mask_embedded_len[0];
    *block = aligned_alloc(64, (len + shift + 63) / 64 * 64);
    assert_non_null(*block);
    memcpy((unsigned char *)*block + shift, mask_embedded_db[0], len);
    return (unsigned char *)*block + shift;
}

static void used_in_place(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        hs_scratch_t *scratch = NULL;
        hs_database_t *db = db_image_use(mask_embedded_db[mode], mask_embedded_len[mode], &scratch);
        assert_ptr_equal(db, (const void *)mask_embedded_db[mode]);
        assert_non_null(scratch);
        assert_true(mask_hits(db, scratch) > 0);
        hs_free_scratch(scratch);
    }
    /* an aligned copy elsewhere runs as well: the image holds no address */
    void *block;
    unsigned char *copy = copy_image(0, &block);
    hs_scratch_t *scratch = NULL;
    hs_database_t *db = db_image_use(copy, mask_embedded_len[0], &scratch);
    assert_ptr_equal(db, copy);
    assert_true(mask_hits(db, scratch) > 0);
    hs_free_scratch(scratch);
    free(block);
}

static void bad_copies_refused(void **state)
{
    (void)state;
    size_t len = mask_embedded_len[0];
    void *block;
    hs_scratch_t *scratch = NULL;
    unsigned char *copy = copy_image(8, &block); /* 8-byte aligned, not 64 */
    assert_null(db_image_use(copy, len, &scratch));
    assert_null(scratch);
    free(block);
    copy = copy_image(0, &block);
    assert_null(db_image_use(copy, len - 1, NULL)); /* cut short */
    assert_null(db_image_use(copy, 16, NULL));
    copy[len / 2] ^= 0x5a; /* the checksum no longer holds */
    assert_null(db_image_use(copy, len, &scratch));
    assert_null(scratch);
    free(block);
    assert_null(db_image_use(NULL, len, NULL));
}

/* The shipped KB scans with the build's image; with an image that does not run here it compiles
 * its patterns, and frees only the database it compiled (the sanitizer build would see a free of
 * read-only data). */
static void kb_uses_image_or_compiles(void **state)
{
    (void)state;
    struct fl_error err = {0};
    struct fl_kb *kb;
    assert_int_equal(fl_kb_new(&kb), FL_OK);
    assert_int_equal(fl_kb_add_embedded(kb, &err), FL_OK);
    assert_int_equal(fl_kb_compile(kb, &err), FL_OK);
    assert_true(kb->db_borrowed);
    assert_ptr_equal(kb->db, (const void *)kb_embedded_prebuilt.db_image);
    fl_kb_free(kb);

    size_t len = kb_embedded_prebuilt.db_image_len;
    unsigned char *bad = aligned_alloc(64, (len + 63) / 64 * 64);
    assert_non_null(bad);
    memcpy(bad, kb_embedded_prebuilt.db_image, len);
    bad[len / 2] ^= 0x5a;
    struct kb_prebuilt prebuilt = kb_embedded_prebuilt;
    prebuilt.db_image = bad;
    assert_int_equal(fl_kb_new(&kb), FL_OK);
    assert_int_equal(fl_kb_add_embedded(kb, &err), FL_OK);
    kb->prebuilt = &prebuilt;
    assert_int_equal(fl_kb_compile(kb, &err), FL_OK);
    assert_false(kb->db_borrowed);
    assert_non_null(kb->db);
    assert_ptr_not_equal(kb->db, (const void *)bad);
    hs_scratch_t *scratch = NULL;
    assert_int_equal(hs_alloc_scratch(kb->db, &scratch), HS_SUCCESS);
    hs_free_scratch(scratch);
    fl_kb_free(kb);
    free(bad);
}

/* The writer's bytes are the image of the database it is given: written for a fresh compile
 * of masking mode 1, they are the build's image of it, byte for byte. */
static void writer_writes_the_image(void **state)
{
    (void)state;
    hs_database_t *db;
    assert_int_equal(mask_compile_db(FL_MASK_SECRETS, &db), FL_OK);
    char *text = NULL;
    size_t text_len = 0, len = 0;
    FILE *out = open_memstream(&text, &text_len);
    assert_non_null(out);
    assert_int_equal(db_image_write(out, "img", db, &len), 0);
    assert_int_equal(fclose(out), 0);
    hs_free_database(db);
    assert_int_equal(len, mask_embedded_len[FL_MASK_SECRETS]);
    const char *head = "_Alignas(64) static const unsigned char img[] = {";
    assert_memory_equal(text, head, strlen(head));
    const char *p = text + strlen(head);
    for (size_t i = 0; i < len; i++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        assert_true(end != p && *end == ',');
        if (v != mask_embedded_db[FL_MASK_SECRETS][i])
            fail_msg("byte %zu: %lu, the build wrote %u", i, v,
                     mask_embedded_db[FL_MASK_SECRETS][i]);
        p = end + 1;
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(used_in_place),
        cmocka_unit_test(bad_copies_refused),
        cmocka_unit_test(kb_uses_image_or_compiles),
        cmocka_unit_test(writer_writes_the_image),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
