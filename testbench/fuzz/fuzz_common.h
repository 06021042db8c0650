/* fuzz_common.h: what the libFuzzer harnesses of testbench/fuzz/ share
 * (docs/reliability.md, "Fuzzing"): a failed property is abort() with a
 * line on stderr, which libFuzzer reports as a crash and saves the input of.
 * Header-only (static functions); one harness per executable.
 *
 *   - fuzz_text: the input as a C string (cut at its first NUL, as the
 *     string readers see it), NULL when longer than max bytes;
 *   - fuzz_file: the input written to a file of its own per process (for the
 *     readers that take a path: graph files, config files);
 *   - fuzz_check_topology: every route of a fabric reaches its destination
 *     on links that exist, on VC classes that exist, in no fewer hops than
 *     the shortest path (BFS), and every label names its node;
 *   - fuzz_run_program: a small program run to its end with the invariant
 *     checker on after every cycle. */
#ifndef NOC_FUZZ_COMMON_H
#define NOC_FUZZ_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/pe.h"
#include "model/sim.h"
#include "routers/registry.h"
#include "topologies/topo.h"

#define FUZZ_FAIL(...)                                                                                   \
    do {                                                                                                 \
        fprintf(stderr, "fuzz property failed: " __VA_ARGS__);                                          \
        fputc('\n', stderr);                                                                             \
        abort();                                                                                         \
    } while (0)

