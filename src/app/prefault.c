/*
 * prefault.c — maps the program's and its libraries' file pages in a few system calls, before
 * anything else runs.
 *
 * The program is large (the Vectorscan runtime and compiler, the embedded knowledge base: about
 * 12 MB of code and read-only data) and a diagnosis of a small log touches code and tables
 * scattered all over it and over libc: about 80 page faults on file pages, each mapping the
 * 64 KB around the faulting address. On a virtual machine a page fault can be a trap to the
 * hypervisor: measured at about 30 us each on the 2-core VM of bench/, where page faults were
 * most of a small diagnosis's CPU time, while MADV_POPULATE_READ maps all of the program's and
 * libc's pages, already in the page cache, in about 0.4 ms (a fault then maps 64 KB, this the
 * whole file, so the saving is smaller on bare metal, where a fault costs about a microsecond).
 * The constructor's priority runs it before the C++ runtime's and Vectorscan's static
 * constructors. Writable segments are left alone: their pages are copied at the first write
 * anyway. Kernels before 5.14 refuse the advice, and the pages are faulted in as before.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr */
#endif
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static int populate_program(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    (void)ctx;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
            continue;
        uintptr_t lo = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
        uintptr_t hi = info->dlpi_addr + ph->p_vaddr + ph->p_filesz;
        if (hi > lo)
            (void)madvise((void *)lo, hi - lo, MADV_POPULATE_READ);
    }
    return 0; /* on to the next object: the program first, then the libraries */
}

__attribute__((constructor(101))) static void prefault_program(void)
{
#ifdef MADV_POPULATE_READ
    dl_iterate_phdr(populate_program, NULL);
#endif
}
