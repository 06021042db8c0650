/* anynet.h: BookSim2's anynet network files (anynet.c), for the SPEC
 * anynet:FILE (topo.c's registry, through fabrics.h) and for app/booksim.c,
 * which reads `topology = anynet; network_file = FILE;` as that SPEC.
 *
 * The file format, what noctua builds from it and what it refuses:
 * docs/fabrics/anynet.md. */
#ifndef NOC_ANYNET_H
#define NOC_ANYNET_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Read anynet file `path` as anynet:FILE would, and give the latency every
 * router-to-router channel takes when the file is run as BookSim2 runs it
 * (a link without a latency takes 1 cycle). 0 with that latency in *lat
 * and the number of nodes in *nodes when all channels take the same; -1 with the reason in why ("FILE:LINE:
 * ..." where a line is to blame) when the file is refused, or when two
 * channels take different latencies (BookSim2 returns each channel's
 * credits over that channel's latency, noctua's credit loop is one value:
 * credit_delay). */
int noc_anynet_uniform_latency(const char *path, int *lat, int *nodes, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif
