/* test_report_evidence.c — evidence chosen for information: the exception line first, no
 * repeated frames, no caret lines, a JSON blob's message instead of the blob. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "report.h"

static void tidy_one(const char *const *lines, size_t n, struct diagnosis *d)
{
    memset(d, 0, sizeof *d);
    d->evidence = calloc(n, sizeof *d->evidence);
    assert_non_null(d->evidence);
    for (size_t i = 0; i < n; i++)
        d->evidence[i] = (struct evidence){xstrdup("rank1.log"), i + 1, 1, xstrdup(lines[i])};
    d->nevidence = n;
    d->evidence_total = n;
    struct fl_report r = {0};
    r.diagnoses = d;
    r.ndiagnoses = 1;
    report_tidy_evidence(&r);
}

static void free_one(struct diagnosis *d)
{
    for (size_t i = 0; i < d->nevidence; i++) {
        free(d->evidence[i].source);
        free(d->evidence[i].text);
    }
    free(d->evidence);
}

static void informative_lines_only(void **state)
{
    (void)state;
    static const char *const in[] = {
        "[rank1]:   File \"/opt/x/ckpt.py\", line 777, in load",
        "[rank1]:     return torch.load(f)",
        "[rank1]:            ^^^^^^^^^^^^^",
        "[rank1]:   File \"/opt/x/ckpt.py\", line 777, in load",
        "[rank1]: RuntimeError: PytorchStreamWriter failed writing file data/0: file write failed",
        "[rank1]:   File \"/opt/x/ckpt.py\", line 777, in load",
        "{\"message\": {\"message\": \"RuntimeError: PytorchStreamWriter failed writing file data/7\", "
        "\"extraInfo\": {\"py_callstack\": \"Traceback ...\", \"timestamp\": \"1714564923\"}}}",
        "{\"message\": {\"message\": \"OSError: [Errno 28] No space left on dev",
    };
    struct diagnosis d;
    tidy_one(in, sizeof in / sizeof in[0], &d);
    assert_int_equal(d.nevidence, 4);
    assert_string_equal(d.evidence[0].text,
                        "[rank1]: RuntimeError: PytorchStreamWriter failed writing file data/0: file write failed");
    assert_string_equal(d.evidence[1].text, "[rank1]:   File \"/opt/x/ckpt.py\", line 777, in load");
    assert_string_equal(d.evidence[2].text, "[rank1]:     return torch.load(f)");
    assert_string_equal(d.evidence[3].text, "RuntimeError: PytorchStreamWriter failed writing file data/7");
    assert_int_equal(d.evidence_total, 8);
    free_one(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(informative_lines_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
