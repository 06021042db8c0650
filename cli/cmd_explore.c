/* cmd_explore.c: `noctua explore FABRIC... [key=value|key={a,b}...]
 * [--program NAME[:WORDS] ...] [--area] [-j N] [--resume] [-o PREFIX]`:
 * architecture exploration in one command (docs/exploration.md). Every
 * fabric (brace ranges and lists expanded) with every combination of the
 * varied parameters and every workload is one row, run in a process of its
 * own (cli/pool.h, as noctua sweep's points) by cli/explore_run.c; the rows
 * with the Pareto front marked go to PREFIX.csv, PREFIX.json and PREFIX.md
 * (report/explore.h), written whole at the end. */
#include "cli/explore.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/pool.h"
#include "cli/explore_plot.h"
#include "cli/explore_ini.h"
#include "cli/sweep.h"
#include "app/config_file.h"
#include "traffic/gen.h"
#include "traffic/pattern.h"
#include "util/interrupt.h"
#include "util/outfile.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PATH_LEN 4096

enum { O_CONFIG, O_STUDY, O_PROGRAM, O_PROGRAM_FILE, O_TRAFFIC, O_AREA, O_JOBS, O_RESUME, O_OUTPUT, O_QUIET, O_HELP };
static const noc_opt_t explore_opts[] = {
    [O_CONFIG] = { "config", 'c', "FILE", "read parameters from FILE (key = value lines), for every row" },
    [O_STUDY] = { "study", 's', "FILE", "read the study from FILE: fabrics, parameters, workloads and\n"
                                        "settings, a line each (docs/exploration.md, \"The study file\");\n"
                                        "the command line adds to it and wins" },
    [O_PROGRAM] = { "program", 'p', "NAME[:WORDS]", "a workload: the program NAME (noctua run --program list)\n"
                                                    "with WORDS words per message (default: the program's);\n"
                                                    "braces make several: broadcast:{1,16} (default: broadcast)" },
    [O_PROGRAM_FILE] = { "program-file", 0, "FILE", "a workload: the program in FILE (GOAL text, docs/programs.md;\n"
                                                     "its ranks must fit the fabric's nodes)" },
    [O_TRAFFIC] = { "traffic", 't', "PATTERN[@RATES]", "a workload: synthetic traffic PATTERN (traffic=, noctua run\n"
                                                       "--help), swept over RATES as noctua sweep --rates does\n"
                                                       "(default " EXPLORE_DEFAULT_RATES "): its saturation rate and\n"
                                                       "zero-load latency" },
    [O_AREA] = { "area", 0, NULL, "also the routers' gate count (yosys, cached; noctua area --help):\n"
                                  "router_area and total_area, and area is then an objective" },
    [O_JOBS] = { "jobs", 'j', "N", "run N rows at once, each in a process of its own (default: one\n"
                                   "per core; 1: one after another); the files are the same for any N; under\n"
                                   "mpirun -n R the rows spread over the R ranks, one at a time each" },
    [O_RESUME] = { "resume", 0, NULL, "keep the rows PREFIX.csv already holds that ran well (an earlier\n"
                                      "run of the same exploration, cut short) and run only the others" },
    [O_OUTPUT] = { "output", 'o', "PREFIX", "output files PREFIX.csv/.json/.md (default: explore)" },
    [O_QUIET] = { "quiet", 'q', NULL, "no line per row on stderr" },
    [O_HELP] = { "help", 'h', NULL, "this text" },
    { NULL, 0, NULL, NULL },
};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: noctua explore FABRIC [FABRIC ...] [key=value ...] [key={a,b,...} ...]\n"
        "                      [--program NAME[:WORDS] ...] [--program-file FILE ...]\n"
        "                      [--traffic PATTERN[@RATES] ...] [--area] [-j N] [--resume] [-o PREFIX]\n"
        "       noctua explore --study FILE.ini [...]\n"
        "\n"
        "Architecture exploration: every FABRIC with every combination of the varied\n"
        "parameters and every workload is one row; each row gets its fabric's graph\n"
        "facts (as noctua topo), the workload's cycles and energy (as noctua run\n"
        "--program ... energy=default) and, with --area, the routers' gate count (as\n"
        "noctua topo --area). The table goes to PREFIX.csv, PREFIX.json and a Markdown\n"
        "summary PREFIX.md, with the Pareto-optimal rows of each workload marked:\n"
        "minimising cycles and links, and total_area and energy_pj where every row of\n"
        "the workload has them; for synthetic traffic maximising the saturation rate and\n"
        "minimising zero-load latency and links (docs/exploration.md).\n"
        "\n"
        "  FABRIC          a SPEC (%s);\n"
        "                  braces expand: {A..B} a range, {a,b,c} a list, as in\n"
        "                  'bsn:mesh:{2..4}' 'torus:{3,4}x{3,4}' 'hypercube:{4..6}'\n"
        "  key=value       a parameter for every row (noctua run --help lists them)\n"
        "  key={a,b,...}   a varied parameter: a row per value (num_vcs={2,4},\n"
        "                  vc_buf_size={4..8}); several make every combination\n",
        noc_topo_spec_help());
    noc_opts_usage(f, explore_opts);
    fprintf(f,
        "\n"
        "energy=default is set for every row whose router has energy figures (not\n"
        "ideal) and whose flits are 64 bits (the built-in table's) unless energy= is given. At most %d rows. Quote braces for the shell.\n"
        "\n"
        "CSV columns: %s\n"
        "\n"
        "Exit status: 0 every row ran well; 2 bad input (nothing is run) or an output\n"
        "that could not be written; else the status of the first row that did not end\n"
        "well (1 wrong result, 2 refused, 3 deadlock, 4 internal; the row says why, the\n"
        "others still run); 130 interrupted (the files hold the rows finished, marked\n"
        "partial).\n",
        EXPLORE_MAX_ROWS, noc_explore_csv_header());
}

