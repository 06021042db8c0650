/* run_load.h: reading back the JSON of `noctua run --json` (noctua draw
 * --load): its topology, its per-link table, and with energy= its links'
 * and routers' energy (energy.links[], energy.routers[]). */
#ifndef NOC_RUN_LOAD_H
#define NOC_RUN_LOAD_H
#include <stddef.h>

/* One entry of the run's "links" array. */
typedef struct noc_run_link {
    const char *from, *to;   /* NULL when missing or not a string */
    const char *cls;         /* "class", NULL when missing */
    int has_util;            /* "utilisation" is a number */
    double util;
    long long flits;         /* "flits" (0 when missing) */
    int has_pj;              /* energy.links[]: "total_pj" is a number */
    double pj;
} noc_run_link_t;

/* One entry of energy.routers[]: "node" and "router_pj". */
typedef struct noc_run_router {
    const char *node;        /* NULL when missing */
    int has_pj;
    double pj;
} noc_run_router_t;

typedef struct noc_run_load {
    const char *topology;    /* the run's SPEC, NULL when missing */
    int has_links;           /* it has a "links" array */
    size_t n_links;
    noc_run_link_t *links;
    int has_energy;          /* it has "energy" with a "links" array */
    size_t n_elinks, n_erouters;
    noc_run_link_t *elinks;  /* energy.links[] */
    noc_run_router_t *erouters; /* energy.routers[] (node_stats = 1), else none */
    int summarised;          /* "json_tables": "summary": its channel tables summarised */
    void *doc;               /* the parsed document (owns the strings) */
} noc_run_load_t;

/* Read path into r. Returns 0, or -1 with "PATH:LINE: why" (or the reason
 * it could not be opened) in err. */
int noc_run_load(noc_run_load_t *r, const char *path, char *err, size_t errlen);
void noc_run_load_free(noc_run_load_t *r);

#endif
