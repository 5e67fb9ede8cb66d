/* status.h — filling struct fl_error (internal). */
#ifndef FL_STATUS_H
#define FL_STATUS_H

#include "faultline.h"

/* Fills err (when not NULL) and returns st, so that callers can write `return error_set(...)`. */
enum fl_status error_set(struct fl_error *err, enum fl_status st, const char *file, unsigned line,
                         unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
