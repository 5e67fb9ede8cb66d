/*
 * main.c — the faultline program: a thin user of libfaultline. It parses the command line,
 * calls the library and picks the exit code; it never reaches into the library's internals
 * (its build sees only include/).
 */
#include "app.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fputs("usage: faultline <command> [options]\n"
          "\n"
          "Tells why a distributed training run failed, from its logs.\n"
          "\n"
          "commands:\n"
          "  diagnose [--format text|json|markdown] [--kb DIR] [--explain] [--no-mask] PATH...\n"
          "                      diagnose logs: files, folders, .gz/.zst/.tar* archives, - for stdin\n"
          "  mask [--mask all|secrets] [PATH...]\n"
          "                      write the logs with secrets and private details masked\n"
          "  stacks PATH...      group ranks by their py-spy / faulthandler stacks (hangs)\n"
          "  watch [options] PATH...\n"
          "                      follow a running job's logs: alerts, hang detection, metrics\n"
          "  kb list             one line per knowledge-base entry: id, category, title\n"
          "  kb show ID          an entry, for a terminal\n"
          "  kb search WORDS     entries ranked by title, tags, symptoms and signal text\n"
          "  kb lint [DIR]       check entries (default: kb) and their fixtures\n"
          "  kb patterns         every pattern, one per line, for grep -E -f / rg -f\n"
          "  kb export --html DIR  the encyclopedia as a static web site\n"
          "  serve [--listen ADDR:PORT] [--db PATH] [--kb DIR] [--config FILE]\n"
          "                      the diagnosis page, encyclopedia and JSON API (default 127.0.0.1:8080)\n"
          "  version             print the version\n"
          "\n"
          "Run 'faultline <command> --help' for a command's options.\n"
          "Exit status of diagnose: 0 no known failure, 1 at least one diagnosis, 2 usage or input\n"
          "error, or input read only in part with nothing found (see faultline(1)).\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "diagnose") == 0)
        return cmd_diagnose(argc - 1, argv + 1);
    if (strcmp(cmd, "mask") == 0)
        return cmd_mask(argc - 1, argv + 1);
    if (strcmp(cmd, "stacks") == 0)
        return cmd_stacks(argc - 1, argv + 1);
    if (strcmp(cmd, "serve") == 0)
        return app_run_module("faultline-serve.so", "cmd_serve", argc - 1, argv + 1);
    if (strcmp(cmd, "kb") == 0)
        return cmd_kb(argc - 1, argv + 1);
    if (strcmp(cmd, "watch") == 0) /* live watching: src/app/cmd_watch.c over src/watch/ */
        return app_run_module("faultline-watch.so", "cmd_watch", argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("faultline %s\n", FL_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "faultline: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
