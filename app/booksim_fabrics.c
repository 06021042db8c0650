/* booksim_fabrics.c: BookSim2's topologies other than mesh and torus in a
 * BookSim2 file (anynet, cmesh, fly, fattree, qtree, tree4, dragonflynew,
 * flatfly) as noctua's SPECs, with their routing functions and channel
 * latencies checked as BookSim2 builds them (booksim_internal.h). How each
 * is read: docs/booksim.md and docs/fabrics/. */
#include "app/booksim_internal.h"
#include "topologies/anynet.h"
#include "topologies/topo.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* topology = anynet: the SPEC anynet:FILE of network_file, checked here
 * (the file's faults named with its lines), and the latency all its
 * channels take in *lat. */
void noc_bs_translate_anynet(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf, long *lat)
{
    unsigned long lf;
    const char *file = noc_bs_value_of(r, "network_file", &lf);
    char spec[NOC_CONFIG_STR_MAX], why[768];
    int l = 1, nodes = 0;
    if (strcmp(rf, "min") != 0) {
        noc_bs_refuse(r, lrf, "'routing_function = %s' on anynet: BookSim2's anynet has min only (min_anynet)", rf);
        return;
    }
    if (!file[0]) {
        noc_bs_refuse(r, 0, "topology = anynet without a network_file: BookSim2 stops (No network file name provided)");
        return;
    }
    if ((size_t)snprintf(spec, sizeof spec, "anynet:%s", file) >= sizeof spec) {
        noc_bs_refuse(r, lf, "network_file: a path of at most %d characters, please", NOC_CONFIG_STR_MAX - 8);
        return;
    }
    if (noc_anynet_uniform_latency(file, &l, &nodes, why, sizeof why) != 0) {
        noc_bs_refuse(r, lf, "network_file = %s: %s", file, why);
        return;
    }
    unsigned long ltr, lk, ln;
    const char *k = noc_bs_value_of(r, "k", &lk), *n = noc_bs_value_of(r, "n", &ln), *tr = noc_bs_value_of(r, "traffic", &ltr);
    int tornado = strcmp(tr, "tornado") == 0;
    if ((tornado || strcmp(tr, "neighbor") == 0) && (atol(k) != nodes || atol(n) != 1))
        noc_bs_refuse(r, ltr, "'traffic = %s' on anynet: BookSim2's %s moves the digits of a k-ary n-cube, "
                      "k = %s and n = %s here (anynet does not set them), noctua's moves node numbers by "
                      "%s on the file's N = %d nodes: give k = %d; n = 1; to mean the same", tr, tr, k, n,
                      tornado ? "ceil(N/2) - 1" : "1", nodes, nodes);
    noc_bs_set(r, cfg, "topology_spec", spec, "network_file");
    *lat = l;
}

/* topology = cmesh: BookSim2's concentrated mesh (networks/cmesh.cpp) as
 * the SPEC cmesh:KxK (c = 4 terminals on each router, 2x2); its asserts
 * (n = 2, c = 4 = xr * yr, xr = yr, x = y) refused by name; the channels
 * take xr = 2 cycles with use_noc_latency (its x links take _cX, its y
 * links _cY), 1 without. */
void noc_bs_translate_cmesh(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf, long use_noc,
                            long *lat)
{
    long k = 0, n = 0, c = 0, x = 0, y = 0, xr = 0, yr = 0;
    unsigned long line;
    if (noc_bs_int_key(r, "k", 1, 4096, &k) || noc_bs_int_key(r, "n", 1, 8, &n) || noc_bs_int_key(r, "c", 1, 64, &c) ||
        noc_bs_int_key(r, "x", 1, 4096, &x) || noc_bs_int_key(r, "y", 1, 4096, &y) || noc_bs_int_key(r, "xr", 1, 64, &xr) ||
        noc_bs_int_key(r, "yr", 1, 64, &yr))
        return;
    if (n != 2) {
        noc_bs_value_of(r, "n", &line);
        noc_bs_refuse(r, line, "'n = %ld' on cmesh: BookSim2's cmesh is two-dimensional (it asserts n <= 2, and n = 1 "
                      "breaks its routing)", n);
    }
    if (c != 4 || xr != 2 || yr != 2) {
        noc_bs_value_of(r, c != 4 ? "c" : xr != 2 ? "xr" : "yr", &line);
        noc_bs_refuse(r, line, "cmesh with c = %ld, xr = %ld, yr = %ld: BookSim2's cmesh asserts c = 4 and c = xr * yr "
                      "with xr = yr (2x2 nodes on every router)", c, xr, yr);
    }
    if (x != y) {
        noc_bs_value_of(r, "y", &line);
        noc_bs_refuse(r, line, "cmesh with x = %ld, y = %ld: BookSim2's cmesh asserts x = y", x, y);
    }
    if (strcmp(rf, "dor_no_express") != 0)
        noc_bs_refuse(r, lrf, "'routing_function = %s' on cmesh: noctua builds dor_no_express only (BookSim2's dor and "
                      "xy_yx take the express channels of its edge routers, which noctua does not build; xy_yx_no_express "
                      "chooses adaptively)", rf);
    char spec[64];
    snprintf(spec, sizeof spec, "cmesh:%ldx%ld", k, k);
    noc_bs_set(r, cfg, "topology_spec", spec, "topology");
    *lat = use_noc ? xr : 1;
}

/* topology = fly or fattree, BookSim2's k-ary n-fly (networks/fly.cpp) and
 * k-ary n-tree (networks/fattree.cpp), as the SPECs fly:K:N and
 * fattree:K:N, K up to kmax, routed by their own function `own`
 * (dest_tag_fly; nca_fattree: up a port drawn at random, then down; anca,
 * adaptive, is not among the values read at all), any other refused with
 * `why`. Both give every channel 1 cycle, use_noc_latency or not. BookSim2's
 * tornado and neighbor move the k-ary digits of the terminal numbers,
 * noctua's on these fabrics the numbers: the same for n = 1 alone. */
void noc_bs_translate_kary(noc_bs_read_t *r, noc_config_t *cfg, const char *topo, long kmax, const char *rf,
                           unsigned long lrf, const char *own, const char *why, long *lat)
{
    long k = 0, n = 0;
    if (noc_bs_int_key(r, "k", 2, kmax, &k) || noc_bs_int_key(r, "n", 1, 16, &n))
        return;
    if (strcmp(rf, own) != 0)
        noc_bs_refuse(r, lrf, "'routing_function = %s' on %s: %s", rf, topo, why);
    unsigned long ltr;
    const char *tr = noc_bs_value_of(r, "traffic", &ltr);
    if (n > 1 && (strcmp(tr, "tornado") == 0 || strcmp(tr, "neighbor") == 0))
        noc_bs_refuse(r, ltr, "'traffic = %s' on %s with n = %ld: BookSim2's %s moves each of the n base-k digits of a "
                      "terminal's number, noctua's moves the number itself (the same for n = 1 only)", tr, topo, n, tr);
    char spec[64];
    snprintf(spec, sizeof spec, "%s:%ld:%ld", topo, k, n);
    noc_bs_set(r, cfg, "topology_spec", spec, "topology");
    *lat = 1;
}

/* topology = qtree or tree4 (networks/qtree.cpp, networks/tree4.cpp), which
 * assert k = 4 and n = 3, as the SPECs qtree:4:3 and tree4, routed by
 * their nca (qtree_nca, tree4_nca) or tree4's anca (tree4_anca as BookSim2
 * runs it: topologies/tree4.c). Every channel 1 cycle. */
void noc_bs_translate_tree(noc_bs_read_t *r, noc_config_t *cfg, const char *topo, const char *rf, unsigned long lrf,
                           long *lat)
{
    long k = 0, n = 0;
    if (noc_bs_int_key(r, "k", 2, 64, &k) || noc_bs_int_key(r, "n", 1, 16, &n))
        return;
    unsigned long lk;
    if (k != 4 || n != 3) {
        noc_bs_value_of(r, k != 4 ? "k" : "n", &lk);
        noc_bs_refuse(r, lk, "'topology = %s' with k = %ld, n = %ld: BookSim2's %s asserts k = 4 and n = 3 (noctua's SPEC "
                      "qtree:K:N builds any K-ary tree)", topo, k, n, topo);
    }
    int t4 = strcmp(topo, "tree4") == 0;
    if (strcmp(rf, "nca") != 0 && !(t4 && strcmp(rf, "anca") == 0))
        noc_bs_refuse(r, lrf, "'routing_function = %s' on %s: %s", rf, topo,
                      t4 ? "BookSim2's tree4 has nca and anca" : "BookSim2's qtree has nca only");
    else if (t4 && strcmp(rf, "anca") == 0) /* as BookSim2 runs it: the first up port */
        noc_bs_set(r, cfg, "routing_function", "anca", NULL);
    unsigned long ltr;
    const char *tr = noc_bs_value_of(r, "traffic", &ltr);
    if (strcmp(tr, "tornado") == 0 || strcmp(tr, "neighbor") == 0)
        noc_bs_refuse(r, ltr, "'traffic = %s' on %s: BookSim2's %s moves each of the 3 base-4 digits of a terminal's "
                      "number, noctua's moves the number itself", tr, topo, tr);
    noc_bs_set(r, cfg, "topology_spec", t4 ? "tree4" : "qtree:4:3", "topology");
    *lat = 1;
}

/* topology = dragonflynew: BookSim2's dragonfly (networks/dragonfly.cpp) as
 * the SPEC dragonfly:k; its assert n = 1 refused by name, min_dragonflynew
 * as the SPEC's routing (its VCs 0 and 1, whatever num_vcs: 2 asked for),
 * ugal_dragonflynew as noctua's ugal on it (its assert num_vcs = 3 asked
 * for). *lat = 0: the channels take the link classes'
 * latencies (NOC_BS_DFLY_CLASS_LATENCY), and each its own credit loop. */
void noc_bs_translate_dragonfly(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf, long *lat)
{
    long k = 0, n = 0, vcs = 0;
    unsigned long line;
    if (noc_bs_int_key(r, "k", 1, 16, &k) || noc_bs_int_key(r, "n", 1, 8, &n) || noc_bs_int_key(r, "num_vcs", 1, 64, &vcs))
        return;
    if (n != 1) {
        noc_bs_value_of(r, "n", &line);
        noc_bs_refuse(r, line, "'n = %ld' on dragonflynew: BookSim2's dragonflynew asserts n = 1 (one dimension in a "
                      "group)", n);
    }
    int ugal = strcmp(rf, "ugal") == 0;
    if (!ugal && strcmp(rf, "min") != 0)
        noc_bs_refuse(r, lrf, "'routing_function = %s' on dragonflynew: BookSim2's dragonflynew has min and ugal", rf);
    if (ugal && vcs != 3) {
        noc_bs_value_of(r, "num_vcs", &line);
        noc_bs_refuse(r, line, "'num_vcs = %ld' with ugal on dragonflynew: BookSim2's ugal_dragonflynew asserts "
                      "num_vcs = 3 (one VC a phase)", vcs);
    } else if (ugal) { /* ugal_dragonflynew: adaptive, the dragonfly SPEC's route set */
        noc_bs_set(r, cfg, "routing_function", "ugal", NULL);
    } else if (vcs != 2) {
        noc_bs_value_of(r, "num_vcs", &line);
        noc_bs_refuse(r, line, "'num_vcs = %ld' on dragonflynew: BookSim2's min_dragonflynew uses VCs 0 and 1 whatever "
                      "num_vcs, noctua's two VC classes share all VCs: give num_vcs = 2 to mean the same", vcs);
    }
    const char *tr = noc_bs_value_of(r, "traffic", &line);
    if (strcmp(tr, "uniform") != 0)
        noc_bs_refuse(r, line, "'traffic = %s' on dragonflynew: noctua honours uniform there (BookSim2's other patterns "
                      "read gK and gN, which dragonflynew sets to its k and n = 1; not checked against noctua's yet)", tr);
    char spec[64];
    snprintf(spec, sizeof spec, "dragonfly:%ld", k);
    noc_bs_set(r, cfg, "topology_spec", spec, "topology");
    *lat = 0;
}

/* The longest of BookSim2's flatfly injection and ejection channels with
 * use_noc_latency (flatfly_onchip.cpp's ileng loop, walked as it is written:
 * 1 for xr, yr <= 3). */
static int flatfly_ileng(long xr, long yr)
{
    long yl = -yr / 2, xl = -xr / 2, most = 1;
    for (long i = 0; i < xr * yr; i++) {
        if (yl == 0 && yr % 2 == 0)
            yl++;
        if (xl == 0 && xr % 2 == 0)
            xl++;
        long l = 1 + (labs(yl) > 1 ? labs(yl) - 1 : 0) + (labs(xl) > 1 ? labs(xl) - 1 : 0);
        most = l > most ? l : most;
        if (++yl > yr / 2) {
            yl = -yr / 2;
            xl++;
        }
    }
    return (int)most;
}

/* routing_function on flatfly: ran_min (min_flatfly) is the SPEC's own;
 * xyyx, adaptive_xyyx, valiant, ugal and ugal_xyyx (xyyx_flatfly, ...,
 * ugal_xyyx_flatfly_onchip) are noctua's xy_yx, adaptive_xy_yx, valiant,
 * ugal and ugal_xy_yx on the SPEC (topologies/flatfly.c), each halving the
 * VCs as BookSim2 does (available_vcs = (vcEnd - vcBegin + 1) / 2;
 * ugal_xyyx halves each half again): a num_vcs (or packet kind's range)
 * that does not divide gives parts sharing a VC there, refused. */
static void flatfly_routing(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf)
{
    const char *own = strcmp(rf, "xyyx") == 0 ? "xy_yx" : strcmp(rf, "adaptive_xyyx") == 0 ? "adaptive_xy_yx"
                      : strcmp(rf, "valiant") == 0 ? "valiant" : strcmp(rf, "ugal") == 0 ? "ugal"
                      : strcmp(rf, "ugal_xyyx") == 0 ? "ugal_xy_yx" : NULL;
    long vcs = 0, parts = strcmp(rf, "ugal_xyyx") == 0 ? 4 : 2;
    unsigned long line;
    if (strcmp(rf, "ran_min") == 0)
        return;
    if (strcmp(rf, "ugal_pni") == 0) {
        noc_bs_refuse(r, lrf, "'routing_function = ugal_pni' on flatfly: not modelled (ugal_pni_flatfly_onchip asserts "
                      "k = c and splits each phase's VCs by the digit the packet's next hop moves to, its injection VC "
                      "too, which noctua's VC classes do not express); ugal and ugal_xyyx are built");
        return;
    }
    if (!own) {
        noc_bs_refuse(r, lrf, "'routing_function = %s' on flatfly: noctua builds ran_min, xyyx, adaptive_xyyx, valiant, "
                      "ugal and ugal_xyyx", rf);
        return;
    }
    if (noc_bs_int_key(r, "num_vcs", 1, 64, &vcs))
        return;
    if (vcs % parts) {
        noc_bs_value_of(r, "num_vcs", &line);
        noc_bs_refuse(r, line, "'num_vcs = %ld' with %s on flatfly: BookSim2's %s, noctua's VC classes share none: "
                      "give a num_vcs that %ld divides", vcs, rf, parts == 2 ? "two halves of the VCs then share the "
                      "middle VC" : "four quarters (two per order) of the VCs then share a VC", parts);
        return;
    }
    noc_bs_rw_halves(r, rf);
    noc_bs_set(r, cfg, "routing_function", own, NULL);
}

/* topology = flatfly: BookSim2's flattened butterfly
 * (networks/flatfly_onchip.cpp) as the SPEC flatfly:k:n:xrxyr:x, its
 * asserts (c = xr * yr, xr = yr, x = y, n <= 4) refused by name, ran_min
 * (min_flatfly) as the SPEC's routing, the others as flatfly_routing
 * says. With use_noc_latency every link takes its length, xr|dx| + yr|dy|
 * cycles, flits and credits: *lat = 0 and r->class_lat gives each length
 * class its latency. */
void noc_bs_translate_flatfly(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf, long use_noc,
                              long *lat)
{
    long k = 0, n = 0, c = 0, x = 0, y = 0, xr = 0, yr = 0;
    unsigned long line;
    if (noc_bs_int_key(r, "k", 2, 63, &k) || noc_bs_int_key(r, "n", 1, 16, &n) || noc_bs_int_key(r, "c", 1, 63, &c) ||
        noc_bs_int_key(r, "x", 1, 1L << 22, &x) || noc_bs_int_key(r, "y", 1, 1L << 22, &y) || noc_bs_int_key(r, "xr", 1, 63, &xr) ||
        noc_bs_int_key(r, "yr", 1, 63, &yr))
        return;
    if (n > 4) {
        noc_bs_value_of(r, "n", &line);
        noc_bs_refuse(r, line, "'n = %ld' on flatfly: BookSim2's flatfly builds at most 4 dimensions (it asserts dim < 4)", n);
    }
    if (c != xr * yr || xr != yr) {
        noc_bs_value_of(r, c != xr * yr ? "c" : "yr", &line);
        noc_bs_refuse(r, line, "flatfly with c = %ld, xr = %ld, yr = %ld: BookSim2's flatfly asserts c = xr * yr and xr = yr",
                      c, xr, yr);
    }
    if (x != y) {
        noc_bs_value_of(r, "y", &line);
        noc_bs_refuse(r, line, "flatfly with x = %ld, y = %ld: BookSim2's flatfly asserts x = y", x, y);
    }
    if (use_noc && flatfly_ileng(xr, yr) != 1) {
        noc_bs_value_of(r, "xr", &line);
        noc_bs_refuse(r, line, "flatfly with xr = yr = %ld and use_noc_latency = 1: BookSim2's injection and ejection "
                      "channels then take 1 to %d cycles by the terminal's place, noctua's all the same", xr,
                      flatfly_ileng(xr, yr));
    }
    flatfly_routing(r, cfg, rf, lrf);
    const char *tr = noc_bs_value_of(r, "traffic", &line);
    if (strcmp(tr, "tornado") == 0 || strcmp(tr, "neighbor") == 0 || strcmp(tr, "badperm_yarc") == 0)
        noc_bs_refuse(r, line, "'traffic = %s' on flatfly: BookSim2's %s moves the n digits of radix k*xr of a terminal's "
                      "number, noctua's does not", tr, tr);
    char spec[96], why[600];
    snprintf(spec, sizeof spec, "flatfly:%ld:%ld:%ldx%ld:%ld", k, n, xr, yr, x);
    noc_topo_t *t = r->errors ? NULL : noc_topo_create(spec, 0, why, sizeof why);
    if (!t) {
        if (!r->errors) {
            noc_bs_value_of(r, "x", &line);
            noc_bs_refuse(r, line, "flatfly: %s", why);
        }
        return;
    }
    noc_bs_set(r, cfg, "topology_spec", spec, "topology");
    const noc_graph_t *g = noc_topo_graph(t);
    size_t w = 0;
    for (int i = 0; use_noc && i < g->n_classes && w < sizeof r->class_lat; i++) /* "lenL" takes L cycles */
        w += (size_t)snprintf(r->class_lat + w, sizeof r->class_lat - w, "%s%s:%s", i ? "," : "", g->class_name[i],
                              g->class_name[i] + 3);
    noc_topo_destroy(t);
    *lat = use_noc ? 0 : 1;
}