/* What explore's command line asks for, besides the plan. */
typedef struct explore_args {
    const char *prefix;
    char prefix_buf[PATH_LEN]; /* a study file's output */
    int jobs, resume, quiet;
    char command[8192];   /* the command line, as the files name it */
} explore_args_t;

/* A key=value operand into the plan: a fixed value into base, a braced one
 * a varied key. 0, or -1 after the message. */
static int key_operand(explore_plan_t *p, const char *a)
{
    char err[700];
    const char *eq = strchr(a, '=');
    if ((size_t)(eq - a) >= sizeof p->keys[0].key || strncmp(a, "topology_spec=", 14) == 0) {
        fprintf(stderr, "noctua explore: '%s': %s\n", a,
                eq - a >= 64 ? "not a parameter" : "give the fabrics as operands (FABRIC ...), not topology_spec");
        return -1;
    }
    if (strncmp(a, "energy=", 7) == 0)
        p->energy_default = 0;
    /* a key given again: the later wins, fixed or varied */
    for (int i = 0; i < p->n_keys; i++)
        if (strlen(p->keys[i].key) == (size_t)(eq - a) && strncmp(p->keys[i].key, a, (size_t)(eq - a)) == 0) {
            memmove(&p->keys[i], &p->keys[i + 1], (size_t)(p->n_keys - i - 1) * sizeof p->keys[0]);
            p->n_keys--;
            break;
        }
    explore_key_t *k = &p->keys[p->n_keys];
    int n = noc_expand(a, k->val, EXPLORE_MAX_VALUES, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "noctua explore: %s\n", err);
        return -1;
    }
    noc_config_t probe = p->base;
    for (int i = 0; i < n; i++)
        if (noc_app_set_arg(n == 1 ? &p->base : &probe, k->val[i], err, sizeof err) != 0) {
            fprintf(stderr, "noctua explore: %s\n", err);
            return -1;
        }
    if (n == 1)
        return 0;
    if (p->n_keys == EXPLORE_MAX_KEYS) {
        fprintf(stderr, "noctua explore: '%s': at most %d varied parameters\n", a, EXPLORE_MAX_KEYS);
        return -1;
    }
    snprintf(k->key, sizeof k->key, "%.*s", (int)(eq - a), a);
    for (int i = 0; i < n; i++) /* keep the values only */
        memmove(k->val[i], k->val[i] + (eq - a) + 1, strlen(k->val[i] + (eq - a) + 1) + 1);
    k->n = n;
    p->n_keys++;
    return 0;
}

