/* fuzz_spec.c: the SPEC parser and the fabrics' routing
 * (topologies/topo.c and the builders). For every input: noc_topo_create
 * either refuses it with a message, or builds a fabric whose links pair up,
 * whose labels name their nodes, and (up to 100 nodes) whose every route
 * reaches its destination on existing links and VC classes in no fewer hops
 * than the shortest path (fuzz_common.h). The fuzz build caps fabrics at
 * NOC_TOPO_MAX_NODES = 16384 nodes (tools/fuzz.sh), the same checks at a
 * smaller bound. */
#include "testbench/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = fuzz_text(data, size, 512), err[512];
    if (!spec)
        return 0;
    err[0] = '\0';
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    free(spec);
    if (!t) {
        fuzz_refused(err);
        return 0;
    }
    fuzz_check_topology(t, 100);
    noc_topo_destroy(t);
    return 0;
}
