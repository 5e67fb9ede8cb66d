/* unit_kb.h — the embedded knowledge base, compiled once for a group of cmocka tests:
 * cmocka_run_group_tests(tests, unit_kb_setup, unit_kb_teardown), then the tests read unit_kb. */
#ifndef FL_TEST_UNIT_KB_H
#define FL_TEST_UNIT_KB_H

#include "faultline.h"

extern struct fl_kb *unit_kb;

int unit_kb_setup(void **state);
int unit_kb_teardown(void **state);

#endif