/* A FABRIC operand, expanded, each SPEC built once to refuse a bad one now. */
static int fabric_operand(explore_plan_t *p, const char *a)
{
    char err[700];
    int n = noc_expand(a, p->fabric + p->n_fabrics, EXPLORE_MAX_FABRICS - p->n_fabrics, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "noctua explore: %s\n", err);
        return -1;
    }
    for (int i = p->n_fabrics; i < p->n_fabrics + n; i++) {
        noc_topo_t *t = noc_app_check_shape(&p->base, p->fabric[i], 0, err, sizeof err)
                            ? NULL
                            : noc_topo_create(p->fabric[i], 0, err, sizeof err);
        if (!t) {
            fprintf(stderr, "noctua explore: fabric '%s'%s%s%s: %s\n", p->fabric[i], strcmp(a, p->fabric[i]) ? " (from '" : "",
                    strcmp(a, p->fabric[i]) ? a : "", strcmp(a, p->fabric[i]) ? "')" : "", err);
            return -1;
        }
        noc_topo_destroy(t);
    }
    p->n_fabrics += n;
    return 0;
}

/* A --traffic workload's pattern and rates, refused now when bad. */
static int check_traffic(const explore_plan_t *p, const explore_workload_t *wl, const char *a)
{
    char err[700], kv[NOC_EXPLORE_LABEL + 16];
    noc_config_t probe = p->base;
    rates_t *r = noc_xmalloc(sizeof *r, "explore");
    snprintf(kv, sizeof kv, "traffic=%s", wl->program);
    char args[NOC_EXPLORE_LABEL];
    int has_args, bad = noc_app_set_arg(&probe, kv, err, sizeof err) != 0 ||
                        noc_sweep_parse_rates(wl->rates, r, err, sizeof err) != 0;
    if (!bad && noc_pattern_split(wl->program, args, sizeof args, &has_args) == NOC_PAT_COUNT) {
        snprintf(err, sizeof err, "unknown pattern '%.100s' (known: %s)", wl->program, noc_pattern_list());
        bad = 1;
    }
    free(r);
    if (bad)
        fprintf(stderr, "noctua explore: --traffic '%s': %s\n", a, err);
    return bad ? -1 : 0;
}

/* A --program operand, expanded: NAME or NAME:WORDS. */
static int program_operand(explore_plan_t *p, const char *a)
{
    char err[700], w[EXPLORE_MAX_WORKLOADS][NOC_EXPAND_LEN];
    int n = noc_expand(a, w, EXPLORE_MAX_WORKLOADS - p->n_work, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "noctua explore: --program %s\n", err);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        explore_workload_t *wl = &p->work[p->n_work++];
        const char *colon = strchr(w[i], ':');
        size_t len = colon ? (size_t)(colon - w[i]) : strlen(w[i]);
        snprintf(wl->program, sizeof wl->program, "%.*s", (int)len, w[i]);
        snprintf(wl->label, sizeof wl->label, "%s", w[i]);
        if (!noc_gen_find(wl->program)) {
            fprintf(stderr, "noctua explore: --program '%s': no program '%s' (noctua run --program list)\n", a,
                    wl->program);
            return -1;
        }
        if (colon) {
            char *end;
            errno = 0;
            long v = strtol(colon + 1, &end, 10);
            if (!colon[1] || *end || errno || v < 1 || v > NOC_PROG_MAX_MEM) {
                fprintf(stderr, "noctua explore: --program '%s': WORDS '%s' is not a number from 1 to %d\n", a,
                        colon + 1, NOC_PROG_MAX_MEM);
                return -1;
            }
            wl->words = (int)v;
        }
    }
    return 0;
}

