/* test_prefix.c — every prefix format parses its own sample, and real lines give rank/host/time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "prefix.h"

static struct line_meta parse(const char *line)
{
    struct line_meta m = {.rank = -1, .ts_ms = TS_UNKNOWN};
    prefix_parse(line, strlen(line), &m, 2026);
    return m;
}

static void every_sample_parses(void **state)
{
    (void)state;
    size_t n;
    const struct prefix_format *f = prefix_formats(&n);
    for (size_t i = 0; i < n; i++) {
        size_t pos = 0;
        struct line_meta m = {.rank = -1, .ts_ms = TS_UNKNOWN};
        if (!f[i].parse(f[i].sample, strlen(f[i].sample), &pos, &m, 2026))
            fail_msg("format %s does not parse its sample '%s'", f[i].name, f[i].sample);
        assert_true(pos > 0);
    }
}

/* A format's starts() may turn a first byte down only if its parser cannot take a line that
 * starts with it: its sample with each of the 256 bytes in front, and in place of its first. */
static void starts_turns_down_only_what_cannot_parse(void **state)
{
    (void)state;
    size_t n;
    const struct prefix_format *f = prefix_formats(&n);
    for (size_t i = 0; i < n; i++) {
        assert_true(f[i].starts((unsigned char)f[i].sample[0]));
        size_t sl = strlen(f[i].sample);
        char line[512];
        assert_true(sl + 2 < sizeof line);
        for (int c = 0; c < 256; c++) {
            for (int how = 0; how < 2; how++) {
                line[0] = (char)c;
                memcpy(line + 1, f[i].sample + how, sl - how);
                size_t len = sl + 1 - how, pos = 0;
                struct line_meta m = {.rank = -1, .ts_ms = TS_UNKNOWN};
                if (f[i].parse(line, len, &pos, &m, 2026) && !f[i].starts((unsigned char)c))
                    fail_msg("format %s parses a line starting with byte %d, which starts() "
                             "turns down", f[i].name, c);
            }
        }
    }
}

static void torchrun_with_c10_time(void **state)
{
    (void)state;
    struct line_meta m = parse("[rank3]:[E501 12:00:03.123456 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout");
    assert_int_equal(m.rank, 3);
    assert_true(m.ts_ms != TS_UNKNOWN);
    assert_int_equal(m.ts_ms % 86400000, (12 * 3600 + 3) * 1000 + 123);
    assert_string_equal(parse("[default7]:hello").host, "");
    assert_int_equal(parse("[default7]:hello").rank, 7);
}

static void launchers(void **state)
{
    (void)state;
    assert_int_equal(parse("3: Traceback (most recent call last):").rank, 3);
    assert_int_equal(parse("[1,5]<stderr>:RuntimeError: boom").rank, 5);
    struct line_meta m = parse("node-1: [rank3]: RuntimeError: boom");
    assert_string_equal(m.host, "node-1");
    assert_int_equal(m.rank, 3);
    m = parse("gpu-node-7:2345:2400 [3] NCCL INFO NCCL version 2.21.5+cuda12.4");
    assert_string_equal(m.host, "gpu-node-7");
    assert_int_equal(m.rank, -1); /* the bracket is the CUDA device, not the rank */
    m = parse("torch.OutOfMemoryError: CUDA out of memory.");
    assert_string_equal(m.host, ""); /* a qualified exception name is not a host */
    assert_int_equal(m.msg_off, 0);
    /* Python's lower-case exception classes are not hosts either */
    assert_string_equal(parse("socket.timeout: timed out").host, "");
    assert_string_equal(parse("socket.gaierror: [Errno -2] Name or service not known").host, "");
    assert_string_equal(parse("zlib.error: Error -3 while decompressing data").host, "");
    assert_string_equal(parse("gpu-node.cluster.local: [rank3]: boom").host, "gpu-node.cluster.local");
    /* after a time, "name: " is a logger's name (torch's elastic log format), not pdsh's host */
    assert_string_equal(parse("[2023-10-13 17:40:02,544] torch.distributed.elastic.multiprocessing.api: "
                              "[ERROR] failed (exitcode: -9) local_rank: 0 (pid: 62498)").host, "");
    assert_int_equal(parse("(VllmWorker rank=1 pid=254) ERROR boom").rank, 1);
    /* a script's own print(f"[rank {rank}] ...") */
    assert_int_equal(parse("[rank 3] step 5 local loss nan").rank, 3);
    /* print(f"rank {rank}: ...") at the message's start, in any case; not in its middle */
    assert_int_equal(parse("rank 3: step 5 local loss nan").rank, 3);
    assert_int_equal(parse("[default1]:Rank 12: loss inf").rank, 12);
    assert_int_equal(parse("waiting for rank 3: step 5").rank, -1);
    assert_int_equal(parse("rank 3 step 5").rank, -1);
}

