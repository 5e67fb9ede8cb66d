/* test_scan.c — the scanner finds the same things whatever the chunking, and extracts
 * tracebacks, facts and C++ exceptions. Uses the compiled-in knowledge base (cuda-oom). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "faultline.h"
#include "unit_kb.h"
#include "report.h"

static const char *LOG =
    "[rank0]:  pipeline_model_parallel_size .......... 4\n"
    "[rank0]: NCCL_SOCKET_IFNAME=eth0 NCCL_DEBUG=INFO\n"
    "node-1:100:200 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
    "[rank1]:2026-05-01 12:00:01,000 - INFO - step 1\n"
    "[rank1]: Traceback (most recent call last):\n"
    "[rank1]:   File \"/w/train.py\", line 10, in <module>\n"
    "[rank1]:     main()\n"
    "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.15 GiB of which 1.00 GiB is free.\n"
    "terminate called after throwing an instance of 'c10::DistBackendError'\n"
    "  what():  [PG ID 0 PG GUID 0 Rank 2] Process group watchdog thread terminated with exception\n";

/* The report of log, read from a source called name in pieces of `chunk` bytes. */
static struct fl_report *scan_log(const char *log, const char *name, size_t chunk)
{
    struct fl_scanner *s;
    assert_int_equal(fl_scanner_new(unit_kb, NULL, &s), FL_OK);
    int src;
    assert_int_equal(fl_scanner_open_source(s, name, &src), FL_OK);
    size_t n = strlen(log);
    for (size_t i = 0; i < n; i += chunk)
        assert_int_equal(fl_scanner_feed(s, src, log + i, n - i < chunk ? n - i : chunk), FL_OK);
    struct fl_report *r;
    assert_int_equal(fl_scanner_finish(s, &r), FL_OK);
    fl_scanner_free(s);
    return r;
}

static struct fl_report *scan_in_chunks(size_t chunk)
{
    return scan_log(LOG, "job/rank_9.log", chunk);
}

static void same_result_for_any_chunking(void **state)
{
    (void)state;
    size_t sizes[] = {1, 2, 3, 7, 64, 4096};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        struct fl_report *r = scan_in_chunks(sizes[k]);
        assert_true(fl_report_diagnosis_count(r) >= 1);
        assert_string_equal(fl_report_diagnosis_id(r, 0), "cuda-oom");
        assert_int_equal(fl_report_diagnosis_rank(r, 0), 1);
        assert_int_equal(r->lines, 10);
        assert_int_equal(r->diagnoses[0].evidence[0].line, 8);
        fl_report_free(r);
    }
}

static void facts_extracted(void **state)
{
    (void)state;
    struct fl_report *r = scan_in_chunks(5);
    assert_string_equal(facts_get(&r->facts, "pipeline_model_parallel_size"), "4");
    assert_string_equal(facts_get(&r->facts, "NCCL_SOCKET_IFNAME"), "eth0");
    assert_string_equal(facts_get(&r->facts, "nccl_version"), "2.21.5");
    assert_string_equal(facts_get(&r->facts, "oom_tried"), "2.00 GiB");
    fl_report_free(r);
}

static void healthy_log_has_no_diagnosis(void **state)
{
    (void)state;
    struct fl_scanner *s;
    fl_scanner_new(unit_kb, NULL, &s);
    int src;
    fl_scanner_open_source(s, "-", &src);
    const char *ok = "step 1 loss 2.0\nstep 2 loss 1.9\nTraining completed.\n";
    fl_scanner_feed(s, src, ok, strlen(ok));
    struct fl_report *r;
    fl_scanner_finish(s, &r);
    assert_int_equal(fl_report_diagnosis_count(r), 0);
    fl_report_free(r);
    fl_scanner_free(s);
}

static void unclassified_exception(void **state)
{
    (void)state;
    struct fl_scanner *s;
    fl_scanner_new(unit_kb, NULL, &s);
    int src;
    fl_scanner_open_source(s, "rank_2.log", &src);
    const char *log = "Traceback (most recent call last):\n  File \"a.py\", line 3, in f\n    g()\n"
                      "ZeroDivisionError: division by zero\n";
    fl_scanner_feed(s, src, log, strlen(log));
    struct fl_report *r;
    fl_scanner_finish(s, &r);
    assert_int_equal(fl_report_diagnosis_count(r), 1);
    assert_string_equal(fl_report_diagnosis_id(r, 0), "unclassified");
    assert_int_equal(fl_report_diagnosis_rank(r, 0), 2);
    assert_non_null(strstr(r->diagnoses[0].evidence[0].text, "ZeroDivisionError: division by zero (at a.py:3 in f)"));
    fl_report_free(r);
    fl_scanner_free(s);
}

