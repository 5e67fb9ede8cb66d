/*
 * fuzz_framer.c — cleaning one line: carriage-return segments, ANSI sequences, control bytes,
 * invalid UTF-8. The first two bytes choose the focus.
 */
#include "framer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t focus = (size_t)-1;
    if (size >= 2) {
        focus = ((size_t)data[0] << 8 | data[1]);
        if (focus == 0xffff)
            focus = (size_t)-1;
        data += 2;
        size -= 2;
    }
    char *line = malloc(size ? size : 1);
    if (line == NULL)
        return 0;
    memcpy(line, data, size);
    struct buf out;
    buf_init(&out, LINE_CAP);
    framer_clean(line, size, focus, &out);
    if (out.len > out.max || (out.len > 0 && out.data[out.len] != '\0'))
        abort();
    (void)framer_count_newlines(line, size);
    buf_free(&out);
    free(line);
    return 0;
}
