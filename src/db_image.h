/*
 * db_image.h — a Vectorscan database shipped as its in-memory image, used where it lies.
 *
 * hs_deserialize_database copies a serialised database into fresh heap memory (zeroed, filled,
 * checksummed) at every start: for the knowledge base's and the masker's databases about 85
 * fresh pages, each a page fault, which on a virtual machine costs tens of microseconds. A
 * database Vectorscan has deserialised is position independent (its header holds the offset
 * of its bytecode, which hs_deserialize_database_at aligns to 64 bytes from where it writes),
 * so the build deserialises it once at a 64-byte aligned address and writes those bytes as
 * read-only data aligned the same way: the program then scans with the data in place, its pages
 * already mapped with the program's (app/prefault.c). Before use, hs_alloc_scratch checks the
 * image as it checks a database mapped from a file (magic, version, this CPU's features,
 * alignment and checksum); an image that fails is not used, and the caller compiles instead.
 */
#ifndef FL_DB_IMAGE_H
#define FL_DB_IMAGE_H

#include <hs/hs.h>
#include <stdio.h>

/* Build time: writes "_Alignas(64) static const unsigned char NAME[] = {...};" holding db's
 * in-memory image, and its length to *len. Returns 0, or -1 when db cannot be imaged. */
int db_image_write(FILE *out, const char *name, const hs_database_t *db, size_t *len);

/* Run time: the database of the image of len bytes at img, or NULL when this Vectorscan cannot
 * run it here (another version or CPU, a misaligned copy). A scratch for it is allocated into
 * *scratch (which the check needs anyway); with scratch NULL it is freed again. The database
 * is read-only and borrowed: never pass it to hs_free_database. */
hs_database_t *db_image_use(const unsigned char *img, size_t len, hs_scratch_t **scratch);

#endif
