/* script_traffic.h: a scripted traffic source for tests that need exact
 * expectations: entry k of the script makes node src[k] generate a packet of
 * size[k] flits for dst[k] in cycle at[k] (or, when the node made another
 * packet that cycle, in the first free cycle after it: a node generates at
 * most one packet a cycle). A node's entries must be in time order. Shared
 * by testbench/unit/routers/test_ideal.c, test_vc.c and the kernel's
 * statistics and checker tests. Header-only (static functions); include it
 * after cmocka.h. */
#ifndef NOC_SCRIPT_TRAFFIC_H
#define NOC_SCRIPT_TRAFFIC_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "model/sim.h"
#include "routers/registry.h"
#include "topologies/topo.h"

#define SCRIPT_MAX 256       /* entries */
#define SCRIPT_MAX_NODES 256 /* nodes of the fabric it drives */

typedef struct script {
    int n;
    int src[SCRIPT_MAX], dst[SCRIPT_MAX], size[SCRIPT_MAX];
    int type[SCRIPT_MAX]; /* enum noc_pkt_type (script_add: NOC_PKT_ANY) */
    uint64_t at[SCRIPT_MAX];
    int next_of[SCRIPT_MAX_NODES]; /* per node: index of its next entry (0: from the start) */
} script_t;

/* Append an entry: node src sends size flits to dst in cycle at. */
static inline void script_add(script_t *sc, uint64_t at, int src, int dst, int size)
{
    assert_true(sc->n < SCRIPT_MAX && src < SCRIPT_MAX_NODES);
    sc->at[sc->n] = at;
    sc->src[sc->n] = src;
    sc->dst[sc->n] = dst;
    sc->size[sc->n] = size;
    sc->type[sc->n] = NOC_PKT_ANY;
    sc->n++;
}

/* The same for a request of kind type (use_read_write). */
static inline void script_add_kind(script_t *sc, uint64_t at, int src, int dst, int size, int type)
{
    script_add(sc, at, src, dst, size);
    sc->type[sc->n - 1] = type;
}

static inline int script_find_from(const script_t *sc, int node, int from_idx)
{
    for (int k = from_idx; k < sc->n; k++)
        if (sc->src[k] == node)
            return k;
    return -1;
}

static inline uint64_t script_next(void *ctx, int node, uint64_t from, noc_rng_t *rng)
{
    script_t *sc = ctx;
    (void)rng;
    int k = script_find_from(sc, node, sc->next_of[node]);
    if (k < 0)
        return NOC_NEVER;
    sc->next_of[node] = k;
    return sc->at[k] >= from ? sc->at[k] : from;
}

static inline void script_make(void *ctx, int node, noc_rng_t *rng, int *dst, int *size, int *type)
{
    script_t *sc = ctx;
    (void)rng;
    int k = sc->next_of[node];
    *dst = sc->dst[k];
    *size = sc->size[k];
    *type = sc->type[k];
    sc->next_of[node] = k + 1;
}

static const noc_traffic_ops_t script_ops = { script_next, script_make };

static inline noc_traffic_t script_traffic(script_t *sc)
{
    noc_traffic_t tr = { &script_ops, sc };
    return tr;
}

/* Set "key=value" settings (NULL-terminated list) on cfg; a bad one fails
 * the test. */
static inline void script_config(noc_config_t *cfg, const char *const *kv)
{
    char err[512];
    for (; kv && *kv; kv++) {
        char name[64];
        const char *eq = strchr(*kv, '=');
        assert_non_null(eq);
        snprintf(name, sizeof name, "%.*s", (int)(eq - *kv), *kv);
        if (noc_config_set(cfg, name, eq + 1, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
}

/* Each row {setting, setting or NULL, text} of bad[0 .. n-1]: a simulator
 * of mesh:4x4 with the two settings is refused, with text in the message
 * (and `also`, unless NULL). */
static inline void script_expect_refused(const char *const (*bad)[3], size_t n, const char *also)
{
    for (size_t i = 0; i < n; i++) {
        char err[512];
        noc_config_t cfg;
        noc_config_defaults(&cfg);
        script_config(&cfg, (const char *const[]){ bad[i][0], bad[i][1], NULL });
        noc_topo_t *t = noc_topo_create("mesh:4x4", 0, err, sizeof err);
        script_t sc = { 0 };
        noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), script_traffic(&sc), err, sizeof err);
        if (s)
            fail_msg("%s %s: not refused", bad[i][0], bad[i][1] ? bad[i][1] : "");
        if (!strstr(err, bad[i][2]) || (also && !strstr(err, also)))
            fail_msg("%s %s: '%s' lacks '%s'", bad[i][0], bad[i][1] ? bad[i][1] : "", err, bad[i][2]);
        noc_topo_destroy(t);
    }
}

/* A simulator of SPEC (topology flags `flags`) fed by script sc, with the
 * defaults but no warm-up, then the settings kv. The topology is returned
 * in *topo (the caller destroys both). */
static inline noc_sim_t *script_sim(noc_topo_t **topo, const char *spec, unsigned flags, script_t *sc,
                                    const char *const *kv)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_config_set(&cfg, "warmup_cycles", "0", err, sizeof err);
    script_config(&cfg, kv);
    *topo = noc_topo_create(spec, flags, err, sizeof err);
    if (!*topo)
        fail_msg("%s", err);
    assert_true(noc_topo_nodes((*topo)) <= SCRIPT_MAX_NODES);
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(*topo), script_traffic(sc), err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

/* The network channel from node a to node b (-1 if none), and node n's
 * ejection channel (router port 0 to the NI). */
static inline int script_link(const noc_sim_t *s, int a, int b)
{
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if (!local && from == a && to == b)
            return c;
    }
    return -1;
}

static inline int script_ejection(const noc_sim_t *s, int n)
{
    return noc_sim_graph(s)->port_base[n];
}

#endif
