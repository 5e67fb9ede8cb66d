/* app.h — the faultline program's commands. Each returns the process exit code. */
#ifndef FL_APP_H
#define FL_APP_H

#include "faultline.h"

int cmd_diagnose(int argc, char **argv);
int cmd_kb(int argc, char **argv);

/* The KB the program uses: the embedded entries, plus --kb folders. Prints errors itself. */
struct fl_kb *app_load_kb(const char *const *dirs, int ndirs);

#endif
