/*
 * mask_rules.c — the masking rules, in the order they are applied, and their database.
 * See mask.c for how a matched rule rewrites a line.
 */
#include "mask_rules.h"

#include <stdlib.h>

#define CI HS_FLAG_CASELESS
#define NAME_SEP "[\"']?[ \\t]*[=:][ \\t]*[\"']?"
/* a value that is not already a placeholder, a quoted empty string or a reference */
#define VALUE "([^\\s\"',;<{\\[][^\\s\"',;]*)"

const struct rule mask_rules[] = {
    {K_PEM_BEGIN, true, "-----BEGIN [A-Z0-9 ]*PRIVATE KEY", 0,
     "-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----", "<private-key>"},
    {K_PEM_END, true, "-----END [A-Z0-9 ]*PRIVATE KEY", 0,
     "-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----", "<private-key>"},
    {K_URL, true, "://[^\\s:/@\"']+:[^\\s/@\"']+@", 0,
     "([A-Za-z][A-Za-z0-9+.-]*://)[^\\s:/@\"'<>]+:[^\\s/@\"']+@", NULL},
    {K_KEEP1, true, "aws_secret_access_key", CI,
     "(?i)(aws_secret_access_key" NAME_SEP ")[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])", "<aws-secret-key>"},
    {K_KEEP1, true, "wandb_api_key", CI,
     "(?i)(wandb_api_key" NAME_SEP ")[A-Za-z0-9_-]{40,}", "<wandb-key>"},
    {K_KEEP1, true, "wandb[ \\t]+login", 0,
     "(wandb[ \\t]+login\\b[^\\n]*?[ \\t=])[A-Za-z0-9_-]{40,}(?![A-Za-z0-9_-])", "<wandb-key>"},
    {K_PLACE, true, "eyJ[A-Za-z0-9_-]{4,}\\.eyJ", 0,
     "eyJ[A-Za-z0-9_-]{4,}\\.eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*", "<jwt>"},
    {K_PLACE, true, "hf_[A-Za-z0-9]{30}", 0, "(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}", "<hf-token>"},
    {K_PLACE, true, "sk-[A-Za-z0-9_-]{20}", 0,
     "(?<![A-Za-z0-9])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}", "<api-key>"},
    {K_PLACE, true, "(?:AKIA|ASIA)[0-9A-Z]{16}", 0,
     "(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])", "<aws-access-key-id>"},
    {K_PLACE, true, "gh[pousr]_[A-Za-z0-9]{20}|github_pat_[A-Za-z0-9_]{20}", 0,
     "(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", "<github-token>"},
    {K_PLACE, true, "glpat-[A-Za-z0-9_-]{20}", 0, "glpat-[A-Za-z0-9_-]{20,}", "<gitlab-token>"},
    {K_PLACE, true, "hooks\\.slack\\.com/", 0,
     "(?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+",
     "<slack-webhook>"},
    {K_PLACE, true, "xox[abpors]-[A-Za-z0-9-]{10}", 0,
     "(?<![A-Za-z0-9])xox[abpors]-[A-Za-z0-9-]{10,}", "<slack-token>"},
    {K_KEEP1, true, "authorization[\"']?[ \\t]*[=:]", CI,
     "(?i)(authorization" NAME_SEP "(?:(?:bearer|basic|token|bot|digest|negotiate)[ \\t]+)?)"
     "(?!(?:bearer|basic|token|bot|digest|negotiate)[ \\t])[^\\s\"'<][^\\s\"',]*", "<secret>"},
    {K_KEEP1, true, "bearer[ \\t]+[A-Za-z0-9._~+/-]{8}", CI,
     "(?i)(\\bbearer[ \\t]+)[A-Za-z0-9._~+/-]{8,}=*", "<secret>"},
    /* NAME=value where NAME is an upper-case variable that contains a secret word */
    {K_KEEP1, true, "(?:TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY)[A-Z0-9_]*[\"']?[ \\t]*[=:]", 0,
     "(?<![A-Za-z0-9_])([A-Z0-9_]*(?:TOKEN(?!IZER)|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY)"
     "[A-Z0-9_]*" NAME_SEP ")" VALUE, "<secret>"},
    /* name=value, name: value where the name ends with a secret word (max_tokens does not) */
    {K_KEEP1, true,
     "(?:token|secret|passw[a-z]*|passphrase|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)"
     "[\"']?[ \\t]*[=:]", CI,
     "(?i)(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]*(?:token|secret|password|passwd|passphrase|api[_-]?key|"
     "access[_-]?key|private[_-]?key|credentials?)" NAME_SEP ")" VALUE, "<secret>"},
    /* command-line flags: --hf-token X, --password X */
    {K_KEEP1, true, "(?:token|secret|passw[a-z]*|api[_-]?key|access[_-]?key)[ \\t]+[^\\s-]", CI,
     "(?i)(--?[A-Za-z0-9_-]*(?:token|secret|password|passwd|api[_-]?key|access[_-]?key)[ \\t]+[\"']?)"
     "([^\\s\"'<-][^\\s\"']*)", "<secret>"},
    /* private details */
    {K_NODELIST, false, "nodelist[\"']?[ \\t]*[=:]", CI,
     "(?i)((?<![A-Za-z0-9])(?:SLURM_JOB_NODELIST|SLURM_NODELIST|SLURM_STEP_NODELIST|NodeList)" NAME_SEP ")"
     "([A-Za-z0-9._,\\[\\]-]+)", NULL},
    /* a bare literal: class-then-@ prefilters miss matches at some buffer alignments in the
     * Vectorscan 5.4.9 accelerators */
    {K_EMAIL, false, "@", 0,
     "(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]+)@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}"
     "(?![A-Za-z0-9-])", NULL},
    {K_IPV4, false, "[0-9]\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]", 0,
     "(?<![0-9A-Za-z.])[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}(?![0-9]|\\.[0-9])", NULL},
    /* the full eight-group form is left to lines that matched for another reason: its prefilter
     * alone would halve the speed of the whole database */
    {K_IPV6, false, "[0-9A-Fa-f]::[0-9A-Fa-f]", 0,
     "(?<![0-9A-Za-z.])(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|"
     "(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4})(?![0-9A-Za-z:])", NULL},
    {K_HOME, false, "/home/[A-Za-z0-9._-]|/Users/[A-Za-z0-9._-]|\\\\Users\\\\[A-Za-z0-9._-]", 0,
     "(/home/|/Users/|\\\\Users\\\\)([A-Za-z0-9._-]+)(?=[/\\\\\\s\"':]|$)", NULL},
    /* NCCL's host:pid:tid [dev] prefix names a host; pdsh and syslog prefixes are recognised by
     * learn_line_starts (a line-start pattern costs more in the database than a walk of lines) */
    {K_LEARN, false, "[A-Za-z0-9]:[0-9]+:[0-9]+ \\[", 0, NULL, NULL},
};


const size_t mask_rule_count = sizeof mask_rules / sizeof mask_rules[0];
_Static_assert(sizeof mask_rules / sizeof mask_rules[0] <= MASK_RULES_MAX,
               "rule sets are 64-bit masks");

enum fl_status mask_compile_db(enum fl_mask_mode mode, hs_database_t **db)
{
    const char *exprs[MASK_RULES_MAX];
    unsigned flags[MASK_RULES_MAX], ids[MASK_RULES_MAX], n = 0;
    for (unsigned i = 0; i < mask_rule_count; i++) {
        if (mode == FL_MASK_SECRETS && !mask_rules[i].secret)
            continue;
        exprs[n] = mask_rules[i].hs;
        flags[n] = mask_rules[i].hs_flags;
        ids[n++] = i;
    }
    hs_compile_error_t *ce = NULL;
    if (hs_compile_multi(exprs, flags, ids, n, HS_MODE_BLOCK, NULL, db, &ce) != HS_SUCCESS) {
        hs_free_compile_error(ce);
        return FL_ERR_PATTERN;
    }
    return FL_OK;
}
