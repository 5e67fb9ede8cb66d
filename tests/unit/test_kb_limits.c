/* test_kb_limits.c — a pattern that backtracks without end costs one bounded match per line:
 * the KB's PCRE2 match context carries a match and a depth limit (kb.h), so a user's --kb entry
 * such as (a+)+$ fails that line with PCRE2_ERROR_MATCHLIMIT instead of running for minutes.
 * And an entry's texts are bounded however often YAML aliases repeat them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb.h"

static void hostile_pattern_is_bounded(void **state)
{
    (void)state;
    struct fl_kb *kb;
    struct fl_error err = {0};
    assert_int_equal(fl_kb_new(&kb), FL_OK);
    assert_int_equal(fl_kb_add_embedded(kb, &err), FL_OK);
    assert_int_equal(fl_kb_compile(kb, &err), FL_OK);
    assert_non_null(kb->mctx);
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR) "(a+)+$", PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
    assert_non_null(re);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    char line[80];
    memset(line, 'a', 60);
    strcpy(line + 60, "b");
    /* 2^60 ways to split the a's: without a limit this match would not end in any test run */
    int rc = pcre2_match(re, (PCRE2_SPTR)line, strlen(line), 0, 0, md, kb->mctx);
    assert_int_equal(rc, PCRE2_ERROR_MATCHLIMIT);
    /* an ordinary match is unaffected */
    rc = pcre2_match(re, (PCRE2_SPTR) "xx aaaa", 7, 0, 0, md, kb->mctx);
    assert_true(rc > 0);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    fl_kb_free(kb);
}

/* Ten aliases of a 512 KiB tag are 5 MiB of texts: the entry is refused with a message, where
 * the loader would otherwise copy the tag as often as the file names it. */
static void aliased_texts_are_bounded(void **state)
{
    (void)state;
    size_t big = 512 * 1024;
    char *text = malloc(big + 1024);
    assert_non_null(text);
    int n = snprintf(text, 1024, "---\nid: aliases\ntitle: Aliases\ncategory: data\n"
                                 "severity: low\nsignals:\n  - name: a\n    literal: 'some text'\n"
                                 "tags: [&t ");
    memset(text + n, 'x', big);
    strcpy(text + n + big, ", *t, *t, *t, *t, *t, *t, *t, *t, *t]\n---\nbody\n");
    struct entry e;
    struct fl_error err = {0};
    assert_int_equal(kb_parse_entry("aliases.md", text, strlen(text), &e, &err), FL_ERR_KB);
    assert_non_null(strstr(err.msg, "the entry's texts exceed 4 MiB"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_pattern_is_bounded),
        cmocka_unit_test(aliased_texts_are_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
