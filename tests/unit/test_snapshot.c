/* test_snapshot.c — fl_scanner_snapshot reports what was fed so far and leaves no trace: feeding
 * logs line by line with a snapshot after every line, then finishing, gives the same report as
 * feeding them the same way without snapshots. The logs are fixtures whose diagnosis rests on
 * facts the correlator derives at the end (stack groups, a stalled rank) and on config
 * conditions (pipeline_model_parallel_size): a snapshot that kept those would change the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultline.h"
#include "unit_kb.h"

#define MAX_FILES 8

/* tests/fixtures/kb/<dir>/rank_<i>.log, found from this file's own path */
static char *slurp(const char *dir, int i, size_t *n)
{
    char path[1024];
    const char *here = __FILE__, *cut = strstr(here, "tests/unit/");
    snprintf(path, sizeof path, "%.*stests/fixtures/kb/%s/rank_%d.log", (int)(cut ? cut - here : 0),
             here, dir, i);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *data = malloc(1 << 20);
    assert_non_null(data);
    *n = fread(data, 1, (1 << 20) - 1, f);
    data[*n] = '\0';
    fclose(f);
    return data;
}

static char *json_of(const struct fl_report *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    struct fl_report_options ro = {.format = FL_FORMAT_JSON};
    assert_int_equal(fl_report_write(r, &ro, f), FL_OK);
    fclose(f);
    return text;
}

/* Feeds the nfiles rank logs of dir one line at a time, round robin. With snapshots, takes one
 * after every line, and checks that the last one, before finishing, already equals the finish.
 * Returns the finished report's JSON. */
static char *feed_lines(const char *dir, int nfiles, bool snapshots)
{
    struct fl_scanner *s;
    assert_int_equal(fl_scanner_new(unit_kb, NULL, &s), FL_OK);
    char *data[MAX_FILES];
    size_t len[MAX_FILES], at[MAX_FILES];
    int src[MAX_FILES];
    for (int i = 0; i < nfiles; i++) {
        char name[64];
        data[i] = slurp(dir, i, &len[i]);
        at[i] = 0;
        snprintf(name, sizeof name, "job/rank_%d.log", i);
        assert_int_equal(fl_scanner_open_source(s, name, &src[i]), FL_OK);
    }
    char *last = NULL;
    for (bool more = true; more;) {
        more = false;
        for (int i = 0; i < nfiles; i++) {
            if (at[i] >= len[i])
                continue;
            const char *nl = memchr(data[i] + at[i], '\n', len[i] - at[i]);
            size_t n = nl ? (size_t)(nl + 1 - (data[i] + at[i])) : len[i] - at[i];
            assert_int_equal(fl_scanner_feed(s, src[i], data[i] + at[i], n), FL_OK);
            at[i] += n;
            more = true;
            if (snapshots) {
                struct fl_report *r;
                assert_int_equal(fl_scanner_snapshot(s, &r), FL_OK);
                free(last);
                last = json_of(r);
                fl_report_free(r);
            }
        }
    }
    struct fl_report *r;
    assert_int_equal(fl_scanner_finish(s, &r), FL_OK);
    char *json = json_of(r);
    if (snapshots) /* every line ended with '\n': the last snapshot saw everything */
        assert_string_equal(last, json);
    free(last);
    fl_report_free(r);
    fl_scanner_free(s);
    for (int i = 0; i < nfiles; i++)
        free(data[i]);
    return json;
}

static void check_same(const char *dir, const char *expect_id)
{
    char *plain = feed_lines(dir, 8, false);
    char *watched = feed_lines(dir, 8, true);
    assert_non_null(strstr(plain, expect_id));
    assert_string_equal(plain, watched);
    free(plain);
    free(watched);
}

static void snapshot_leaves_pipeline_deadlock_unchanged(void **state)
{
    (void)state;
    check_same("varlen-p2p-shape-deadlock/pos-pp4-hang", "\"varlen-p2p-shape-deadlock\"");
}

static void snapshot_leaves_stalled_rank_unchanged(void **state)
{
    (void)state;
    check_same("rank-stuck-outside-collective/pos-8rank", "\"rank-stuck-outside-collective\"");
}

