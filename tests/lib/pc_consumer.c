/*
 * pc_consumer.c — a program built against an installed libfaultline through pkg-config alone:
 * it diagnoses PATH with the embedded knowledge base and prints the first diagnosis id and its
 * initiating rank. Used by tests/meta/install-library.sh.
 */
#include <faultline.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    struct fl_kb *kb = NULL;
    struct fl_scanner *s = NULL;
    struct fl_report *r = NULL;
    struct fl_error err = {0};
    int rc = 1;
    if (argc != 2) {
        fprintf(stderr, "usage: pc_consumer PATH\n");
        return 2;
    }
    if (fl_kb_new(&kb) != FL_OK || fl_kb_add_embedded(kb, &err) != FL_OK ||
        fl_kb_compile(kb, &err) != FL_OK || fl_scanner_new(kb, NULL, &s) != FL_OK ||
        fl_scan_path(s, argv[1], &err) != FL_OK || fl_scanner_finish(s, &r) != FL_OK) {
        fprintf(stderr, "pc_consumer: %s\n", err.msg);
        goto out;
    }
    if (fl_report_diagnosis_count(r) > 0)
        printf("%s %ld\n", fl_report_diagnosis_id(r, 0), fl_report_diagnosis_rank(r, 0));
    rc = 0;
out:
    fl_report_free(r);
    fl_scanner_free(s);
    fl_kb_free(kb);
    return rc;
}
