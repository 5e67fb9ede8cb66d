/* embedded.h — files compiled into the program at build time (cmake/embed.cmake): the page's
 * assets (web/) and the sample logs (examples/). Read-only; paths are relative to their folder. */
#ifndef FL_SERVER_EMBEDDED_H
#define FL_SERVER_EMBEDDED_H

#include <stddef.h>

struct embedded_file {
    const char *path;
    const unsigned char *data;
    size_t len;
};

extern const struct embedded_file web_assets[];
extern const size_t web_assets_count;
extern const struct embedded_file sample_files[];
extern const size_t sample_files_count;

/* The file at this path, or NULL. */
const struct embedded_file *embedded_find(const struct embedded_file *files, size_t n,
                                          const char *path);

#endif