/* Each rank's progress: lines counted, the last step number, where it was. */
static void rank_progress_reported(void **state)
{
    (void)state;
    struct fl_scanner *s;
    assert_int_equal(fl_scanner_new(unit_kb, NULL, &s), FL_OK);
    int a, b;
    assert_int_equal(fl_scanner_open_source(s, "job/rank_0.log", &a), FL_OK);
    assert_int_equal(fl_scanner_open_source(s, "job/rank_1.log", &b), FL_OK);
    static const char one[] =
        "[rank1]:node-7:4242:4300 [1] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
        "[rank1]: [2026-05-01 12:00:00] iteration       10/    1000 | consumed samples: 640 | elapsed time per iteration (ms): 812.3 |\n"
        "[rank1]: [2026-05-01 12:00:01] iteration       11/    1000 | consumed samples: 704 | elapsed time per iteration (ms): 811.9 |\n";
    static const char zero[] =
        "[rank0]: [2026-05-01 12:00:00] iteration       10/    1000 | consumed samples: 640 | elapsed time per iteration (ms): 812.3 |\n";
    assert_int_equal(fl_scanner_feed(s, b, one, sizeof one - 1), FL_OK);
    assert_int_equal(fl_scanner_feed(s, a, zero, sizeof zero - 1), FL_OK);
    assert_int_equal(fl_scanner_rank_count(s), 2);
    struct fl_rank_progress p0, p1;
    assert_int_equal(fl_scanner_rank_progress(s, 0, &p0), FL_OK);
    assert_int_equal(fl_scanner_rank_progress(s, 1, &p1), FL_OK);
    assert_int_equal(fl_scanner_rank_progress(s, 2, &p1), FL_ERR_NOTFOUND);
    assert_int_equal(fl_scanner_rank_progress(s, 1, &p1), FL_OK);
    assert_int_equal(p0.rank, 0);
    assert_int_equal(p0.progress_lines, 1);
    assert_int_equal(p0.last_step, 10);
    assert_string_equal(p0.source, "job/rank_0.log");
    assert_int_equal(p0.pid, 0);
    assert_int_equal(p1.rank, 1);
    assert_int_equal(p1.progress_lines, 2);
    assert_int_equal(p1.last_step, 11);
    assert_int_equal(p1.line, 3);
    assert_int_equal(p1.pid, 4242);
    assert_string_equal(p1.host, "node-7");
    fl_scanner_free(s);
}

/* A step number too long for a long long is no step: the rank's last step stays unknown
 * (and reading it must not overflow). */
static void step_number_too_long_is_unknown(void **state)
{
    (void)state;
    struct fl_scanner *s;
    assert_int_equal(fl_scanner_new(unit_kb, NULL, &s), FL_OK);
    int a;
    assert_int_equal(fl_scanner_open_source(s, "job/rank_0.log", &a), FL_OK);
    static const char log[] =
        "[rank0]: [2026-05-01 12:00:00] iteration 99999999999999999999999/    1000 | consumed samples: 640 | elapsed time per iteration (ms): 812.3 |\n"
        "[rank0]: [2026-05-01 12:00:01] step=9223372036854775807, skipped=0, lr=[0.0001], mom=[(0.9, 0.999)]\n";
    size_t first = (size_t)(strchr(log, '\n') - log) + 1;
    assert_int_equal(fl_scanner_feed(s, a, log, first), FL_OK);
    struct fl_rank_progress p;
    assert_int_equal(fl_scanner_rank_progress(s, 0, &p), FL_OK);
    assert_int_equal(p.last_step, -1);
    assert_int_equal(fl_scanner_feed(s, a, log + first, sizeof log - 1 - first), FL_OK);
    assert_int_equal(fl_scanner_rank_progress(s, 0, &p), FL_OK);
    assert_true(p.last_step == 9223372036854775807LL);
    fl_scanner_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(snapshot_leaves_pipeline_deadlock_unchanged),
        cmocka_unit_test(snapshot_leaves_stalled_rank_unchanged),
        cmocka_unit_test(rank_progress_reported),
        cmocka_unit_test(step_number_too_long_is_unknown),
    };
    return cmocka_run_group_tests(tests, unit_kb_setup, unit_kb_teardown);
}
