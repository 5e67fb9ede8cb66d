/*
 * fuzz_mask.c — the masker on arbitrary text: once as a whole (fl_masker_apply), once streamed
 * in two pieces cut at a data-derived point (fl_masker_write / fl_masker_end, which carry a
 * private key block and a partial line across calls). The first byte chooses the mode.
 */
#include "faultline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    enum fl_mask_mode mode = data[0] & 1 ? FL_MASK_SECRETS : FL_MASK_ALL;
    data++;
    size--;
    struct fl_masker *m;
    if (fl_masker_new(mode, &m) != FL_OK)
        return 0;
    char *out = NULL;
    size_t out_len = 0;
    if (fl_masker_apply(m, (const char *)data, size, &out, &out_len) == FL_OK &&
        strlen(out) != out_len && memchr(data, '\0', size) == NULL)
        abort(); /* the result is NUL-terminated at out_len when the input has no NUL */
    free(out);
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        size_t cut = size ? data[0] % (size + 1) : 0;
        fl_masker_write(m, data, cut, sink);
        fl_masker_write(m, data + cut, size - cut, sink);
        fl_masker_end(m, sink);
        fclose(sink);
    }
    fl_masker_free(m);
    return 0;
}
