/*
 * framer.h — lines out of raw bytes (internal).
 *
 * The scan runs over raw bytes; the framer only counts newlines in bulk and, for the few lines
 * that matched a pattern, cuts them out and cleans them for people: the last state of a
 * carriage-return progress bar, no ANSI colour codes, no control bytes, valid UTF-8.
 */
#ifndef FL_FRAMER_H
#define FL_FRAMER_H

#include "buf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINE_CAP 65536

/* Number of '\n' bytes in p[0..n), a word at a time. */
uint64_t framer_count_newlines(const char *p, size_t n);

/* True when the line needs no cleaning (printable ASCII and tabs only): the common case, which
 * lets the scanner use the bytes where they are. */
bool framer_is_clean(const char *line, size_t len);

/* Cleans one line (without its '\n') into out: keeps the carriage-return segment holding byte
 * `focus` (or the last non-empty one when focus >= len), removes ANSI escape sequences, replaces
 * control bytes and invalid UTF-8 with '?'. out is reset first. */
void framer_clean(const char *line, size_t len, size_t focus, struct buf *out);

#endif
