/* test_rankmap.c — a node's local ranks become global ranks by what its agent's summary says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "rankmap.h"

static struct launcher_failure failure(int src, long rank, long local, const char *host,
                                       const char *run)
{
    struct launcher_failure f = {.rank = rank, .local_rank = local, .exitcode = 1, .src = src};
    strcpy(f.host, host);
    strcpy(f.run, run);
    return f;
}

static void encoding(void **state)
{
    (void)state;
    uint32_t n1 = rankmap_node("in/node1/none_ab/attempt_0/1/stderr.log");
    /* one node for every file of one run folder, another for another folder or a console */
    assert_int_equal(n1, rankmap_node("in/node1/none_ab/attempt_0/0/error.json"));
    assert_true(n1 != rankmap_node("in/node0/none_cd/attempt_0/1/stderr.log"));
    assert_true(n1 != rankmap_node("in/node1.log"));
    long r = rankmap_local(n1, 1);
    assert_true(rankmap_is_local(r));
    assert_int_equal(rankmap_local_part(r), 1);
    assert_true(r != rankmap_local(rankmap_node("in/node1.log"), 1));
    assert_int_equal(rankmap_local(n1, r), r); /* stored once, never twice */
    assert_int_equal(rankmap_local(n1, -1), -1);
    assert_false(rankmap_is_local(65535));
}

static void two_nodes(void **state)
{
    (void)state;
    const char *src[] = {"in/node0.log", "in/node1.log",
                         "in/node0/none_cd/attempt_0/1/stderr.log",
                         "in/node1/none_ab/attempt_0/1/stderr.log",
                         "in/other/none_ef/attempt_0/0/stderr.log"};
    struct launcher_failure f[] = {failure(0, 1, 1, "node0", ""), failure(1, 3, 1, "node1", ""),
                                   failure(1, 2, 0, "node1", "")};
    struct rank_map m;
    assert_int_equal(rankmap_build(&m, src, 5, f, 3), FL_OK);
    assert_true(m.multi_node);
    /* a console's own summary */
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[1]), 1)), 3);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[0]), 1)), 1);
    /* a per-rank folder under a folder named as the summary's host */
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[3]), 1)), 3);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[3]), 0)), 2);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[2]), 0)), 0);
    /* a folder no summary speaks of, on a job of several nodes: not known */
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[4]), 0)), -1);
    /* a global rank stays */
    assert_int_equal(rankmap_global(&m, 5), 5);
    rankmap_free(&m);

    /* with @record the error file names the run folder, whatever the folders above are called */
    const char *rec[] = {"a.log", "b.log", "x/none_ab/attempt_0/1/stderr.log"};
    struct launcher_failure g[] = {failure(1, 3, 1, "gpu-17.cluster", "none_ab"),
                                   failure(0, 1, 1, "gpu-03.cluster", "none_cd")};
    assert_int_equal(rankmap_build(&m, rec, 3, g, 2), FL_OK);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(rec[2]), 1)), 3);
    rankmap_free(&m);

    /* a short host name in the path, the fully qualified one in the summary */
    const char *fq[] = {"a.log", "gpu-17/none_ab/attempt_0/0/stderr.log",
                        "gpu-03/none_cd/attempt_0/0/stderr.log"};
    struct launcher_failure h[] = {failure(0, 5, 1, "gpu-17.cluster", "")};
    assert_int_equal(rankmap_build(&m, fq, 3, h, 1), FL_OK);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(fq[1]), 0)), 4);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(fq[2]), 0)), -1);
    rankmap_free(&m);
}

static void one_node(void **state)
{
    (void)state;
    /* one run folder and a summary of node 0 on localhost: local ranks are global */
    const char *src[] = {"console.log", "logs/none_ab/attempt_0/2/stderr.log",
                         "logs/none_ab/attempt_0/3/stderr.log"};
    struct launcher_failure f[] = {failure(0, 2, 2, "localhost", "")};
    struct rank_map m;
    assert_int_equal(rankmap_build(&m, src, 3, f, 1), FL_OK);
    assert_false(m.multi_node);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[1]), 2)), 2);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[2]), 3)), 3);
    rankmap_free(&m);
    /* no summary at all */
    assert_int_equal(rankmap_build(&m, src, 3, NULL, 0), FL_OK);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[1]), 2)), 2);
    rankmap_free(&m);
    /* one node's logs, of a job of several: its summary says where its ranks start */
    struct launcher_failure g[] = {failure(0, 6, 2, "node1", "")};
    assert_int_equal(rankmap_build(&m, src, 3, g, 1), FL_OK);
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[0]), 3)), 7);
    /* its per-rank folder is not tied to it by name: not known */
    assert_int_equal(rankmap_global(&m, rankmap_local(rankmap_node(src[1]), 3)), -1);
    rankmap_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(encoding),
        cmocka_unit_test(two_nodes),
        cmocka_unit_test(one_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
