/* anynet.c: BookSim2's anynet network files as a fabric: anynet:FILE.
 *
 * Format (BookSim2's networks/anynet.cpp; docs/fabrics/anynet.md), one
 * statement a line, words separated by blanks:
 *   router R  { router S [LAT] | node N } ...
 *   node N    { router R } ...
 * "router R router S LAT" is a channel from R to S of LAT cycles (1 without
 * one); it makes the channel S -> R too, of 1 cycle, unless that one is
 * given. A link named again takes the latency of its last mention (1
 * without one), as BookSim2's maps do. "router R node N" (or "node N router
 * R") attaches node N to router R. Routers are numbered 0 .. R-1 and nodes
 * 0 .. N-1, as BookSim2 needs.
 *
 * Refused, with FILE:LINE: words other than router, node and numbers; a
 * latency after a node (BookSim2 then makes a channel from the router to the
 * router numbered as the node, a bug) or after another latency; a latency
 * outside 1 .. 64; a router linked to itself; a node linked to a node; a
 * node on two routers; gaps in the numbering of routers or nodes; a router
 * without nodes named only on a node line (BookSim2's parser then makes a
 * router of the node's number); routers that are not all connected
 * (BookSim2's routing never finishes); more than NOC_TABLE_ROUTE_MAX_NODES
 * routers or more than 255 links on one.
 *
 * The fabric, with one node on every router: noctua's node i is BookSim2's
 * node i, on its router; its ports are port 0 (the PE) then the router's
 * links in increasing number of the router at the far end (BookSim2's
 * output order). With several nodes on a router or none (concentration):
 * noctua's node r is router r, the file's nodes its terminals
 * (noc_topo_set_terminals), on their router's first ports in node order,
 * then its links as above. Latencies given in
 * the file are kept per directed link (t->link_latency); links without one
 * take their class's latency (one class, "link"). Routing is BookSim2's
 * min_anynet: at every router, the first hop of the shortest path to the
 * destination's router by Dijkstra over the file's latencies (1 where none
 * is given), settling routers by (distance, number) and keeping the first
 * predecessor found; any VC (one VC class: no deadlock avoidance, as in
 * BookSim2). Drawn on a circle. */
#include "topologies/anynet.h"
#include "topologies/fabrics.h"
#include "topologies/table_route.h"
#include "util/infile.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROUTERS NOC_TABLE_ROUTE_MAX_NODES
#define MAX_LATENCY 64

typedef struct arc {
    int to;   /* router at the far end */
    int lat;  /* cycles, 0 where the file gives none */
    int line; /* the line that set it last */
} arc_t;

typedef struct rtr {
    arc_t *arc;
    int n_arc, cap;
    int line;      /* first line naming the router, 0: never named */
    int n_nodes;   /* nodes attached */
    int node;      /* the first one */
    int node_line; /* where the second one was attached */
    int second;    /* the second one */
    int by_node;   /* 1: named first as a node line's head */
} rtr_t;

typedef struct reader {
    const char *file;
    int line;
    rtr_t *r;        /* MAX_ROUTERS */
    int n_r;         /* highest router number + 1 */
    int *router_of;  /* per node (MAX_ROUTERS): its router, -1 none */
    int *node_at;    /* per node: the line attaching it */
    int n_n;         /* highest node number + 1 */
    int conc;        /* some router has several nodes or none (concentration) */
    char *why;
    size_t whylen;
} reader_t;

/* The fabric's own state (t->priv). */
typedef struct anynet {
    /* [cur * n + dst]: output port at cur (0 at dst); with concentration,
     * routers and destination routers (the local port is the terminal's) */
    uint8_t *port;
    int *router;   /* per node: BookSim2's router */
} anynet_t;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail_at(reader_t *r, int line, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(r->why, r->whylen, "%s:%d: %s", r->file, line, msg);
    else
        snprintf(r->why, r->whylen, "%s: %s", r->file, msg);
    return -1;
}

/* A whole number of digits at most `limit`, or -1. */
static long number(const char *tok, long limit)
{
    const char *end;
    long v = noc_fab_read_num(tok, limit, &end);
    return v >= 0 && *end == '\0' ? v : -1;
}

