/* cmd_area.c: `noctua area [NAME=VALUE ...] [--json FILE|-]`: the gate count
 * of the router core rtl/noc_vc_router.sv for one parameter set, synthesized
 * with yosys once and then read from the cache (area.c, docs/area.md). */
#include "routers/rtl/area.h"
#include "report/report.h"
#include "cli/cli.h"
#include "cli/options.h"
#include <string.h>

enum { O_JSON, O_HELP };
static const noc_opt_t area_opts[] = {
    [O_JSON] = { "json", 0, "FILE", "also write the result as JSON ('-': to stdout, instead of the text)" },
    [O_HELP] = { "help", 'h', NULL, "this text" },
    { NULL, 0, NULL, NULL },
};

static void usage(FILE *f)
{
    noc_area_params_t d;
    noc_area_params_default(&d);
    char cache[1024];
    noc_area_cache_dir(cache, sizeof cache);
    fprintf(f,
        "usage: noctua area [P=%d] [V=%d] [DEPTH=%d] [FLIT_W=%d] [N_CLASS=%d] [ARB=round_robin|matrix]\n"
        "                   [--json FILE|-]\n"
        "\n"
        "Gate count of the router core rtl/noc_vc_router.sv with these parameters:\n"
        "yosys synthesizes it flat to 2-input NANDs, inverters and flip-flops\n"
        "(synth -flatten; abc -g NAND), and noctua prints the cells and the NAND2\n"
        "equivalents, weighing a NAND %g, an inverter %g and a flip-flop %g: figures\n"
        "for comparing designs, not a sign-off area (docs/area.md).\n"
        "\n"
        "  P        ports, the local one included (1 to %d)\n"
        "  V        virtual channels per port (1 to %d)\n"
        "  DEPTH    flits per VC (1 to %d)\n"
        "  FLIT_W   payload bits of a flit (1 to %d)\n"
        "  N_CLASS  VC classes of the routing (1 to V)\n"
        "  ARB      the arbiters: round_robin or matrix\n",
        d.P, d.V, d.depth, d.flit_w, d.n_class, NOC_AREA_W_NAND, NOC_AREA_W_NOT, NOC_AREA_W_FF, NOC_AREA_MAX_P,
        NOC_AREA_MAX_V, NOC_AREA_MAX_DEPTH, NOC_AREA_MAX_FLIT_W);
    noc_opts_usage(f, area_opts);
    fprintf(f,
        "\n"
        "The first call for a parameter set runs yosys (seconds for a small core, a\n"
        "minute or more for 10 ports); the counts are then cached, per parameter set\n"
        "and per version of rtl/, in %s\n"
        "(yosys's log beside them). `noctua topo SPEC --area` sums the cores of a fabric.\n"
        "\n"
        "Exit status: 0 done, 2 bad input or yosys missing, 4 yosys failed.\n",
        cache);
}

static void print_text(FILE *out, const noc_area_t *a)
{
    const noc_area_params_t *p = &a->params;
    fprintf(out, "noc_vc_router  P=%d V=%d DEPTH=%d FLIT_W=%d N_CLASS=%d ARB=%s\n", p->P, p->V, p->depth,
            p->flit_w, p->n_class, noc_area_arb_name(p->arb));
    fprintf(out, "cells        %10ld\n", a->cells);
    fprintf(out, "NAND2-eq     %12.1f\n", a->nand2);
    fprintf(out, "  NAND       %10ld  x %-4g = %10.1f\n", a->nand, NOC_AREA_W_NAND, (double)a->nand * NOC_AREA_W_NAND);
    fprintf(out, "  NOT        %10ld  x %-4g = %10.1f\n", a->inv, NOC_AREA_W_NOT, (double)a->inv * NOC_AREA_W_NOT);
    fprintf(out, "  flip-flops %10ld  x %-4g = %10.1f\n", a->ff, NOC_AREA_W_FF, (double)a->ff * NOC_AREA_W_FF);
    if (a->other)
        fprintf(out, "  other      %10ld  (not weighed)\n", a->other);
    fprintf(out, "cell kinds:");
    for (int k = 0; k < a->n_kinds; k++)
        fprintf(out, " %s %ld%s", a->kind[k], a->kind_count[k], k + 1 < a->n_kinds ? "," : "");
    const char *by = a->yosys[0] ? a->yosys : "yosys";
    if (a->cached)
        fprintf(out, "\nfrom the cache %s,\nsynthesized in %.1f s by %s\n", a->path, a->seconds, by);
    else
        fprintf(out, "\nsynthesized in %.1f s by %s; cached in %s\n", a->seconds, by, a->path);
}

int noc_cmd_area(int argc, char **argv)
{
    noc_area_params_t p;
    noc_area_params_default(&p);
    const char *json_path = NULL;
    char err[1200];
    noc_opts_t o;
    noc_opts_init(&o, "area", area_opts, argc, argv);
    noc_opts_in_order(&o);
    int k;
    while ((k = noc_opts_next(&o)) != -1) {
        if (k == -2)
            return NOC_EXIT_USAGE;
        if (k == O_HELP) {
            usage(stdout);
            return NOC_EXIT_OK;
        } else if (k == O_JSON) {
            json_path = o.value;
        } else if (noc_area_param_set(&p, o.value, 1, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "noctua area: %s (see noctua area --help)\n", err);
            return NOC_EXIT_USAGE;
        }
    }
    if (noc_area_params_check(&p, err, sizeof err) != 0) {
        fprintf(stderr, "noctua area: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    noc_area_t a;
    int rc = noc_area_get(&p, &a, err, sizeof err);
    if (rc != NOC_AREA_OK) {
        fprintf(stderr, "noctua area: %s\n", err);
        return rc == NOC_AREA_EUSAGE ? NOC_EXIT_USAGE : NOC_EXIT_INTERNAL;
    }
    if (a.other)
        fprintf(stderr, "noctua area: warning: %ld cells are neither NAND, NOT nor flip-flops and are not weighed\n",
                a.other);
    if (!(json_path && strcmp(json_path, "-") == 0))
        print_text(stdout, &a);
    if (json_path) {
        rc = noc_report_area_json(&a, json_path, err, sizeof err);
        if (rc != 0) {
            fprintf(stderr, "noctua area: %s\n", err);
            return NOC_EXIT_USAGE;
        }
    }
    return NOC_EXIT_OK;
}
