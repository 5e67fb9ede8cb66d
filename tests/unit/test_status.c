/* test_status.c — every status has a name of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "faultline.h"

static void every_status_named(void **state)
{
    (void)state;
    for (int i = 0; i < FL_STATUS_COUNT; i++) {
        assert_string_not_equal(fl_strerror((enum fl_status)i), "unknown status");
        for (int j = 0; j < i; j++)
            assert_string_not_equal(fl_strerror((enum fl_status)i), fl_strerror((enum fl_status)j));
    }
    assert_string_equal(fl_strerror(FL_STATUS_COUNT), "unknown status");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(every_status_named)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