/* A --program-file or --traffic operand, expanded. */
static int other_workload(explore_plan_t *p, const char *a, explore_kind_t kind)
{
    char err[700], w[EXPLORE_MAX_WORKLOADS][NOC_EXPAND_LEN];
    const char *opt = kind == EXPLORE_FILE ? "--program-file" : "--traffic";
    int n = noc_expand(a, w, EXPLORE_MAX_WORKLOADS - p->n_work, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "noctua explore: %s %s\n", opt, err);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        explore_workload_t *wl = &p->work[p->n_work++];
        wl->kind = kind;
        snprintf(wl->label, sizeof wl->label, "%.250s", w[i]);
        const char *at = kind == EXPLORE_TRAFFIC ? strchr(w[i], '@') : NULL;
        snprintf(wl->program, sizeof wl->program, "%.*s", at ? (int)(at - w[i]) : (int)strlen(w[i]), w[i]);
        snprintf(wl->rates, sizeof wl->rates, "%s", at ? at + 1 : EXPLORE_DEFAULT_RATES);
        FILE *f = kind == EXPLORE_FILE ? fopen(wl->program, "r") : NULL;
        if (kind == EXPLORE_FILE && !f) {
            fprintf(stderr, "noctua explore: --program-file %s: %s\n", wl->program, strerror(errno));
            return -1;
        }
        if (f)
            fclose(f);
        if (kind == EXPLORE_TRAFFIC && check_traffic(p, wl, a) != 0)
            return -1;
    }
    return 0;
}

/* The command line as one string, words with shell syntax quoted. */
static void command_text(int argc, char **argv, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "noctua");
    for (int i = 0; i < argc && k < len; i++) {
        int quote = strpbrk(argv[i], " {}()*?$'\"<>|;&\\") != NULL;
        k += (size_t)snprintf(buf + k, len - k, quote ? " '%s'" : " %s", argv[i]);
    }
}

/* One option or operand. 0, 1 after --help, -1 after a message. */
static int take(explore_plan_t *p, explore_args_t *a, int k, const char *v)
{
    char err[700];
    char *end;
    switch (k) {
    case O_HELP:
        usage(stdout);
        return 1;
    case O_CONFIG:
        if (noc_app_load_file(&p->base, v, err, sizeof err) == 0)
            return 0;
        fprintf(stderr, "noctua explore: %s\n", err);
        return -1;
    case O_PROGRAM:
        return program_operand(p, v);
    case O_PROGRAM_FILE:
        return other_workload(p, v, EXPLORE_FILE);
    case O_TRAFFIC:
        return other_workload(p, v, EXPLORE_TRAFFIC);
    case O_AREA:
        p->area = 1;
        return 0;
    case O_JOBS:
        errno = 0;
        long j = strtol(v, &end, 10);
        if (*end || end == v || errno || j < 1 || j > 64) {
            fprintf(stderr, "noctua explore: -j '%s': expected a number of processes from 1 to 64\n", v);
            return -1;
        }
        a->jobs = (int)j;
        return 0;
    case O_RESUME:
        a->resume = 1;
        return 0;
    case O_OUTPUT:
        a->prefix = v;
        if (*v)
            return 0;
        fprintf(stderr, "noctua explore: -o needs a PREFIX\n");
        return -1;
    case O_QUIET:
        a->quiet = 1;
        return 0;
    default:
        return strchr(v, '=') ? key_operand(p, v) : fabric_operand(p, v);
    }
}

/* A study file's item (cli/explore_ini.h), as the command line's. */
typedef struct study_ctx {
    explore_plan_t *p;
    explore_args_t *a;
} study_ctx_t;

