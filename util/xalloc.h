/* xalloc.h: allocation for set-up code. Running out of memory is the third
 * tier of errors (STYLE.md): abort with a message, no recovery. Never used
 * in the cycle loop. */
#ifndef NOC_XALLOC_H
#define NOC_XALLOC_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* calloc that aborts with a message naming `what` when memory runs out;
 * zero counts still give a distinct pointer. */
void *noc_xcalloc(size_t n, size_t size, const char *what);

#ifdef __cplusplus
}
#endif
#endif
