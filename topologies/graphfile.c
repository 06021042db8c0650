/* graphfile.c: any connected graph, read from an edge-list file: graph:FILE.
 *
 * Format (docs/fabrics/graph.md; samples in examples/graphs/):
 *   # comment, to the end of the line (anywhere)
 *   nodes N                  optional, once, before the first link
 *   A B [CLASS] [LATENCY]    one link a line
 * A and B are node numbers 0 .. N-1, or names (a letter or '_' first, then
 * letters, digits, '_', '.', '-'); a file uses one or the other, as its
 * first link does. Names are numbered in order of first appearance and
 * become the node labels; numbered nodes are labelled by their number.
 * CLASS (a name, at most 15 characters) puts the link in that link class,
 * default "link"; classes are numbered in order of first appearance, at most
 * 32. LATENCY (1 .. 64 cycles, a whole number; it may follow A B directly)
 * is kept per link (t->link_latency).
 *
 * Rejected, with FILE:LINE: unreadable files, bad numbers and names, node
 * numbers >= N, self loops, a link given twice (in either direction), more
 * than N names, nodes without links (isolated or dangling: declared by
 * "nodes N", or skipped in the numbering), a graph that is not connected,
 * nodes with more than 255 links, more than NOC_TABLE_ROUTE_MAX_NODES nodes.
 *
 * Ports: a node's links in file order. Routing: the shortest-path tables of
 * table_route.h (minimal, deadlock-free with up* / down* turn classes).
 * Drawn on a circle. */
#include "topologies/fabrics.h"
#include "topologies/table_route.h"
#include "util/infile.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES NOC_TABLE_ROUTE_MAX_NODES
#define NAME_SLOTS (4 * MAX_NODES) /* open-addressing hash of names */
#define MAX_LATENCY 64

typedef struct graph {
    noc_table_route_t *tr;
    char **names;     /* n names, or NULL when the file numbers its nodes */
} graph_t;

typedef struct edge {
    int a, b, cls, latency, line;
} edge_t;

/* Reading state. */
typedef struct reader {
    const char *file;
    int line;
    int mode;            /* 0 undecided, 1 numbers, 2 names */
    int declared;        /* nodes N, or 0 */
    int declared_line;
    int n;               /* nodes so far (names) or highest number + 1 */
    int max_line;        /* line naming the highest number */
    char **names;
    int *slot;           /* NAME_SLOTS entries: name index + 1, 0 empty */
    edge_t *edge;
    int n_edges, cap;
    char cls[NOC_TOPO_MAX_CLASSES][16];
    int n_classes;
    char *why;
    size_t whylen;
} reader_t;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail(reader_t *r, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->why, r->whylen, "%s:%d: %s", r->file, r->line, msg);
    return -1;
}

static int is_number(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static int is_name(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '-')
            return 0;
    return 1;
}

static unsigned hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The node a token names, adding new names; -1 with why set on error. */
static int node_of(reader_t *r, const char *tok)
{
    if (r->mode == 0)
        r->mode = is_number(tok) ? 1 : 2;
    if (r->mode == 1) {
        const char *end;
        long v = noc_fab_read_num(tok, 1000000000, &end);
        if (!is_number(tok) || v < 0) {
            if (is_name(tok))
                return fail(r, "node \"%s\" is a name, but this file numbers its nodes (as its "
                               "first link does)", tok);
            return fail(r, "bad node number \"%s\"", tok);
        }
        if (r->declared ? v >= r->declared : v >= MAX_NODES)
            return fail(r, "node number %s is out of range (0 .. %d)", tok,
                        r->declared ? r->declared - 1 : MAX_NODES - 1);
        if (v + 1 > r->n) {
            r->n = (int)v + 1;
            r->max_line = r->line;
        }
        return (int)v;
    }
    if (!is_name(tok)) {
        if (is_number(tok))
            return fail(r, "node \"%s\" is a number, but this file names its nodes (as its "
                           "first link does)", tok);
        return fail(r, "bad node name \"%s\" (a letter or '_' first, then letters, digits, "
                       "'_', '.', '-')", tok);
    }
    unsigned h = hash(tok) & (NAME_SLOTS - 1);
    while (r->slot[h]) {
        if (strcmp(r->names[r->slot[h] - 1], tok) == 0)
            return r->slot[h] - 1;
        h = (h + 1) & (NAME_SLOTS - 1);
    }
    int limit = r->declared ? r->declared : MAX_NODES;
    if (r->n == limit)
        return fail(r, "node \"%s\" is one more than %d nodes%s", tok, limit,
                    r->declared ? " (the \"nodes\" line)" : "");
    r->names[r->n] = noc_xcalloc(strlen(tok) + 1, 1, "topology");
    memcpy(r->names[r->n], tok, strlen(tok) + 1);
    r->slot[h] = ++r->n;
    return r->n - 1;
}

