/* fuzz_anynet.c: the anynet-file reader (anynet:FILE, topologies/anynet.c).
 * For every input written to a file: the reader refuses it with a message,
 * or builds a fabric that passes the checks of fuzz_spec.c (its routes, by
 * latency, are never shorter than the BFS distance and never loop), whose
 * latency summary for BookSim2 files agrees with it, and (up to 64 nodes)
 * carries synthetic traffic for 300 cycles with the invariant checker on
 * after every cycle. A deadlock is no failure: BookSim2's min_anynet has no
 * deadlock avoidance (docs/fabrics/anynet.md); a broken invariant is. */
#include "testbench/fuzz/fuzz_common.h"
#include "routers/registry.h"
#include "topologies/anynet.h"
#include "traffic/synthetic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 16))
        return 0;
    char spec[300], err[512];
    const char *file = fuzz_file(data, size, ".anynet");
    snprintf(spec, sizeof spec, "anynet:%s", file);
    err[0] = '\0';
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    int lat = 0, nodes = 0;
    int uni = noc_anynet_uniform_latency(file, &lat, &nodes, err, sizeof err);
    if (!t) {
        if (uni == 0)
            FUZZ_FAIL("%s: refused as a SPEC but read for BookSim2", spec);
        fuzz_refused(err);
        return 0;
    }
    if (uni == 0 && (nodes != noc_topo_terminals(t) || lat < 1 || lat > 64))
        FUZZ_FAIL("%s: %d nodes, latency %d for BookSim2; %d terminals built", spec, nodes, lat,
                  noc_topo_terminals(t));
    fuzz_check_topology(t, 64);
    if (noc_topo_nodes(t) <= 64 && noc_topo_terminals(t) <= 64) {
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
        if (st != NOC_RUN_OK && st != NOC_RUN_DEADLOCK)
            FUZZ_FAIL("an anynet of %d nodes: run status %d (4 invariant)", noc_topo_nodes(t), (int)st);
        noc_sim_destroy(s);
    }
    noc_topo_destroy(t);
    return 0;
}
