/* scan.h — scanner internals shared with tests (internal). */
#ifndef FL_SCAN_H
#define FL_SCAN_H

#include "faultline.h"
#include <stdint.h>

/* Lines read so far, over every source. */
uint64_t scanner_lines(const struct fl_scanner *s);

#endif
