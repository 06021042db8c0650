/* classes.h: BookSim2's traffic classes (classes > 1): one synthetic
 * source per class at every terminal, each with its own rate, packet size,
 * pattern and injection process (class_injection_rate, class_packet_size,
 * class_traffic, class_injection_process). The kernel numbers the sources
 * class-major, source c * T + t for class c of terminal t (T terminals),
 * and hands that number to the ops as their node; class 0's sources are
 * the terminals' own numbers. */
#ifndef NOC_TRAFFIC_CLASSES_H
#define NOC_TRAFFIC_CLASSES_H
#include <stddef.h>
#include "model/config.h"
#include "model/traffic_if.h"
#include "traffic/synthetic.h"
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_MAX_CLASSES 8

typedef struct noc_class_traffic {
    int classes, terms;
    int plain; /* one class and no class_ list: syn[0] is the source itself */
    noc_synthetic_t syn[NOC_MAX_CLASSES];
} noc_class_traffic_t;

/* Split list (comma-separated; commas inside parentheses or braces belong
 * to their item) into `classes` items of at most itemlen bytes each,
 * repeating the last item when the list is shorter (BookSim2's vectors).
 * An empty list gives `dflt` for every class. Returns 0, or -1 with a
 * message naming `key` (more items than classes, an empty item, too long). */
int noc_class_list(const char *key, const char *list, const char *dflt, int classes, char (*items)[256],
                   char *err, size_t errlen);

/* Set up cfg->classes sources per terminal of t (one class without class_
 * lists: the plain synthetic source, noc_synthetic_init's). 0, or -1 with
 * a message naming the parameter (and class) in err; after either,
 * noc_class_traffic_free is safe. */
int noc_class_traffic_init(noc_class_traffic_t *ct, const noc_config_t *cfg, const noc_topo_t *t, char *err,
                           size_t errlen);
noc_traffic_t noc_class_traffic(noc_class_traffic_t *ct);
void noc_class_traffic_free(noc_class_traffic_t *ct);

#ifdef __cplusplus
}
#endif
#endif
