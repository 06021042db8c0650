/* cmesh.c: the concentrated mesh, cmesh:AxB[:CXxCY]: a mesh of A x B
 * routers, each with CX x CY terminals (default 2x2: BookSim2's cmesh,
 * networks/cmesh.cpp, whose c = 4, xr = yr = 2; docs/fabrics/cmesh.md).
 *
 * Terminals tile a grid of (A*CX) x (B*CY): terminal (tx, ty) is number
 * ty*A*CX + tx, on router (tx/CX, ty/CY) = ry*A + rx, at its local port
 * (ty%CY)*CX + tx%CX (BookSim2's NodeToRouter and NodeToPort). A router's
 * ports are its CX*CY local ports, then +x, -x, +y, -y where that
 * neighbour exists (BookSim2's order; its edge routers' extra "express"
 * channels, used only by its express routing functions, are not built).
 * Links of x are class dim0, of y dim1. Routing: BookSim2's
 * dor_no_express: x first, then y, then the destination's local port; one
 * VC class (deadlock-free on a mesh). */
#include "topologies/fabrics.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMESH_MAX_SIDE 4096
#define CMESH_MAX_CONC 8

typedef struct cmesh {
    int a, b, cx, cy; /* routers per row and column, terminals per router in x and y */
} cmesh_t;

/* The port at router (x,y) toward its +x, -x, +y, -y neighbour (-1 where
 * there is none). */
static int dir_port(const cmesh_t *m, int x, int y, int dir)
{
    int p = m->cx * m->cy;
    int has[4] = { x + 1 < m->a, x > 0, y + 1 < m->b, y > 0 };
    if (!has[dir])
        return -1;
    for (int d = 0; d < dir; d++)
        p += has[d];
    return p;
}

static void cmesh_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const cmesh_t *m = t->priv;
    (void)src;
    int w = m->a * m->cx, tx = dst % w, ty = dst / w;
    int dx = tx / m->cx, dy = ty / m->cy, x = cur % m->a, y = cur / m->a;
    r->vclass = 0;
    if (x != dx)
        r->port = (uint8_t)dir_port(m, x, y, x < dx ? 0 : 1);
    else if (y != dy)
        r->port = (uint8_t)dir_port(m, x, y, y < dy ? 2 : 3);
    else
        r->port = (uint8_t)((ty % m->cy) * m->cx + tx % m->cx);
}

static void cmesh_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    const cmesh_t *m = t->priv;
    snprintf(buf, len, "(%d,%d)", n % m->a, n / m->a);
}

static const noc_topo_ops_t cmesh_ops = { "cmesh", cmesh_route, cmesh_label, noc_fab_free_priv };

/* "AxB" or "AxB:CXxCY" into m; 0, or -1 with why. */
static int parse(const char *arg, cmesh_t *m, char *why, size_t whylen)
{
    const char *p = arg ? arg : "";
    long v[4] = { -1, -1, 2, 2 };
    int ok = 1;
    for (int i = 0; i < 4 && ok; i++) {
        if (i == 2 && !*p)
            break;
        v[i] = noc_fab_read_num(p, 1L << 30, &p);
        ok = v[i] >= 0 && (i == 3 ? !*p : *p == (i == 1 ? ':' : 'x') || (i == 1 && !*p));
        if (ok && *p)
            p++;
    }
    m->a = (int)v[0];
    m->b = (int)v[1];
    m->cx = (int)v[2];
    m->cy = (int)v[3];
    if (!ok) {
        snprintf(why, whylen, "expected cmesh:AxB (A x B routers, 2x2 terminals on each, BookSim2's cmesh) "
                              "or cmesh:AxB:CXxCY (CX x CY terminals on each)");
        return -1;
    }
    if (m->a < 1 || m->b < 1 || m->a * m->b < 2 || m->a > CMESH_MAX_SIDE || m->b > CMESH_MAX_SIDE) {
        snprintf(why, whylen, "routers: A and B from 1 to %d, at least 2 routers", CMESH_MAX_SIDE);
        return -1;
    }
    if (m->cx < 1 || m->cy < 1 || m->cx * m->cy > CMESH_MAX_CONC) {
        snprintf(why, whylen, "terminals per router: CX x CY from 1 to %d", CMESH_MAX_CONC);
        return -1;
    }
    if ((long long)m->a * m->b * m->cx * m->cy > NOC_TOPO_MAX_NODES) {
        snprintf(why, whylen, "more than %d terminals", NOC_TOPO_MAX_NODES);
        return -1;
    }
    return 0;
}

int noc_topo_build_cmesh(noc_topo_t *t, const char *kind, const char *arg, unsigned flags, char *why,
                         size_t whylen)
{
    (void)kind;
    (void)flags;
    cmesh_t m;
    if (parse(arg, &m, why, whylen) != 0)
        return -1;
    t->priv = noc_xmalloc(sizeof m, "topology");
    memcpy(t->priv, &m, sizeof m);
    t->ops = &cmesh_ops;
    int n = m.a * m.b, c = m.cx * m.cy, w = m.a * m.cx, terms = n * c;
    noc_topo_alloc_nodes(t, n);
    for (int v = 0; v < n; v++) {
        int x = v % m.a, y = v / m.a;
        t->port_base[v + 1] = t->port_base[v] + c + (x + 1 < m.a) + (x > 0) + (y + 1 < m.b) + (y > 0);
    }
    noc_topo_alloc_ports(t);
    int *locals = noc_xcalloc((size_t)n, sizeof *locals, "topology");
    int *list = noc_xcalloc((size_t)terms, sizeof *list, "topology");
    for (int v = 0; v < n; v++) {
        locals[v] = c;
        for (int i = 0; i < c; i++) /* local port i: (i % CX, i / CX) within the router's block */
            list[v * c + i] = ((v / m.a) * m.cy + i / m.cx) * w + (v % m.a) * m.cx + i % m.cx;
    }
    noc_topo_set_terminals(t, terms, locals, list);
    free(locals);
    free(list);
    static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
    for (int v = 0; v < n; v++) {
        int x = v % m.a, y = v / m.a;
        for (int d = 0; d < 4; d++) {
            int p = dir_port(&m, x, y, d);
            if (p < 0)
                continue;
            int u = (y + dy[d]) * m.a + x + dx[d], back = dir_port(&m, x + dx[d], y + dy[d], d ^ 1);
            t->peer[t->port_base[v] + p] = t->port_base[u] + back;
            t->link_class[t->port_base[v] + p] = (uint8_t)(d / 2);
        }
    }
    t->n_classes = 2;
    memcpy(t->class_name[0], "dim0", 5);
    memcpy(t->class_name[1], "dim1", 5);
    t->n_vclasses = 1;
    t->route_needs_src = 0;
    t->pos = noc_xcalloc((size_t)n * 2, sizeof *t->pos, "topology");
    for (int v = 0; v < n; v++) {
        t->pos[2 * v] = (float)(v % m.a);
        t->pos[2 * v + 1] = (float)(v / m.a);
    }
    return 0;
}
