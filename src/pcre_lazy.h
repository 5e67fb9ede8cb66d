/*
 * pcre_lazy.h — a PCRE2 pattern compiled when it is first used, and JIT-compiled only once it
 * keeps being used (internal).
 *
 * A run uses a few of its hundreds of patterns, most of them on a line or two: compiling them
 * all up front would cost more than diagnosing a small log, and JIT compiling one (an executable
 * mapping each) costs about as much as a few dozen interpreted matches. The extractor's and the
 * masker's patterns both go through here.
 */
#ifndef FL_PCRE_LAZY_H
#define FL_PCRE_LAZY_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#define PCRE_JIT_AFTER 256 /* uses of a pattern before it is JIT-compiled */

/* *re, compiled from expr with pcre2_compile's options when it is NULL, and JIT-compiled at the
 * PCRE_JIT_AFTER-th call for it (*uses, zero at first, counts the calls up to there). NULL when
 * expr does not compile: callers validated it earlier, so only memory can fail. JIT is an
 * optimisation: a platform without it still matches, only slower. */
pcre2_code *pcre_lazy_use(pcre2_code **re, unsigned *uses, const char *expr, uint32_t options);

#endif
