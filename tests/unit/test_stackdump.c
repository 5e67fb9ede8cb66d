/* test_stackdump.c — py-spy (with --locals) and faulthandler dumps become one main-thread stack
 * per rank, and ranks group by stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultline.h"
#include "unit_kb.h"
#include "report.h"

static struct fl_report *scan(const char *const *texts, size_t n)
{
    struct fl_scanner *s;
    fl_scanner_new(unit_kb, NULL, &s);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "rank_%zu.log", i);
        int src;
        fl_scanner_open_source(s, name, &src);
        fl_scanner_feed(s, src, texts[i], strlen(texts[i]));
    }
    struct fl_report *r;
    assert_int_equal(fl_scanner_finish(s, &r), FL_OK);
    fl_scanner_free(s);
    return r;
}

static const char *PYSPY_WAIT =
    "Process 10: python train.py\n\nThread 0x7F01 (active): \"MainThread\"\n"
    "    all_reduce (torch/distributed/distributed_c10d.py:2288)\n"
    "        Arguments:\n            tensor: <Tensor at 0x7f>\n        Locals:\n            work: None\n"
    "    train (train.py:188)\n"
    "Thread 0x7F02 (idle): \"Thread-3\"\n    wait (threading.py:324)\n\n";

static const char *PYSPY_WAIT_OTHER_LINE =
    "Thread 0x7F01 (active+gil): \"MainThread\"\n"
    "    all_reduce (torch/distributed/distributed_c10d.py:2290)\n"
    "    train (train.py:190)\n\n";

static const char *FAULTHANDLER_LOADER =
    "Thread 0x00007f8b4a7fe700 (most recent call first):\n"
    "  File \"/usr/lib/python3.10/threading.py\", line 324 in wait\n\n"
    "Current thread 0x00007f8b5c9c8740 (most recent call first):\n"
    "  File \"/usr/lib/python3.10/multiprocessing/queues.py\", line 103 in get\n"
    "  File \"/x/torch/utils/data/dataloader.py\", line 1133 in _try_get_data\n"
    "  File \"/x/train.py\", line 176 in train\n\n";

static void groups(void **state)
{
    (void)state;
    const char *texts[] = {PYSPY_WAIT, PYSPY_WAIT_OTHER_LINE, FAULTHANDLER_LOADER, PYSPY_WAIT};
    struct fl_report *r = scan(texts, 4);
    assert_int_equal(r->nstacks, 2);
    assert_int_equal(r->stacks[0].nranks, 3); /* same functions, other lines: same place */
    assert_int_equal(r->stacks[0].nframes, 2);
    assert_string_equal(r->stacks[0].frames[0], "all_reduce (torch/distributed/distributed_c10d.py:2288)");
    assert_int_equal(r->stacks[1].nranks, 1);
    assert_int_equal(r->stacks[1].ranks[0], 2);
    assert_int_equal(r->stacks[1].nframes, 3);
    assert_string_equal(r->stacks[1].frames[0], "get (/usr/lib/python3.10/multiprocessing/queues.py:103)");
    assert_string_equal(facts_get(&r->facts, "stack_odd_rank"), "2");
    assert_string_equal(facts_get(&r->facts, "stack_majority_waits"), "true");
    fl_report_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(groups)};
    return cmocka_run_group_tests(tests, unit_kb_setup, unit_kb_teardown);
}