static int read_latency(reader_t *r, const char *tok)
{
    const char *end;
    long v = noc_fab_read_num(tok, 1000000, &end);
    if (v < 1 || v > MAX_LATENCY || *end)
        return fail(r, "bad latency \"%s\" (a whole number of cycles, 1 .. %d)", tok,
                    MAX_LATENCY);
    return (int)v;
}

static int class_of(reader_t *r, const char *tok)
{
    if (!is_name(tok) || strlen(tok) > 15)
        return fail(r, "bad link class \"%s\" (a name of at most 15 characters, or a latency)",
                    tok);
    for (int c = 0; c < r->n_classes; c++)
        if (strcmp(r->cls[c], tok) == 0)
            return c;
    if (r->n_classes == NOC_TOPO_MAX_CLASSES)
        return fail(r, "link class \"%s\" is one more than the %d a fabric may have", tok,
                    NOC_TOPO_MAX_CLASSES);
    memcpy(r->cls[r->n_classes], tok, strlen(tok) + 1);
    return r->n_classes++;
}

/* One line, comments stripped; 0 or -1. */
static int read_line(reader_t *r, char *text)
{
    char *tok[5], *save = NULL;
    int n_tok = 0;
    char *hash_mark = strchr(text, '#');
    if (hash_mark)
        *hash_mark = '\0';
    for (char *s = strtok_r(text, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
        if (n_tok == 5)
            break;
        tok[n_tok++] = s;
    }
    if (n_tok == 0)
        return 0;
    if (strcmp(tok[0], "nodes") == 0 && r->mode == 0) {
        const char *end;
        long v = n_tok == 2 ? noc_fab_read_num(tok[1], 1000000000, &end) : -1;
        if (r->declared)
            return fail(r, "a second \"nodes\" line");
        if (v < 0 || *end || n_tok != 2)
            return fail(r, "expected \"nodes N\" with N a whole number");
        if (v < 2 || v > MAX_NODES)
            return fail(r, "nodes %s is out of range (2 .. %d)", tok[1], MAX_NODES);
        r->declared = (int)v;
        r->declared_line = r->line;
        return 0;
    }
    if (strcmp(tok[0], "nodes") == 0 && n_tok == 2 && is_number(tok[1]))
        return fail(r, "\"nodes\" must come before the first link");
    if (n_tok < 2 || n_tok > 4)
        return fail(r, "expected a link \"A B [CLASS] [LATENCY]\"");
    edge_t e = {0, 0, -1, 0, r->line};
    if ((e.a = node_of(r, tok[0])) < 0 || (e.b = node_of(r, tok[1])) < 0)
        return -1;
    if (e.a == e.b)
        return fail(r, "self loop at node %s", tok[0]);
    if (n_tok >= 3) {
        if (is_number(tok[2])) {
            if (n_tok == 4)
                return fail(r, "expected \"A B [CLASS] [LATENCY]\": CLASS \"%s\" is a number",
                            tok[2]);
            if ((e.latency = read_latency(r, tok[2])) < 0)
                return -1;
        } else if ((e.cls = class_of(r, tok[2])) < 0) {
            return -1;
        }
    }
    if (n_tok == 4 && (e.latency = read_latency(r, tok[3])) < 0)
        return -1;
    if (e.cls < 0 && (e.cls = class_of(r, "link")) < 0)
        return -1;
    if (r->n_edges == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        edge_t *grown = realloc(r->edge, (size_t)r->cap * sizeof *grown);
        if (!grown) {
            noc_oom("reading a graph file", 0);
        }
        r->edge = grown;
    }
    r->edge[r->n_edges++] = e;
    return 0;
}

static void edge_ends(const edge_t *e, int *lo, int *hi)
{
    *lo = e->a < e->b ? e->a : e->b;
    *hi = e->a < e->b ? e->b : e->a;
}

/* By (lower end, higher end, line). */
static int edge_cmp(const void *x, const void *y)
{
    const edge_t *a = x, *b = y;
    int a0, a1, b0, b1;
    edge_ends(a, &a0, &a1);
    edge_ends(b, &b0, &b1);
    if (a0 != b0)
        return a0 < b0 ? -1 : 1;
    if (a1 != b1)
        return a1 < b1 ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

static void node_name(const reader_t *r, int v, char *buf, size_t len)
{
    if (r->mode == 2)
        snprintf(buf, len, "%s", r->names[v]);
    else
        snprintf(buf, len, "%d", v);
}

/* Whole-graph checks after reading: links, duplicates, isolated nodes,
 * degrees. Fills deg. */
static int check_graph(reader_t *r, int *deg)
{
    char a[64], b[64];
    if (r->n_edges == 0) {
        snprintf(r->why, r->whylen, "%s:%d: no links", r->file, r->line);
        return -1;
    }
    if (r->declared && r->mode == 2 && r->n < r->declared) {
        snprintf(r->why, r->whylen,
                 "%s:%d: \"nodes %d\" declares %d nodes, but the links name only %d: the "
                 "others are isolated",
                 r->file, r->declared_line, r->declared, r->declared, r->n);
        return -1;
    }
    if (r->declared)
        r->n = r->declared;
    edge_t *sorted = noc_xcalloc((size_t)r->n_edges, sizeof *sorted, "topology");
    memcpy(sorted, r->edge, (size_t)r->n_edges * sizeof *sorted);
    qsort(sorted, (size_t)r->n_edges, sizeof *sorted, edge_cmp);
    for (int i = 1; i < r->n_edges; i++) {
        int a0, a1, b0, b1;
        edge_ends(&sorted[i - 1], &a0, &a1);
        edge_ends(&sorted[i], &b0, &b1);
        if (a0 == b0 && a1 == b1) {
            node_name(r, sorted[i].a, a, sizeof a);
            node_name(r, sorted[i].b, b, sizeof b);
            snprintf(r->why, r->whylen, "%s:%d: link %s %s repeats the link of line %d",
                     r->file, sorted[i].line, a, b, sorted[i - 1].line);
            free(sorted);
            return -1;
        }
    }
    free(sorted);
    for (int i = 0; i < r->n_edges; i++) {
        deg[r->edge[i].a]++;
        deg[r->edge[i].b]++;
    }
    for (int v = 0; v < r->n; v++) {
        if (deg[v] == 0) {
            int line = r->declared ? r->declared_line : r->max_line;
            snprintf(r->why, r->whylen,
                     "%s:%d: node %d has no links (isolated: nodes are 0 .. %d %s)", r->file,
                     line, v, r->n - 1, r->declared ? "by this \"nodes\" line" : "as this line's "
                     "highest number makes them");
            return -1;
        }
        if (deg[v] > NOC_FAB_MAX_DEGREE) {
            node_name(r, v, a, sizeof a);
            snprintf(r->why, r->whylen, "%s: node %s has %d links, more than %d", r->file, a,
                     deg[v], NOC_FAB_MAX_DEGREE);
            return -1;
        }
    }
    return 0;
}

/* ---- the fabric ---------------------------------------------------------- */

static void graph_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const graph_t *g = t->priv;
    noc_table_route_get(g->tr, cur, src, dst, r);
}

static void graph_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    const graph_t *g = t->priv;
    if (g->names)
        snprintf(buf, len, "%s", g->names[n]);
    else
        snprintf(buf, len, "%d", n);
}