static inline char *fuzz_text(const uint8_t *data, size_t size, size_t max)
{
    if (size > max)
        return NULL;
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static char fuzz_path[256];

static void fuzz_file_remove(void)
{
    unlink(fuzz_path);
}

/* The path of this process's scratch file, filled with the input: in
 * /dev/shm (memory) where there is one. On ext4, a file truncated and
 * written again is flushed to disk when it is closed (auto_da_alloc), which
 * made a harness wait on the disk for milliseconds a run; a new file is
 * not, so the old one is removed first. The file goes when the process
 * exits. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    if (!fuzz_path[0]) {
        snprintf(fuzz_path, sizeof fuzz_path, "%s/noctua-fuzz-%d%s",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid(), suffix);
        atexit(fuzz_file_remove);
    }
    const char *path = fuzz_path;
    unlink(path);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    return path;
}

/* A refusal must say why. */
static inline void fuzz_refused(const char *err)
{
    if (!err[0])
        FUZZ_FAIL("refused without a message");
}

static inline void fuzz_check_topology(const noc_topo_t *t, int max_nodes)
{
    int n = noc_topo_nodes(t), T = noc_topo_terminals(t);
    const noc_graph_t *gr = noc_topo_graph(t);
    if (n < 1 || noc_topo_gport(t, 0, 0) != 0 ||
        noc_topo_gport(t, n - 1, noc_topo_locals(t, n - 1) + noc_topo_degree(t, n - 1)) != noc_topo_ports(t))
        FUZZ_FAIL("%s: %d nodes, ports %d", noc_topo_spec(t), n, noc_topo_ports(t));
    for (int g = 0; g < noc_topo_ports(t); g++) {
        int pg = noc_topo_peer(t, g), node = noc_topo_port_node(t, g);
        if (g - noc_topo_gport(t, node, 0) < noc_topo_locals(t, node)) { /* a local port */
            if (pg != -1)
                FUZZ_FAIL("%s: local port %d has a peer", noc_topo_spec(t), g);
        } else if (pg < 0 || pg >= noc_topo_ports(t) || noc_topo_peer(t, pg) != g || noc_topo_port_node(t, pg) == node) {
            FUZZ_FAIL("%s: port %d's link is not a pair", noc_topo_spec(t), g);
        }
    }
    for (int k = 0; k < T; k++) { /* every terminal on a local port of its router, each way */
        for (int e = 0; e < 2; e++) {
            int v = e ? noc_graph_term_enode(gr, k) : noc_graph_term_node(gr, k);
            int i = (e ? noc_graph_term_egport(gr, k) : noc_graph_term_gport(gr, k)) - noc_topo_gport(t, v, 0);
            if (v < 0 || v >= n || i < 0 || i >= noc_topo_locals(t, v) || noc_graph_term_at(gr, v, i) != k)
                FUZZ_FAIL("%s: terminal %d is not on a local port of its %s router", noc_topo_spec(t), k,
                          e ? "ejection" : "injection");
        }
    }
    char label[256];
    /* (noc_topo_find_label is a scan: every label of a small fabric, 64 of
     * a large one) */
    int step = n <= 512 ? 1 : n / 64;
    for (int v = 0; v < n; v += step) {
        noc_topo_label(t, v, label, sizeof label);
        if (noc_topo_find_label(t, label) != v)
            FUZZ_FAIL("%s: label %s does not name node %d", noc_topo_spec(t), label, v);
    }
    if (n > max_nodes || T > max_nodes)
        return;
    int *dist = malloc((size_t)n * (size_t)n * sizeof *dist), *queue = malloc((size_t)n * sizeof *queue);
    if (!dist || !queue)
        abort();
    for (int src = 0; src < n; src++) { /* router distances by BFS */
        int *d = dist + (size_t)src * (size_t)n;
        for (int v = 0; v < n; v++)
            d[v] = -1;
        int head = 0, tail = 0;
        d[src] = 0;
        queue[tail++] = src;
        while (head < tail) {
            int v = queue[head++];
            for (int g = noc_topo_gport(t, v, noc_topo_locals(t, v));
                 g < noc_topo_gport(t, v, noc_topo_locals(t, v) + noc_topo_degree(t, v)); g++) {
                int w = noc_topo_port_node(t, noc_topo_peer(t, g));
                if (d[w] < 0) {
                    d[w] = d[v] + 1;
                    queue[tail++] = w;
                }
            }
        }
        for (int dst = 0; dst < n; dst++)
            if (d[dst] < 0)
                FUZZ_FAIL("%s: node %d cannot reach node %d", noc_topo_spec(t), src, dst);
    }
    for (int src = 0; src < T; src++) { /* every terminal's route to every other's arrives, minimal */
        for (int dst = 0; dst < T; dst++) {
            int cur = noc_graph_term_node(gr, src), from = cur, hops = 0;
            for (;;) {
                noc_route_t r;
                noc_topo_route(t, cur, src, dst, &r);
                int L = noc_topo_locals(t, cur);
                if (r.port < L) {
                    if (noc_topo_gport(t, cur, r.port) != noc_graph_term_egport(gr, dst))
                        FUZZ_FAIL("%s: %d -> %d ejects at %d port %d", noc_topo_spec(t), src, dst, cur, r.port);
                    break;
                }
                if (r.port >= L + noc_topo_degree(t, cur) || r.vclass >= noc_topo_vclasses(t))
                    FUZZ_FAIL("%s: %d -> %d at %d: port %d, class %d", noc_topo_spec(t), src, dst, cur, r.port, r.vclass);
                cur = noc_topo_port_node(t, noc_topo_peer(t, noc_topo_gport(t, cur, r.port)));
                if (++hops > 4 * n)
                    FUZZ_FAIL("%s: %d -> %d loops", noc_topo_spec(t), src, dst);
            }
            int to = noc_graph_term_enode(gr, dst), shortest = dist[(size_t)from * (size_t)n + (size_t)to];
            if (hops < shortest)
                FUZZ_FAIL("%s: %d -> %d takes %d hops (shortest %d)", noc_topo_spec(t), src, dst, hops, shortest);
        }
    }
    free(dist);
    free(queue);
}

/* Is p small enough to run in a few milliseconds? */
static inline int fuzz_small_program(const noc_program_t *p)
{
    uint64_t words = 0, cost = 0;
    if (p->n_ranks > 16 || p->n_ops > 256)
        return 0;
    for (uint32_t i = 0; i < p->n_ops; i++) {
        const noc_op_t *o = &p->ops[i];
        words += o->words;
        cost += o->cost > 0 ? (uint64_t)o->cost : 0;
        if (o->cost > 1000)
            return 0;
    }
    return words <= 2048 && cost <= 4000;
}

/* Run p on a complete graph of its ranks (mesh:2 for fewer than 3), the
 * checker on after every cycle: any verdict is fine but a broken invariant. */
static inline void fuzz_run_program(const noc_program_t *p, int unit_timing)
{
    char err[512], spec[64];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    cfg.check = 1;
    cfg.deadlock_cycles = 300;
    if (unit_timing)
        noc_config_timing(&cfg, NOC_TIMING_UNIT);
    if (p->n_ranks < 3)
        snprintf(spec, sizeof spec, "mesh:2");
    else
        snprintf(spec, sizeof spec, "complete:%d", p->n_ranks);
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        FUZZ_FAIL("%s: %s", spec, err);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    if (!s)
        FUZZ_FAIL("%s: %s", spec, err);
    if (noc_pe_attach(s, p, err, sizeof err) == 0) {
        noc_run_status_t st = noc_pe_run(s);
        if (st == NOC_RUN_INVARIANT)
            FUZZ_FAIL("the invariant checker failed on a program run on %s", spec);
        if (st == NOC_RUN_OK) {
            noc_pe_finished(noc_sim_pe(s), err, sizeof err);
            noc_pe_check(s, err, sizeof err);
        }
    } else {
        fuzz_refused(err);
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}
#endif
