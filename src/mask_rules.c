/*
 * mask_rules.c — the masking rules, in the order they are applied, and their database.
 * See mask.c for how a matched rule rewrites a line.
 *
 * The token formats are those the providers document (prefixes such as ghp_, glpat-, xoxb-,
 * sk_live_, npm_, pypi-AgEIcHlwaS5vcmc, dapi, AGE-SECRET-KEY-1, a Q~ at the fourth place of an
 * Azure AD client secret) and are written with their lengths, so that a word which merely starts
 * like a token stays. A value without a known format is masked after a name: any value after a
 * secret's name (password, token, secret, api_key, ...), and only random-looking text after a
 * weak one (key, auth, pass, ...). enum check says what a value must look like.
 */
#include "mask_rules.h"

#include <stdlib.h>

#define CI HS_FLAG_CASELESS
/* PCRE2 boundaries: a token is not part of a longer word */
#define LB "(?<![A-Za-z0-9_])"
#define RB "(?![A-Za-z0-9_])"
#define NAME_SEP "[\"']?[ \\t]*[=:][ \\t]*[\"']?"
/* The assignment forms of config files and code: = : := ::= ?= .= => and, after a quoted name,
 * a comma (setProperty("X_TOKEN", "value")); a type may sit between (var xToken string = ...) */
#define ASSIGN                                                                                 \
    "(?:[ \\t]+(?:string|String|str|&str)\\b)?(?:[\"'`][ \\t]*,|[\"'`]?[ \\t]*"                \
    "(?:=>|:{1,3}=|[?.]=|=|:))[ \\t]*[\"'`]?"
#define ASSIGN_HS "(?:[\"'`]?[ \\t]*[=:,.?]|[ \\t]+&?[Ss]tr)"
/* the schemes of an Authorization header: HTTP's and those of API vendors (Api-Token, SSWS,
 * sso-key, GenieKey, ...) */
#define AUTH_SCHEMES                                                                           \
    "(?:bearer|basic|token|bot|digest|negotiate|api[_-]?token|api[_-]?key|apikey|key|ssws|"    \
    "sso-key|genie[_-]?key|splunk|zoho-oauthtoken)"
/* what may follow the secret word of a lower-case name: api_token_2, mySecretString */
#define NAME_TAIL "(?:[_-]?[0-9]{1,3}|string|value)?"
/* a value that is not already a placeholder, a quoted empty string or a reference */
#define VALUE "([^\\s\"'`,;<{\\[][^\\s\"'`,;]*)"
/* a value as a command-line argument or after a word: up to a blank or quote */
#define ARG "([^\\s\"'`]+)"

