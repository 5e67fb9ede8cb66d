/* test_condition.c — the condition grammar and config tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "facts.h"
#include "kb.h"
#include <stdio.h>

static const char *entry_src =
    "---\nid: t\ntitle: T\ncategory: memory\nseverity: low\nsignals:\n"
    "  - name: a\n    literal: 'alpha alpha'\n"
    "  - name: b\n    literal: 'bravo bravo'\n"
    "  - name: c\n    config: 'pp >= 4'\n"
    "condition: 'COND'\n---\n## Root cause\n\nx\n";

static enum fl_status load(const char *cond, struct entry *e, struct fl_error *err)
{
    char text[2048];
    const char *at = strstr(entry_src, "COND");
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - entry_src), entry_src, cond, at + 4);
    return kb_parse_entry("t.md", text, strlen(text), e, err);
}

static bool eval(const char *cond, unsigned long a, unsigned long b, unsigned long c)
{
    struct entry e;
    struct fl_error err;
    if (load(cond, &e, &err) != FL_OK)
        fail_msg("%s: %s", cond, err.msg);
    unsigned long counts[3] = {a, b, c};
    bool r = condition_eval(&e, counts);
    kb_entry_free(&e);
    return r;
}

static void grammar(void **state)
{
    (void)state;
    assert_true(eval("a and b", 1, 1, 0));
    assert_false(eval("a and b", 1, 0, 0));
    assert_true(eval("a or b", 0, 1, 0));
    assert_true(eval("a and not b", 2, 0, 0));
    assert_false(eval("not (a or b)", 0, 1, 0));
    assert_true(eval("#a >= 2 and c", 2, 0, 1));
    assert_false(eval("#a >= 2", 1, 0, 0));
    assert_true(eval("(a or b) and (not c or #b == 3)", 0, 3, 1));
}

static void errors(void **state)
{
    (void)state;
    struct entry e;
    struct fl_error err;
    assert_int_equal(load("a and zulu", &e, &err), FL_ERR_KB);
    assert_non_null(strstr(err.msg, "undefined signal 'zulu'"));
    assert_int_equal(err.line, 13);
    assert_int_equal(load("a and (b", &e, &err), FL_ERR_KB);
    assert_int_equal(load("#a 2", &e, &err), FL_ERR_KB);
    assert_int_equal(load("a b", &e, &err), FL_ERR_KB);
}

static void positive_signals(void **state)
{
    (void)state;
    struct entry e;
    struct fl_error err;
    assert_int_equal(load("a and not b", &e, &err), FL_OK);
    assert_true(e.signals[0].positive);
    assert_false(e.signals[1].positive);
    kb_entry_free(&e);
}

static void config_tests(void **state)
{
    (void)state;
    struct config_test t;
    char why[100];
    assert_int_equal(config_parse("pipeline_model_parallel_size >= 4", &t, why, sizeof why), FL_OK);
    assert_true(config_eval(&t, "4"));
    assert_false(config_eval(&t, "2"));
    assert_false(config_eval(&t, NULL));
    config_test_free(&t);
    assert_int_equal(config_parse("variable_seq_lengths == true", &t, why, sizeof why), FL_OK);
    assert_true(config_eval(&t, "True"));
    config_test_free(&t);
    assert_int_equal(config_parse("NCCL_SOCKET_IFNAME absent", &t, why, sizeof why), FL_OK);
    assert_true(config_eval(&t, NULL));
    assert_false(config_eval(&t, "eth0"));
    config_test_free(&t);
    /* sizes compare in bytes, whatever unit each side was printed in */
    assert_int_equal(config_parse("oom_free_cache > $oom_request", &t, why, sizeof why), FL_OK);
    char name[64];
    assert_string_equal(config_value_fact(&t, name, sizeof name), "oom_request");
    assert_true(config_eval_against(&t, "736.86 MiB", "546.00 MiB"));
    assert_true(config_eval_against(&t, "1.20 GiB", "900.00 MiB"));
    assert_false(config_eval_against(&t, "736.86 MiB", "2.00 GiB"));
    assert_false(config_eval_against(&t, "512 bytes", "1.00 KiB"));
    assert_false(config_eval_against(&t, "736.86 MiB", NULL));
    config_test_free(&t);
    assert_int_equal(config_parse("pipeline_model_parallel_size >= 4", &t, why, sizeof why), FL_OK);
    assert_null(config_value_fact(&t, name, sizeof name));
    config_test_free(&t);
    /* a share of another fact */
    assert_int_equal(config_parse("oom_free_cache >= $oom_capacity*0.02", &t, why, sizeof why), FL_OK);
    assert_string_equal(config_value_fact(&t, name, sizeof name), "oom_capacity");
    assert_true(config_eval_against(&t, "736.86 MiB", "15.77 GiB"));
    assert_false(config_eval_against(&t, "765.81 MiB", "79.10 GiB"));
    config_test_free(&t);
    /* a whole multiple of at least twice another fact: a tensor dimension split in shards */
    assert_int_equal(config_parse("tp_row_model multiple-of $tp_row_ckpt", &t, why, sizeof why), FL_OK);
    assert_string_equal(config_value_fact(&t, name, sizeof name), "tp_row_ckpt");
    assert_true(config_eval_against(&t, "10240", "2560"));
    assert_true(config_eval_against(&t, "1024", "64"));
    assert_false(config_eval_against(&t, "2560", "2560")); /* the same size is no split */
    assert_false(config_eval_against(&t, "32001", "32000"));
    assert_false(config_eval_against(&t, "640", "2560"));
    assert_false(config_eval_against(&t, "7680", "0"));
    assert_false(config_eval_against(&t, "7.5", "2.5"));
    assert_false(config_eval_against(&t, "1e300", "1e-300"));
    assert_false(config_eval_against(&t, "7680", NULL));
    config_test_free(&t);
    assert_int_equal(config_parse("x multiple-of", &t, why, sizeof why), FL_ERR_KB);
    config_test_free(&t);
    assert_int_equal(config_parse("x multiple-ofy 3", &t, why, sizeof why), FL_ERR_KB);
    config_test_free(&t);
    assert_int_equal(config_parse("x ~ 3", &t, why, sizeof why), FL_ERR_KB);
    config_test_free(&t);
}

