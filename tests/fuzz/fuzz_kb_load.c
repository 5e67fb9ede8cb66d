/*
 * fuzz_kb_load.c — one knowledge-base entry (YAML front matter and Markdown body) parsed from
 * arbitrary text, its sections read, then freed.
 */
#include "kb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct entry e;
    struct fl_error err;
    if (kb_parse_entry("fuzz/entry.md", text, size, &e, &err) == FL_OK) {
        free(kb_section_text(&e, "Quick answer", true, false));
        free(kb_section_text(&e, "Fix", true, true));
        (void)kb_has_section(&e, "Evidence");
        kb_entry_free(&e);
    }
    free(text);
    return 0;
}
