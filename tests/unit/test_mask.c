/* test_mask.c — the masker: no secret survives, pseudonyms are consistent, useful text stays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultline.h"
#include "mask.h"

/* A realistic line, the secrets it holds, and a placeholder the output must show. */
struct secret_case {
    const char *line;
    const char *secrets[3];
    const char *expect;
};

static const struct secret_case cases[] = {
    {"node-1: [rank0]: HF_TOKEN=hf_QzXw8LmNpR4tYv2BcD6fGhJk9sAe3UiOyT",
     {"hf_QzXw8LmNpR4tYv2BcD6fGhJk9sAe3UiOyT"}, "<hf-token>"},
    {"huggingface-cli login --token hf_vfYkuP9qW6KQjnIFT8j2NYINcK0xgVGuWs --add-to-git-credential",
     {"hf_vfYkuP9qW6KQjnIFT8j2NYINcK0xgVGuWs"}, "<hf-token>"},
    {"[1,3]<stderr>:openai.AuthenticationError: Incorrect API key provided: sk-proj-Nq4Wr6Ty8Ui0Op2As4Df6Gh8Jk0Lz",
     {"sk-proj-Nq4Wr6Ty8Ui0Op2As4Df6Gh8Jk0Lz"}, "<api-key>"},
    {"ANTHROPIC_API_KEY='sk-ant-api03-Zq7Rt5Yw3Ue1Io9Pa2Sd4Fg6Hj8Kl0ZxCvBnMRe-OLLv6rRMVWamAImNSO4qb8FI1S1"
     "CeSvZP5GaHN-TBxQj1LuHn4rQyAA'",
     {"sk-ant-api03-Zq7Rt5Yw3Ue1Io9Pa2Sd4Fg6Hj8Kl0ZxCvBnMRe-OLLv6rRMVWamAImNSO4qb8FI1S1CeSvZP5GaHN-TBxQj1L"
      "uHn4rQyAA",
      "Zq7Rt5Yw3Ue1Io9Pa2Sd4"},
     "<api-key>"},
    {"client = OpenAI(api_key=\"sk-Ab3De5Gh7Jk9Lm1No3Pq5Rs7Tu\")", {"sk-Ab3De5Gh7Jk9Lm1No3Pq5Rs7Tu"}, "<api-key>"},
    {"AWS_ACCESS_KEY_ID=AKIAQWERTYUIOPASDFGH AWS_DEFAULT_REGION=us-east-1", {"AKIAQWERTYUIOPASDFGH"},
     "<aws-access-key-id>"},
    {"botocore: using session key ASIAZXCVBNMASDFGHJKL", {"ASIAZXCVBNMASDFGHJKL"}, "<aws-access-key-id>"},
    {"aws_secret_access_key = Zk3Qm8Rw2Ty6Ui0Op4As8Df2Gh6Jk0Lz4Xc8Vb2N",
     {"Zk3Qm8Rw2Ty6Ui0Op4As8Df2Gh6Jk0Lz4Xc8Vb2N"}, "<aws-secret-key>"},
    {"+ export AWS_SECRET_ACCESS_KEY=\"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"",
     {"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}, "<aws-secret-key>"},
    {"+ git clone https://ghp_R2d2C3poBb8Yoda4Luke5Leia6Han7Solo9Z@github.com/acme/trainer.git",
     {"ghp_R2d2C3poBb8Yoda4Luke5Leia6Han7Solo9Z"}, "<github-token>"},
    {"remote: gho_16C7e42F292c6912E7710c838347Ae178B4a gh auth ok",
     {"gho_16C7e42F292c6912E7710c838347Ae178B4a"}, "<github-token>"},
    {"GH_TOKENS ghu_Pq8Lm2Nx4Bz6Vc8Xa0Sd2Fg4Hj6Kl8 ghr_Zx8Cv6Bn4Mm2Ll0Kk8Jj6Hh4Gg2Ff",
     {"ghu_Pq8Lm2Nx4Bz6Vc8Xa0Sd2Fg4Hj6Kl8", "ghr_Zx8Cv6Bn4Mm2Ll0Kk8Jj6Hh4Gg2Ff"}, "<github-token>"},
    {"token: github_pat_11ABCDEFG0123456789_t0iPLuefjBUO40fhOp5kX2qo0u",
     {"github_pat_11ABCDEFG0123456789_t0iPLuefjBUO40fhOp5kX2qo0u"}, "<"},
    {"pip install git+https://oauth2:glpat-Hq2Wj4Ek6Rl8Tz0Yx1Cv3B@gitlab.example.com/ml/lib.git",
     {"glpat-Hq2Wj4Ek6Rl8Tz0Yx1Cv3B", "oauth2"}, "<user>:<password>@"},
    {"sentry-cli: org token sntrys_eyJpYXQiOjE3MTgwMDAwMDAuNSwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8iLCJyZWdpb25fdXJsIjoi"
     "aHR0cHM6Ly91cy5zZW50cnkuaW8iLCJvcmciOiJhY21lLW1sIn0=_ChoU4AUl8/aAAf7zODiZUxkgtOxOPQvsFBZHCut3xyx",
     {"ChoU4AUl8/aAAf7zODiZUxkgtOxOPQvsFBZHCut3xyx"}, "<registry-token>"},
    /* a value alone under its element: a Sidekiq user:password pair, a percent-encoded token */
    {"<BUNDLE_GEMS__CONTRIBSYS__COMToken>\n    c0ffee12:9a8b7c6d\n</BUNDLE_GEMS__CONTRIBSYS__COMToken>",
     {"c0ffee12:9a8b7c6d"}, "<secret>"},
    {"<twitterToken>\n    AAAAAAAAAAAAAAAAAAAAAM7x2b%2FqR9sT4uV6wX8yZ0aB1cD3eF5gH7iJ9kL%3D\n</twitterToken>",
     {"M7x2b%2FqR9sT4uV6wX8yZ0aB1cD3eF5gH7iJ9kL"}, "<secret>"},
    {"CI_JOB=glpat-Hq2Wj4Ek6Rl8Tz0Yx1Cv3B", {"glpat-Hq2Wj4Ek6Rl8Tz0Yx1Cv3B"}, "<gitlab-token>"},
    {"slack_sdk: posting with xoxb-2048-4096-Gh7Jk9Lq2Ws4Ed6Rf", {"xoxb-2048-4096-Gh7Jk9Lq2Ws4Ed6Rf"},
     "<slack-token>"},
    {"alert hook https://hooks.slack.com/services/T0ACME/B0ACME/q8Wn2Rt5Yu7Io9Pa failed",
     {"T0ACME/B0ACME/q8Wn2Rt5Yu7Io9Pa"}, "<slack-webhook>"},
    {"+ export WANDB_API_KEY=8f14e45fceea167a5a36dedd4bea2543c4ca4238",
     {"8f14e45fceea167a5a36dedd4bea2543c4ca4238"}, "<wandb-key>"},
    {"+ wandb login --relogin 0cc175b9c0f1b6a831c399e269772661aa1b2c3d",
     {"0cc175b9c0f1b6a831c399e269772661aa1b2c3d"}, "<wandb-key>"},
    {"curl -H \"Authorization: Bearer Zm9vYmFyYmF6cXV4cXV1eA.secret\" https://api.example.com",
     {"Zm9vYmFyYmF6cXV4cXV1eA"}, "Authorization: Bearer <secret>"},
    {"requests: headers={'Authorization': 'Basic dXNlcjpwYXNzd29yZA=='}", {"dXNlcjpwYXNzd29yZA=="},
     "Basic <secret>"},
    {"token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjaSJ9.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
     {"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "dBjftJeZ4CVPmB92K27uhbUJU1p1r"}, "<jwt>"},
    {"+ pip install --index-url https://deploy:Xy9Pq2Lm7Wn4@pypi.internal.example.com/simple torch",
     {"Xy9Pq2Lm7Wn4", "deploy:"}, "https://<user>:<password>@pypi.internal.example.com"},
    {"DATABASE_URL=postgres://trainer:s3cr3t-pw@db.internal:5432/runs", {"s3cr3t-pw"},
     "postgres://<user>:<password>@db.internal"},
    {"+ export DB_PASSWORD=Tr0ub4dor-and-3", {"Tr0ub4dor-and-3"}, "DB_PASSWORD=<secret>"},
    {"MY_SERVICE_TOKEN: abcd1234efgh", {"abcd1234efgh"}, "MY_SERVICE_TOKEN: <secret>"},
    {"MINIO_SECRET_KEY=minio-secret-value", {"minio-secret-value"}, "<secret>"},
    {"config: {\"password\": \"hunter2hunter2\", \"user\": \"x\"}", {"hunter2hunter2"}, "<secret>"},
    {"python train.py --hf_token abcdefSECRET123 --max_tokens 100", {"abcdefSECRET123"},
     "--hf_token <secret>"},
    {"S3_ACCESS_KEY=ZXCVBNMASDFG1234", {"ZXCVBNMASDFG1234"}, "<secret>"},
    /* Azure: storage connection strings, AD client secrets */
    {"ValueError: bad conn str DefaultEndpointsProtocol=https;AccountName=ckpt;"
     "AccountKey=Fyya1q79VfsecC5d8qk0FKE3FcGdE1fK9DoXWLCSUqRfNadvWP1yBwdN7TtMCtJ0bZB535ya5Q6wNy6Hajq==;"
     "EndpointSuffix=core.windows.net",
     {"Fyya1q79VfsecC5d8qk0FKE3"}, "AccountKey=<secret>;EndpointSuffix"},
    {"msal: client secret Wk28Q~pL3xV9rT2mN6bQ1sD4fG7hJ0kZ8cX5vB2n rejected",
     {"Wk28Q~pL3xV9rT2mN6bQ1sD4fG7hJ0kZ8cX5vB2n"}, "<azure-client-secret>"},
    /* a GCP service account file */
    {"  \"private_key_id\": \"74f376cd79dfcf7acbacaa34f77259867f8f57fb\",",
     {"74f376cd79dfcf7acbacaa34f77259867f8f57fb"}, "<secret>"},
    /* command lines */
    {"subprocess.CalledProcessError: Command '['mysql', '-u', 'root', '-p2y5Llkct5nDX', 'runs']' "
     "returned non-zero exit status 1.",
     {"2y5Llkct5nDX"}, "-p<password>"},
    {"+ mysql -h db -uroot -pS3cretPass runs", {"S3cretPass"}, "-p<password> runs"},
    {"+ curl -sf -u admin:hunter22x https://artifacts.internal/x", {"hunter22x"}, "-u admin:<password>"},
    {"+ curl --user=admin:hunter22x https://artifacts.internal/x", {"hunter22x"}, "admin:<password>"},
    {"+ sshpass -p Qw3rty9z ssh ml@gpu-node-3", {"Qw3rty9z"}, "sshpass -p <password>"},
    {"+ docker login -u ci -p Dk3rPw9q registry.example.com", {"Dk3rPw9q"}, "-p <password>"},
    {"+ ./sync.sh --password Pw9x7Lm2 --epochs 3", {"Pw9x7Lm2"}, "--password <secret>"},
    /* netrc, on one line and across lines */
    {"machine api.wandb.ai login user password Nt7rc9Pw2x", {"Nt7rc9Pw2x"}, "password <password>"},
    {"machine api.wandb.ai\n  login user\n  password Nt7rc9Pw2x\n", {"Nt7rc9Pw2x"}, "  password <password>"},
    /* tokens of documented formats */
    {"DATABRICKS_TOKEN=dapi0123456789abcdef0123456789abcdef", {"dapi0123456789abcdef0123456789abcdef"}, "<"},
    {"databricks: token dapi0123456789abcdef0123456789abcdef-2 ok", {"dapi0123456789abcdef0123456789abcdef"},
     "<registry-token>"},
    {"op: OP_SERVICE_ACCOUNT_TOKEN ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIsInVzZXJBdXRoIjp7Im1ldGhvZCI6IlNSUGctNDA5NiJ9fQ",
     {"ops_eyJzaWduSW5BZGRyZXNz"}, "<secret-key>"},
    {"sops: age identity AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE",
     {"AGE-SECRET-KEY-1QPZRY9X8GF2"}, "<secret-key>"},
    {"graph api: EAACEdEose0cBAKx7Zq2LmN9pR4tYv2BcD6fGhJk9sAe3UiOyTQw7Er0Ty3Ui6Op9As2Df5Gh8Jk1Lz4Xc7 expired",
     {"EAACEdEose0cBAKx7Zq2LmN9"}, "<social-token>"},
    {"npm notice using npm_Ab3De5Gh7Jk9Lm1No3Pq5Rs7Tu9Vw1Xy3Za5", {"npm_Ab3De5Gh7Jk9Lm1No3Pq5Rs7Tu9Vw1Xy3Za5"},
     "<registry-token>"},
    {"stripe.error.AuthenticationError: Invalid API Key provided: sk_live_Ab3De5Gh7Jk9Lm1No3Pq5Rs7",
     {"sk_live_Ab3De5Gh7Jk9Lm1No3Pq5Rs7"}, "<payment-key>"},
    {"flickrToken := \"Ab3De5Gh7Jk9Lm1No3Pq5Rs7Tu9Vw1Xy\"", {"Ab3De5Gh7Jk9Lm1No3Pq5Rs7Tu9Vw1Xy"}, "<secret>"},
    {"var asanaToken string = \"Ab3De5Gh7Jk9Lm1No3Pq5Rs7Tu9Vw1Xy\"", {"Ab3De5Gh7Jk9Lm1No3Pq5Rs7Tu9Vw1Xy"},
     "<secret>"},
    /* an XML element named for a secret, its value alone on the next line */
    {"<trackerApiToken>\n    vrj8nrifmoi9ytqa46zu8r02266d1zz3\n</trackerApiToken>\n",
     {"vrj8nrifmoi9ytqa46zu8r02266d1zz3"}, "\n    <secret>\n"},
};

static char *mask(struct fl_masker *m, const char *s)
{
    char *out = NULL;
    size_t n = 0;
    assert_int_equal(fl_masker_apply(m, s, strlen(s), &out, &n), FL_OK);
    assert_non_null(out);
    assert_int_equal(strlen(out), n);
    return out;
}

static void no_secret_survives(void **state)
{
    (void)state;
    for (int mode = FL_MASK_ALL; mode <= FL_MASK_SECRETS; mode++) {
        struct fl_masker *m;
        assert_int_equal(fl_masker_new((enum fl_mask_mode)mode, &m), FL_OK);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            char *out = mask(m, cases[i].line);
            for (int j = 0; j < 3 && cases[i].secrets[j]; j++)
                if (strstr(out, cases[i].secrets[j])) {
                    print_error("case %zu: '%s' survives in '%s'\n", i, cases[i].secrets[j], out);
                    fail();
                }
            if (strstr(out, cases[i].expect) == NULL) {
                print_error("case %zu: '%s' lacks '%s'\n", i, out, cases[i].expect);
                fail();
            }
            free(out);
        }
        fl_masker_free(m);
    }
}

/* What must stay: it is what makes a log diagnosable, and none of it is private. */
static void useful_text_stays(void **state)
{
    (void)state;
    static const char *const keep[] = {
        "TOKENIZERS_PARALLELISM=false",
        "step 10 | max_tokens: 2048 | tokens_per_sec: 51234.5 | eos_token: </s> | pad_token=[PAD]",
        "MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 bind 0.0.0.0:8080",
        "terminate called after throwing an instance of 'c10::Error' at c10::cuda::CUDACachingAllocator",
        "cuDNN version 8.9.2.26, NCCL version 2.21.5+cuda12.4",
        "2026-05-01 12:00:03,101 - train - INFO - step 11 loss 2.2987",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.",
        "  File \"/usr/local/lib/python3.10/site-packages/torch/nn/modules/module.py\", line 1553",
        "Collecting flash-attn @ git+https://github.com/Dao-AILab/flash-attention.git@v2.6.3",
        "git@github.com:acme/trainer.git",
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970",
        "+ docker run -u 1000:1000 -p 8080:80 trainer:latest",
        "+ mysql -h db -u root -p runs < schema.sql",
        "psycopg2.OperationalError: FATAL:  password authentication failed for user \"ml\"",
        "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE and ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "tokenizer = AutoTokenizer.from_pretrained(name, token=hf_token)",
        "\"cache_key\": \"InventoryReport-3.4\", public_key = \"7XkPq2mWn9RzT4vLb8HcY3jFs6Dg5NaE1uKoQwBxZeM\"",
        "api_key = ${OPENAI_API_KEY} password = os.environ[\"DB_PASSWORD\"] MAX_NEW_TOKENS=256",
        "redis://cache.internal:6379/0",
        /* a lone value under an element that names no secret, or one that is a word */
        "<checkpointDir>\n    ckpt8nrifmoi9ytqa46zu8r02266\n</checkpointDir>",
        "<apiKey>\n    see_the_vault_entry_for_this\n</apiKey>",
        /* a token that has a provider's prefix but not its documented shape, a token's value
         * too short for any provider, the alphabet typed out, a key block with no key in it */
        "ANTHROPIC_API_KEY=sk-ant-api03-E3iE2jI9fGwa0KHgst-T7qMvQrUXlph_EAlZEqv0aQM5Ju9aFo3Dvgbou"
        "uMDAA",
        "\"token\": \"xoxp-0987654321\" SLACK_TOKEN=xoxb-12 "
        "telegram_token = \"4821:ARRLpJveX5vyL1BBUqXaMc1ge7ulJI9gyVQ\"",
        "SUMO_ACCESS_KEY: Xy7Pq2Lm bot_token = \"token:\"",
        "GOOGLE_API_KEY=AIzaSyabcdefghijklmnopqrstuvwxyz0123456",
        /* a name that says its value is made up */
        "const fakeApiKey = \"c8Fz2Qm7Rt1Wv5Xy9Bn3Kd6Hj\"",
        "dummy_password = \"0WkfjmpmmUovspehtWcRc9Xq\"",
        "MOCK_SECRET=Zr7Yq2Lm9Tx4Vb8Nc3Kd6Hj",
        "nonMatchingToken := \"k2v9qz4tm7xw1rbd\"",
        "-----BEGIN OPENSSH PRIVATE KEY----------END OPENSSH PRIVATE KEY-----",
        "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
        "",
    };
    struct fl_masker *m;
    assert_int_equal(fl_masker_new(FL_MASK_ALL, &m), FL_OK);
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        char *out = mask(m, keep[i]);
        assert_string_equal(out, keep[i]);
        free(out);
    }
    fl_masker_free(m);
}

static void pseudonyms_are_consistent(void **state)
{
    (void)state;
    struct fl_masker *m;
    assert_int_equal(fl_masker_new(FL_MASK_ALL, &m), FL_OK);
    assert_int_equal(fl_masker_add_host(m, "dgx-a100-017"), FL_OK);
    assert_int_equal(fl_masker_add_host(m, "localhost"), FL_OK); /* ignored */
    char *a = mask(m, "dgx-a100-017:2345:2400 [3] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>\n"
                      "[E ProcessGroupNCCL.cpp:1] connection to 10.1.2.4:29500 from dgx-a100-017 lost\n"
                      "  File \"/home/alice/trainer/train.py\", line 42, in <module>\n"
                      "mail maria.garcia@acme-research.org about localhost and 127.0.0.1\n");
    char *b = mask(m, "retry 10.1.2.4 then 10.1.2.3 on dgx-a100-017.cluster.local, dgx-a100-0171 is another\n"
                      "/Users/alice/Library/x and /home/bob/y and maria.garcia@acme-research.org\n"
                      "ib0:fe80::1a2b:3c4d%ib0 and FE80::1A2B:3C4D\n");
    assert_string_equal(a, "host-1:2345:2400 [3] NCCL INFO NET/Socket : Using [0]eth0:ip-1<0>\n"
                           "[E ProcessGroupNCCL.cpp:1] connection to ip-2:29500 from host-1 lost\n"
                           "  File \"/home/user-1/trainer/train.py\", line 42, in <module>\n"
                           "mail <email-1> about localhost and 127.0.0.1\n");
    assert_string_equal(b, "retry ip-2 then ip-1 on host-1.cluster.local, dgx-a100-0171 is another\n"
                           "/Users/user-1/Library/x and /home/user-2/y and <email-1>\n"
                           "ib0:ip-3%ib0 and ip-3\n");
    free(a);
    free(b);
    fl_masker_free(m);
}

/* Hosts are learnt from the prefixes of the text itself, and from Slurm node lists. */
static void hosts_learnt_from_prefixes(void **state)
{
    (void)state;
    struct fl_masker *m;
    assert_int_equal(fl_masker_new(FL_MASK_ALL, &m), FL_OK);
    char *out = mask(m, "SLURM_JOB_NODELIST=gpu-node-[01-04],login-7\n"
                        "scontrol: NodeList=gpu-node-02\n"
                        "gpu-node-03: [rank3]: torch.OutOfMemoryError: CUDA out of memory\n"
                        "May  1 12:00:03 gpu-node-04 kernel: NVRM: Xid 79\n"
                        "trn-7:1:2 [0] NCCL INFO init on trn-7\n"
                        "waiting for gpu-node-01 and login-7\n");
    const char *gone[] = {"gpu-node-0", "login-7", "trn-7"};
    for (size_t i = 0; i < 3; i++)
        if (strstr(out, gone[i])) {
            print_error("'%s' survives in:\n%s", gone[i], out);
            fail();
        }
    assert_non_null(strstr(out, "SLURM_JOB_NODELIST=nodes-1,host-5\n"));
    assert_non_null(strstr(out, "NCCL INFO init on host-6\n"));
    assert_non_null(strstr(out, "torch.OutOfMemoryError"));
    free(out);
    fl_masker_free(m);
}

/* A URL without a user keeps its shape: redis://:password@host is not an e-mail address. */
static void url_without_user(void **state)
{
    (void)state;
    struct fl_masker *m;
    assert_int_equal(fl_masker_new(FL_MASK_ALL, &m), FL_OK);
    char *out = mask(m, "redis.exceptions.AuthenticationError: redis://:s3cr3tPw@cache.example.com:6379/0");
    assert_string_equal(out, "redis.exceptions.AuthenticationError: redis://:<password>@cache.example.com:6379/0");
    free(out);
    fl_masker_free(m);
}

/* DeepSpeed's and Ray's launchers name the workers: those names are hosts everywhere after. */
static void hosts_learnt_from_launchers(void **state)
{
    (void)state;
    struct fl_masker *m;
    assert_int_equal(fl_masker_new(FL_MASK_ALL, &m), FL_OK);
    char *out = mask(m, "[INFO] [launch.py:146:main] WORLD INFO DICT: {'gpu-node-17': [0, 1], 'gpu-node-18': [0, 1]}\n"
                        "[INFO] [runner.py:555:main] Running on the following workers: trn-a7,trn-b8\n"
                        "+ ray start --address=raylet-head-3:6379 --num-gpus 8\n"
                        "lost gpu-node-18 then trn-b8 and raylet-head-3\n");
    const char *gone[] = {"gpu-node-1", "trn-a7", "trn-b8", "raylet-head"};
    for (size_t i = 0; i < 4; i++)
        if (strstr(out, gone[i])) {
            print_error("'%s' survives in:\n%s", gone[i], out);
            fail();
        }
    assert_non_null(strstr(out, "WORLD INFO DICT: {'host-1': [0, 1], 'host-2': [0, 1]}"));
    assert_non_null(strstr(out, "lost host-2 then host-4 and host-5\n"));
    free(out);
    fl_masker_free(m);
}

static void secrets_mode_keeps_private_details(void **state)
{
    (void)state;
    struct fl_masker *m;
    assert_int_equal(fl_masker_new(FL_MASK_SECRETS, &m), FL_OK);
    assert_int_equal(fl_masker_add_host(m, "node-1"), FL_OK);
    const char *in = "node-1: user alice@example.com at 10.0.0.5 in /home/alice/x HF_TOKEN=hf_QzXw8LmNpR4tYv2BcD6fGhJk9sAe3UiOyT";
    char *out = mask(m, in);
    assert_string_equal(out, "node-1: user alice@example.com at 10.0.0.5 in /home/alice/x HF_TOKEN=<hf-token>");
    free(out);
    fl_masker_free(m);
}

static const char pem_log[] =
    "+ cat ~/.ssh/id_ed25519\n"
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDv8Xk2PqLmWn4Rt6Yu8Io0Pa2Sd4Fg6Hj8Kl0ZxCvBnMAAAAJgAAAAAAAAA\n"
    "-----END OPENSSH PRIVATE KEY-----\n"
    "key='-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----' loaded\n"
    "step 12 loss 2.1\n";

static const char pem_masked[] =
    "+ cat ~/.ssh/id_ed25519\n"
    "<private-key>\n"
    "<private-key>\n"
    "<private-key>\n"
    "<private-key>\n"
    "key='<private-key>' loaded\n"
    "step 12 loss 2.1\n";

/* Streaming: any chunking gives the output of one apply, and a key block spans lines. */
/* The masker's output for text written in chunks of `step` bytes, then ended; the caller frees it. */
static char *mask_in_chunks(struct fl_masker *m, const char *text, size_t step)
{
    char *out = NULL;
    size_t olen = 0;
    FILE *f = open_memstream(&out, &olen);
    assert_non_null(f);
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i += step)
        assert_int_equal(fl_masker_write(m, text + i, n - i < step ? n - i : step, f), FL_OK);
    assert_int_equal(fl_masker_end(m, f), FL_OK);
    fclose(f);
    return out;
}

static void streaming_masks_key_blocks_in_any_chunking(void **state)
{
    (void)state;
    size_t steps[] = {1, 3, 7, 64, sizeof pem_log};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        struct fl_masker *m;
        assert_int_equal(fl_masker_new(FL_MASK_ALL, &m), FL_OK);
        char *text = mask_in_chunks(m, pem_log, steps[k]);
        assert_string_equal(text, pem_masked);
        free(text);
        char *out = mask(m, pem_log);
        assert_string_equal(out, pem_masked);
        free(out);
        fl_masker_free(m);
    }
}