static void graph_destroy(noc_topo_t *t)
{
    graph_t *g = t->priv;
    if (g) {
        noc_table_route_free(g->tr);
        if (g->names)
            for (int i = 0; i < t->n_nodes; i++)
                free(g->names[i]);
        free(g->names);
    }
    free(g);
    t->priv = NULL;
}

static const noc_topo_ops_t graph_ops = {"graph", graph_route, graph_label, graph_destroy};

/* Wire t from the links read; returns 0 or -1 (disconnected, routing). */
static int wire(noc_topo_t *t, reader_t *r, const int *deg, char *why, size_t whylen)
{
    graph_t *g = t->priv;
    int n = r->n;
    int *fill = noc_xcalloc((size_t)n, sizeof *fill, "topology");
    noc_topo_alloc_nodes(t, n);
    for (int v = 0; v < n; v++)
        t->port_base[v + 1] = t->port_base[v] + 1 + deg[v];
    noc_topo_alloc_ports(t);
    uint8_t *lat = noc_xcalloc((size_t)t->n_ports, 1, "topology");
    int any = 0;
    for (int i = 0; i < r->n_edges; i++) {
        const edge_t *e = &r->edge[i];
        int ga = t->port_base[e->a] + 1 + fill[e->a]++;
        int gb = t->port_base[e->b] + 1 + fill[e->b]++;
        t->peer[ga] = gb;
        t->peer[gb] = ga;
        t->link_class[ga] = t->link_class[gb] = (uint8_t)e->cls;
        lat[ga] = lat[gb] = (uint8_t)e->latency;
        any |= e->latency != 0;
    }
    free(fill);
    if (any)
        t->link_latency = lat;
    else
        free(lat);

    /* connected? */
    int *pn = noc_fab_peer_nodes(t);
    int *dist = noc_xcalloc((size_t)n, sizeof *dist, "topology");
    int *queue = noc_xcalloc((size_t)n, sizeof *queue, "topology");
    int reached = noc_fab_bfs(t, pn, 0, dist, queue), rc = 0;
    if (reached < n) {
        char a[64], b[64];
        int far = 0;
        while (dist[far] >= 0)
            far++;
        node_name(r, 0, a, sizeof a);
        node_name(r, far, b, sizeof b);
        snprintf(why, whylen, "%s: the graph is not connected (no path from node %s to node %s)",
                 r->file, a, b);
        rc = -1;
    }
    free(pn);
    free(dist);
    free(queue);
    if (rc)
        return -1;
    char reason[200];
    g->tr = noc_table_route_build(t, reason, sizeof reason);
    if (!g->tr) {
        snprintf(why, whylen, "%s: %s", r->file, reason);
        return -1;
    }
    t->n_vclasses = noc_table_route_vclasses(g->tr);
    return 0;
}

