/*
 * framer.c — newline counting and line cleaning. See framer.h for why the scan itself never
 * splits lines.
 */
#include "framer.h"

#include <stdbool.h>
#include <string.h>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>

/* Sixteen bytes at a time: cmpeq gives -1 per newline, subtracted into byte lanes that psadbw
 * sums before any can overflow (255 rounds). SSE2 is part of every x86-64. */
static uint64_t count_wide(const char *p, size_t n, size_t *done)
{
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    uint64_t count = 0;
    size_t i = 0;
    while (n - i >= 32) {
        __m128i a = zero, b = zero;
        for (int k = 0; k < 255 && n - i >= 32; k++, i += 32) {
            a = _mm_sub_epi8(a, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), nl));
            b = _mm_sub_epi8(b, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 16)), nl));
        }
        __m128i s = _mm_add_epi64(_mm_sad_epu8(a, zero), _mm_sad_epu8(b, zero));
        s = _mm_add_epi64(s, _mm_unpackhi_epi64(s, s));
        count += (uint64_t)_mm_cvtsi128_si64(s);
    }
    *done = i;
    return count;
}
#else
/* Eight bytes at a time (SWAR): a byte of x is zero where the text has '\n'; the usual
 * zero-byte test leaves 0x80 in exactly those bytes, so their count accumulates in the byte
 * lanes of acc, summed before any lane can overflow. */
static uint64_t count_wide(const char *p, size_t n, size_t *done)
{
    const uint64_t ones = 0x0101010101010101ULL, low7 = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t count = 0;
    size_t i = 0;
    while (n - i >= 8) {
        uint64_t acc = 0;
        for (int k = 0; k < 255 && n - i >= 8; k++, i += 8) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            uint64_t x = w ^ (ones * '\n');
            uint64_t y = ~(((x & low7) + low7) | x | low7);
            acc += y >> 7;
        }
        /* eight lanes of at most 255: pairs into 16-bit lanes, then one multiply sums them */
        acc = (acc & 0x00ff00ff00ff00ffULL) + ((acc >> 8) & 0x00ff00ff00ff00ffULL);
        count += (acc * 0x0001000100010001ULL) >> 48;
    }
    *done = i;
    return count;
}
#endif

uint64_t framer_count_newlines(const char *p, size_t n)
{
    /* Log lines are short: a memchr call per line costs more than looking at every byte with
     * wide compares, which run at memory speed. */
    size_t i;
    uint64_t count = count_wide(p, n, &i);
    for (; i < n; i++)
        count += p[i] == '\n';
    return count;
}

bool framer_is_clean(const char *line, size_t len)
{
    /* printable ASCII and tabs only: no escape, no carriage return, nothing to validate */
    const unsigned char *p = (const unsigned char *)line;
    size_t i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    /* every matched line is checked: sixteen bytes at a time. As signed bytes, 0x80-0xff are
     * negative, so one signed compare finds them and the control characters together */
    const __m128i space = _mm_set1_epi8(0x20), tab = _mm_set1_epi8('\t'), del = _mm_set1_epi8(0x7f);
    if (len >= 16) {
        /* the last sixteen bytes overlap the blocks before them: no byte loop for the tail of
         * the line, which was half of the test on a log of short lines (stack dumps) */
        for (;; i += 16) {
            i = len - i < 16 ? len - 16 : i;
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            __m128i bad = _mm_or_si128(_mm_andnot_si128(_mm_cmpeq_epi8(v, tab), _mm_cmplt_epi8(v, space)),
                                       _mm_cmpeq_epi8(v, del));
            if (_mm_movemask_epi8(bad))
                return false;
            if (i + 16 == len)
                return true;
        }
    }
#endif
    unsigned char bad = 0;
    for (; i < len; i++)
        bad |= (unsigned char)(p[i] < 0x20 && p[i] != '\t') | (unsigned char)(p[i] >= 0x7f);
    return bad == 0;
}

/* Length of a valid UTF-8 sequence at p, or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    if (p[0] < 0x80)
        return 1;
    size_t len = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
    if (len == 0 || len > n || (p[0] >= 0xf8))
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if (len == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0)))
        return 0;
    if (len == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90)))
        return 0;
    return len;
}

void framer_clean(const char *line, size_t len, size_t focus, struct buf *out)
{
    buf_reset(out);
    size_t start = 0, end = len;
    if (end && line[end - 1] == '\r')
        end--;
    /* the carriage-return segment: tqdm redraws a bar with '\r', only the last state is real */
    const char *cr = memchr(line, '\r', end);
    if (cr) {
        /* segment by segment with memchr: a tqdm line is hundreds of redraws, tens of KB */
        size_t seg_start = 0, best_start = 0, best_end = end;
        for (;;) {
            size_t i = cr ? (size_t)(cr - line) : end;
            bool holds = focus < len ? (focus >= seg_start && focus < i) : i > seg_start;
            if (holds) {
                best_start = seg_start;
                best_end = i;
                if (focus < len)
                    break;
            }
            if (cr == NULL)
                break;
            seg_start = i + 1;
            cr = memchr(line + seg_start, '\r', end - seg_start);
        }
        start = best_start;
        end = best_end;
    }
    const unsigned char *p = (const unsigned char *)line + start;
    size_t n = end - start;
    for (size_t i = 0; i < n;) {
        if (p[i] == 0x1b) {
            /* CSI: ESC [ parameters final-byte; other escapes: ESC and one byte */
            size_t j = i + 1;
            if (j < n && p[j] == '[') {
                j++;
                while (j < n && (p[j] < 0x40 || p[j] > 0x7e))
                    j++;
            }
            i = j < n ? j + 1 : n;
            continue;
        }
        if (p[i] < 0x20 && p[i] != '\t') {
            buf_putc(out, '?');
            i++;
            continue;
        }
        if (p[i] >= 0x20 && p[i] < 0x7f) {
            size_t j = i + 1;
            while (j < n && p[j] >= 0x20 && p[j] < 0x7f)
                j++;
            if (buf_append(out, p + i, j - i) != FL_OK)
                return;
            i = j;
            continue;
        }
        size_t l = utf8_len(p + i, n - i);
        if (l == 0) {
            buf_putc(out, '?');
            i++;
            continue;
        }
        if (buf_append(out, p + i, l) != FL_OK)
            return;
        i += l;
    }
}
