/* xalloc.c (util/): noc_xcalloc, noc_xmalloc, noc_xrealloc, noc_oom. */
#include "util/xalloc.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void noc_oom(const char *what, size_t bytes)
{
    if (bytes)
        fprintf(stderr, "noctua: out of memory (%s: %zu bytes)\n", what, bytes);
    else
        fprintf(stderr, "noctua: out of memory (%s)\n", what);
    exit(4);
}

void *noc_xcalloc(size_t n, size_t size, const char *what)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        noc_oom(what, size && n > SIZE_MAX / size ? SIZE_MAX : n * size);
    return p;
}

void *noc_xmalloc(size_t size, const char *what)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        noc_oom(what, size);
    return p;
}

void *noc_xrealloc(void *p, size_t size, const char *what)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        noc_oom(what, size);
    return q;
}