/* A logging format's rank field and level: "%(asctime)s %(levelname)s pid=%(process)d
 * rank=%(rank)s %(name)s: %(message)s" and its common variants */
static void logging_record_header(void **state)
{
    (void)state;
    struct line_meta m = parse("2026-12-02 10:13:05,123 ERROR pid=18457 rank=2 train: batch failed");
    assert_int_equal(m.rank, 2);
    assert_true(m.level_error);
    m = parse("2026-12-02 10:13:05,052 INFO pid=18457 rank=2 train: training on 8 batches");
    assert_int_equal(m.rank, 2);
    assert_false(m.level_error);
    assert_int_equal(parse("[2026-12-02 10:13:05,052][CRITICAL][RANK=5] out of retries").rank, 5);
    assert_true(parse("[2026-12-02 10:13:05,052][CRITICAL][RANK=5] out of retries").level_error);
    assert_int_equal(parse("2026-12-02 10:13:05,052 - RANK=1 - WARNING - slow step").rank, 1);
    /* the field belongs to a record's header only: next to a level name, before the message */
    assert_int_equal(parse("2026-12-02 10:13:05,052 train: waiting for rank=3 to join").rank, -1);
    assert_int_equal(parse("2026-12-02 10:13:05,052 pid=18457 rank=2 train: no level").rank, -1);
    assert_int_equal(parse("  group_rank=0").rank, -1);
    /* glog's letter is the level */
    assert_true(parse("E1202 10:13:05.123456 4104 train.cc:12] [rank 2] bad batch").level_error);
    assert_false(parse("W1202 10:13:05.123456 4104 train.cc:12] [rank 2] slow").level_error);
    /* the first marker wins; a later one is found from where the first ends */
    const char *two = "INFO rank=1 train: [rank 2] step 2";
    size_t end = 0;
    assert_int_equal(prefix_message_rank(two, strlen(two), 0, &end), 1);
    assert_int_equal(end, strlen("INFO rank=1"));
    assert_int_equal(prefix_message_rank(two, strlen(two), end, &end), 2);
    assert_int_equal(prefix_message_rank(two, strlen(two), end, &end), -1);
}

static void times(void **state)
{
    (void)state;
    struct line_meta a = parse("2026-05-01T12:00:03.500Z boom");
    struct line_meta b = parse("2026-05-01 14:00:03,500 boom");
    struct line_meta c = parse("2026-05-01T14:00:03.500+02:00 boom");
    assert_int_equal(a.ts_ms, c.ts_ms);
    assert_int_equal(b.ts_ms - a.ts_ms, 2 * 3600 * 1000);
    struct line_meta s = parse("May  1 12:00:03 node-1 kernel: NVRM: Xid (PCI:0000:3b:00): 79");
    assert_string_equal(s.host, "node-1");
    assert_int_equal(s.ts_ms, a.ts_ms - 500);
    assert_true(s.ts_no_year);
    /* a zone only where the log gave one: Z or an offset; Python logging, glog and syslog have
     * none, and a report must not print one for them */
    assert_false(a.ts_no_zone);
    assert_false(c.ts_no_zone);
    assert_true(b.ts_no_zone);
    assert_true(s.ts_no_zone);
    assert_true(parse("2026-05-01T12:00:03 boom").ts_no_zone);
    assert_true(parse("E0501 12:00:03.123456 4242 ProcessGroupNCCL.cpp:1] boom").ts_no_zone);
    assert_int_equal(parse("[ 1234.567890] NVRM: Xid").ts_ms, TS_UNKNOWN);
    assert_int_equal(days_from_civil(1970, 1, 1), 0);
}

