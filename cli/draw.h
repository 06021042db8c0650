/* draw.h: the geometry of `noctua draw` (cli/draw_layout.c): node positions
 * in points, the links between them and the arcs that bend a link around
 * nodes it would cross. cmd_draw.c turns a drawing into DOT for Graphviz. */
#ifndef NOC_DRAW_H
#define NOC_DRAW_H
#include <stddef.h>
#include <stdint.h>
#include "topologies/topo.h"

#define BEND_WORK 40000000.0 /* links x nodes up to which bends are computed */
#define FONT_PT 10.0
#define PI 3.14159265358979323846

typedef struct pt {
    double x, y;
} pt_t;

typedef struct link {
    int g;              /* the link's lower global port, at node u */
    int u, v;
    int cls;
    double bow;         /* arc height in points, left of u -> v (0: straight) */
    double shape;       /* how steeply the arc leaves its ends (see arc_height_at) */
    double util[2];     /* utilisation u -> v and v -> u (--metric energy: pJ); -1: no entry */
    long long flits[2];
} link_t;

/* The cluster view (cli/draw_cluster.c): BSN and OTIS fabrics of at least
 * CLUSTER_MIN nodes are drawn a box per group unless --detail. */
#define CLUSTER_MIN 512

typedef struct cluster_edge {
    int a, b;           /* groups, a < b; count 0: an empty slot */
    int count;          /* links between them */
    int cls;            /* the class of (the last of) those links */
    double util_max;    /* the busiest direction of any of them (--load) */
    double util_sum;    /* both directions of every one of them */
} cluster_edge_t;

typedef struct clusters {
    int n;              /* groups */
    int *of;            /* per node: its group */
    char (*names)[72];  /* per group: "part0/group3" */
    pt_t *pos;          /* per group: the mean of its nodes' centres */
    int *size;          /* per group: nodes */
    int *intra;         /* per group: links inside it */
    cluster_edge_t *slot; /* hash table of the edges between groups */
    size_t cap;
    int n_edges;
} clusters_t;

typedef struct drawing {
    noc_topo_t *t;
    int n;
    pt_t *p;            /* node centres, points */
    double r;           /* node radius, points */
    double spacing;     /* distance of the closest two nodes, points */
    int labels;
    int n_links;
    link_t *links;
    int loaded;         /* --load given */
    int energy;         /* --metric energy: util[] holds each direction's energy, pJ */
    double *node_pj;    /* --metric energy: per node its router's energy, pJ (-1: none); NULL: none */
    double nmax;        /* the largest of node_pj */
    double umax;        /* utilisation that maps to full red */
    int relative;       /* umax is the hottest link's (else 1) */
    const char *layout; /* "topology", "grid" or "circle" */
    clusters_t *clusters; /* the cluster view, or NULL */
} drawing_t;

/* Is t (with n nodes) drawn as clusters unless --detail? */
int noc_draw_wants_clusters(const noc_topo_t *t, int n);
/* The groups of dw's fabric and the edges between them (after its links
 * and their load are in); freed by noc_draw_free_clusters. */
void noc_draw_make_clusters(drawing_t *dw);
void noc_draw_free_clusters(drawing_t *dw);

/* Node positions for t in the layout `want` ("topology", "grid" or
 * "circle"; the fabric's own falls back to a grid or a circle), y downward;
 * returns the name of the layout used. */
const char *noc_draw_place(const noc_topo_t *t, const char *want, pt_t *p);
/* Node size, spacing, and positions in points with a margin. */
void noc_draw_scale(drawing_t *dw);
/* One link_t per link of the fabric. */
void noc_draw_collect_links(drawing_t *dw);
/* Bend every link that would run through a node it does not end at, to the
 * side that needs the smaller arc, and fan out parallel links. */
void noc_draw_bend(drawing_t *dw);
/* The cubic Bezier of link l travelling from its end `from` (0: u, 1: v),
 * moved sideways by `side` points to the right of the direction of travel. */
void noc_draw_curve(const drawing_t *dw, const link_t *l, int from, double side, pt_t c[4]);
/* End point e moved toward control point `to` by d. */
pt_t noc_draw_toward(pt_t e, pt_t to, double d);

#endif