const struct rule mask_rules[] = {
    /* 0, 1: mask.c's key-block state machine knows these two by index. A PuTTY key file's
     * private part is a block too: "Private-Lines: N", N lines of base64, "Private-MAC: hex"
     * (its Public-Lines stay) */
    {K_PEM_BEGIN, true, "-----BEGIN [A-Z0-9 ]*PRIVATE KEY|Private-Lines: [0-9]", 0,
     "-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?<![A-Za-z0-9-])Private-Lines: [0-9]+",
     "<private-key>", C_NONE, NULL},
    {K_PEM_END, true, "-----END [A-Z0-9 ]*PRIVATE KEY|Private-MAC: [0-9a-f]", 0,
     "-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?<![A-Za-z0-9-])Private-MAC: [0-9a-f]+",
     "<private-key>", C_NONE, NULL},
    /* a Kubernetes Secret's data: or stringData: mapping, as `kubectl get secret -o yaml` and
     * manifests print it: the values sit on the lines below (mask.c follows the block) */
    {K_K8S_DATA, true, "^[ \\t]*(?:-[ \\t]+)?(?:data|stringData):[ \\t]*\\r?$", HS_FLAG_MULTILINE, NULL,
     "<secret>", C_NONE, NULL},
    /* a key block's base64 body on a line of its own, cut from its BEGIN line (a JSON key
     * file's "\n" turned into line breaks, a paste that lost the header): DER keys begin with a
     * SEQUENCE whose two-byte length encodes as "MII", and no word of a log is 60 base64
     * characters long after it */
    {K_PLACE, true, "MII[A-Za-z0-9+/]{60}", 0, LB "MII[A-Za-z0-9+/]{60,}={0,2}" RB, "<private-key>",
     C_NONE, NULL},
    /* scheme://user:password@ and scheme://:password@ (redis) */
    {K_URL, true, "://[^\\s:/@\"']*:[^\\s/@\"']+@", 0,
     "([A-Za-z][A-Za-z0-9+.-]*://)([^\\s:/@\"'<>]*):[^\\s/@\"']+@", NULL, C_NONE, NULL},
    {K_KEEP1, true, "aws_secret_access_key", CI,
     "(?i)(aws_secret_access_key" NAME_SEP ")[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])", "<aws-secret-key>",
     C_NONE, NULL},
    {K_KEEP1, true, "wandb_api_key", CI,
     "(?i)(wandb_api_key" NAME_SEP ")[A-Za-z0-9_-]{40,}", "<wandb-key>", C_NONE, NULL},
    {K_KEEP1, true, "wandb[ \\t]+login", 0,
     "(wandb[ \\t]+login\\b[^\\n]*?[ \\t=])[A-Za-z0-9_-]{40,}(?![A-Za-z0-9_-])", "<wandb-key>", C_NONE, NULL},
    /* a JWT, and a JWT encoded once more in base64 (a Kubernetes secret's data, a config
     * blob): "eyJ" becomes ZXlK, and its ".eyJ" one of three spellings by its alignment */
    {K_PLACE, true, "eyJ[A-Za-z0-9_-]{4,}\\.eyJ|ZXlK[A-Za-z0-9+/_-]{16}", 0,
     "eyJ[A-Za-z0-9_-]{4,}\\.eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*|"
     LB "ZXlK[A-Za-z0-9+/_-]{4,}(?:LmV5S|5leUp|uZXlK)[A-Za-z0-9+/_-]{16,}={0,2}", "<jwt>", C_NONE, NULL},
    {K_PLACE, true, "hf_[A-Za-z0-9]{30}|api_org_[A-Za-z0-9]{30}", 0,
     LB "(?:hf|api_org)_[A-Za-z0-9]{33,37}" RB, "<hf-token>", C_FORMAT, "hf_ api_org_"},
    /* OpenAI (sk-, sk-proj-, sk-svcacct-), DeepSeek and the others that took the sk- form;
     * Anthropic's API and admin keys have a fixed shape: sk-ant-api03- or sk-ant-admin01-, 93
     * characters, AA (a sk-ant- token of another length or end is not one) */
    {K_PLACE, true, "sk-[A-Za-z0-9_-]{20}", 0,
     "(?<![A-Za-z0-9])sk-(?:ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_-]{93}AA(?![A-Za-z0-9_-])|"
     "(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})",
     "<api-key>", C_FORMAT, "sk-ant-"},
    /* other AI providers: Replicate r8_, Groq gsk_, Perplexity pplx-, xAI xai-, LangSmith lsv2_,
     * Pinecone pcsk_, Cohere's and Mistral's keys have no prefix (names below) */
    {K_PLACE, true,
     "r8_[A-Za-z0-9]{30}|gsk_[A-Za-z0-9]{40}|pplx-[A-Za-z0-9]{40}|xai-[A-Za-z0-9]{50}|"
     "lsv2_(?:pt|sk)_|pcsk_[A-Za-z0-9]{5}", 0,
     LB "(?:r8_[A-Za-z0-9]{37}|gsk_[A-Za-z0-9]{48,}|pplx-[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{60,}|"
     "lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}|pcsk_[A-Za-z0-9_]{40,})" RB,
     "<api-key>", C_FORMAT, "r8_ gsk_ pplx- xai- pcsk_ lsv2_"},
    {K_PLACE, true, "(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16}", 0,
     "(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16}(?![0-9A-Z])", "<aws-access-key-id>",
     C_FORMAT, "AKIA ASIA"},
    {K_PLACE, true, "gh[pousr]_[A-Za-z0-9]{20}|github_pat_[A-Za-z0-9_]{20}", 0,
     "(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", "<github-token>",
     C_FORMAT, "ghp_ gho_ ghu_ ghs_ ghr_ github_pat_"},
    /* GitLab: personal, deploy, runner, pipeline trigger, feed, mail, agent, OAuth, SCIM,
     * feature-flag and CI job tokens, and runner registration tokens */
    {K_PLACE, true,
     "gl(?:pat|dt|rt|ptt|ft|imt|agent|oas|soat|ffct|cbt)-[A-Za-z0-9_]{8}|GR1348941[A-Za-z0-9_-]{20}",
     0,
     LB "(?:gl(?:pat|dt|rt|ptt|ft|imt|agent|oas|soat|ffct|cbt)-[A-Za-z0-9_.-]{20,}|"
     "GR1348941[A-Za-z0-9_-]{20,})", "<gitlab-token>", C_FORMAT, "glpat- gldt- glrt-"},
    {K_PLACE, true, "hooks\\.slack\\.com/", 0,
     "(?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_+-]+",
     "<slack-webhook>", C_NONE, NULL},
    /* Slack: bot, user, app, configuration and refresh tokens; the legacy workspace tokens
     * (xoxa-, xoxr-) are shorter. A token that runs into filler (xoxp-...-#####) is a template */
    {K_PLACE, true, "xox[a-z]-[A-Za-z0-9-]{8}|xapp-[0-9]-", 0,
     "(?<![A-Za-z0-9])(?:xox[a-z](?:\\.xox[a-z])?-[A-Za-z0-9-]{18,}|xox[ar]-(?:[0-9]-)?[A-Za-z0-9]{8,48}|"
     "xapp-[0-9]-[A-Za-z0-9-]{18,})(?![A-Za-z0-9#*-])",
     "<slack-token>", C_FORMAT, "xoxb- xoxp- xoxa- xoxr- xoxe- xoxs- xapp-"},
    /* webhooks of other chat services: Discord, Microsoft Teams */
    {K_PLACE, true, "discord(?:app)?\\.com/api/webhooks/|\\.webhook\\.office\\.com/webhookb2/", 0,
     "(?:https?://)?(?:(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]+|"
     "[A-Za-z0-9-]+\\.webhook\\.office\\.com/webhookb2/[^\\s\"']+)", "<webhook>", C_NONE, NULL},
    /* payments: Stripe secret and restricted keys and webhook secrets, Square, Shopify,
     * Shippo, Duffel, EasyPost, Flutterwave */
    {K_PLACE, true,
     "(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10}|whsec_[A-Za-z0-9]{20}|sq0(?:atp|csp)-|"
     "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|shippo_(?:live|test)_|duffel_(?:test|live)_|EZ[AT]K[A-Za-z0-9]{20}|"
     "FLW(?:SECK|PUBK)_TEST-", 0,
     LB "(?:(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9+/=]{24,}|"
     "sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|"
     "shippo_(?:live|test)_[a-fA-F0-9]{40}|duffel_(?:test|live)_[A-Za-z0-9_=-]{43}|"
     "EZ[AT]K[A-Za-z0-9]{54}|FLW(?:SECK|PUBK)_TEST-[A-Za-z0-9-]{12,})" RB,
     "<payment-key>", C_FORMAT, "sk_live_ sk_test_ rk_live_ rk_test_ whsec_ shpat_"},
    /* mail and messaging: SendGrid, Brevo (Sendinblue), Twilio API keys, Mailgun */
    {K_PLACE, true, "SG\\.[A-Za-z0-9_-]{16}|xkeysib-[a-f0-9]{16}|SK[0-9a-fA-F]{32}|key-[a-f0-9]{32}", 0,
     LB "(?:SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}|xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}|"
     "SK[0-9a-fA-F]{32}|key-[a-f0-9]{32})" RB, "<api-key>", C_FORMAT, "xkeysib-"},
    /* package registries and CI: npm, PyPI, Docker Hub, RubyGems, Clojars, Artifactory,
     * Postman, Prefect, ReadMe, Scalingo, Pulumi, Doppler, Terraform Cloud, Sentry, Sourcegraph,
     * Linear, Atlassian, Typeform, Frame.io, Fly.io, Grafana, Vault, Databricks, Adobe, Heroku,
     * Infracost, 42, Notion, SonarQube. A Sentry organization token is sntrys_, its claims as
     * base64 JSON, _ and 43 characters exactly */
    {K_PLACE, true,
     "npm_[A-Za-z0-9]{36}|pypi-AgE|dckr_(?:pat|oat)_|rubygems_[a-f0-9]{20}|CLOJARS_[a-z0-9]{20}|"
     "AKCp[A-Za-z0-9]{20}|PMAK-[a-f0-9]{24}|pnu_[A-Za-z0-9]{36}|rdme_[a-z0-9]{20}|tk-us-|pul-[a-f0-9]{40}|"
     "dp\\.(?:pt|st|sa|ct|scim|audit)\\.|\\.atlasv1\\.|sntry[us]_|sgp_[a-fA-F0-9]{16}|lin_api_|ATATT3|"
     "tfp_[A-Za-z0-9_.=-]{20}|fio-u-|fo1_|fm[12][ar]?_|glc_eyJ|glsa_|hv[sb]\\.|dapi[a-f0-9]{32}|"
     "sgp_local_|p8e-[A-Za-z0-9]{20}|HRKU-AA|ico-[A-Za-z0-9]{20}|s-s4t2(?:ud|af)-|ntn_[0-9]{11}|sq[pua]_[A-Za-z0-9]{20}", 0,
     LB "(?:npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{50,}|dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}|"
     "rubygems_[a-f0-9]{48}|CLOJARS_[a-z0-9]{60}|AKCp[A-Za-z0-9]{60,}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|"
     "pnu_[A-Za-z0-9]{36}|rdme_[a-z0-9]{70}|tk-us-[A-Za-z0-9_-]{48}|pul-[a-f0-9]{40}|"
     "dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9_]{40,}|[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}|"
     "sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/]{20,}={0,2}_[A-Za-z0-9+/]{43}(?![A-Za-z0-9+/])|sgp_(?:local_|[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40}|"
     "lin_api_[A-Za-z0-9]{40}|ATATT3[A-Za-z0-9_=-]{100,}|tfp_[A-Za-z0-9_.=-]{59}|fio-u-[A-Za-z0-9_=-]{64}|"
     "fo1_[A-Za-z0-9_-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3}|glc_eyJ[A-Za-z0-9+/=]{30,}|"
     "glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|hv[sb]\\.[A-Za-z0-9_-]{90,}|dapi[a-f0-9]{32}(?:-[0-9])?|"
     "p8e-[A-Za-z0-9]{32}|HRKU-AA[A-Za-z0-9_-]{58}|(?<!\\.)ico-[A-Za-z0-9]{32}|s-s4t2(?:ud|af)-[a-f0-9]{64}|"
     "ntn_[0-9]{11}[A-Za-z0-9]{35}|sq[pua]_[A-Za-z0-9]{40})"
     "(?![A-Za-z0-9_])", "<registry-token>", C_FORMAT,
     "npm_ pypi-AgE dapi dckr_pat_ sntrys_ sntryu_ glsa_ lin_api_ HRKU-"},
    /* password managers and encryption: 1Password service-account tokens and secret keys,
     * age secret keys */
    {K_PLACE, true, "ops_eyJ|A3-[A-Z0-9]{6}-", 0,
     LB "(?:ops_eyJ[A-Za-z0-9+/]{40,}={0,3}|"
     "A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})" RB,
     "<secret-key>", C_FORMAT, "ops_eyJ"},
    /* an age identity: 58 characters of bech32 (no b, i, o, 1) after its prefix. Masked whatever
     * they are: AGE-SECRET-KEY-1QQQ...Q (all zeros) is a key that works, not a placeholder */
    {K_PLACE, true, "AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}", 0,
     LB "AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}" RB, "<secret-key>", C_NONE, "AGE-SECRET-KEY-"},
    /* services whose keys have a shape of their own: Mailchimp (32 hex and the data centre),
     * Notion integrations, Grafana API keys, PlanetScale, Discord bot tokens (a user id in
     * base64, a timestamp, an HMAC), Mapbox secret and public tokens, SettleMint, Octopus
     * Deploy, Plaid access tokens, ClickHouse Cloud, MaxMind license keys, Defined Networking,
     * Harness personal and service-account tokens */
    {K_PLACE, true,
     "[0-9a-f]{32}-us[0-9]|secret_[A-Za-z0-9]{43}|eyJrIjoi[A-Za-z0-9]{40}|pscale_(?:tkn|pw|oauth)_|"
     "[MNO][A-Za-z0-9]{23}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27}|[ps]k\\.eyJ[A-Za-z0-9_-]{40}|"
     "sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}|API-[A-Z0-9]{26}|access-(?:sandbox|development|production)-|"
     "4b1d[A-Za-z0-9]{38}|_mmk|dnkey-|(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[0-9a-f]{24}\\.", 0,
     LB "(?:[0-9a-f]{32}-us[0-9]{1,2}|secret_[A-Za-z0-9]{43}|eyJrIjoi[A-Za-z0-9]{70,400}={0,2}|"
     "pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,64}|"
     "[MNO][A-Za-z0-9]{23}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}|"
     "[ps]k\\.eyJ[A-Za-z0-9_-]{40,}\\.[A-Za-z0-9_-]{20,}|sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}|"
     "API-[A-Z0-9]{26}|access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-"
     "[0-9a-f]{4}-[0-9a-f]{12}|4b1d[A-Za-z0-9]{38}|[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk|"
     "dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}|(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[0-9a-f]{24}\\.[A-Za-z0-9]{20})"
     RB, "<api-key>", C_FORMAT, "sm_pat_ sm_aat_ sm_sat_ pscale_"},
    /* clouds: Google API keys, OAuth access tokens and client secrets; Alibaba; DigitalOcean;
     * Dynatrace; New Relic; Amazon Bedrock; Cloudflare origin CA; OpenShift; Yandex; HubSpot */
    {K_PLACE, true,
     "AIza[A-Za-z0-9_-]{35}|ya29\\.[A-Za-z0-9_-]{20}|GOCSPX-|LTAI[A-Za-z0-9]{20}|do[opr]_v1_[a-f0-9]{20}|"
     "dt0c01\\.|NR(?:AK|II|JS)-|ABSK[A-Za-z0-9+/]{40}|v1\\.0-[a-f0-9]{24}-|sha256~[A-Za-z0-9_-]{43}|"
     "AQVN[A-Za-z0-9_-]{35}|t1\\.[A-Za-z0-9_-]{20}|pat-(?:na|eu)1-", 0,
     LB "(?:AIza[A-Za-z0-9_-]{35}|ya29\\.[A-Za-z0-9_-]{20,}|GOCSPX-[A-Za-z0-9_-]{28}|"
     "LTAI[A-Za-z0-9]{20}|do[opr]_v1_[a-f0-9]{64}|dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}|"
     "NR(?:AK|II|JS)-[A-Za-z0-9-]{19,32}|ABSK[A-Za-z0-9+/]{100,}={0,2}|v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}|"
     "sha256~[A-Za-z0-9_-]{43}|AQVN[A-Za-z0-9_-]{35,38}|t1\\.[A-Za-z0-9_-]+={0,2}\\.[A-Za-z0-9_-]{86}={0,2}|"
     "pat-(?:na|eu)1-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})" RB,
     "<cloud-key>", C_FORMAT, "dop_v1_ doo_v1_ dor_v1_ GOCSPX- ya29. AIza"},
    /* Azure AD client secrets: three characters, a digit, Q~, then 31 to 34 */
    {K_PLACE, true, "[0-9]Q~[A-Za-z0-9_~.-]{31}", 0,
     "(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])",
     "<azure-client-secret>", C_FORMAT, NULL},
    /* Azure connection strings and SAS: AccountKey=, SharedAccessKey=, Password= up to ';';
     * sig= of a shared access signature */
    {K_KEEP1, true,
     "(?:AccountKey|SharedAccessKey|SharedAccessSignature|SharedSecret|Password|Pwd)[ \\t]*=|[?&]sig=", CI,
     "(?i)((?<![A-Za-z0-9_])(?:AccountKey|SharedAccessKey|SharedAccessSignature|SharedSecret|"
     "Password|Pwd)[ \\t]*=[ \\t]*|[?&]sig=)([^;\\s\"'&<][^;\\s\"'&]*)", "<secret>", C_VALUE, NULL},
    /* Facebook: page and user access tokens (EAA...), app tokens (app id|secret) */
    {K_PLACE, true, "EAA[A-Za-z0-9]{30}|[0-9]{15}(?:\\||%7[Cc])[A-Za-z0-9_-]{27}", 0,
     LB "(?:EAA[A-Za-z0-9]{30,}|[0-9]{15,16}(?:\\||%7[Cc])[A-Za-z0-9_-]{27,40})" RB, "<social-token>",
     C_FORMAT, NULL},
    /* Telegram bot tokens: the bot id, a colon, A and 34 more (also in the API's /bot<token>/ URLs) */
    {K_PLACE, true, "[0-9]{5}:A[A-Za-z0-9_-]{34}", 0,
     "(?:(?<=/bot)|(?<![A-Za-z0-9_:]))[0-9]{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])", "<social-token>",
     C_FORMAT, NULL},
    /* command lines: mysql -pPASS, curl -u user:pass, sshpass -p PASS, docker login -p PASS,
     * SQL's IDENTIFIED BY 'pass' */
    {K_KEEP1, true, "(?:mysql|mariadb)[^\\n]*[ \\t\"']-p[^ \\t\\n]", CI,
     "(?i)(\\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mariadb|mariadb-dump)\\b[^\\n]*?"
     "[ \\t\"']-p[\"']?)([^\\s\"'`,][^\\s\"'`]*)", "<password>", C_NONE, NULL},
    /* user:password after -u or --user (curl, wget, httpie), also on a continuation line of a
     * command; uid:gid (docker run -u 1000:1000) and references ($USER:$PASS) stay */
    {K_KEEP1, true, "(?:-u|--user)[ \\t=]", 0,
     "((?<![A-Za-z0-9_-])(?:-u|--user)(?:[ \\t]+|=)[\"']?[^\\s:\"']*[\"']?:[\"']?)" ARG, "<password>",
     C_VALUE, NULL},
    /* -u KEY: with no password is how several APIs take a key (curl -u sk_live_...:); the user
     * part is masked when it looks random (curl -u admin: stays) */
    {K_KEEP1, true, "(?:-u|--user)[ \\t=][^\\s:]*:", 0,
     "((?<![A-Za-z0-9_-])(?:-u|--user)(?:[ \\t]+|=)[\"']?)([^\\s:\"'$]+)(?=:[\"']?(?:[ \\t]|$))",
     "<secret>", C_RANDOM, NULL},
    {K_KEEP1, true, "sshpass[^\\n]*[ \\t]-p", 0,
     "(\\bsshpass\\b[^\\n]*?[ \\t]-p[ \\t]*[\"']?)" ARG, "<password>", C_NONE, NULL},
    {K_KEEP1, true, "login[^\\n]*[ \\t]-p[ \\t]", 0,
     "(\\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras)\\b[^\\n]*?\\blogin\\b[^\\n]*?[ \\t]-p[ \\t]+[\"']?)"
     ARG, "<password>", C_NONE, NULL},
    {K_KEEP1, true, "identified[ \\t]+by[ \\t]+'", CI,
     "(?i)(\\bidentified[ \\t]+by[ \\t]+')([^']+)", "<password>", C_NONE, NULL},
    /* netrc: "machine h login u password p" wherever it is quoted: a report that cites the line
     * mid-sentence ("the first uncaught error is machine h login u password p on rank 2") holds it too */
    {K_KEEP1, true, "password[ \\t]+[^ \\t\\n]", 0,
     "(\\bmachine[ \\t]+\\S+[ \\t]+login[ \\t]+\\S+[ \\t]+password[ \\t]+)(\\S+)", "<password>", C_NONE, NULL},
    /* netrc: "machine h ... password p" on one line, and "password p" on a line of its own */
    {K_KEEP1, true, "password[ \\t]+[^ \\t\\n]", 0,
     "((?:\\bmachine[ \\t]+\\S+[^\\n]*?[ \\t]|^[ \\t]*)password[ \\t]+)(?![a-z]+[.,;:!?][ \\t]*$)(\\S+)"
     "(?=[ \\t]*$|[ \\t]+(?:machine|login|account|macdef|default)\\b)",
     "<password>", C_NONE, NULL},
    /* "password X" ending a line elsewhere: only when X looks random ("password reset" stays) */
    {K_KEEP1, true, "password[ \\t]+[^ \\t\\n]", 0,
     "(\\bpassword[ \\t]+)(\\S+)(?=[ \\t]*$)", "<password>", C_RANDOM, NULL},
    {K_KEEP1, true, "authorization[\"']?[ \\t]*[=:]", CI,
     "(?i)(authorization" NAME_SEP "(?:" AUTH_SCHEMES "[ \\t]+)?)"
     "(?!" AUTH_SCHEMES "[ \\t])([^\\s\"'<][^\\s\"',]*)", "<secret>", C_VALUE, NULL},
    {K_KEEP1, true, "bearer[ \\t]+[A-Za-z0-9._~+/-]{8}", CI,
     "(?i)(\\bbearer[ \\t]+)([A-Za-z0-9._~+/-]{8,}=*)", "<secret>", C_VALUE, NULL},
    /* NAME=value where NAME is an upper-case variable that contains a secret word (or is the
     * credential variable of a private gem server: BUNDLE_GEMS__CONTRIBSYS__COM=user:pass) */
    {K_KEEP1, true,
     "(?:TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY|_PASS|_PWD|PRIVATE_KEY|CONTRIBSYS__COM)[A-Z0-9_]*" ASSIGN_HS, 0,
     "(?<![A-Za-z0-9_])([A-Z0-9_]*(?:TOKEN(?!IZER)|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|"
     "PRIVATE_KEY|_PASS(?![A-Z])|_PWD(?![A-Z])|CONTRIBSYS__COM)[A-Z0-9_]*" ASSIGN ")" VALUE, "<secret>", C_VALUE, NULL},
    /* name=value, name: value, name := value where the name ends with a secret word (max_tokens
     * does not), or names a login that is a token (SonarQube) or the access id of a key pair
     * (Sumo Logic) */
    {K_KEEP1, true,
     "(?:token|secret|passw[a-z]*|passphrase|api[_-]?key|access[_-]?key|private[_-]?key(?:[_-]?id)?|"
     "credentials?|sonar[_.-]?login|access[_.-]?id)" NAME_TAIL ASSIGN_HS, CI,
     "(?i)(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]*(?:token|secret|password|passwd|passphrase|api[_-]?key|"
     "access[_-]?key|private[_-]?key(?:[_-]?id)?|credentials?|sonar[_.-]?login|sumo[a-z]*[_.-]?access[_.-]?id)"
     NAME_TAIL ASSIGN ")" VALUE, "<secret>", C_VALUE, NULL},
    /* XML: <add key="ClearTextPassword" value="..."/> (NuGet, .NET app settings), and an element
     * named for a secret whose value stands alone on the next line (<apiToken>, its value, then
     * </apiToken>; a bare <key> is a property list's): the prefilter spans the two lines, so it
     * marks the value's line, where a lone token is masked (a Sidekiq user:password pair, a
     * percent-encoded bearer token too) */
    {K_KEEP1, true, "(?:password|secret|token|api_?key)[\"'][ \\t]+value=", CI,
     "(?i)(\\bkey=[\"'][^\"']*(?:password|secret|token|api_?key)[\"'][ \\t]+value=[\"'])([^\"']+)",
     "<secret>", C_VALUE, NULL},
    {K_KEEP1, true,
     "(?:token|secret|password|passwd|[a-z_-]key)>[ \\t]*\\r?\\n[ \\t]*[A-Za-z0-9_+/=.~:%-]{12}", CI,
     "^([ \\t]*)([A-Za-z0-9_+/=.~:%-]{12,})(?=[ \\t]*\\r?$)", "<secret>", C_VALUE, NULL},
    /* keyword plus entropy: after a weak name (key, auth, pass, ...) only random-looking text;
     * so too after the bare name of a service whose keys have no prefix of their own
     * ("artifactory", "...", sourcegraph: <40 hex>) */
    {K_KEEP1, true,
     "(?:key|auth|creds|pwd|pass|pat|sig|signature|salt|sourcegraph|artifactory|jfrog|"
     "datadog|heroku|netlify|vercel|algolia|mixpanel)" ASSIGN_HS, CI,
     "(?i)(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]*(?:key|auth|creds|pwd|pass|pat|sig|signature|salt|"
     "sourcegraph|artifactory|jfrog|datadog|heroku|netlify|vercel|algolia|mixpanel)" ASSIGN ")"
     VALUE, "<secret>", C_RANDOM, NULL},
    /* command-line flags: --hf-token X, --password X (not a word with a dash: "service-token
     * create") */
    {K_KEEP1, true, "(?:token|secret|passw[a-z]*|api[_-]?key|access[_-]?key)[ \\t]+[^\\s-]", CI,
     "(?i)((?<![A-Za-z0-9_-])--?[A-Za-z0-9_-]*(?:token|secret|password|passwd|api[_-]?key|access[_-]?key)"
     "[ \\t]+[\"']?)"
     "([^\\s\"'<-][^\\s\"']*)", "<secret>", C_VALUE, NULL},
    /* private details */
    {K_NODELIST, false, "nodelist[\"']?[ \\t]*[=:]", CI,
     "(?i)((?<![A-Za-z0-9])(?:SLURM_JOB_NODELIST|SLURM_NODELIST|SLURM_STEP_NODELIST|NodeList)" NAME_SEP ")"
     "([A-Za-z0-9._,\\[\\]-]+)", NULL, C_NONE, NULL},
    /* a bare literal: class-then-@ prefilters miss matches at some buffer alignments in the
     * Vectorscan 5.4.9 accelerators */
    {K_EMAIL, false, "@", 0,
     "(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]+)@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}"
     "(?![A-Za-z0-9-])", NULL, C_NONE, NULL},
    {K_IPV4, false, "[0-9]\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]", 0,
     "(?<![0-9A-Za-z.])[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}(?![0-9]|\\.[0-9])", NULL, C_NONE, NULL},
    /* the full eight-group form is left to lines that matched for another reason: its prefilter
     * alone would halve the speed of the whole database */
    {K_IPV6, false, "[0-9A-Fa-f]::[0-9A-Fa-f]", 0,
     "(?<![0-9A-Za-z.])(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|"
     "(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4})(?![0-9A-Za-z:])", NULL,
     C_NONE, NULL},
    {K_HOME, false, "/home/[A-Za-z0-9._-]|/Users/[A-Za-z0-9._-]|\\\\Users\\\\[A-Za-z0-9._-]", 0,
     "(/home/|/Users/|\\\\Users\\\\)([A-Za-z0-9._-]+)(?=[/\\\\\\s\"':]|$)", NULL, C_NONE, NULL},
    /* NCCL's host:pid:tid [dev] prefix names a host; pdsh and syslog prefixes are recognised by
     * learn_line_starts (a line-start pattern costs more in the database than a walk of lines) */
    {K_LEARN, false, "[A-Za-z0-9]:[0-9]+:[0-9]+ \\[", 0, NULL, NULL, C_NONE, NULL},
    /* launchers that name their workers: DeepSpeed's "WORLD INFO DICT: {'gpu-node-17': [0, 1]}"
     * and "Running on the following workers: gpu-node-17,gpu-node-18"; Ray's "ray start
     * --address=gpu-node-17:6379" and "Connecting to existing Ray cluster at address:
     * gpu-node-17:6379" (Ray's per-worker lines carry addresses, masked as such) */
    {K_HOSTKEYS, false,
     "WORLD INFO DICT|following workers:|world_info|ray start[^\\n]*--address|Ray cluster at address:", 0,
     "(?:WORLD INFO DICT|world_info)[^{]*(\\{.*\\})|following workers:[ \\t]*([A-Za-z0-9._,-]+)|"
     "(?:\\bray start\\b[^\\n]*?--address[= ][\"']?|Ray cluster at address:[ \\t]*)([A-Za-z0-9._-]+)",
     NULL, C_NONE, NULL},
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
