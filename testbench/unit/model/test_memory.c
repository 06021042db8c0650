/* test_memory.c: the memory estimate of a run (noc_sim_estimate_bytes,
 * model/sim.c and each router family's bytes op) against what
 * noc_sim_create really allocates, measured by the C library's own
 * accounting (mallinfo2: the bytes in use on the heap and in mmapped
 * chunks, before and after). The estimate is what refuses a run that does
 * not fit (docs/reliability.md, "Resources"): it must not fall short, and
 * not overshoot much. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <malloc.h>
#include <cmocka.h>

#include "model/sim.h"
#include "routers/registry.h"
#include "topologies/topo.h"
#include "routers/rtl/rtl_model.h"

static uint64_t heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return (uint64_t)m.uordblks + (uint64_t)m.hblkhd;
}

static void check(const char *spec, const char *const *kv)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    const char *first = kv && kv[0] ? kv[0] : "";
    for (; kv && *kv; kv++) {
        char name[64];
        const char *eq = strchr(*kv, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - *kv), *kv);
        if (noc_config_set(&cfg, name, eq + 1, err, sizeof err))
            fail_msg("%s", err);
    }
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(t);
    uint64_t est = noc_sim_estimate_bytes(&cfg, noc_topo_graph(t));
    uint64_t before = heap_in_use();
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    if (!s)
        fail_msg("%s: %s", spec, err);
    uint64_t real = heap_in_use() - before;
    print_message("%-16s %-20s estimate %10llu  allocated %10llu  (%+.1f%%)\n", spec, first,
                  (unsigned long long)est, (unsigned long long)real,
                  100.0 * ((double)est - (double)real) / (double)real);
    /* never short by more than 2% (the C library's headers), at most a
     * quarter over */
    if ((double)est < 0.98 * (double)real || (double)est > 1.25 * (double)real)
        fail_msg("%s: estimate %llu bytes, allocated %llu", spec, (unsigned long long)est,
                 (unsigned long long)real);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_vc(void **state)
{
    (void)state;
    check("mesh:16x16", NULL);
    check("mesh:64x64", NULL);
    check("torus:8x8x8", (const char *const[]){ "num_vcs=4", NULL });
    check("hypercube:10", (const char *const[]){ "vc_buf_size=4", NULL });
    check("bsn:mesh:4x4", (const char *const[]){ "arb_type=matrix", NULL });
    check("mesh:32x32", (const char *const[]){ "ni_ports=0", NULL });
    check("mesh:32x32", (const char *const[]){ "source_queue=4096", NULL });
    check("pyramid:5", (const char *const[]){ "vc_allocator=islip", NULL });
    check("mesh:16x16", (const char *const[]){ "vc_allocator=max_size", "num_vcs=4", NULL });
    check("mesh:16x16", (const char *const[]){ "vc_allocator=wavefront", "arb_type=matrix", NULL });
    check("torus:16x16", (const char *const[]){ "link_latency=9", NULL });
    check("mesh:32x32", (const char *const[]){ "hold_switch_for_packet=1", "ni_ports=0", NULL });
}

static void test_ideal(void **state)
{
    (void)state;
    check("mesh:32x32", (const char *const[]){ "router=ideal", NULL });
    check("hypercube:8", (const char *const[]){ "router=ideal", NULL });
}

/* The rtl family: the C side by its allocations, the Verilated cores as
 * measured when the model is loaded (routers/rtl/rtl_router.c). The cores
 * are those the rtl tests build too; none without Verilator. */
static void test_rtl(void **state)
{
    (void)state;
    if (!noc_rtl_model_cache()) {
        print_message("built without Verilator: no rtl router\n");
        return;
    }
    check("mesh:8x8", (const char *const[]){ "router=rtl", NULL });
    check("mesh:16x16", (const char *const[]){ "router=rtl", NULL });
    check("hypercube:6", (const char *const[]){ "router=rtl", NULL });
    check("torus:4x4", (const char *const[]){ "router=rtl", "arb_type=matrix", NULL });
    check("mesh:8x8", (const char *const[]){ "router=rtl", "num_vcs=4", "vc_buf_size=2", NULL });
}

/* A run that does not fit is refused before it allocates, with the
 * estimate; memory_check=0 lets it try. */
static void test_refused(void **state)
{
    (void)state;
    char err[1024];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_topo_t *t = noc_topo_create("mesh:256x256", 0, err, sizeof err);
    assert_non_null(t);
    /* 326,656 ports of 12 VCs of 1024 flits: 4.0e9 buffer slots of a flit
     * (24 bytes), over 89 GiB. (Source queues and the packet pool no longer
     * count here but as they start: they grow as they fill.) */
    assert_int_equal(noc_config_set(&cfg, "num_vcs", "12", err, sizeof err), 0);
    assert_int_equal(noc_config_set(&cfg, "vc_buf_size", "1024", err, sizeof err), 0);
    uint64_t est = noc_sim_estimate_bytes(&cfg, noc_topo_graph(t));
    assert_true(est > (UINT64_C(89) << 30));
    noc_traffic_t none = { NULL, NULL };
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    if (!strstr(err, "a simulation of mesh:256x256 (65536 nodes"))
        fail_msg("%s", err);
    assert_non_null(strstr(err, "B (noctua's estimate)"));
    assert_non_null(strstr(err, "memory_check=0"));
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vc),
        cmocka_unit_test(test_ideal),
        cmocka_unit_test(test_rtl),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