/* A fact printed with different values by different ranks keeps its first value for reports and
 * counts its distinct values for "#fact" tests. */
static void distinct_values(void **state)
{
    (void)state;
    struct facts f, g;
    facts_init(&f);
    facts_init(&g);
    char buf[16], why[128];
    assert_int_equal(facts_add(&f, "nccl_version", 12, "2.14.3", 6, false), FL_OK);
    assert_int_equal(facts_add(&f, "nccl_version", 12, "2.14.3", 6, false), FL_OK);
    assert_int_equal(facts_distinct(&f, "nccl_version"), 1);
    assert_int_equal(facts_add(&f, "NCCL-Version", 12, " 2.19.3 ", 8, false), FL_OK);
    assert_string_equal(facts_get(&f, "nccl_version"), "2.14.3");
    assert_int_equal(facts_distinct(&f, "nccl_version"), 2);
    assert_int_equal(facts_distinct(&f, "torch_version"), 0);
    assert_string_equal(facts_lookup(&f, "#nccl_version", buf, sizeof buf), "2");
    assert_string_equal(facts_lookup(&f, "#torch_version", buf, sizeof buf), "0");
    assert_string_equal(facts_lookup(&f, "nccl_version", buf, sizeof buf), "2.14.3");
    struct config_test t;
    assert_int_equal(config_parse("#nccl_version >= 2", &t, why, sizeof why), FL_OK);
    assert_string_equal(t.fact, "#nccl_version");
    assert_true(config_eval(&t, facts_lookup(&f, t.fact, buf, sizeof buf)));
    /* merging another piece's facts carries every value */
    assert_int_equal(facts_add(&g, "nccl_version", 12, "2.14.3", 6, false), FL_OK);
    assert_false(config_eval(&t, facts_lookup(&g, t.fact, buf, sizeof buf)));
    assert_int_equal(facts_add_all(&g, &f.items[0]), FL_OK);
    assert_true(config_eval(&t, facts_lookup(&g, t.fact, buf, sizeof buf)));
    config_test_free(&t);
    /* bounded: values past FACT_VALUES_MAX are not kept */
    for (int i = 0; i < 3 * FACT_VALUES_MAX; i++) {
        char v[16];
        int n = snprintf(v, sizeof v, "2.%d.1", i);
        assert_int_equal(facts_add(&f, "nccl_version", 12, v, (size_t)n, false), FL_OK);
    }
    assert_int_equal(facts_distinct(&f, "nccl_version"), FACT_VALUES_MAX);
    assert_int_equal(config_parse("# >= 2", &t, why, sizeof why), FL_ERR_KB);
    config_test_free(&t);
    facts_free(&f);
    facts_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grammar), cmocka_unit_test(errors), cmocka_unit_test(positive_signals),
        cmocka_unit_test(config_tests), cmocka_unit_test(distinct_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
