/* rtl_trace_test.c: ctest waves.rtl_trace. With --router rtl, --waves also
 * writes the Verilated cores' insides (X.rtl.fst, Verilator's own FST
 * tracing) with time aligned to noctua's wave file X.fst (docs/waves.md,
 * "Inside the RTL cores"). This reads both files back with GTKWave's fstapi
 * reader and checks, for every router and network output port of a program
 * run on ring:6 (broadcast) and on mesh:3x3 (all-to-all):
 *   - the core's output register out_valid_o[o] is high in exactly the
 *     cycles the link leaving port o shows a flit in noctua's file, shifted
 *     by the link's delay (the register holds the crossing of cycle s in
 *     s+1; the link shows it in its arrival cycle s + 2 + chan_delay);
 *   - it is high as many cycles as the link carried flits (the per-link
 *     table of the run).
 * (cmocka; the wave files are read with testbench/unit/waves/wave_read.h.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/cli.h"
#include "model/pe.h"
#include "model/sim_internal.h"
#include "routers/registry.h"
#include "waves/waves.h"
#include "waves/waves_internal.h"
#include "testbench/unit/waves/wave_read.h"
#include "testbench/unit/cmd_test.h"
#include "testbench/unit/full_disk.h"

/* Bit b (LSB 0) of a bit signal's value at cycle t (0 before any value). */
static int bit_at(const wave_t *w, const char *name, uint64_t t, uint32_t b)
{
    const char *v = value_at(w, name, t);
    size_t n = v ? strlen(v) : 0;
    return b < n && v[n - 1 - b] == '1';
}

/* The wave scope of node n's link out of network port o: named by its far
 * end, with _p<o> on a second link to the same neighbour (waves/waves.c). */
static void link_scope(const noc_topo_t *t, int n, int o, char *buf, size_t len)
{
    char far[64];
    int m = noc_topo_port_node(t, noc_topo_peer(t, noc_topo_gport(t, n, o))), dup = 0;
    for (int o2 = 1; o2 < o; o2++)
        dup |= noc_topo_port_node(t, noc_topo_peer(t, noc_topo_gport(t, n, o2))) == m;
    noc_topo_label(t, m, far, sizeof far);
    noc_wv_link_scope_name(far, buf, len);
    if (dup)
        snprintf(buf + strlen(buf), len - strlen(buf), "_p%d", o);
}

/* The save file of the cores' trace: every trace it names is a signal of
 * the trace (its bit range dropped), a core's clock among them, and every
 * one of the n cores has a group. 0, or 1 with a message. */
static int check_save_file(const char *path, const wave_t *core, int n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        print_error("no save file %s\n", path);
        return 1;
    }
    char line[1024];
    int traces = 0, groups = 0, clocks = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '-' && strncmp(line, "-router_", 8) == 0)
            groups++;
        if (!line[0] || strchr("[*@-", line[0]))
            continue;
        char *range = strchr(line, '[');
        if (range)
            *range = '\0';
        traces++;
        clocks += strstr(line, ".clk_i") != NULL;
        if (find_sig(core, line) < 0) {
            print_error("%s names %s, which the trace does not have\n", path, line);
            bad = 1;
        }
    }
    fclose(f);
    if (!bad && (groups != 2 * n || clocks != n || traces < 10 * n)) { /* a group's start and end rows */
        print_error("%s: %d group rows, %d clocks, %d traces for %d cores\n", path, groups, clocks, traces, n);
        bad = 1;
    }
    return bad;
}

/* Output port o of router n (its core's register `name`, .out_valid_o):
 * the core's output valid in cycle c is the link's valid at arrival, c +
 * 1 + the channel's delay, in every cycle to end, and its count the link's
 * flits (into *ones). 0, or 1 with a message. */
static int compare_port(const char *spec, const noc_topo_t *t, const noc_sim_t *s, const wave_t *core,
                        const wave_t *link, int n, int o, const char *name, uint64_t end, int *ones)
{
    int g = noc_topo_gport(t, n, o);
    char label[64], groups[2][32], sname[80], want[256], lname[80];
    noc_topo_label(t, n, label, sizeof label);
    int ng = noc_topo_node_groups(t, n, groups, sizeof groups[0]);
    noc_wv_scope_name(label, sname, sizeof sname);
    link_scope(t, n, o, lname, sizeof lname);
    snprintf(want, sizeof want, "top%s%s%s%s.%s.%s.valid", ng > 0 ? "." : "", ng > 0 ? groups[0] : "",
             ng > 1 ? "." : "", ng > 1 ? groups[1] : "", sname, lname);
    if (find_sig(link, want) < 0) {
        print_error("%s: no %s in link file\n", spec, want);
        return 1;
    }
    uint64_t d = 1 + s->chan_delay[g];
    *ones = 0;
    for (uint64_t c = 0; c + d <= end + 1; c++) {
        int a = bit_at(core, name, 10 * c, (uint32_t)o), b = bit_at(link, want, c + d, 0);
        *ones += a;
        if (a != b) {
            print_error("%s: router %s port %d: the core's out_valid_o %d in cycle %llu, the link %d in "
                        "cycle %llu\n", spec, label, o, a, (unsigned long long)c, b, (unsigned long long)(c + d));
            return 1;
        }
    }
    if ((uint64_t)*ones != s->lst[g].flits) {
        print_error("%s: router %s port %d: out_valid_o high %d cycles, the link carried %llu flits\n", spec, label,
                    o, *ones, (unsigned long long)s->lst[g].flits);
        return 1;
    }
    return 0;
}

