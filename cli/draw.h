/* draw.h: the geometry of `noctua draw` (cli/draw_layout.c): node positions
 * in points, the links between them and the arcs that bend a link around
 * nodes it would cross. cmd_draw.c turns a drawing into DOT for Graphviz. */
#ifndef NOC_DRAW_H
#define NOC_DRAW_H
#include <stddef.h>
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
    double util[2];     /* utilisation u -> v and v -> u; -1: no entry */
    long long flits[2];
} link_t;

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
    double umax;        /* utilisation that maps to full red */
    int relative;       /* umax is the hottest link's (else 1) */
    const char *layout; /* "topology", "grid" or "circle" */
} drawing_t;

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
