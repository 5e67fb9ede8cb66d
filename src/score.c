/*
 * score.c — confidence of a diagnosis, in [0, 1].
 *
 * Confidence is evidence strength, not a probability model: each independent piece of evidence
 * moves it towards 1 by a fixed fraction of what is left, so it never reaches 1 and the order of
 * the pieces does not matter. The pieces are those an on-call engineer weighs: several distinct
 * signals of the entry matched, the failing rank is known, the timeline is known, the other
 * ranks' errors are consequences that fit it. A collateral entry alone (a timeout with no cause
 * in sight) stays below 0.6: it says what happened, not why.
 */
#include "correlate.h"

static double toward_one(double c, double fraction)
{
    return c + (1.0 - c) * fraction;
}

/* Two decimals: the report's confidence never claims more precision than its rules have. */
static double two_decimals(double c)
{
    return (double)(long)(c * 100 + 0.5) / 100.0;
}

double score_confidence(const struct score_input *in)
{
    double c = 0.5;
    for (size_t i = 1; i < in->matched_signals && i < 4; i++)
        c = toward_one(c, 0.3);
    if (in->rank_known)
        c = toward_one(c, 0.2);
    if (in->time_known)
        c = toward_one(c, 0.1);
    if (in->has_collateral)
        c = toward_one(c, 0.25);
    if (in->entry && in->entry->collateral)
        c = c > 0.59 ? 0.59 : c;
    if (!in->is_top)
        c *= 0.9;
    return two_decimals(c);
}

double score_differential(double headline_confidence)
{
    return two_decimals(headline_confidence * 0.5);
}