/* Kubernetes Secrets as `kubectl get -o yaml` prints them (data before kind) and as manifests
 * hold them (kind first, a block scalar), beside a ConfigMap whose data is no secret. */
static const char k8s_log[] =
    "step 3 loss 2.4\n"
    "apiVersion: v1\n"
    "data:\n"
    "  password: bTBkZWwtcmVnaXN0cnktcHc5\n"
    "  username: YWRtaW4=\n"
    "  # rotated weekly\n"
    "  token: ''\n"
    "kind: Secret\n"
    "metadata:\n"
    "  name: registry-creds\n"
    "type: Opaque\n"
    "---\n"
    "apiVersion: v1\n"
    "kind: Secret\n"
    "type: kubernetes.io/dockerconfigjson\n"
    "data:\n"
    "  .dockerconfigjson: |\n"
    "    eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLmNvbSI6eyJhdXRoIjoiZEdWemREcDBaWE4w\n"
    "    SW4xOWZRPT0ifX19\n"
    "  tls.key: {{ .Values.tlsKey }}\n"
    "---\n"
    "apiVersion: v1\n"
    "kind: ConfigMap\n"
    "data:\n"
    "  LOG_LEVEL: info\n"
    "  note: hello world\n"
    "step 4 loss 2.3\n";

static void k8s_secret_data_is_masked(void **state)
{
    (void)state;
    static const char *const secrets[] = {"bTBkZWwtcmVnaXN0cnktcHc5", "eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxl",
                                          "SW4xOWZRPT0ifX19"};
    static const char *const kept[] = {"  username: YWRtaW4=\n", "  # rotated weekly\n", "  token: ''\n",
                                       "  tls.key: {{ .Values.tlsKey }}\n", "  LOG_LEVEL: info\n",
                                       "  note: hello world\n", "step 4 loss 2.3\n", "  name: registry-creds\n"};
    size_t steps[] = {1, 5, 64, sizeof k8s_log};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        struct fl_masker *m;
        assert_int_equal(fl_masker_new(FL_MASK_SECRETS, &m), FL_OK);
        char *text = mask_in_chunks(m, k8s_log, steps[k]);
        /* whatever the chunks, no value of a Secret survives; cut into lines, a block may not
         * see its object's kind, and then only base64 of random bytes is masked */
        for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
            assert_null(strstr(text, secrets[i]));
        assert_non_null(strstr(text, "  password: <secret>\n"));
        for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
            assert_non_null(strstr(text, kept[i]));
        free(text);
        fl_masker_free(m);
    }
    /* the kind known: a Secret's short value is masked too, a ConfigMap's base64 is not */
    struct fl_masker *m;
    assert_int_equal(fl_masker_new(FL_MASK_SECRETS, &m), FL_OK);
    char *out = mask(m, "apiVersion: v1\nkind: Secret\ndata:\n  pin: MTIzNDU2Nzg=\n"
                        "---\nkind: ConfigMap\ndata:\n  cfg: Y29uZmlnLWZpbGUtY29udGVudHMtMTIz\n");
    assert_string_equal(out, "apiVersion: v1\nkind: Secret\ndata:\n  pin: <secret>\n"
                             "---\nkind: ConfigMap\ndata:\n  cfg: Y29uZmlnLWZpbGUtY29udGVudHMtMTIz\n");
    free(out);
    fl_masker_free(m);
}

