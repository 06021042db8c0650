/* xalloc.h (util/): allocation for set-up code. Running out of memory is the
 * third tier of errors (STYLE.md): no recovery, but never a crash either:
 * a message naming what was being allocated, and exit status 4 through
 * exit(), so that the output layer's temporaries are removed
 * (util/outfile.h). A run normally never gets here: noc_sim_create and the
 * program engine refuse a run whose estimated memory does not fit before
 * allocating it (docs/reliability.md, "Resources"). Never used in the cycle
 * loop. */
#ifndef NOC_XALLOC_H
#define NOC_XALLOC_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* calloc that ends the run (noc_oom) when memory runs out; zero counts
 * still give a distinct pointer. */
void *noc_xcalloc(size_t n, size_t size, const char *what);
/* malloc and realloc that end the run when memory runs out. */
void *noc_xmalloc(size_t size, const char *what);
void *noc_xrealloc(void *p, size_t size, const char *what);

/* "noctua: out of memory (WHAT: N bytes)" on stderr, exit status 4. */
#if defined(__cplusplus)
[[noreturn]]
#else
_Noreturn
#endif
void noc_oom(const char *what, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
