/* fuzz_graph.c: the graph-file reader (graph:FILE, topologies/graphfile.c).
 * For every input written to a file: the reader refuses it with a message,
 * or builds a fabric that passes the checks of fuzz_spec.c, and (up to 64
 * nodes) carries synthetic traffic for 300 cycles with the invariant checker
 * on after every cycle, without a deadlock (its routing's VC classes make it
 * deadlock-free by construction, docs/fabrics/graph.md). */
#include "testbench/fuzz/fuzz_common.h"
#include "routers/registry.h"
#include "traffic/synthetic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 16))
        return 0;
    char spec[300], err[512];
    snprintf(spec, sizeof spec, "graph:%s", fuzz_file(data, size, ".txt"));
    err[0] = '\0';
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t) {
        fuzz_refused(err);
        return 0;
    }
    fuzz_check_topology(t, 64);
    if (noc_topo_nodes(t) <= 64) {
        noc_config_t cfg;
        noc_config_defaults(&cfg);
        cfg.check = 1;
        cfg.warmup_cycles = 0;
        cfg.sample_cycles = 300;
        cfg.max_drain_cycles = 3000;
        cfg.injection_rate = 0.3;
        cfg.packet_size = 3;
        noc_synthetic_t syn;
        if (noc_synthetic_init(&syn, &cfg, t, err, sizeof err) != 0)
            FUZZ_FAIL("%s: %s", spec, err);
        noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), noc_synthetic_traffic(&syn), err, sizeof err);
        if (!s)
            FUZZ_FAIL("%s: %s", spec, err);
        noc_run_status_t st = noc_sim_run(s);
        if (st != NOC_RUN_OK)
            FUZZ_FAIL("a graph of %d nodes: run status %d (3 deadlock, 4 invariant)", noc_topo_nodes(t), (int)st);
        noc_sim_destroy(s);
    }
    noc_topo_destroy(t);
    return 0;
}
