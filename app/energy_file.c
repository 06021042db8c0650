/* energy_file.c: reading an energy table file (docs/energy.md, "The
 * table file"): `key = value` lines and # comments, every key once,
 * through util/infile.h (so a directory, a device or a binary file is
 * refused by name), each line parsed by model/energy.c; and, with
 * router_leakage=gates, every router's gate count from the synthesis of
 * its core (routers/rtl/area.c: yosys, or its cache). */
#include "app/energy_file.h"
#include "routers/rtl/area.h"
#include "util/infile.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int noc_app_energy_load(const char *what, noc_energy_table_t *t, char *err, size_t errlen)
{
    if (strcmp(what, "default") == 0) {
        noc_energy_default(t);
        return 0;
    }
    memset(t, 0, sizeof *t);
    noc_infile_t in;
    if (noc_in_open(&in, what, "energy table", err, errlen) != 0)
        return -1;
    uint64_t seen = 0;
    size_t len;
    int r, rc = 0;
    char msg[400];
    while ((r = noc_in_line(&in, &len, err, errlen)) == 1)
        if (noc_energy_line(t, in.buf, &seen, msg, sizeof msg) != 0) {
            snprintf(err, errlen, "%s:%lu: %s", what, in.line, msg);
            rc = -1;
            break;
        }
    if (r < 0)
        rc = -1;
    if (rc == 0 && noc_energy_complete(t, seen, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "%s: %s", what, msg);
        rc = -1;
    }
    noc_in_close(&in);
    return rc;
}

/* The cells of the core of every router of s, by its port count (one
 * synthesis or cache read per count) into g[n_nodes]. 0, or -1 with a
 * message naming the parameter. */
static int router_gates(const noc_sim_t *s, noc_gate_count_t *g, char *err, size_t errlen)
{
    const noc_config_t *cfg = noc_sim_config(s);
    const noc_graph_t *gr = noc_sim_graph(s);
    noc_area_params_t p;
    noc_area_params_default(&p);
    p.V = noc_sim_vcs(s);
    p.depth = noc_energy_buffer_depth(s);
    p.flit_w = (int)cfg->flit_width;
    p.n_class = gr->n_vclasses < p.V ? gr->n_vclasses : p.V;
    if (p.n_class < 1)
        p.n_class = 1;
    p.arb = strcmp(cfg->arb_type, "matrix") == 0;
    noc_gate_count_t by_p[NOC_AREA_MAX_P + 1];
    char have[NOC_AREA_MAX_P + 1] = { 0 }, msg[1200];
    for (int n = 0; n < gr->n_nodes; n++) {
        p.P = noc_energy_router_ports(s, n);
        if (p.P < 1 || p.P > NOC_AREA_MAX_P) {
            snprintf(err, errlen, "parameter 'router_leakage': gates: node %d's router has %d ports; the core is "
                     "synthesized for 1 to %d", n, p.P, NOC_AREA_MAX_P);
            return -1;
        }
        if (!have[p.P]) {
            noc_area_t a;
            if (noc_area_get(&p, &a, msg, sizeof msg) != NOC_AREA_OK) {
                snprintf(err, errlen, "parameter 'router_leakage': gates: the %d-port router core: %s", p.P, msg);
                return -1;
            }
            if (a.other) {
                snprintf(err, errlen, "parameter 'router_leakage': gates: the %d-port core has %ld cells that are "
                         "neither NAND, NOT nor flip-flops, with no leakage figure (%s)", p.P, a.other, a.path);
                return -1;
            }
            noc_gate_count_t *c = &by_p[p.P];
            c->nand = a.nand;
            c->inv = a.inv;
            c->ff = a.ff;
            c->ff_enable = a.ff_enable;
            have[p.P] = 1;
        }
        g[n] = by_p[p.P];
    }
    return 0;
}

int noc_app_energy_attach(noc_sim_t *s, char *err, size_t errlen)
{
    const noc_config_t *cfg = noc_sim_config(s);
    const char *what = cfg->energy, *leak = cfg->router_leakage;
    int gates = strcmp(leak, "gates") == 0;
    if (!gates && strcmp(leak, "table") != 0) {
        snprintf(err, errlen, "parameter 'router_leakage': '%s' is neither table nor gates", leak);
        return -1;
    }
    if (gates && !what[0]) {
        snprintf(err, errlen, "parameter 'router_leakage': gates is a part of the energy figures: give energy=default "
                 "or energy=FILE too");
        return -1;
    }
    if (cfg->rtl_toggles && !what[0]) {
        snprintf(err, errlen, "parameter 'rtl_toggles': the toggles' energy is a part of the energy figures: give "
                 "energy=default or energy=FILE too");
        return -1;
    }
    if (!what[0])
        return 0;
    noc_energy_table_t t;
    char msg[600];
    if (noc_app_energy_load(what, &t, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "parameter 'energy': %s", msg);
        return -1;
    }
    if (!gates)
        return noc_sim_set_energy(s, &t, err, errlen);
    /* the table's own refusals first (router family, flit width), then the cores */
    if (noc_sim_set_energy(s, &t, err, errlen) != 0)
        return -1;
    int n = noc_sim_graph(s)->n_nodes;
    noc_gate_count_t *g = noc_xcalloc((size_t)n, sizeof *g, "router gates");
    int rc = router_gates(s, g, err, errlen);
    if (rc == 0)
        rc = noc_sim_set_energy_gates(s, &t, g, err, errlen);
    free(g);
    if (rc != 0)
        noc_sim_set_energy(s, NULL, msg, sizeof msg);
    return rc;
}
