/*
 * status.c — names for enum fl_status and the helper that fills struct fl_error.
 *
 * Every status has a string here; a meta-test walks the enum and checks that none is missing,
 * so adding a status without naming it fails the build's tests, not a user at 3 a.m.
 */
#include "faultline.h"
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const status_names[FL_STATUS_COUNT] = {
    [FL_OK] = "success",
    [FL_ERR_NOMEM] = "out of memory",
    [FL_ERR_IO] = "input/output error",
    [FL_ERR_FORMAT] = "malformed input",
    [FL_ERR_KB] = "invalid knowledge-base entry",
    [FL_ERR_PATTERN] = "pattern does not compile",
    [FL_ERR_USAGE] = "invalid argument",
    [FL_ERR_LIMIT] = "limit reached",
    [FL_ERR_NOTFOUND] = "not found",
    [FL_ERR_INTERNAL] = "internal library error",
};

const char *fl_strerror(enum fl_status status)
{
    if ((unsigned)status >= FL_STATUS_COUNT || status_names[status] == NULL)
        return "unknown status";
    return status_names[status];
}

enum fl_status error_set(struct fl_error *err, enum fl_status st, const char *file, unsigned line,
                         unsigned col, const char *fmt, ...)
{
    if (err == NULL)
        return st;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return st;
}