int noc_topo_build_graph(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                         char *why, size_t whylen)
{
    (void)kind;
    (void)flags;
    reader_t r;
    int *deg = NULL;
    noc_infile_t in;
    size_t len;
    int rc = -1, got;
    if (!arg || !*arg) {
        snprintf(why, whylen, "missing file; expected graph:FILE with FILE an edge list, e.g. "
                              "graph:examples/graphs/petersen.txt");
        return -1;
    }
    if (noc_in_open(&in, arg, "graph file", why, whylen) != 0)
        return -1;
    memset(&r, 0, sizeof r);
    r.file = arg;
    r.why = why;
    r.whylen = whylen;
    r.names = noc_xcalloc(MAX_NODES, sizeof *r.names, "topology");
    r.slot = noc_xcalloc(NAME_SLOTS, sizeof *r.slot, "topology");
    while ((got = noc_in_line(&in, &len, why, whylen)) > 0) {
        r.line = in.line < INT32_MAX ? (int)in.line : INT32_MAX;
        if (read_line(&r, in.buf) != 0)
            goto done;
    }
    if (got < 0)
        goto done;
    deg = noc_xcalloc((size_t)(r.declared > r.n ? r.declared : r.n), sizeof *deg, "topology");
    if (check_graph(&r, deg) == 0) {
        graph_t *g = noc_xcalloc(1, sizeof *g, "topology");
        t->priv = g;
        t->ops = &graph_ops;
        t->n_classes = r.n_classes;
        for (int c = 0; c < r.n_classes; c++)
            memcpy(t->class_name[c], r.cls[c], sizeof t->class_name[c]);
        rc = wire(t, &r, deg, why, whylen);
        if (r.mode == 2) { /* the names move to the fabric */
            g->names = r.names;
            r.names = NULL;
        }
        if (rc == 0)
            noc_fab_layout_circle(t);
    }

done:
    free(deg);
    noc_in_close(&in);
    if (r.names)
        for (int i = 0; i < r.n; i++)
            free(r.names[i]);
    free(r.names);
    free(r.slot);
    free(r.edge);
    return rc;
}
