/* cmd_validate.c: `noctua validate [--markdown] [--only PROGRAM]`: runs
 * every validation case (a program on a fabric under a timing) in-process,
 * next to the count the papers' formula (or the algorithm's structure)
 * gives, computed from the fabric (diameters by BFS, degrees), and prints
 * the table that docs/validation.md holds. Exit status 1 if a case that
 * must agree does not. */
#include "cli/cli.h"
#include "model/pe.h"
#include "traffic/gen.h"
#include <stdlib.h>
#include <string.h>

enum { T_ROUTER, T_UNIT, T_UNIT_SYNC };
enum { R_EQ, R_LE, R_INFO }; /* measured == formula, measured <= formula, just shown */

typedef struct vcase {
    const char *program, *spec, *variant;
    int root, words;
    int64_t q;
    int timing;
    int relation;
    const char *formula;       /* as the paper writes it (or the structure gives it) */
    int64_t (*value)(const noc_topo_t *t, const struct vcase *c); /* the formula's value here */
    const char *source;
} vcase_t;

/* ---- the formulas' ingredients ---- */

static int ecc(const noc_topo_t *t, int v)
{
    int e = 0;
    for (int w = 0; w < t->n_nodes; w++) {
        int d = noc_topo_distance(t, v, w);
        if (d > e)
            e = d;
    }
    return e;
}

static int diameter(const noc_topo_t *t)
{
    int d = 0;
    for (int v = 0; v < t->n_nodes; v++) {
        int e = ecc(t, v);
        if (e > d)
            d = e;
    }
    return d;
}

static int64_t f_dims(const noc_topo_t *t, const vcase_t *c) { (void)c; return t->dims; }
static int64_t f_two_dims(const noc_topo_t *t, const vcase_t *c) { (void)c; return 2 * t->dims; }
static int64_t f_ecc_root(const noc_topo_t *t, const vcase_t *c) { return ecc(t, c->root); }
static int64_t f_diameter(const noc_topo_t *t, const vcase_t *c) { (void)c; return diameter(t); }

/* dimension-wise broadcast: the sum over the dimensions of the farthest
 * coordinate from the root's along that line */
static int64_t f_line_radii(const noc_topo_t *t, const vcase_t *c)
{
    int64_t sum = 0;
    for (int d = 0; d < t->dims; d++) {
        int k = t->k[d], x = (c->root / t->stride[d]) % k;
        sum += t->wrap ? k / 2 : (x > k - 1 - x ? x : k - 1 - x);
    }
    return sum;
}

static const vcase_t cases[] = {
    { "broadcast", "hypercube:6", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, "d (one dimension a step)", f_dims,
      "binomial spanning tree" },
    { "broadcast", "torus:8x8", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, "sum of floor(k_i/2)", f_line_radii,
      "dimension by dimension" },
    { "broadcast", "mesh:8x8", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, "sum of (k_i - 1) from a corner",
      f_line_radii, "dimension by dimension" },
    { "broadcast", "mesh:8x8", NULL, 27, 1, 0, T_UNIT_SYNC, R_EQ, "sum of the line radii from (3,3)",
      f_line_radii, "dimension by dimension" },
    { "broadcast", "bsn:ring:8", "tree", 0, 1, 0, T_UNIT, R_EQ, "eccentricity of the root", f_ecc_root,
      "BFS spanning tree" },
    { "broadcast", "bsn:ring:8", "tree", 0, 1, 0, T_UNIT, R_EQ, "diameter", f_diameter,
      "BFS tree on a BSN: its root's eccentricity is the diameter" },
    { "data-sum", "hypercube:6", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, "2d (d exchanges, d additions)",
      f_two_dims, "recursive doubling" },
};

typedef struct outcome {
    int ok;
    uint64_t cycles;
    char err[512];
} outcome_t;

