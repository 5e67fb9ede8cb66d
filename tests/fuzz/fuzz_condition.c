/*
 * fuzz_condition.c — the condition language: a fixed entry whose condition is the input.
 * A condition that compiles is evaluated on a few signal counts; the input is also parsed as a
 * config test.
 */
#include "kb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char entry_text[] =
    "---\n"
    "id: fuzz-entry\n"
    "title: Fuzz entry\n"
    "category: memory\n"
    "severity: high\n"
    "role: primary\n"
    "signals:\n"
    "  - name: oom\n"
    "    literal: 'CUDA out of memory'\n"
    "  - name: watchdog\n"
    "    regex: 'Watchdog caught collective operation timeout: (?<op>[A-Za-z]+)'\n"
    "  - name: small_batch\n"
    "    config: 'micro_batch_size <= 1'\n"
    "  - name: not_oom\n"
    "    literal: 'recovered'\n"
    "---\n"
    "\n## Quick answer\n\nText.\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = malloc(size + 1);
    if (src == NULL)
        return 0;
    memcpy(src, data, size);
    src[size] = '\0';

    struct entry e;
    struct fl_error err;
    if (kb_parse_entry("fuzz/entry.md", entry_text, sizeof entry_text - 1, &e, &err) != FL_OK)
        abort();
    condition_free(&e.cond);
    if (condition_compile(&e, src, &err, 1) == FL_OK) {
        static const unsigned long counts[][4] = {
            {0, 0, 0, 0}, {1, 0, 0, 0}, {3, 2, 1, 0}, {1, 5, 0, 1}, {100000, 1, 1, 1}};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            (void)condition_eval(&e, counts[i]);
    }
    kb_entry_free(&e);

    struct config_test t = {0};
    char why[256];
    if (config_parse(src, &t, why, sizeof why) == FL_OK) {
        (void)config_eval(&t, "4");
        (void)config_eval(&t, "abc");
        (void)config_eval(&t, NULL);
    }
    config_test_free(&t);
    free(src);
    return 0;
}
