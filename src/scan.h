/* scan.h — scanner internals shared with tests (internal). */
#ifndef FL_SCAN_H
#define FL_SCAN_H

#include "faultline.h"
#include <stdint.h>

/* Lines read so far, over every source. */
uint64_t scanner_lines(const struct fl_scanner *s);

/* A new scanner with s's knowledge base and options. */
enum fl_status scanner_new_like(const struct fl_scanner *s, struct fl_scanner **out);
/* Moves everything src read into dst, as if dst had read src's sources after its own.
 * src's sources must be closed; free src afterwards. */
enum fl_status scanner_merge(struct fl_scanner *dst, struct fl_scanner *src);

#endif
