/*
 * cmd_watch.c — `faultline watch`: the command line of the live watcher (src/watch/).
 *
 * Exit status: as diagnose's, for the report at exit (0 no known failure, 1 at least one
 * diagnosis, 2 usage error or nothing to follow).
 */
#include "app.h"
#include "../watch/watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KB_DIRS 16
#define MAX_WEBHOOKS 8

static void help(FILE *out)
{
    fputs("usage: faultline watch [options] PATH...\n"
          "\n"
          "Follows the logs of a running job (files and folders, recursively: new rank files,\n"
          "rotation, copytruncate and deletion are handled) and diagnoses them as they grow, with\n"
          "the same engine and report as diagnose. Each diagnosis is alerted once, after a drain\n"
          "window; ranks that stop printing training progress raise a hang alert. Stops on\n"
          "SIGINT/SIGTERM (or --exit-after-idle) and prints the final report like diagnose.\n"
          "\n"
          "alerts (a line on stderr always, unless --quiet):\n"
          "  --events FILE         append one JSON object per event (JSON Lines): the diagnosis\n"
          "                        object of diagnose --format json, plus \"event\" (diagnosis, hang,\n"
          "                        recovered) and \"time\"\n"
          "  --exec CMD            run CMD (/bin/sh -c) per event: JSON on stdin, FAULTLINE_EVENT,\n"
          "                        FAULTLINE_ID, FAULTLINE_RANK, FAULTLINE_HOST, ... in the environment\n"
          "  --webhook URL         POST each event as JSON (Slack-compatible \"text\" plus the event\n"
          "                        under \"faultline\"); repeatable; retried with backoff\n"
          "  --webhook-retries N   attempts after the first (default 3)\n"
          "  --webhook-backoff MS  first wait between attempts, doubled each time (default 1000)\n"
          "  --drain SECONDS       wait this long after a diagnosis first shows, for the other ranks'\n"
          "                        late lines, before alerting (default 10)\n"
          "  --quiet               no alert lines on stderr\n"
          "\n"
          "hangs:\n"
          "  --hang-after SECONDS  a rank is hung when quiet longer than the larger of this and\n"
          "                        --hang-factor times its median step time (default 300)\n"
          "  --hang-factor N       (default 10)\n"
          "  --on-hang CMD         run CMD on a hang (FAULTLINE_PY_SPY holds the py-spy commands)\n"
          "\n"
          "metrics (Prometheus):\n"
          "  --metrics-listen ADDR:PORT  serve /metrics over HTTP (e.g. 127.0.0.1:9464)\n"
          "  --metrics-textfile PATH     write them for node_exporter's textfile collector\n"
          "\n"
          "reading:\n"
          "  --poll SECONDS        stat-poll period, for NFS/Lustre where inotify sees nothing from\n"
          "                        other nodes (default 1)\n"
          "  --no-inotify          poll only\n"
          "  --exit-after-idle SECONDS  stop when nothing was written for this long\n"
          "\n"
          "report at exit:\n"
          "  --format FMT          text (default), json or markdown; --no-report: none\n"
          "  --no-report\n"
          "  --kb DIR              add the knowledge-base entries under DIR; repeatable\n"
          "  --mask MODE           all (default) or secrets; --no-mask: as in the logs (alerts too)\n"
          "  --no-mask\n"
          "  -h, --help            this help\n",
          out);
}

/* SECONDS (may be fractional) into ms; false unless 0 <= v <= max_s. */
static bool seconds(const char *v, double max_s, int64_t *ms)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || d < 0 || d > max_s)
        return false;
    *ms = (int64_t)(d * 1000.0 + 0.5);
    return true;
}

