/*
 * fuzz_prefix.c — line prefixes (rank, host, time) and path hints out of arbitrary bytes.
 */
#include "prefix.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so reads past the line are caught. */
    char *line = malloc(size ? size : 1);
    if (line == NULL)
        return 0;
    memcpy(line, data, size);
    struct line_meta m = {.rank = -1, .ts_ms = TS_UNKNOWN};
    prefix_parse(line, size, &m, 2024);
    if (m.msg_off > size)
        abort();
    free(line);

    char *path = malloc(size + 1);
    if (path == NULL)
        return 0;
    memcpy(path, data, size);
    path[size] = '\0';
    struct line_meta pm = {.rank = -1, .ts_ms = TS_UNKNOWN};
    prefix_from_path(path, &pm);
    if (memchr(pm.host, '\0', sizeof pm.host) == NULL)
        abort();
    free(path);
    return 0;
}
