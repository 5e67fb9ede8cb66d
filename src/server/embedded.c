/* embedded.c — lookups in the embedded file tables (embedded.h). */
#include "embedded.h"

#include <string.h>

const struct embedded_file *embedded_find(const struct embedded_file *files, size_t n, const char *path)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(files[i].path, path) == 0)
            return &files[i];
    return NULL;
}