/* Router `id` named on this line; -1 out of range. */
static int router_id(reader_t *r, const char *tok)
{
    long v = number(tok, 1000000000);
    if (v < 0)
        return fail_at(r, r->line, "bad router number \"%s\" (a whole number)", tok);
    if (v >= MAX_ROUTERS)
        return fail_at(r, r->line, "router %s: at most %d routers (0 .. %d)", tok, MAX_ROUTERS,
                       MAX_ROUTERS - 1);
    if (!r->r[v].line)
        r->r[v].line = r->line;
    if (v + 1 > r->n_r)
        r->n_r = (int)v + 1;
    return (int)v;
}

static int node_id(reader_t *r, const char *tok)
{
    long v = number(tok, 1000000000);
    if (v < 0)
        return fail_at(r, r->line, "bad node number \"%s\" (a whole number)", tok);
    if (v >= MAX_ROUTERS)
        return fail_at(r, r->line, "node %s: at most %d nodes (0 .. %d)", tok, MAX_ROUTERS,
                       MAX_ROUTERS - 1);
    if (v + 1 > r->n_n)
        r->n_n = (int)v + 1;
    return (int)v;
}

static arc_t *find_arc(rtr_t *a, int to)
{
    for (int i = 0; i < a->n_arc; i++)
        if (a->arc[i].to == to)
            return &a->arc[i];
    return NULL;
}

static arc_t *add_arc(reader_t *r, int from, int to)
{
    rtr_t *a = &r->r[from];
    if (a->n_arc == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 4;
        arc_t *grown = realloc(a->arc, (size_t)a->cap * sizeof *grown);
        if (!grown)
            noc_oom("reading an anynet file", 0);
        a->arc = grown;
    }
    arc_t *e = &a->arc[a->n_arc++];
    e->to = to;
    e->lat = 0;
    e->line = r->line;
    return e;
}

/* "router h ... router b": h -> b anew (1 cycle), b -> h if missing. */
static arc_t *link_routers(reader_t *r, int h, int b)
{
    arc_t *e = find_arc(&r->r[h], b);
    if (!e)
        e = add_arc(r, h, b);
    e->lat = 0;
    e->line = r->line;
    if (!find_arc(&r->r[b], h))
        add_arc(r, b, h);
    return e;
}

static int attach(reader_t *r, int node, int router)
{
    if (r->router_of[node] >= 0 && r->router_of[node] != router)
        return fail_at(r, r->line, "node %d is on router %d (line %d) and on router %d: a node "
                       "sits on one router", node, r->router_of[node], r->node_at[node], router);
    if (r->router_of[node] == router)
        return 0;
    r->router_of[node] = router;
    r->node_at[node] = r->line;
    rtr_t *a = &r->r[router];
    if (a->n_nodes == 0)
        a->node = node;
    else if (a->n_nodes == 1) {
        a->second = node;
        a->node_line = r->line;
    }
    a->n_nodes++;
    return 0;
}

static int read_latency(reader_t *r, const char *tok, arc_t *e, int head_router, int *have)
{
    if (!e)
        return fail_at(r, r->line, "latency \"%s\" after a node: BookSim2 reads it as a channel "
                       "from router %d to the router numbered as the node (a bug in its "
                       "parser); give node latencies nowhere", tok, head_router);
    if (*have)
        return fail_at(r, r->line, "\"%s\": a second latency for the link to router %d", tok,
                       e->to);
    long v = number(tok, 1000000);
    if (v < 1 || v > MAX_LATENCY)
        return fail_at(r, r->line, "bad latency \"%s\" (a whole number of cycles, 1 .. %d)", tok,
                       MAX_LATENCY);
    e->lat = (int)v;
    *have = 1;
    return 0;
}

