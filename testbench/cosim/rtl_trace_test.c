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
 * Exit 0 when all hold, 1 otherwise (each failure printed). */
#include "cli/cli.h"
#include "model/pe.h"
#include "model/sim_internal.h"
#include "waves/waves.h"
#include "waves/waves_internal.h"
#include <fstapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_T 4096

/* Per signal of interest: its value ('0'/'1' string, MSB first) per cycle. */
typedef struct track {
    char name[128];
    fstHandle h;
    uint32_t width;
    char *val; /* MAX_T * width, filled forward from the changes */
    uint64_t *tchg;
    int n_chg;
} track_t;

typedef struct reader {
    track_t *tr;
    int n, cap;
    char scope[8][64];
    int depth;
} reader_t;

typedef struct chg {
    uint64_t t;
    fstHandle h;
    char v[600];
} chg_t;

typedef struct changes {
    chg_t *c;
    size_t n, cap;
} changes_t;

static void on_value(void *ctx, uint64_t t, fstHandle h, const unsigned char *v)
{
    changes_t *cs = ctx;
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? 2 * cs->cap : 4096;
        cs->c = realloc(cs->c, cs->cap * sizeof *cs->c);
        if (!cs->c)
            abort();
    }
    chg_t *c = &cs->c[cs->n++];
    c->t = t;
    c->h = h;
    snprintf(c->v, sizeof c->v, "%s", (const char *)v);
}

/* Read `path`; keep the variables whose "scope.name" (two levels: a top
 * scope and a variable directly in it, or scope.sub.name) is wanted(...).
 * Returns the tracks, values per cycle 0 .. MAX_T-1. */
static track_t *read_tracks(const char *path, int (*wanted)(const char *full), int *n_out)
{
    void *r = fstReaderOpen(path);
    if (!r) {
        printf("rtl_trace_test: cannot read %s\n", path);
        exit(1);
    }
    reader_t rd = { 0 };
    struct fstHier *h;
    while ((h = fstReaderIterateHier(r))) {
        if (h->htyp == FST_HT_SCOPE && rd.depth < 8) {
            snprintf(rd.scope[rd.depth++], sizeof rd.scope[0], "%s", h->u.scope.name);
        } else if (h->htyp == FST_HT_UPSCOPE && rd.depth > 0) {
            rd.depth--;
        } else if (h->htyp == FST_HT_VAR) {
            char full[256] = "";
            for (int i = 0; i < rd.depth; i++) {
                strncat(full, rd.scope[i], sizeof full - strlen(full) - 1);
                strncat(full, ".", sizeof full - strlen(full) - 1);
            }
            strncat(full, h->u.var.name, sizeof full - strlen(full) - 1);
            char *sp = strchr(full, ' '); /* "out_valid_o [2:0]" */
            if (sp)
                *sp = '\0';
            if (!wanted(full) || h->u.var.is_alias)
                continue;
            if (rd.n == rd.cap) {
                rd.cap = rd.cap ? 2 * rd.cap : 64;
                rd.tr = realloc(rd.tr, (size_t)rd.cap * sizeof *rd.tr);
                if (!rd.tr)
                    abort();
            }
            track_t *t = &rd.tr[rd.n++];
            memset(t, 0, sizeof *t);
            snprintf(t->name, sizeof t->name, "%s", full);
            t->h = h->u.var.handle;
            t->width = h->u.var.length;
        }
    }
    changes_t cs = { 0 };
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks(r, on_value, &cs, NULL);
    fstReaderClose(r);
    for (int i = 0; i < rd.n; i++) {
        track_t *t = &rd.tr[i];
        t->val = calloc((size_t)MAX_T * t->width + 1, 1);
        memset(t->val, '0', (size_t)MAX_T * t->width);
        char cur[600];
        memset(cur, '0', sizeof cur);
        uint64_t from = 0;
        for (size_t k = 0; k <= cs.n; k++) {
            int last = k == cs.n;
            if (!last && cs.c[k].h != t->h)
                continue;
            uint64_t to = last ? MAX_T : cs.c[k].t;
            for (uint64_t c = from; c < to && c < MAX_T; c++)
                memcpy(t->val + c * t->width, cur, t->width);
            if (!last) {
                memcpy(cur, cs.c[k].v, t->width);
                from = cs.c[k].t;
            }
        }
    }
    free(cs.c);
    *n_out = rd.n;
    return rd.tr;
}

static const track_t *find(const track_t *tr, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(tr[i].name, name) == 0)
            return &tr[i];
    return NULL;
}

/* bit b (LSB 0) of the value in cycle c */
static int bit(const track_t *t, uint64_t c, uint32_t b)
{
    return t->val[c * t->width + (t->width - 1 - b)] == '1';
}