/* A line longer than MASK_LINE_MAX is masked in pieces, and nothing is lost or added. */
static void long_lines_are_bounded(void **state)
{
    (void)state;
    size_t n = 3 * MASK_LINE_MAX + 100;
    char *line = malloc(n + 1);
    assert_non_null(line);
    memset(line, 'x', n);
    const char *tok = " HF_TOKEN=hf_QzXw8LmNpR4tYv2BcD6fGhJk9sAe3UiOyT ";
    memcpy(line + 100, tok, strlen(tok));
    line[n] = '\0';
    struct fl_masker *m;
    assert_int_equal(fl_masker_new(FL_MASK_ALL, &m), FL_OK);
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    assert_int_equal(fl_masker_write(m, line, n, f), FL_OK);
    assert_int_equal(fl_masker_write(m, "\nend\n", 5, f), FL_OK);
    assert_int_equal(fl_masker_end(m, f), FL_OK);
    fclose(f);
    assert_null(strstr(text, "hf_QzXw8"));
    assert_non_null(strstr(text, "HF_TOKEN=<hf-token> "));
    assert_int_equal(tlen, n - strlen("hf_QzXw8LmNpR4tYv2BcD6fGhJk9sAe3UiOyT") + strlen("<hf-token>") + 5);
    free(text);
    free(line);
    fl_masker_free(m);
}

