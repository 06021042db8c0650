/* run.c: a synthetic run built from parameters (app/run.h): the SPEC from
 * noctua's or BookSim2's keys, the topology (refused before it is built
 * when it cannot fit), the synthetic source, the simulator with the router
 * family cfg->router names, optional waveforms, the run with Ctrl-C ending
 * it at a cycle's end. What the CLI, the benchmark and embedders share. */
#include "util/clock.h"
#include "app/run.h"
#include "app/energy_file.h"
#include "routers/registry.h"
#include "traffic/synthetic.h"
#include "traffic/classes.h"
#include "util/interrupt.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int noc_app_spec(const noc_config_t *cfg, char *spec, size_t len, char *err, size_t errlen)
{
    if (cfg->topology[0] == '\0') {
        snprintf(spec, len, "%s", cfg->topology_spec);
        return 0;
    }
    /* BookSim2's topologies whose SPEC a BookSim2 file made (anynet: of its
     * network_file) */
    static const struct { const char *topology, *kind, *form; } made[] = {
        {"anynet", "anynet", "anynet:FILE"}, {"cmesh", "cmesh", "cmesh:KxK"}, {"dragonflynew", "dragonfly", "dragonfly:K"},
        {"fly", "fly", "fly:K:N"}, {"fattree", "fattree", "fattree:K:N"},
        {"flatfly", "flatfly", "flatfly:K:N:CXxCY:X"}, {"qtree", "qtree", "qtree:K:N"}, {"tree4", "tree4", "tree4"},
    };
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        size_t kl = strlen(made[i].kind);
        if (strcmp(cfg->topology, made[i].topology) != 0)
            continue;
        if (strncmp(cfg->topology_spec, made[i].kind, kl) == 0 &&
            (cfg->topology_spec[kl] == ':' || (cfg->topology_spec[kl] == '\0' && !strchr(made[i].form, ':')))) {
            snprintf(spec, len, "%s", cfg->topology_spec);
            return 0;
        }
        snprintf(err, errlen, "parameter 'topology': '%s' is read from a BookSim2 file (anynet with its "
                 "network_file); give the SPEC %s instead", cfg->topology, made[i].form);
        return -1;
    }
    if (strcmp(cfg->topology, "mesh") != 0 && strcmp(cfg->topology, "torus") != 0) {
        snprintf(err, errlen, "parameter 'topology': '%s' is not a BookSim2 topology noctua builds "
                 "(mesh, torus, anynet, cmesh, fly, fattree, dragonflynew, flatfly, qtree, tree4); give a SPEC instead", cfg->topology);
        return -1;
    }
    if (cfg->k < 2 || cfg->n < 1 || cfg->n > 8) {
        snprintf(err, errlen, "parameter '%s': topology %s needs k >= 2 and 1 <= n <= 8",
                 cfg->k < 2 ? "k" : "n", cfg->topology);
        return -1;
    }
    int w = snprintf(spec, len, "%s:", cfg->topology);
    for (int i = 0; i < cfg->n && (size_t)w < len; i++)
        w += snprintf(spec + w, len - (size_t)w, i ? "x%lld" : "%lld", (long long)cfg->k);
    return 0;
}

int noc_app_check_shape(const noc_config_t *cfg, const char *spec, unsigned flags, char *err, size_t errlen)
{
    noc_topo_shape_t shape;
    noc_graph_t g;
    if (noc_topo_size(spec, flags, &shape) != 0)
        return 0;
    noc_topo_shape_graph(&shape, spec, &g);
    return noc_sim_check_shape(cfg, &g, shape.bytes, err, errlen);
}

/* The topology flag of a routing that draws per packet (topologies/grid.c)
 * or adapts (topologies/grid_adapt.c) on a mesh, 0 for any other (valiant
 * on tori and rings: the caller). */