int cmd_watch(int argc, char **argv)
{
    struct watch_opts o = {.drain_ms = 10000, .poll_ms = 1000, .snapshot_ms = 100,
                           .inotify = true, .webhook_retries = 3, .webhook_backoff_ms = 1000,
                           .stall = {.min_quiet_ms = 300000, .cadence_factor = 10},
                           .final_report = true, .report = {.format = FL_FORMAT_TEXT},
                           .mask = FL_MASK_ALL};
    const char *kb_dirs[MAX_KB_DIRS], *hooks[MAX_WEBHOOKS];
    int nkb = 0, nhooks = 0, mr;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    size_t npaths = 0;
    int rc = 2;
    if (paths == NULL)
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            help(stdout);
            rc = 0;
            goto out;
        } else if (strcmp(a, "--events") == 0 && val) {
            o.alerts.events_path = argv[++i];
        } else if (strcmp(a, "--exec") == 0 && val) {
            o.alerts.exec_cmd = argv[++i];
        } else if (strcmp(a, "--on-hang") == 0 && val) {
            o.alerts.on_hang_cmd = argv[++i];
        } else if (strcmp(a, "--webhook") == 0 && val) {
            if (nhooks == MAX_WEBHOOKS) {
                fprintf(stderr, "faultline: at most %d --webhook URLs\n", MAX_WEBHOOKS);
                goto out;
            }
            if (strncmp(val, "http://", 7) != 0 && strncmp(val, "https://", 8) != 0) {
                fprintf(stderr, "faultline: --webhook takes an http:// or https:// URL\n");
                goto out;
            }
            hooks[nhooks++] = argv[++i];
        } else if (strcmp(a, "--webhook-retries") == 0 && val) {
            long n = strtol(argv[++i], NULL, 10);
            if (n < 0 || n > 20) {
                fprintf(stderr, "faultline: --webhook-retries takes 0 to 20\n");
                goto out;
            }
            o.webhook_retries = (unsigned)n;
        } else if (strcmp(a, "--webhook-backoff") == 0 && val) {
            long n = strtol(argv[++i], NULL, 10);
            if (n < 1 || n > 600000) {
                fprintf(stderr, "faultline: --webhook-backoff takes 1 to 600000 (ms)\n");
                goto out;
            }
            o.webhook_backoff_ms = (unsigned)n;
        } else if (strcmp(a, "--drain") == 0 && val) {
            if (!seconds(argv[++i], 3600, &o.drain_ms)) {
                fprintf(stderr, "faultline: --drain takes 0 to 3600 seconds\n");
                goto out;
            }
        } else if (strcmp(a, "--hang-after") == 0 && val) {
            if (!seconds(argv[++i], 7 * 86400, &o.stall.min_quiet_ms) || o.stall.min_quiet_ms < 100) {
                fprintf(stderr, "faultline: --hang-after takes 0.1 to 604800 seconds\n");
                goto out;
            }
        } else if (strcmp(a, "--hang-factor") == 0 && val) {
            long n = strtol(argv[++i], NULL, 10);
            if (n < 1 || n > 1000) {
                fprintf(stderr, "faultline: --hang-factor takes 1 to 1000\n");
                goto out;
            }
            o.stall.cadence_factor = (unsigned)n;
        } else if (strcmp(a, "--metrics-listen") == 0 && val) {
            o.metrics_listen = argv[++i];
        } else if (strcmp(a, "--metrics-textfile") == 0 && val) {
            o.metrics_textfile = argv[++i];
        } else if (strcmp(a, "--poll") == 0 && val) {
            if (!seconds(argv[++i], 3600, &o.poll_ms) || o.poll_ms < 10) {
                fprintf(stderr, "faultline: --poll takes 0.01 to 3600 seconds\n");
                goto out;
            }
        } else if (strcmp(a, "--no-inotify") == 0) {
            o.inotify = false;
        } else if (strcmp(a, "--exit-after-idle") == 0 && val) {
            if (!seconds(argv[++i], 30 * 86400, &o.exit_idle_ms) || o.exit_idle_ms == 0) {
                fprintf(stderr, "faultline: --exit-after-idle takes a positive number of seconds\n");
                goto out;
            }
        } else if (strcmp(a, "--quiet") == 0) {
            o.alerts.quiet = true;
        } else if (strcmp(a, "--no-report") == 0) {
            o.final_report = false;
        } else if (strcmp(a, "--format") == 0 && val) {
            val = argv[++i];
            if (strcmp(val, "json") == 0)
                o.report.format = FL_FORMAT_JSON;
            else if (strcmp(val, "markdown") == 0 || strcmp(val, "md") == 0)
                o.report.format = FL_FORMAT_MARKDOWN;
            else if (strcmp(val, "text") == 0)
                o.report.format = FL_FORMAT_TEXT;
            else {
                fprintf(stderr, "faultline: unknown format '%s' (text, json, markdown)\n", val);
                goto out;
            }
        } else if (strcmp(a, "--kb") == 0 && val) {
            if (nkb == MAX_KB_DIRS) {
                fprintf(stderr, "faultline: at most %d --kb folders\n", MAX_KB_DIRS);
                goto out;
            }
            kb_dirs[nkb++] = argv[++i];
        } else if ((mr = app_mask_option(argc, argv, &i, &o.mask)) != 0) {
            if (mr < 0)
                goto out;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "faultline: unknown or incomplete option '%s'\n", a);
            help(stderr);
            goto out;
        } else {
            paths[npaths++] = a;
        }
    }
    if (npaths == 0) {
        fprintf(stderr, "faultline: watch needs at least one PATH (a log file or a folder)\n");
        help(stderr);
        goto out;
    }
    o.paths = paths;
    o.npaths = npaths;
    o.webhooks = hooks;
    o.nwebhooks = (size_t)nhooks;
    struct fl_kb *kb = app_load_kb(kb_dirs, nkb);
    if (kb == NULL)
        goto out;
    rc = watch_run(kb, &o);
    fl_kb_free(kb);
out:
    free(paths);
    return rc;
}