static void bad_arguments(void **state)
{
    (void)state;
    struct fl_masker *m;
    assert_int_equal(fl_masker_new((enum fl_mask_mode)7, &m), FL_ERR_USAGE);
    assert_int_equal(fl_masker_new(FL_MASK_ALL, &m), FL_OK);
    char *out;
    assert_int_equal(fl_masker_apply(m, NULL, 3, &out, NULL), FL_ERR_USAGE);
    assert_int_equal(fl_masker_apply(m, "", 0, &out, NULL), FL_OK);
    assert_string_equal(out, "");
    free(out);
    assert_int_equal(fl_masker_add_host(m, NULL), FL_ERR_USAGE);
    fl_masker_free(m);
    fl_masker_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_secret_survives),
        cmocka_unit_test(useful_text_stays),
        cmocka_unit_test(pseudonyms_are_consistent),
        cmocka_unit_test(hosts_learnt_from_prefixes),
        cmocka_unit_test(url_without_user),
        cmocka_unit_test(hosts_learnt_from_launchers),
        cmocka_unit_test(secrets_mode_keeps_private_details),
        cmocka_unit_test(streaming_masks_key_blocks_in_any_chunking),
        cmocka_unit_test(k8s_secret_data_is_masked),
        cmocka_unit_test(long_lines_are_bounded),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