static int study_item(void *c, explore_item_kind_t kind, const char *v, const char *where)
{
    study_ctx_t *x = c;
    int r = 0;
    switch (kind) {
    case EXPLORE_ITEM_OPERAND:
        r = take(x->p, x->a, -1, v);
        break;
    case EXPLORE_ITEM_PROGRAM:
        r = take(x->p, x->a, O_PROGRAM, v);
        break;
    case EXPLORE_ITEM_PROGRAM_FILE:
        r = take(x->p, x->a, O_PROGRAM_FILE, v);
        break;
    case EXPLORE_ITEM_TRAFFIC:
        r = take(x->p, x->a, O_TRAFFIC, v);
        break;
    case EXPLORE_ITEM_OUTPUT:
        snprintf(x->a->prefix_buf, sizeof x->a->prefix_buf, "%s", v);
        r = take(x->p, x->a, O_OUTPUT, x->a->prefix_buf);
        break;
    case EXPLORE_ITEM_JOBS:
        r = take(x->p, x->a, O_JOBS, v);
        break;
    case EXPLORE_ITEM_AREA:
        x->p->area = v[0] == '1';
        break;
    case EXPLORE_ITEM_QUIET:
        x->a->quiet = v[0] == '1';
        break;
    }
    if (r != 0)
        fprintf(stderr, "noctua explore: (the item of %s)\n", where);
    return r;
}

static int read_study(explore_plan_t *p, explore_args_t *a, const char *path)
{
    char err[1600];
    study_ctx_t x = { p, a };
    err[0] = '\0';
    int r = explore_ini_read(path, study_item, &x, err, sizeof err);
    if (r != 0 && err[0])
        fprintf(stderr, "noctua explore: --study %s\n", err);
    return r;
}

/* The command line into p and a: --config and --study files first (in the
 * first pass, in their order), then the rest in order. -1 to go on, else
 * the exit status. */
static int parse_args(int argc, char **argv, explore_plan_t *p, explore_args_t *a)
{
    for (int pass = 0; pass < 2; pass++) {
        noc_opts_t o;
        noc_opts_init(&o, "explore", explore_opts, argc, argv);
        noc_opts_in_order(&o);
        int k;
        while ((k = noc_opts_next(&o)) != -1) {
            if (k == -2)
                return NOC_EXIT_USAGE;
            if ((k == O_CONFIG || k == O_STUDY) != (pass == 0) && k != O_HELP)
                continue;
            int r = k == O_STUDY ? read_study(p, a, o.value) : take(p, a, k == NOC_OPTS_OPERAND ? -1 : k, o.value);
            if (r != 0)
                return r > 0 ? NOC_EXIT_OK : NOC_EXIT_USAGE;
        }
    }
    if (p->n_fabrics == 0) {
        fprintf(stderr, "noctua explore: no FABRIC given (for example: noctua explore 'mesh:{2..4}x{2..4}' "
                        "'torus:{3,4}x{3,4}' --program broadcast)\n");
        return NOC_EXIT_USAGE;
    }
    if (p->n_work == 0)
        program_operand(p, "broadcast");
    p->n_sets = 1;
    for (int i = 0; i < p->n_keys; i++)
        p->n_sets *= p->keys[i].n;
    if (p->n_sets > EXPLORE_MAX_SETS || (long)p->n_fabrics * p->n_sets * p->n_work > EXPLORE_MAX_ROWS) {
        fprintf(stderr, "noctua explore: %d fabrics x %d parameter sets x %d workloads: more than %d rows\n",
                p->n_fabrics, p->n_sets, p->n_work, EXPLORE_MAX_ROWS);
        return NOC_EXIT_USAGE;
    }
    command_text(argc, argv, a->command, sizeof a->command);
    return -1;
}

/* ---- running the rows (cli/pool.h) ---- */

typedef struct explore_ctx {
    const explore_plan_t *plan;
    const explore_args_t *args;
    noc_explore_row_t *rows;  /* the table, in row order */
    noc_explore_row_t *kept;  /* --resume: the rows of the earlier CSV */
    int n_kept, done, total, status;
} explore_ctx_t;

