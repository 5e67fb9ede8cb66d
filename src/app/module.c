/*
 * module.c — commands that live in a module of the program, opened with dlopen when they run.
 *
 * `faultline serve` and `kb export --html` need libmicrohttpd (and with it GnuTLS and its eight
 * libraries), SQLite, md4c and nettle; `faultline watch` needs libmicrohttpd. Linked into the
 * program, those seventeen shared objects were found, mapped and relocated at every start of
 * every command, most of the start-up time of a small diagnosis. Built as modules, they load
 * only for the commands that use them. A module takes the library's fl_ API and the program's
 * app_ helpers from the program itself (src/app/exports.list), so there is one engine and one
 * knowledge base per process.
 *
 * A module is looked for next to the program (the build tree), then in the installed modules'
 * folder, FL_MODULE_DIR, relative to the program's own folder. That folder is read from
 * /proc/self/exe, not written as $ORIGIN: glibc expands $ORIGIN in a dlopen file name to the
 * folder of the object that calls dlopen, and under AddressSanitizer that caller is the
 * sanitizer's runtime, whose dlopen interceptor sits in between.
 */
#include "app.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The program's folder into dir; "$ORIGIN" (the best dlopen can do) when /proc is not there. */
static void program_dir(char *dir, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", dir, size - 1);
    char *slash = n > 0 ? memrchr(dir, '/', (size_t)n) : NULL;
    if (slash == NULL) {
        snprintf(dir, size, "$ORIGIN");
        return;
    }
    *slash = '\0';
}

int app_run_module(const char *module, const char *entry, int argc, char **argv)
{
    char dir[4096];
    program_dir(dir, sizeof dir);
    const char *subdirs[] = {"", "/" FL_MODULE_DIR};
    char path[4608], first_error[1024] = "";
    void *lib = NULL;
    for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0] && lib == NULL; i++) {
        snprintf(path, sizeof path, "%s%s/%s", dir, subdirs[i], module);
        lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL && i == 0)
            snprintf(first_error, sizeof first_error, "%s", dlerror());
    }
    if (lib == NULL) {
        /* a module that is there but cannot load (a missing library) says so in the first
         * error; a module that is nowhere, in both */
        fprintf(stderr, "faultline: %s: cannot open %s: %s; %s\n", argv[0], module, first_error,
                dlerror());
        return 2;
    }
    /* POSIX makes dlsym's void * convertible to a function pointer */
    int (*run)(int, char **) = (int (*)(int, char **))dlsym(lib, entry);
    if (run == NULL) {
        fprintf(stderr, "faultline: %s: %s has no %s: %s\n", argv[0], module, entry, dlerror());
        dlclose(lib);
        return 2;
    }
    /* the module stays loaded until exit: its threads and atexit handlers may outlive run() */
    return run(argc, argv);
}
