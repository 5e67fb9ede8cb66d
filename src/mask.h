/*
 * mask.h — masking at ingress (internal). The public API is in faultline.h (fl_masker_*,
 * fl_mask_path, fl_report_mask); this header holds the bounds the implementation and its tests
 * share.
 *
 * Why masking lives in the library and not in the program: every output path (the three report
 * formats, `faultline mask`, error messages) must be masked the same way, with the same
 * pseudonyms, and a library user who prints a report must not be able to forget it.
 */
#ifndef FL_MASK_H
#define FL_MASK_H

#include "faultline.h"

/* Longest line masked as one piece; a longer line is masked in pieces of this size, and a
 * secret cut by a piece boundary may escape. */
#define MASK_LINE_MAX (64u * 1024u)
/* Lines of a private key block masked before giving up on its END line */
#define MASK_PEM_MAX_LINES 512u
/* Lines of a Kubernetes Secret's data block masked before the block is taken to have ended, and
 * lines looked at around a data: line for the object's kind */
#define MASK_K8S_MAX_LINES 4096u
#define MASK_K8S_LOOK_LINES 256u
/* Entries of each pseudonym table; past it the pseudonym is generic (<ip>, <host>) */
#define MASK_TABLE_MAX (1u << 20)
/* Host names registered per masker */
#define MASK_HOSTS_MAX 65536u

#endif