static unsigned mesh_routing(const char *rf)
{
    return strcmp(rf, "xy_yx") == 0            ? NOC_TOPO_F_XY_YX
           : strcmp(rf, "valiant") == 0        ? NOC_TOPO_F_VALIANT
           : strcmp(rf, "romm") == 0           ? NOC_TOPO_F_ROMM
           : strcmp(rf, "min_adapt") == 0      ? NOC_TOPO_F_MIN_ADAPT
           : strcmp(rf, "min_adapt_booksim") == 0 ? NOC_TOPO_F_MIN_ADAPT_BS
           : strcmp(rf, "planar_adapt_booksim") == 0 ? NOC_TOPO_F_PLANAR_BS
           : strcmp(rf, "adaptive_xy_yx") == 0 ? NOC_TOPO_F_ADAPT_XY_YX
                                               : 0u;
}

int noc_app_routing_flags(const noc_config_t *cfg, const char *spec, unsigned *flags, char *err, size_t errlen)
{
    *flags = 0;
    if (strcmp(cfg->routing_function, "dor_no_dateline") == 0)
        *flags |= NOC_TOPO_F_NO_DATELINE;
    else if (strcmp(cfg->routing_function, "dor_booksim") == 0)
        *flags |= NOC_TOPO_F_WRAP_CLASS;
    else if (strcmp(cfg->routing_function, "dor_bal_booksim") == 0) {
        if (strncmp(spec, "torus:", 6) != 0 && strncmp(spec, "ring:", 5) != 0) {
            snprintf(err, errlen, "parameter 'routing_function': dor_bal_booksim is built for tori and rings only, "
                     "not for %s", spec);
            return -1;
        }
        *flags |= NOC_TOPO_F_BAL_CLASS;
    }
    else if (strcmp(cfg->routing_function, "anca") == 0) {
        if (strncmp(spec, "fattree:", 8) != 0 && strcmp(spec, "tree4") != 0) {
            snprintf(err, errlen, "parameter 'routing_function': anca is built for fattree:K:N and tree4 only, not "
                     "for %s", spec);
            return -1;
        }
        *flags |= NOC_TOPO_F_ANCA;
    } else if (strcmp(cfg->routing_function, "ugal") == 0 || strcmp(cfg->routing_function, "ugal_xy_yx") == 0) {
        int dfly = strncmp(spec, "dragonfly:", 10) == 0 && strcmp(cfg->routing_function, "ugal") == 0;
        if (strncmp(spec, "flatfly:", 8) != 0 && !dfly) {
            snprintf(err, errlen, "parameter 'routing_function': %s is built for flatfly:K:N%s only, not for %s",
                     cfg->routing_function, strcmp(cfg->routing_function, "ugal") == 0 ? " and dragonfly:P" : "", spec);
            return -1;
        }
        *flags |= strcmp(cfg->routing_function, "ugal") == 0 ? NOC_TOPO_F_UGAL : NOC_TOPO_F_UGAL_XY_YX;
    } else if (strcmp(cfg->routing_function, "valiant") == 0 &&
             (strncmp(spec, "torus:", 6) == 0 || strncmp(spec, "ring:", 5) == 0))
        *flags |= NOC_TOPO_F_VALIANT;
    else if (mesh_routing(cfg->routing_function)) {
        unsigned ff = NOC_TOPO_F_XY_YX | NOC_TOPO_F_VALIANT | NOC_TOPO_F_ADAPT_XY_YX; /* also on flatfly:, flatfly.c */
        int on_ff = strncmp(spec, "flatfly:", 8) == 0 && (mesh_routing(cfg->routing_function) & ff);
        if (strncmp(spec, "mesh:", 5) != 0 && !on_ff) {
            snprintf(err, errlen, "parameter 'routing_function': %s is built for %s only, not for %s",
                     cfg->routing_function, strncmp(cfg->routing_function, "valiant", 7) == 0
                     ? "meshes, tori, rings and flattened butterflies (mesh:, torus:, ring:, flatfly:)"
                     : mesh_routing(cfg->routing_function) & ff ? "meshes and flattened butterflies (mesh:, flatfly:)"
                     : "meshes (mesh:AxB...)", spec);
            return -1;
        }
        *flags |= mesh_routing(cfg->routing_function);
    } else if (strcmp(cfg->routing_function, "dor") != 0 && strcmp(cfg->routing_function, "dim_order") != 0) {
        snprintf(err, errlen, "parameter 'routing_function': unknown routing '%s' (dor, dor_booksim, dor_bal_booksim, "
                 "dor_no_dateline, xy_yx, valiant, romm, min_adapt, min_adapt_booksim, planar_adapt_booksim, "
                 "adaptive_xy_yx, anca, ugal, ugal_xy_yx)",
                 cfg->routing_function);
        return -1;
    }
    return 0;
}