static void chained_exceptions(void **state)
{
    (void)state;
    struct fl_scanner *s;
    fl_scanner_new(unit_kb, NULL, &s);
    int src;
    fl_scanner_open_source(s, "rank_4.log", &src);
    const char *log =
        "Traceback (most recent call last):\n  File \"a.py\", line 3, in load\n    cfg = d['lr']\n"
        "KeyError: 'lr'\n\nThe above exception was the direct cause of the following exception:\n\n"
        "Traceback (most recent call last):\n  File \"a.py\", line 5, in <module>\n    load()\n"
        "ValueError: configuration is incomplete\n";
    fl_scanner_feed(s, src, log, strlen(log));
    struct fl_report *r;
    fl_scanner_finish(s, &r);
    assert_string_equal(fl_report_diagnosis_id(r, 0), "unclassified");
    assert_non_null(strstr(r->diagnoses[0].evidence[0].text,
                           "KeyError: 'lr' (at a.py:3 in load) -> which caused ValueError: configuration is incomplete"));
    fl_report_free(r);
    fl_scanner_free(s);
}

/* Megatron's step line says "iteration" twice; only the step counts, once per line. */
static void step_lines_counted_once(void **state)
{
    (void)state;
    static const char *steps =
        "[rank7]: [2024-05-01 10:00:01] iteration        1/  500000 | consumed samples:          256 | elapsed time per iteration (ms): 1201.4 | lm loss: 1.1E+01 |\n"
        "[rank7]: [2024-05-01 10:00:02] iteration 12345678/99999999 | consumed samples:   3160493568 | elapsed time per iteration (ms): 1201.4 | lm loss: 1.1E+01 |\n"
        "[rank0]:{'loss': 2.3179, 'grad_norm': 0.4053993845992882, 'learning_rate': 0.0001, 'epoch': 0.24}\n"
        "[rank0]: checkpointing every iteration is slow; elapsed time per iteration (ms) is high\n"
        "[rank0]:{'loss': nan, 'grad_norm': 0.4}\n";
    size_t sizes[] = {1, 13, 64, 4096};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        struct fl_report *r = scan_log(steps, "train.log", sizes[k]);
        assert_non_null(facts_get(&r->facts, "progress_lines"));
        assert_string_equal(facts_get(&r->facts, "progress_lines"), "3");
        fl_report_free(r);
    }
}

/* A line-anchored signal is found whatever the line before it holds: with the knowledge base's
 * first fabric-status regex, Vectorscan's streaming mode missed Horovod's missing-rank line after
 * a line of ': ' and fourteen digits (kb/hardware/nvlink-fabric-degraded.md says why). */
static void anchored_signal_after_digit_run(void **state)
{
    (void)state;
    static const char *log = "xx: [2, 2, 2, 2, 2]\nab: 12345678901234\n2: [15] \n";
    size_t sizes[] = {1, 7, 4096};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        struct fl_report *r = scan_log(log, "train.log", sizes[k]);
        assert_non_null(facts_get(&r->facts, "stuck_rank"));
        assert_string_equal(facts_get(&r->facts, "stuck_rank"), "2");
        fl_report_free(r);
    }
}

/* The JSON report of log fed in pieces of `chunk` bytes (malloc'd). */
static char *report_json(const char *log, size_t chunk)
{
    struct fl_report *r = scan_log(log, "train.log", chunk);
    char *json = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&json, &len);
    assert_non_null(f);
    struct fl_report_options o = {.format = FL_FORMAT_JSON};
    assert_int_equal(fl_report_write(r, &o, f), FL_OK);
    fclose(f);
    fl_report_free(r);
    return json;
}

/* Step lines are noted on two paths (whole in a chunk, or begun in the one before, or sharing
 * the line with another match): each rank's last step, its time and the count must not depend
 * on which one a line takes. */