static void paths(void **state)
{
    (void)state;
    struct line_meta m = {.rank = -1};
    prefix_from_path("logs/rank_3.log", &m);
    assert_int_equal(m.rank, 3);
    m = (struct line_meta){.rank = -1};
    prefix_from_path("run/attempt_0/5/stderr.log", &m);
    assert_int_equal(m.rank, 5);
    m = (struct line_meta){.rank = -1};
    prefix_from_path("job/node-2/worker-5.log", &m);
    assert_int_equal(m.rank, 5);
    assert_string_equal(m.host, "node-2");
    m = (struct line_meta){.rank = -1};
    prefix_from_path("rank12.out", &m);
    assert_int_equal(m.rank, 12);
}

/* torchrun numbers per node: its per-rank folders and torch 1.x's [defaultN]: carry local ranks,
 * [rankN]: and a program's own "[rank N]" global ones */
static void local_ranks(void **state)
{
    (void)state;
    struct line_meta m = {.rank = -1};
    prefix_from_path("node1/none_ab/attempt_0/1/stderr.log", &m);
    assert_int_equal(m.rank, 1);
    assert_true(m.rank_local);
    m = (struct line_meta){.rank = -1};
    prefix_from_path("logs/rank_3.log", &m);
    assert_false(m.rank_local);
    assert_true(parse("[default1]:KeyError: 'path'").rank_local);
    assert_false(parse("[rank1]:KeyError: 'path'").rank_local);
    /* torch 2.x's tee of a c10 line: the global rank follows the local one */
    m = parse("[default1]:[rank3]:[W501 12:00:03.123 ProcessGroupNCCL.cpp:1] x");
    assert_int_equal(m.rank, 3);
    assert_false(m.rank_local);
    /* the program's own label names the global rank */
    m = parse("[default1]:[rank 3] step 2 loss nan");
    assert_int_equal(m.rank, 3);
    assert_false(m.rank_local);
    /* a per-rank file's line with no prefix keeps the folder's local rank */
    m = (struct line_meta){.rank = -1, .ts_ms = TS_UNKNOWN};
    prefix_from_path("n/run/attempt_0/1/stderr.log", &m);
    prefix_parse("KeyError: 'path'", 16, &m, 2026);
    assert_int_equal(m.rank, 1);
    assert_true(m.rank_local);

    size_t len, name;
    const char *p = "in/node1/none_ab/attempt_0/1/stderr.log";
    assert_true(prefix_run_folder(p, &len, &name));
    assert_int_equal(len, strlen("in/node1/none_ab"));
    assert_int_equal(name, strlen("in/node1/"));
    assert_true(prefix_run_folder("attempt_2/0/error.json", &len, &name));
    assert_int_equal(len, 0);
    assert_false(prefix_run_folder("in/node1/x/1/stderr.log", &len, &name));
    assert_false(prefix_run_folder("in/node1.log", &len, &name));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_sample_parses),
        cmocka_unit_test(starts_turns_down_only_what_cannot_parse), cmocka_unit_test(torchrun_with_c10_time),
        cmocka_unit_test(launchers), cmocka_unit_test(logging_record_header), cmocka_unit_test(times), cmocka_unit_test(paths),
        cmocka_unit_test(local_ranks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