static int check(const char *spec, const char *program)
{
    char err[600], path[256], inner[300];
    snprintf(path, sizeof path, "/tmp/noctua-rtl-trace-%d.fst", (int)getpid());
    noc_waves_inner_path(path, inner, sizeof inner);
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    if (noc_config_set(&cfg, "router", "rtl", err, sizeof err) ||
        noc_config_set(&cfg, "topology_spec", spec, err, sizeof err)) {
        print_error("%s\n", err);
        return 1;
    }
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    noc_prog_opts_t po;
    noc_prog_opts_init(&po);
    po.name = program;
    static char facts[4096];
    noc_program_t *p = t ? noc_cli_prog_load(&po, t, 1, facts, sizeof facts, err, sizeof err) : NULL;
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = p ? noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err) : NULL;
    if (!s || noc_pe_attach(s, p, err, sizeof err)) {
        print_error("%s\n", err);
        return 1;
    }
    noc_waves_opts_t wo;
    noc_waves_opts_init(&wo);
    noc_waves_t *w = noc_waves_open(path, s, &wo, err, sizeof err);
    if (!w || noc_pe_run(s) != NOC_RUN_OK || noc_waves_close(w, err, sizeof err) != 0) {
        print_error("%s: the run failed: %s\n", spec, err);
        return 1;
    }
    uint64_t end = s->now;
    int bad = 0, compared = 0, highs = 0;
    wave_t *core = read_fst_aliases(inner, 1);
    wave_t *link = read_fst(path);
    for (int n = 0; n < noc_topo_nodes(t) && !bad; n++) {
        char label[64], name[128];
        noc_topo_label(t, n, label, sizeof label);
        /* router_<the label's letters and digits, the rest as _> */
        snprintf(name, sizeof name, "router_");
        size_t k = strlen(name);
        for (const char *c = label; *c; c++)
            if ((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z'))
                name[k++] = *c;
            else if (name[k - 1] != '_')
                name[k++] = '_';
        while (name[k - 1] == '_')
            k--;
        snprintf(name + k, sizeof name - k, ".out_valid_o");
        if (find_sig(core, name) < 0) {
            print_error("%s: no %s in %s\n", spec, name, inner);
            bad = 1;
            break;
        }
        /* the clock: high at 10c (a cycle is 10 time units of 100 ps), low at 10c + 5 */
        char clk[128];
        snprintf(clk, sizeof clk, "%.*s.clk_i", (int)(k), name);
        for (uint64_t c = 0; c <= end && !bad; c++)
            if (bit_at(core, clk, 10 * c, 0) != 1 || bit_at(core, clk, 10 * c + 5, 0) != 0) {
                print_error("%s: %s does not toggle in cycle %llu\n", spec, clk, (unsigned long long)c);
                bad = 1;
            }
        int P = noc_topo_degree(t, n) + 1;
        for (int o = 1; o < P && !bad; o++) {
            int ones = 0;
            bad = compare_port(spec, t, s, core, link, n, o, name, end, &ones);
            compared++;
            highs += ones;
        }
    }
    if (!bad)
        print_message("%s, %s: %d links of %d cores, %d flits: the cores' output registers and the links agree "
                      "in every one of %llu cycles\n", spec, program, compared, noc_topo_nodes(t), highs,
                      (unsigned long long)end);
    char rtl_gtkw[300];
    noc_waves_gtkw_path(inner, rtl_gtkw, sizeof rtl_gtkw);
    if (!bad)
        bad = check_save_file(rtl_gtkw, core, noc_topo_nodes(t));
    free_wave(core);
    free_wave(link);
    noc_sim_destroy(s);
    noc_prog_free(p);
    noc_topo_destroy(t);
    unlink(path);
    unlink(inner);
    char gtkw[300];
    noc_waves_gtkw_path(path, gtkw, sizeof gtkw);
    unlink(gtkw);
    unlink(rtl_gtkw);
    return bad;
}

static void test_ring_broadcast(void **state)
{
    (void)state;
    assert_int_equal(check("ring:6", "broadcast"), 0);
}

static void test_mesh_alltoall(void **state)
{
    (void)state;
    assert_int_equal(check("mesh:3x3", "alltoall"), 0);
}

/* A full disk while the cores' trace is written: exit 2, no partial file
 * (the trace's fstapi is built with waves/fst_guard.c). */
static void test_full_disk(void **state)
{
    (void)state;
    static const fd_case_t c = { "run ring:6 --program broadcast --router rtl --waves r.fst --quiet",
                                 { "r.fst", "r.rtl.fst", "r.gtkw", "r.rtl.gtkw" } };
    fd_check_case(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_broadcast),
        cmocka_unit_test(test_mesh_alltoall),
        cmocka_unit_test(test_full_disk),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
