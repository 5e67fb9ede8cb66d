/* test_buf.c — buf.h's search for bytes, against a plain byte-by-byte search. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "buf.h"

/* The first occurrence, looked for at every position in turn. */
static const char *naive(const char *hay, size_t n, const char *needle, size_t k)
{
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(hay + i, needle, k) == 0)
            return hay + i;
    return NULL;
}

/* Every needle, with and without leading spaces, at the start, the end, twice, overlapping a
 * near miss, and absent, in haystacks cut at every length. */
static void same_as_naive(void **state)
{
    (void)state;
    static const char hay[] = "  File \"a.py\", line 3, in f  , lin , line 4 in  in g \"MainThread\"";
    static const char *const needles[] = {"", " ", "  ", " in ", ", line ", "File", "g", "\"MainThread\"",
                                          "  File \"a", "in g \"MainThread\"", "absent", "  x"};
    for (size_t w = 0; w < sizeof needles / sizeof needles[0]; w++)
        for (size_t n = 0; n <= sizeof hay - 1; n++)
            assert_ptr_equal(buf_find(hay, n, needles[w], strlen(needles[w])),
                             naive(hay, n, needles[w], strlen(needles[w])));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(same_as_naive)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