static outcome_t run_case(const vcase_t *c, const noc_topo_t *t)
{
    outcome_t o = { 0 };
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    char err[512];
    if (c->timing != T_ROUTER) {
        noc_config_set(&cfg, "router", "ideal", err, sizeof err);
        noc_config_set(&cfg, "ni_ports", "0", err, sizeof err);
    }
    cfg.sync_steps = c->timing == T_UNIT_SYNC;
    const noc_generator_t *g = noc_gen_find(c->program);
    if (!g) {
        snprintf(o.err, sizeof o.err, "no program %s", c->program);
        return o;
    }
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.root = c->root;
    a.words = c->words;
    a.q = c->q;
    a.variant = c->variant;
    noc_program_t *p = g->make(t, &a, o.err, sizeof o.err);
    if (!p)
        return o;
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, t, none, o.err, sizeof o.err);
    if (s && noc_pe_attach(s, p, o.err, sizeof o.err) == 0) {
        noc_run_status_t st = noc_pe_run(s);
        o.ok = st == NOC_RUN_OK && noc_pe_finished(noc_sim_pe(s), o.err, sizeof o.err) == 0 &&
               noc_pe_check(s, o.err, sizeof o.err) == 0;
        if (st != NOC_RUN_OK)
            snprintf(o.err, sizeof o.err, "the run stopped (status %d)", (int)st);
        o.cycles = noc_pe_stats(noc_sim_pe(s))->cycles;
    }
    noc_sim_destroy(s);
    noc_prog_free(p);
    return o;
}

static const char *timing_name(int t)
{
    return t == T_UNIT_SYNC ? "unit, sync steps" : t == T_UNIT ? "unit" : "vc router";
}

int noc_cmd_validate(int argc, char **argv)
{
    int markdown = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--markdown") == 0)
            markdown = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: noctua validate [--markdown] [--only PROGRAM]\n\n"
                   "Runs every validation case (docs/validation.md): each program on its fabric\n"
                   "and timing, next to the count the formula gives. Exit status 1 if a case\n"
                   "that must agree (=, <=) does not.\n");
            return NOC_EXIT_OK;
        } else {
            fprintf(stderr, "noctua validate: unknown argument '%s'\n", argv[i]);
            return NOC_EXIT_USAGE;
        }
    }
    if (markdown)
        printf("| program | fabric | timing | formula | formula here | noctua | | where from |\n"
               "|---|---|---|---|---|---|---|---|\n");
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const vcase_t *c = &cases[i];
        if (only && strcmp(only, c->program) != 0)
            continue;
        char err[512];
        noc_topo_t *t = noc_topo_create(c->spec, 0, err, sizeof err);
        if (!t) {
            fprintf(stderr, "noctua validate: %s\n", err);
            return NOC_EXIT_INTERNAL;
        }
        outcome_t o = run_case(c, t);
        int64_t want = c->value ? c->value(t, c) : -1;
        int agrees = o.ok && (c->relation == R_INFO || (c->relation == R_EQ && (int64_t)o.cycles == want) ||
                              (c->relation == R_LE && (int64_t)o.cycles <= want));
        const char *mark = !o.ok ? "FAILED" : c->relation == R_INFO ? "" : agrees ? (c->relation == R_EQ ? "=" : "<=") : "DIFFERS";
        char args[96] = "";
        if (c->variant)
            snprintf(args + strlen(args), sizeof args - strlen(args), " %s", c->variant);
        if (c->root)
            snprintf(args + strlen(args), sizeof args - strlen(args), " root %d", c->root);
        if (markdown)
            printf("| %s%s | %s | %s | %s | %lld | %llu | %s | %s |\n", c->program, args, c->spec,
                   timing_name(c->timing), c->formula, (long long)want, (unsigned long long)o.cycles, mark,
                   c->source);
        else
            printf("%-12s%-14s %-16s %-18s formula %6lld  noctua %6llu  %s%s%s\n", c->program, args, c->spec,
                   timing_name(c->timing), (long long)want, (unsigned long long)o.cycles, mark,
                   o.ok ? "" : ": ", o.ok ? "" : o.err);
        if (!agrees)
            bad = 1;
        noc_topo_destroy(t);
    }
    return bad ? NOC_EXIT_WRONG : NOC_EXIT_OK;
}