static int row_ready(void *c, int k, void *res)
{
    explore_ctx_t *x = c;
    noc_explore_row_t *r = res;
    explore_row_labels(x->plan, k, r);
    for (int i = 0; i < x->n_kept; i++)
        if (x->kept[i].status == 0 && strcmp(x->kept[i].fabric, r->fabric) == 0 &&
            strcmp(x->kept[i].params, r->params) == 0 && strcmp(x->kept[i].workload, r->workload) == 0) {
            *r = x->kept[i];
            r->status = -1; /* marks a kept row until it is applied */
            return 1;
        }
    return 0;
}

static void row_run(void *c, int k, void *res)
{
    explore_ctx_t *x = c;
    explore_run_row(x->plan, k, res);
}

static void row_fail(void *c, int k, int why, const char *msg, void *res)
{
    explore_ctx_t *x = c;
    noc_explore_row_t *r = res;
    explore_row_labels(x->plan, k, r);
    r->status = why == NOC_POOL_INTERRUPTED ? NOC_EXIT_INTERRUPTED
                : why == NOC_POOL_LOST      ? NOC_EXIT_INTERNAL
                                            : NOC_EXIT_USAGE;
    snprintf(r->error, sizeof r->error, "%s", why == NOC_POOL_LOST ? "the worker process ended without its result"
                                              : why == NOC_POOL_INTERRUPTED ? "interrupted" : msg);
}

static int row_apply(void *c, int k, void *res)
{
    explore_ctx_t *x = c;
    noc_explore_row_t *r = res;
    int kept = r->status == -1;
    if (kept)
        r->status = 0;
    if (r->status == NOC_EXIT_INTERRUPTED)
        return NOC_EXIT_INTERRUPTED; /* not a row: the table ends before it */
    x->rows[k] = *r;
    x->done++;
    if (r->status != 0 && x->status == 0)
        x->status = r->status;
    if (r->status != 0)
        fprintf(stderr, "noctua explore: %s%s%s, %s: %s\n", r->fabric, r->params[0] ? " " : "", r->params,
                r->workload, r->error);
    else if (!x->args->quiet)
        fprintf(stderr, "explore %s%s%s, %s: %lld cycles, %d links%s  (%d/%d)\n", r->fabric, r->params[0] ? " " : "",
                r->params, r->workload, r->cycles, r->links, kept ? "  (kept from the CSV)" : "", k + 1, x->total);
    return NOC_EXIT_OK;
}

/* --resume: the rows of PREFIX.csv (an earlier run of explore) into x->kept;
 * none when there is no file. 0, or -1 (said) when it is not explore's. */
static int read_resume(explore_ctx_t *x, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "noctua explore: --resume: no %s yet; every row runs\n", path);
        return 0;
    }
    char line[8192];
    const char *want = noc_explore_csv_header();
    int rc = 0;
    if (!fgets(line, sizeof line, f) || strncmp(line, want, strlen(want)) != 0 || line[strlen(want)] != '\n') {
        fprintf(stderr, "noctua explore: --resume: %s is not an exploration's table (its header is not \"%s\"): "
                        "remove it, write elsewhere (-o), or drop --resume\n", path, want);
        rc = -1;
    }
    x->kept = noc_xcalloc(EXPLORE_MAX_ROWS, sizeof *x->kept, "explore --resume");
    while (rc == 0 && x->n_kept < EXPLORE_MAX_ROWS && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        if (noc_explore_csv_parse(line, &x->kept[x->n_kept]) == 0)
            x->n_kept++;
    }
    fclose(f);
    return rc;
}

/* The three files from the rows done. Returns 0, or -1 after a message. */
static int write_files(explore_ctx_t *x, const char *prefix, const char *partial)
{
    char path[PATH_LEN + 8], err[PATH_LEN + 200];
    /* the table holds the rows applied, in order: an interrupt leaves a prefix */
    unsigned *objs = noc_xcalloc((size_t)x->done + 1, sizeof *objs, "explore");
    noc_explore_pareto(x->rows, x->done, objs);
    int bad = 0;
    snprintf(path, sizeof path, "%s.csv", prefix);
    bad = bad || noc_explore_write_csv(x->rows, x->done, partial, path, err, sizeof err) != 0;
    snprintf(path, sizeof path, "%s.json", prefix);
    bad = bad || noc_explore_write_json(x->rows, x->done, objs, x->args->command, partial, path, err, sizeof err);
    snprintf(path, sizeof path, "%s.md", prefix);
    bad = bad || noc_explore_write_md(x->rows, x->done, objs, x->args->command, partial, path, err, sizeof err);
    free(objs);
    if (bad)
        fprintf(stderr, "noctua explore: %s\n", err);
    return bad ? -1 : 0;
}