int noc_app_simulate(const noc_config_t *cfg, const noc_app_run_opts_t *opts, noc_sim_t **sim_out,
                     noc_topo_t **topo_out, noc_run_result_t *res, char *err, size_t errlen)
{
    static const noc_app_run_opts_t none = { 0 };
    if (!opts)
        opts = &none;
    res->sims = NULL;
    const char *waves_path = opts->waves_path;
    char spec[NOC_CONFIG_STR_MAX], msg[400];
    if (noc_app_spec(cfg, spec, sizeof spec, err, errlen))
        return -1;
    unsigned flags = 0;
    if (noc_app_routing_flags(cfg, spec, &flags, err, errlen))
        return -1;
    if (noc_app_check_shape(cfg, spec, flags, err, errlen)) /* before it is built */
        return -1;
    noc_topo_t *t = noc_topo_create(spec, flags, msg, sizeof msg);
    if (!t) {
        snprintf(err, errlen, "%s", msg);
        return -1;
    }
    /* the synthetic source: one, or with classes one a class (traffic/classes.h) */
    noc_class_traffic_t *syn = noc_xcalloc(1, sizeof *syn, "synthetic traffic");
    if (noc_class_traffic_init(syn, cfg, t, err, errlen)) {
        noc_class_traffic_free(syn);
        free(syn);
        noc_topo_destroy(t);
        return -1;
    }
    noc_sim_t *s = noc_sim_create(cfg, noc_topo_graph(t), noc_class_traffic(syn), err, errlen);
    if (s && noc_app_energy_attach(s, err, errlen) != 0) {
        noc_sim_destroy(s);
        s = NULL;
    }
    if (!s) {
        noc_class_traffic_free(syn);
        free(syn);
        noc_topo_destroy(t);
        return -1;
    }
    noc_waves_t *waves = NULL;
    if (waves_path && !(waves = noc_waves_open(waves_path, s, opts->waves_opts, err, errlen))) {
        noc_sim_destroy(s);
        noc_class_traffic_free(syn);
        free(syn);
        noc_topo_destroy(t);
        return -1;
    }
    noc_sim_set_stop(s, noc_interrupt_flag());
    noc_sim_set_progress(s, opts->progress, opts->progress_ctx, opts->progress_every);
    double t0 = noc_wall_seconds();
    int was = noc_interrupt_cooperate(1); /* Ctrl-C ends the run at the end of a cycle */
    res->status = noc_sim_run(s);
    noc_interrupt_cooperate(was);
    res->seconds = noc_wall_seconds() - t0;
    if (waves && noc_waves_close(waves, err, errlen) != 0) {
        noc_sim_destroy(s);
        noc_class_traffic_free(syn);
        free(syn);
        noc_topo_destroy(t);
        return -1;
    }
    const noc_stats_t *st = noc_sim_stats(s);
    res->offered = 0.0;
    for (int c = 0; c < syn->classes; c++) /* (every class's) */
        res->offered += syn->syn[c].p * syn->syn[c].flits;
    if (strcmp(cfg->sim_type, "batch") == 0) /* (the rate is not read: what the batches offered) */
        res->offered = st->sample ? (double)st->window_flits_offered /
                                        ((double)noc_graph_terms(noc_topo_graph(t)) * (double)st->sample) : 0.0;
    res->accepted = st->sample ? (double)st->window_flits_out / ((double)noc_graph_terms(noc_topo_graph(t)) * (double)st->sample) : 0.0;
    /* the synthetic source is only read while the simulation runs */
    noc_sim_stop_injection(s);
    noc_class_traffic_free(syn);
    free(syn);
    *sim_out = s;
    *topo_out = t;
    return 0;
}