/* One line; 0 or -1. */
static int read_line(reader_t *r, char *text)
{
    char *save = NULL, *tok = strtok_r(text, " \t\r\n", &save);
    if (!tok)
        return 0;
    int head_router = strcmp(tok, "router") == 0;
    if (!head_router && strcmp(tok, "node") != 0)
        return fail_at(r, r->line, "\"%s\": a line starts with \"router\" or \"node\"", tok);
    char *id = strtok_r(NULL, " \t\r\n", &save);
    if (!id)
        return fail_at(r, r->line, "\"%s\" without its number", tok);
    /* BookSim2 makes a router of the head's number, a node's too */
    int fresh = 0;
    if (number(id, 1000000000) >= 0 && number(id, 1000000000) < MAX_ROUTERS)
        fresh = !r->r[number(id, 1000000000)].line;
    int head = router_id(r, id);
    if (head < 0)
        return -1;
    r->r[head].by_node = fresh && !head_router;
    arc_t *last = NULL; /* the link a latency would set */
    int have_lat = 0, n_items = 0;
    for (tok = strtok_r(NULL, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        int to_router = strcmp(tok, "router") == 0;
        if (!to_router && strcmp(tok, "node") != 0) {
            if (n_items == 0)
                return fail_at(r, r->line, "\"%s\": expected \"router\" or \"node\" after \"%s "
                               "%s\"", tok, head_router ? "router" : "node", id);
            if (!head_router)
                return fail_at(r, r->line, "latency \"%s\" on a node's line: BookSim2 writes it "
                               "into the node list of router %d (a bug in its parser)", tok,
                               head);
            if (read_latency(r, tok, last, head, &have_lat) != 0)
                return -1;
            continue;
        }
        char *what = tok;
        if (!(tok = strtok_r(NULL, " \t\r\n", &save)))
            return fail_at(r, r->line, "\"%s\" without its number", what);
        n_items++;
        have_lat = 0;
        last = NULL;
        if (!head_router && !to_router)
            return fail_at(r, r->line, "node %s linked to node %s: nodes link to routers", id,
                           tok);
        if (!head_router) { /* node N router R */
            int rt = router_id(r, tok), nd;
            if (rt < 0 || (nd = node_id(r, id)) < 0 || attach(r, nd, rt) != 0)
                return -1;
        } else if (!to_router) { /* router R node N */
            int nd = node_id(r, tok);
            if (nd < 0 || attach(r, nd, head) != 0)
                return -1;
        } else {
            int b = router_id(r, tok);
            if (b < 0)
                return -1;
            if (b == head)
                return fail_at(r, r->line, "router %d linked to itself", b);
            last = link_routers(r, head, b);
        }
    }
    return 0;
}

/* Every router reached from router 0 (links run both ways); 0 or -1. */
static int check_connected(reader_t *r)
{
    int n = r->n_r, head = 0, tail = 0, rc = 0;
    int *queue = noc_xcalloc((size_t)n, sizeof *queue, "topology");
    uint8_t *seen = noc_xcalloc((size_t)n, 1, "topology");
    seen[0] = 1;
    queue[tail++] = 0;
    while (head < tail) {
        const rtr_t *a = &r->r[queue[head++]];
        for (int i = 0; i < a->n_arc; i++)
            if (!seen[a->arc[i].to]) {
                seen[a->arc[i].to] = 1;
                queue[tail++] = a->arc[i].to;
            }
    }
    for (int v = 0; v < n && rc == 0; v++)
        if (!seen[v])
            rc = fail_at(r, 0, "routers 0 and %d are not connected: BookSim2's routing never finishes", v);
    free(queue);
    free(seen);
    return rc;
}

/* Numbering, nodes per router, degrees, connection; 0 or -1. */
static int check_file(reader_t *r)
{
    if (r->n_r == 0)
        return fail_at(r, r->line, "no routers");
    if (r->n_n == 0)
        return fail_at(r, r->line, "no nodes: BookSim2's traffic needs at least one");
    for (int v = 0; v < r->n_r; v++)
        if (!r->r[v].line)
            return fail_at(r, 0, "router %d is missing: BookSim2 numbers routers 0 .. %d without "
                           "gaps (router %d is named)", v, r->n_r - 1, r->n_r - 1);
    for (int v = 0; v < r->n_n; v++)
        if (r->router_of[v] < 0)
            return fail_at(r, 0, "node %d is missing: BookSim2's traffic manager needs the nodes "
                           "numbered 0 .. %d without gaps", v, r->n_n - 1);
    for (int v = 0; v < r->n_r; v++) {
        const rtr_t *a = &r->r[v];
        if (a->n_nodes == 0 && a->by_node)
            return fail_at(r, a->line, "router %d has no node (BookSim2 makes a router of the number "
                           "of this line's node): a bug of its parser; name the router on a router line", v);
        r->conc |= a->n_nodes != 1;
        if (a->n_nodes + a->n_arc > NOC_FAB_MAX_DEGREE + 1)
            return fail_at(r, a->line, "router %d has %d nodes and %d links, more than %d ports", v,
                           a->n_nodes, a->n_arc, NOC_FAB_MAX_DEGREE + 1);
        if (a->n_arc > NOC_FAB_MAX_DEGREE)
            return fail_at(r, a->line, "router %d has %d links, more than %d", v, a->n_arc,
                           NOC_FAB_MAX_DEGREE);
    }
    if (r->n_r < 2)
        return fail_at(r, r->r[0].line, "one router: a fabric has at least 2");
    return check_connected(r);
}

static int arc_cmp(const void *x, const void *y)
{
    const arc_t *a = x, *b = y;
    return (a->to > b->to) - (a->to < b->to);
}

/* ---- BookSim2's routing: Dijkstra per source router ---------------------- */

typedef struct heap {
    int64_t *key; /* dist * 2^20 + router: settles by (distance, number) */
    int n;
} heap_t;

static void heap_push(heap_t *h, int64_t k)
{
    int i = h->n++;
    while (i > 0 && h->key[(i - 1) / 2] > k) {
        h->key[i] = h->key[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->key[i] = k;
}

static int64_t heap_pop(heap_t *h)
{
    int64_t top = h->key[0], last = h->key[--h->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->key[c + 1] < h->key[c])
            c++;
        if (h->key[c] >= last)
            break;
        h->key[i] = h->key[c];
        i = c;
    }
    if (h->n)
        h->key[i] = last;
    return top;
}

/* first[v]: the neighbour of s on the path to v (s itself for s); -1 when
 * v is out of reach. Scratch: dist, prev (n each), heap. */
static void dijkstra(const reader_t *r, int s, int *first, int64_t *dist, int *prev, heap_t *h)
{
    int n = r->n_r;
    for (int v = 0; v < n; v++) {
        dist[v] = INT64_MAX;
        prev[v] = -1;
        first[v] = -1;
    }
    dist[s] = 0;
    h->n = 0;
    heap_push(h, (int64_t)s);
    while (h->n) {
        int64_t k = heap_pop(h);
        int u = (int)(k & ((1 << 20) - 1));
        if ((k >> 20) != dist[u] || first[u] != -1)
            continue; /* stale, or settled already */
        first[u] = u == s ? s : prev[u] == s ? u : first[prev[u]];
        const rtr_t *a = &r->r[u];
        for (int i = 0; i < a->n_arc; i++) {
            int v = a->arc[i].to;
            int64_t d = dist[u] + (a->arc[i].lat ? a->arc[i].lat : 1);
            if (d < dist[v]) { /* strictly: the first predecessor stays */
                dist[v] = d;
                prev[v] = u;
                heap_push(h, (d << 20) | v);
            }
        }
    }
}

/* ---- the fabric ---------------------------------------------------------- */

static void anynet_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const anynet_t *a = t->priv;
    (void)src;
    r->vclass = 0;
    if (t->term_base) { /* concentration: by routers, then the terminal's port */
        int to = t->term_node[dst];
        r->port = (uint8_t)(cur == to ? t->term_gport[dst] - t->port_base[cur]
                                      : a->port[(size_t)cur * (size_t)t->n_nodes + (size_t)to]);
        return;
    }
    r->port = cur == dst ? 0 : a->port[(size_t)cur * (size_t)t->n_nodes + (size_t)dst];
}

static void anynet_destroy(noc_topo_t *t)
{
    anynet_t *a = t->priv;
    if (a) {
        free(a->port);
        free(a->router);
    }
    free(a);
    t->priv = NULL;
}

static const noc_topo_ops_t anynet_ops = {"anynet", anynet_route, NULL, anynet_destroy};

/* Index of router `to` among router `from`'s sorted links (its port - 1). */
static int arc_index(const rtr_t *a, int to)
{
    int lo = 0, hi = a->n_arc - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (a->arc[mid].to == to)
            return mid;
        if (a->arc[mid].to < to)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* With concentration: router v of the file is node v, its nodes (in
 * increasing number, BookSim2's port order) on its first ports, terminal i
 * BookSim2's node i; then its links as below. */
static void wire_conc(noc_topo_t *t, const reader_t *r)
{
    int n = r->n_r, any = 0;
    int *locals = noc_xcalloc((size_t)n, sizeof *locals, "topology");
    int *first = noc_xcalloc((size_t)n + 1, sizeof *first, "topology");
    int *list = noc_xcalloc((size_t)r->n_n + 1, sizeof *list, "topology");
    for (int v = 0; v < n; v++) {
        locals[v] = r->r[v].n_nodes;
        first[v + 1] = first[v] + locals[v];
    }
    int *fill = noc_xcalloc((size_t)n, sizeof *fill, "topology");
    for (int i = 0; i < r->n_n; i++) { /* in node order: sorted per router */
        int v = r->router_of[i];
        list[first[v] + fill[v]++] = i;
    }
    noc_topo_alloc_nodes(t, n);
    for (int v = 0; v < n; v++)
        t->port_base[v + 1] = t->port_base[v] + locals[v] + r->r[v].n_arc;
    noc_topo_alloc_ports(t);
    noc_topo_set_terminals(t, r->n_n, locals, list);
    uint8_t *lat = noc_xcalloc((size_t)t->n_ports, 1, "topology");
    anynet_t *a = t->priv;
    for (int v = 0; v < n; v++) {
        a->router[v] = v;
        const rtr_t *from = &r->r[v];
        for (int i = 0; i < from->n_arc; i++) {
            int m = from->arc[i].to, back = arc_index(&r->r[m], v);
            t->peer[t->port_base[v] + locals[v] + i] = t->port_base[m] + locals[m] + back;
            lat[t->port_base[v] + locals[v] + i] = (uint8_t)from->arc[i].lat;
            any |= from->arc[i].lat != 0;
        }
    }
    if (any)
        t->link_latency = lat;
    else
        free(lat);
    free(locals);
    free(first);
    free(list);
    free(fill);
}

/* Ports, peers and latencies of t from the links read (sorted). */
static void wire(noc_topo_t *t, const reader_t *r)
{
    if (r->conc) {
        wire_conc(t, r);
        return;
    }
    anynet_t *a = t->priv;
    int n = r->n_r, any = 0;
    int *node_of = noc_xcalloc((size_t)n, sizeof *node_of, "topology");
    for (int v = 0; v < n; v++)
        node_of[r->router_of[v]] = v;
    noc_topo_alloc_nodes(t, n);
    for (int v = 0; v < n; v++)
        t->port_base[v + 1] = t->port_base[v] + 1 + r->r[r->router_of[v]].n_arc;
    noc_topo_alloc_ports(t);
    uint8_t *lat = noc_xcalloc((size_t)t->n_ports, 1, "topology");
    for (int v = 0; v < n; v++) {
        int rv = r->router_of[v];
        a->router[v] = rv;
        const rtr_t *from = &r->r[rv];
        for (int i = 0; i < from->n_arc; i++) {
            int m = from->arc[i].to, w = node_of[m];
            int back = arc_index(&r->r[m], rv);
            t->peer[t->port_base[v] + 1 + i] = t->port_base[w] + 1 + back;
            lat[t->port_base[v] + 1 + i] = (uint8_t)from->arc[i].lat;
            any |= from->arc[i].lat != 0;
        }
    }
    if (any)
        t->link_latency = lat;
    else
        free(lat);
    free(node_of);
}

/* The routing table of every (node, destination node); -1 (why set) when
 * some router cannot reach another. */
static int route_table(noc_topo_t *t, reader_t *r)
{
    anynet_t *a = t->priv;
    int n = r->n_r, rc = 0;
    int *first = noc_xcalloc((size_t)n, sizeof *first, "topology");
    int *prev = noc_xcalloc((size_t)n, sizeof *prev, "topology");
    int64_t *dist = noc_xcalloc((size_t)n, sizeof *dist, "topology");
    int n_arcs = 0;
    for (int v = 0; v < n; v++)
        n_arcs += r->r[v].n_arc;
    heap_t h = {noc_xcalloc((size_t)n_arcs + 1, sizeof *h.key, "topology"), 0};
    int *node_of = noc_xcalloc((size_t)n, sizeof *node_of, "topology");
    for (int v = 0; v < n; v++) /* (with concentration, router v is node v) */
        node_of[v] = r->conc ? v : -1;
    for (int v = 0; v < n && !r->conc; v++)
        node_of[r->router_of[v]] = v;
    a->port = noc_xcalloc((size_t)n * (size_t)n, 1, "topology");
    for (int s = 0; s < n && rc == 0; s++) {
        dijkstra(r, s, first, dist, prev, &h);
        int cur = node_of[s];
        for (int d = 0; d < n; d++) {
            if (first[d] < 0) {
                rc = fail_at(r, 0, "routers %d and %d are not connected: BookSim2's routing "
                             "never finishes", s, d);
                break;
            }
            if (d != s)
                a->port[(size_t)cur * (size_t)n + (size_t)node_of[d]] =
                    (uint8_t)((r->conc ? r->r[s].n_nodes : 1) + arc_index(&r->r[s], first[d]));
        }
    }
    free(first);
    free(prev);
    free(dist);
    free(h.key);
    free(node_of);
    return rc;
}

/* Read the whole file into r (allocated here); 0 or -1. */
static int read_file(reader_t *r, const char *path, char *why, size_t whylen)
{
    noc_infile_t in;
    size_t len;
    int got;
    memset(r, 0, sizeof *r);
    r->file = path;
    r->why = why;
    r->whylen = whylen;
    if (!path || !*path) {
        snprintf(why, whylen, "missing file; expected anynet:FILE with FILE a BookSim2 anynet "
                              "file, e.g. anynet:examples/anynet/ring6.anynet");
        return -1;
    }
    if (noc_in_open(&in, path, "anynet file", why, whylen) != 0)
        return -1;
    r->r = noc_xcalloc(MAX_ROUTERS, sizeof *r->r, "topology");
    r->router_of = noc_xcalloc(MAX_ROUTERS, sizeof *r->router_of, "topology");
    r->node_at = noc_xcalloc(MAX_ROUTERS, sizeof *r->node_at, "topology");
    for (int v = 0; v < MAX_ROUTERS; v++)
        r->router_of[v] = -1;
    while ((got = noc_in_line(&in, &len, why, whylen)) > 0) {
        r->line = in.line < INT32_MAX ? (int)in.line : INT32_MAX;
        if (read_line(r, in.buf) != 0) {
            got = -1;
            break;
        }
    }
    noc_in_close(&in);
    if (got < 0 || check_file(r) != 0)
        return -1;
    for (int v = 0; v < r->n_r; v++)
        if (r->r[v].n_arc > 1) /* (a router without links has no array) */
            qsort(r->r[v].arc, (size_t)r->r[v].n_arc, sizeof *r->r[v].arc, arc_cmp);
    return 0;
}

static void free_reader(reader_t *r)
{
    if (r->r)
        for (int v = 0; v < MAX_ROUTERS; v++)
            free(r->r[v].arc);
    free(r->r);
    free(r->router_of);
    free(r->node_at);
}

int noc_topo_build_anynet(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                          char *why, size_t whylen)
{
    (void)kind;
    (void)flags;
    reader_t r;
    int rc = -1;
    if (read_file(&r, arg, why, whylen) == 0) {
        anynet_t *a = noc_xcalloc(1, sizeof *a, "topology");
        a->router = noc_xcalloc((size_t)r.n_r, sizeof *a->router, "topology");
        t->priv = a;
        t->ops = &anynet_ops;
        t->n_classes = 1;
        memcpy(t->class_name[0], "link", 5);
        t->n_vclasses = 1;
        t->route_needs_src = 0;
        wire(t, &r);
        rc = route_table(t, &r);
        if (rc == 0)
            noc_fab_layout_circle(t);
    }
    free_reader(&r);
    return rc;
}

int noc_anynet_uniform_latency(const char *path, int *lat, int *nodes, char *why, size_t whylen)
{
    reader_t r;
    int rc = read_file(&r, path, why, whylen);
    int first = 0, fr = -1, fto = -1;
    for (int v = 0; rc == 0 && v < r.n_r; v++)
        for (int i = 0; rc == 0 && i < r.r[v].n_arc; i++) {
            const arc_t *e = &r.r[v].arc[i];
            int l = e->lat ? e->lat : 1;
            if (!first) {
                first = l;
                fr = v;
                fto = e->to;
            } else if (l != first) {
                rc = fail_at(&r, e->line, "the channel from router %d to router %d takes %d "
                             "cycle%s, the one from router %d to router %d %d: BookSim2 returns "
                             "each channel's credits over its own latency, noctua's credit loop "
                             "is one value for all links (credit_delay): mixed latencies run "
                             "only as the SPEC anynet:FILE", v, e->to, l, l == 1 ? "" : "s",
                             fr, fto, first);
            }
        }
    if (rc == 0) {
        *lat = first ? first : 1;
        *nodes = r.n_n;
    }
    free_reader(&r);
    return rc;
}