/* PREFIX from -o ("-o out.csv" means "out"). 0, or -1 (said). */
static int make_prefix(const char *arg, char *prefix, size_t len)
{
    size_t plen = strlen(arg);
    if (plen > 4 && strcmp(arg + plen - 4, ".csv") == 0)
        plen -= 4;
    if (plen >= len) {
        fprintf(stderr, "noctua explore: -o: PREFIX is too long\n");
        return -1;
    }
    snprintf(prefix, len, "%.*s", (int)plen, arg);
    return 0;
}

/* Run the rows and write the files. Returns the exit status. */
static int explore(const explore_plan_t *p, const explore_args_t *a, const char *prefix)
{
    explore_ctx_t x = { p, a, NULL, NULL, 0, 0, explore_rows(p), 0 };
    char path[PATH_LEN + 8], err[PATH_LEN + 200];
    snprintf(path, sizeof path, "%s.csv", prefix);
    for (int i = 0; i < 3; i++) { /* every output writable before the work starts */
        snprintf(path, sizeof path, "%s.%s", prefix, i == 0 ? "csv" : i == 1 ? "json" : "md");
        if (noc_out_check(path, 0, err, sizeof err) != 0) {
            fprintf(stderr, "noctua explore: -o: %s\n", err);
            return NOC_EXIT_USAGE;
        }
    }
    snprintf(path, sizeof path, "%s.csv", prefix);
    if (a->resume && read_resume(&x, path) != 0) {
        free(x.kept);
        return NOC_EXIT_USAGE;
    }
    x.rows = noc_xcalloc((size_t)x.total, sizeof *x.rows, "explore");
    const noc_pool_ops_t ops = { sizeof(noc_explore_row_t), "noctua explore", NULL, row_ready, row_run, row_apply,
                                 row_fail };
    noc_interrupt_cooperate(1);
    int rc = noc_pool_run(x.total, a->jobs, &ops, &x);
    noc_interrupt_cooperate(0);
    char partial[200];
    snprintf(partial, sizeof partial, "interrupted: %d of %d rows", x.done, x.total);
    int wrote = write_files(&x, prefix, rc == NOC_EXIT_INTERRUPTED ? partial : NULL) == 0;
    char plots[PATH_LEN * 3 + 200] = "";
    if (!wrote && rc == NOC_EXIT_OK)
        rc = NOC_EXIT_USAGE;
    if (wrote && noc_explore_plot(prefix, path, a->command, x.rows, x.done, plots, sizeof plots) == NOC_EXIT_USAGE &&
        rc == NOC_EXIT_OK)
        rc = NOC_EXIT_USAGE;
    if (rc == NOC_EXIT_OK)
        rc = x.status;
    if (wrote)
        printf("explore: %d of %d rows; wrote %s.csv, %s.json, %s.md%s\n", x.done, x.total, prefix, prefix, prefix,
               plots);
    free(x.rows);
    free(x.kept);
    return rc;
}

int noc_cmd_explore(int argc, char **argv)
{
    explore_plan_t *p = noc_xcalloc(1, sizeof *p, "explore");
    explore_args_t *a = noc_xcalloc(1, sizeof *a, "explore");
    noc_config_defaults(&p->base);
    p->energy_default = 1;
    a->prefix = "explore";
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
    char prefix[PATH_LEN];
    int rc = parse_args(argc, argv, p, a);
    if (rc < 0)
        rc = make_prefix(a->prefix, prefix, sizeof prefix) != 0 ? NOC_EXIT_USAGE : explore(p, a, prefix);
    free(a);
    free(p);
    return rc;
}