static void step_lines_same_for_any_chunking(void **state)
{
    (void)state;
    static const char *log =
        "[rank0]: [2024-05-01 10:00:01] iteration        1/  500000 | elapsed time per iteration (ms): 1.0 | number of nan iterations:   0 |\n"
        "[rank1]: [2024-05-01 10:00:01] iteration        1/  500000 | elapsed time per iteration (ms): 1.0 | number of nan iterations:   0 |\n"
        "[rank2]: [2024-05-01 10:00:01] iteration        1/  500000 | elapsed time per iteration (ms): 1.0 | number of nan iterations:   0 |\n"
        "[rank3]: [2024-05-01 10:00:01] iteration        1/  500000 | elapsed time per iteration (ms): 1.0 | number of nan iterations:   0 |\n"
        "[rank2]: [2024-05-01 10:00:02] iteration        2/  500000 | elapsed time per iteration (ms): 1.0 |\r number of nan iterations:   0 |\n"
        "[rank3]: [2024-05-01 10:00:03] saving checkpoint\n"
        "[rank3]: iteration        2/  500000 | elapsed time per iteration (ms): 1.0 | number of nan iterations:   0 |\n"
        "[rank0]: [2024-05-01 12:00:02] iteration        2/  500000 | elapsed time per iteration (ms): 1.0 | number of nan iterations:   1 |\n"
        "[rank1]:{'loss': 2.0830, 'grad_norm': 0.55, 'epoch': 0.08}\n"
        "[rank1]: [2024-05-01 12:00:05] iteration        2/  500000 | elapsed time per iteration (ms): 1.0 | number of nan iterations:   0 |\n"
        "[rank0]: [2024-05-01 12:00:06] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n";
    char *want = report_json(log, 1 << 20);
    assert_non_null(strstr(want, "\"progress_lines\": \"9\""));
    assert_non_null(strstr(want, "\"progress_stalled_rank\": \"2\""));
    size_t sizes[] = {1, 5, 13, 64, 100, 333};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        char *got = report_json(log, sizes[k]);
        assert_string_equal(got, want);
        free(got);
    }
    free(want);
}

/* NCCL's communicator lines read no time, and their look-back is left to the next line that
 * needs one: an undated failure after them still takes the time of the dated line before them,
 * within the look-back's 16 KiB and not beyond, whatever the chunking; and each still names its
 * rank's host. */
static void comm_lines_leave_the_look_back(void **state)
{
    (void)state;
    struct buf log;
    buf_init(&log, 1 << 20);
    for (int far = 0; far < 2; far++) {
        buf_reset(&log);
        buf_printf(&log, "%s", "[rank1]:2026-05-01 12:00:01,000 - INFO - step 1\n");
        /* 24 or 240 communicator lines of ~100 bytes: the dated line is 2.4 or 24 KB back */
        for (int i = 0; i < (far ? 240 : 24); i++)
            buf_printf(&log, "node-%d:10%d:20%d [%d] NCCL INFO comm 0x7f12a%03d rank %d nranks 2 "
                       "cudaDev %d busId 1000 - Init COMPLETE\n", i % 2, i % 2, i % 2, i % 2, i,
                       i % 2, i % 2);
        buf_printf(&log, "%s", "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to "
                             "allocate 2.00 GiB.\n");
        char *want = report_json(log.data, 1 << 20);
        assert_non_null(strstr(want, "\"initiating_host\": \"node-1\""));
        if (far)
            assert_non_null(strstr(want, "\"first_seen\": null"));
        else
            assert_non_null(strstr(want, "\"first_seen\": \"2026-05-01T12:00:01.000\""));
        size_t sizes[] = {1, 7, 64, 100, 4096};
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            char *got = report_json(log.data, sizes[k]);
            assert_string_equal(got, want);
            free(got);
        }
        free(want);
    }
    buf_free(&log);
}

/* More step lines in one chunk than either the step list or the pending matches hold alone:
 * none may be dropped. */
static void many_step_lines_in_one_chunk(void **state)
{
    (void)state;
    static const char line[] = "{'loss': 1.5}\n";
    size_t n = 100000, len = n * (sizeof line - 1);
    char *log = malloc(len + 1);
    assert_non_null(log);
    for (size_t i = 0; i < n; i++)
        memcpy(log + i * (sizeof line - 1), line, sizeof line - 1);
    log[len] = '\0';
    char *json = report_json(log, len);
    assert_non_null(strstr(json, "\"progress_lines\": \"100000\""));
    free(json);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_result_for_any_chunking), cmocka_unit_test(facts_extracted),
        cmocka_unit_test(step_lines_counted_once), cmocka_unit_test(anchored_signal_after_digit_run), cmocka_unit_test(step_lines_same_for_any_chunking),
        cmocka_unit_test(many_step_lines_in_one_chunk),
        cmocka_unit_test(comm_lines_leave_the_look_back),
        cmocka_unit_test(healthy_log_has_no_diagnosis), cmocka_unit_test(unclassified_exception), cmocka_unit_test(chained_exceptions),
    };
    return cmocka_run_group_tests(tests, unit_kb_setup, unit_kb_teardown);
}
