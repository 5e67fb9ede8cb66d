/* test_framer.c — newline counting and line cleaning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "framer.h"

static const char *clean(const char *in, size_t focus, struct buf *b)
{
    framer_clean(in, strlen(in), focus, b);
    return b->data ? b->data : "";
}

static void cleaning(void **state)
{
    (void)state;
    struct buf b;
    buf_init(&b, 1024);
    assert_string_equal(clean("\033[31mERROR\033[0m boom", 99, &b), "ERROR boom");
    assert_string_equal(clean(" 10%|#  |\r 50%|### |\r100%|####|", 99, &b), "100%|####|");
    assert_string_equal(clean("bar 10%\rRuntimeError: x\r", 99, &b), "RuntimeError: x");
    assert_string_equal(clean("a\x01" "b", 99, &b), "a?b");
    assert_string_equal(clean("caf\xc3\xa9 \xff!", 99, &b), "caf\xc3\xa9 ?!");
    /* the segment holding the match wins over the last one */
    assert_string_equal(clean("first part\rsecond", 2, &b), "first part");
    buf_free(&b);
}

static void counting(void **state)
{
    (void)state;
    assert_int_equal(framer_count_newlines("a\nb\n\nc", 6), 3);
    assert_int_equal(framer_count_newlines("", 0), 0);
}

/* Eight bytes at a time with lanes summed every 255 words: every length and alignment, runs of
 * newlines longer than a lane can hold, and no newline at all must count exactly. */
static void counting_every_shape(void **state)
{
    (void)state;
    enum { N = 8 * 255 * 3 + 17 };
    static char buf[N + 8];
    unsigned seed = 7;
    for (int fill = 0; fill < 3; fill++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = fill == 0 ? '\n' : fill == 1 ? 'x' : (seed >> 16) % 5 == 0 ? '\n' : (char)(seed >> 8);
        }
        for (size_t off = 0; off < 8; off++)
            for (size_t n = 0; n + off <= sizeof buf; n += n < 64 ? 1 : 97) {
                uint64_t want = 0;
                for (size_t i = 0; i < n; i++)
                    want += buf[off + i] == '\n';
                assert_int_equal(framer_count_newlines(buf + off, n), want);
            }
    }
}

/* Sixteen bytes at a time, the last block overlapping the one before: every length up to a few
 * blocks, with one byte that is not clean at every position (and none), must be told exactly. */
static void clean_every_shape(void **state)
{
    (void)state;
    static const char unclean[] = {'\r', '\033', 0x7f, (char)0x80, (char)0xff, 0x01};
    char line[70];
    for (size_t n = 0; n <= sizeof line; n++) {
        memset(line, 'a', sizeof line);
        if (n > 0)
            line[n - 1] = '\t'; /* a tab is clean */
        assert_true(framer_is_clean(line, n));
        for (size_t at = 0; at < n; at++)
            for (size_t k = 0; k < sizeof unclean; k++) {
                char keep = line[at];
                line[at] = unclean[k];
                assert_false(framer_is_clean(line, n));
                line[at] = keep;
            }
        /* a bad byte just past the end is not looked at */
        if (n < sizeof line) {
            line[n] = '\r';
            assert_true(framer_is_clean(line, n));
        }
    }
}

static void bounded(void **state)
{
    (void)state;
    struct buf b;
    buf_init(&b, 4);
    assert_int_equal(buf_append(&b, "abcdef", 6), FL_ERR_LIMIT);
    assert_int_equal(b.len, 4);
    assert_string_equal(b.data, "abcd");
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cleaning), cmocka_unit_test(counting), cmocka_unit_test(counting_every_shape),
        cmocka_unit_test(clean_every_shape), cmocka_unit_test(bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
