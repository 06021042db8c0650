/* xalloc.c: noc_xcalloc. */
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>

void *noc_xcalloc(size_t n, size_t size, const char *what)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "noctua: out of memory (%s: %zu x %zu bytes)\n", what, n, size);
        abort();
    }
    return p;
}