static int want_core(const char *full)
{
    const char *dot = strchr(full, '.');
    return strncmp(full, "router_", 7) == 0 && dot && strcmp(dot + 1, "out_valid_o") == 0;
}

static int want_link(const char *full)
{
    size_t n = strlen(full);
    return strstr(full, ".link_p") && n > 6 && strcmp(full + n - 6, ".valid") == 0;
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
        printf("rtl_trace_test: %s\n", err);
        return 1;
    }
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    noc_prog_opts_t po;
    noc_prog_opts_init(&po);
    po.name = program;
    static char facts[4096];
    noc_program_t *p = t ? noc_cli_prog_load(&po, t, facts, sizeof facts, err, sizeof err) : NULL;
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = p ? noc_sim_create(&cfg, t, none, err, sizeof err) : NULL;
    if (!s || noc_pe_attach(s, p, err, sizeof err)) {
        printf("rtl_trace_test: %s\n", err);
        return 1;
    }
    noc_waves_opts_t wo;
    noc_waves_opts_init(&wo);
    noc_waves_t *w = noc_waves_open(path, s, &wo, err, sizeof err);
    if (!w || noc_pe_run(s) != NOC_RUN_OK || noc_waves_close(w, err, sizeof err) != 0) {
        printf("rtl_trace_test: %s: the run failed: %s\n", spec, err);
        return 1;
    }
    uint64_t end = s->now;
    int n_core, n_link, bad = 0, compared = 0, highs = 0;
    track_t *core = read_tracks(inner, want_core, &n_core);
    track_t *link = read_tracks(path, want_link, &n_link);
    if (end + 8 >= MAX_T || n_core != t->n_nodes) {
        printf("rtl_trace_test: %s: %d cores traced of %d, run of %llu cycles\n", spec, n_core, t->n_nodes,
               (unsigned long long)end);
        bad = 1;
    }
    for (int n = 0; n < t->n_nodes && !bad; n++) {
        char label[64], name[128];
        noc_topo_label(t, n, label, sizeof label);
        /* router_<label's digits and letters, others as _> */
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
        const track_t *cv = find(core, n_core, name);
        int P = t->port_base[n + 1] - t->port_base[n];
        for (int o = 1; o < P && cv; o++) {
            int g = t->port_base[n] + o;
            char groups[2][32], sname[80], want[256];
            int ng = noc_wv_node_groups(t, n, groups, sizeof groups[0]);
            noc_wv_scope_name(label, sname, sizeof sname);
            snprintf(want, sizeof want, "top%s%s%s%s.%s.link_p%d.valid", ng > 0 ? "." : "", ng > 0 ? groups[0] : "",
                     ng > 1 ? "." : "", ng > 1 ? groups[1] : "", sname, o);
            const track_t *lv = find(link, n_link, want);
            if (!lv) {
                printf("rtl_trace_test: %s: no link signal for router %s port %d in %s\n", spec, label, o, path);
                bad = 1;
                break;
            }
            uint64_t d = 1 + s->chan_delay[g];
            int ones = 0;
            for (uint64_t c = 0; c + d < MAX_T; c++) {
                int a = bit(cv, c, (uint32_t)o), b = bit(lv, c + d, 0);
                ones += a;
                if (a != b && !bad) {
                    printf("rtl_trace_test: %s: router %s port %d: core out_valid_o %d in cycle %llu, the link "
                           "%d in cycle %llu\n", spec, label, o, a, (unsigned long long)c, b,
                           (unsigned long long)(c + d));
                    bad = 1;
                }
            }
            if (!bad && (uint64_t)ones != s->lst[g].flits) {
                printf("rtl_trace_test: %s: router %s port %d: out_valid_o high %d cycles, the link carried %llu "
                       "flits\n", spec, label, o, ones, (unsigned long long)s->lst[g].flits);
                bad = 1;
            }
            compared++;
            highs += ones;
        }
        if (!cv) {
            printf("rtl_trace_test: %s: no %s in %s\n", spec, name, inner);
            bad = 1;
        }
    }
    if (!bad)
        printf("rtl_trace_test: %s, %s: %d links of %d cores, %d flits, the cores' output registers and the "
               "links agree in every one of %llu cycles\n", spec, program, compared, n_core, highs,
               (unsigned long long)end);
    for (int i = 0; i < n_core; i++)
        free(core[i].val);
    for (int i = 0; i < n_link; i++)
        free(link[i].val);
    free(core);
    free(link);
    noc_sim_destroy(s);
    noc_prog_free(p);
    noc_topo_destroy(t);
    unlink(path);
    unlink(inner);
    char gtkw[300];
    noc_waves_gtkw_path(path, gtkw, sizeof gtkw);
    unlink(gtkw);
    return bad;
}

int main(void)
{
    int bad = check("ring:6", "broadcast");
    bad |= check("mesh:3x3", "alltoall");
    return bad;
}
