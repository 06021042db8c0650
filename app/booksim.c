/* booksim.c: BookSim2's config dialect (booksim.h). A BookSim2 file is read
 * whole first: every statement `key = value;` is looked up in the table of
 * BookSim2's keys (booksim_keys.def) or among noctua's parameters, and every
 * key noctua cannot honour is listed before anything is refused, so that a
 * user sees them all at once. Then BookSim2's defaults and the file's values
 * become noctua's parameters (translate): the same meaning where the table
 * says SAME, converted where it says CONV (channel latencies, the credit
 * loop, the crossbar stages, the sampling periods), with what every
 * BookSim2 run has besides (packets per cycle unless
 * injection_rate_uses_flits, self-traffic, unbounded source queues, the
 * injection channel's extra cycle). How each is read: docs/booksim.md. */
#include "app/booksim.h"
#include "app/booksim_internal.h"
#include "model/flit.h"
#include "topologies/anynet.h"
#include "topologies/topo.h"
#include "util/suggest.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const noc_bs_key_t keys[] = {
#define X(key, def, disp, ok, to, note) { #key, def, NOC_BS_##disp, ok, to, note },
#include "app/booksim_keys.def"
#undef X
};
#define N_KEYS (sizeof keys / sizeof keys[0])
_Static_assert(N_KEYS == NOC_BS_N_KEYS, "booksim_internal.h counts the keys of booksim_keys.def");

const noc_bs_key_t *noc_bs_keys(size_t *n)
{
    *n = N_KEYS;
    return keys;
}

static int key_index(const char *name)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(keys[i].key, name) == 0)
            return (int)i;
    return -1;
}

const noc_bs_key_t *noc_bs_key(const char *name)
{
    int i = key_index(name);
    return i < 0 ? NULL : &keys[i];
}

/* ---- which dialect ---- */

int noc_bs_is_booksim(const noc_bs_text_t *t, char *err, size_t errlen)
{
    size_t with = 0, without = 0; /* first line of each kind, 1-based; 0 none */
    for (size_t i = 0; i < t->n; i++) {
        const char *s = t->line[i];
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#' || *s == ';' || *s == '[')
            continue; /* inih's comments and sections */
        const char *cm = strstr(s, "//");
        size_t m = cm ? (size_t)(cm - s) : strlen(s);
        while (m > 0 && isspace((unsigned char)s[m - 1]))
            m--;
        if (m == 0 || !memchr(s, '=', m))
            continue;
        if (s[m - 1] == ';') {
            if (!with)
                with = i + 1;
        } else if (!without) {
            without = i + 1;
        }
    }
    if (with && without) {
        snprintf(err, errlen, "%s:%zu: this line ends with ';' as BookSim2's statements do, but line %zu does not, "
                 "as noctua's do: write the whole file in one of the two (docs/booksim.md)",
                 t->path, with, without);
        return -1;
    }
    return with ? 1 : 0;
}

/* ---- reading a BookSim2 file ---- */


/* One refusal, on diag: "noctua: FILE:LINE: ..." (line 0: the file's, for a
 * default). */
void noc_bs_refuse(noc_bs_read_t *r, unsigned long line, const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line)
        fprintf(r->diag, "noctua: %s:%lu: %s\n", r->t->path, line, msg);
    else
        fprintf(r->diag, "noctua: %s: %s\n", r->t->path, msg);
    r->errors++;
}

/* A finite number, the whole text. */
static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0;
}

/* Is v one of k's honoured values? */
static int honoured(const noc_bs_key_t *k, const char *v)
{
    if (!k->honoured[0])
        return 1;
    double x, y;
    int num = number(v, &x);
    for (const char *a = k->honoured; *a;) {
        const char *bar = strchr(a, '|');
        size_t n = bar ? (size_t)(bar - a) : strlen(a);
        char alt[64];
        snprintf(alt, sizeof alt, "%.*s", (int)n, a);
        if (strcmp(alt, v) == 0 || (num && number(alt, &y) && x == y))
            return 1;
        a += n + (bar != NULL);
    }
    return 0;
}

/* "a, b or c" of k's honoured values, in buf. */
const char *noc_bs_honoured_list(const noc_bs_key_t *k, char *buf, size_t len)
{
    size_t w = 0, count = 1;
    for (const char *c = k->honoured; *c; c++)
        count += *c == '|';
    size_t i = 0;
    buf[0] = '\0';
    for (const char *a = k->honoured; *a && w < len; i++) {
        const char *bar = strchr(a, '|');
        size_t n = bar ? (size_t)(bar - a) : strlen(a);
        w += (size_t)snprintf(buf + w, len - w, "%s%.*s", i == 0 ? "" : i + 1 == count ? " or " : ", ", (int)n, a);
        a += n + (bar != NULL);
    }
    return buf;
}

static void warn(FILE *diag, const char *where, const noc_bs_key_t *k)
{
    fprintf(diag, "noctua: %s: warning: BookSim2's '%s' has no effect on noctua's results (%s); ignored\n", where,
            k->key, k->note);
}

/* The keys whose value may be a vector of one value a traffic class
 * (classes), as noctua's class_ lists. */
static int per_class(const char *key)
{
    return strcmp(key, "injection_rate") == 0 || strcmp(key, "packet_size") == 0 || strcmp(key, "traffic") == 0 ||
           strcmp(key, "injection_process") == 0;
}

/* Check a BookSim2 key's value as the table says: 1 take it, 0 ignore it
 * (warned), -1 refused (msg). */
static int judge(const noc_bs_key_t *k, const char *value, char *msg, size_t len)
{
    char alts[256];
    if (k->disp == NOC_BS_WARN)
        return 0;
    if (k->disp == NOC_BS_REFUSE) {
        snprintf(msg, len, "BookSim2's '%s' is not honoured: %s", k->key, k->note);
        return -1;
    }
    if (value[0] == '{' && (per_class(k->key) || strcmp(k->key, "class_priority") == 0))
        return 1; /* (each value checked as translate sets it) */
    if (strchr(value, '{') && (strcmp(k->key, "traffic") != 0 || value[0] == '{')) {
        snprintf(msg, len, "'%s = %s': per-class vectors are not honoured for this key (only injection_rate, "
                 "packet_size, traffic and injection_process take one value a class)", k->key, value);
        return -1;
    }
    if (!honoured(k, value)) {
        snprintf(msg, len, "'%s = %s' is not honoured: noctua honours %s only (%s)", k->key, value,
                 noc_bs_honoured_list(k, alts, sizeof alts), k->note);
        return -1;
    }
    return 1;
}

static int is_name(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* "did you mean 'x'? " for an unknown key, among BookSim2's and noctua's. */
static void unknown_key(noc_bs_read_t *r, unsigned long line, const char *key)
{
    size_t np;
    const noc_param_info_t *p = noc_params(&np);
    const char **names = malloc((N_KEYS + np) * sizeof *names);
    size_t n = 0;
    for (size_t i = 0; names && i < N_KEYS; i++)
        names[n++] = keys[i].key;
    for (size_t i = 0; names && i < np; i++)
        names[n++] = p[i].name;
    const char *near = names ? noc_suggest(key, names, n) : NULL;
    noc_bs_refuse(r, line, "'%s' is neither a BookSim2 key nor a noctua parameter%s%s%s", key,
                  near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    free(names);
}

/* One statement `key = value` of line `line` (text modified in place). */
static void statement(noc_bs_read_t *r, char *s, unsigned long line)
{
    char *eq = strchr(s, '=');
    if (!eq) {
        noc_bs_refuse(r, line, "'%s': not a 'key = value;' statement", s);
        return;
    }
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    if (!is_name(key)) {
        noc_bs_refuse(r, line, "'%s': not a key", key);
        return;
    }
    if (!value[0]) {
        noc_bs_refuse(r, line, "'%s': no value", key);
        return;
    }
    int i = key_index(key);
    if (i < 0) {
        size_t np;
        const noc_param_info_t *p = noc_params(&np);
        for (size_t j = 0; j < np; j++)
            if (strcmp(p[j].name, key) == 0) {
                noc_bs_nkey_t *grown = realloc(r->nk, (r->n_nk + 1) * sizeof *grown);
                if (!grown) {
                    noc_bs_refuse(r, line, "out of memory");
                    return;
                }
                r->nk = grown;
                r->nk[r->n_nk++] = (noc_bs_nkey_t){ key, value, line };
                return;
            }
        unknown_key(r, line, key);
        return;
    }
    char msg[4096];
    int j = judge(&keys[i], value, msg, sizeof msg);
    if (j < 0) {
        noc_bs_refuse(r, line, "%s", msg);
    } else if (j == 0) {
        char where[600];
        snprintf(where, sizeof where, "%s:%lu", r->t->path, line);
        warn(r->diag, where, &keys[i]);
    } else {
        r->val[i] = value;
        r->at[i] = line;
    }
}

/* Every line: statements split at ';' (BookSim2 takes several on a line);
 * after the last ';' only blanks (noc_bs_is_booksim made sure). */
static void read_lines(noc_bs_read_t *r)
{
    for (size_t i = 0; i < r->t->n; i++) {
        char *s = r->t->line[i];
        char *cm = strstr(s, "//");
        if (cm)
            *cm = '\0';
        unsigned long line = (unsigned long)i + 1;
        for (;;) {
            char *semi = strchr(s, ';');
            if (!semi) {
                if (trim(s)[0])
                    noc_bs_refuse(r, line, "'%s': no ';' at its end (BookSim2's statements end with one)", trim(s));
                break;
            }
            *semi = '\0';
            if (trim(s)[0])
                statement(r, trim(s), line);
            s = semi + 1;
        }
    }
}

/* ---- BookSim2's values into noctua's parameters ---- */

/* The value of BookSim2 key `key`: the file's, or BookSim2's default; its
 * line in *line (0: the default). */
const char *noc_bs_value_of(const noc_bs_read_t *r, const char *key, unsigned long *line)
{
    int i = key_index(key);
    *line = r->val[i] ? r->at[i] : 0;
    return r->val[i] ? r->val[i] : keys[i].def;
}

/* An integer BookSim2 key in [lo, hi] into *v; refused otherwise. */
int noc_bs_int_key(noc_bs_read_t *r, const char *key, long lo, long hi, long *v)
{
    unsigned long line;
    const char *s = noc_bs_value_of(r, key, &line);
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || x < lo || x > hi) {
        noc_bs_refuse(r, line, "'%s = %s': an integer from %ld to %ld, please", key, s, lo, hi);
        return -1;
    }
    *v = x;
    return 0;
}

/* noctua parameter `param` = value, for BookSim2 key `key` (its line named
 * if noctua refuses the value). */
void noc_bs_set(noc_bs_read_t *r, noc_config_t *cfg, const char *param, const char *value, const char *key)
{
    char msg[512];
    if (noc_config_set(cfg, param, value, msg, sizeof msg) == 0)
        return;
    unsigned long line = 0;
    if (key)
        noc_bs_value_of(r, key, &line);
    if (key && strcmp(key, param) != 0)
        noc_bs_refuse(r, line, "'%s' (BookSim2's %s): %s", key, line ? "value" : "default", msg);
    else if (key && !line)
        noc_bs_refuse(r, 0, "BookSim2's default: %s", msg);
    else
        noc_bs_refuse(r, line, "%s", msg);
}

void noc_bs_set_int(noc_bs_read_t *r, noc_config_t *cfg, const char *param, long v, const char *key)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", v);
    noc_bs_set(r, cfg, param, buf, key);
}

/* routing_function = xy_yx, valiant or romm on a mesh: BookSim2's
 * xy_yx_mesh draws x-first or y-first at the packet's first router and
 * keeps it on the lower or the upper half of the VCs (num_vcs / 2 each);
 * valiant_mesh and romm_mesh draw a node, go there on the lower half and on
 * on the upper. noctua's functions of the same names give their two
 * classes the same halves when num_vcs is even. Odd: BookSim2's halves
 * share the middle VC, which noctua's classes do not: refused. */

static void translate_two_class(noc_bs_read_t *r, noc_config_t *cfg, const char *rf)
{
    long vcs = 0;
    if (noc_bs_int_key(r, "num_vcs", 1, 64, &vcs))
        return;
    if (vcs % 2) {
        unsigned long line;
        noc_bs_value_of(r, "num_vcs", &line);
        noc_bs_refuse(r, line, "'num_vcs = %ld' with %s: BookSim2's two halves of the VCs then share the middle VC, "
                      "noctua's two VC classes share none: give an even num_vcs", vcs, rf);
        return;
    }
    noc_bs_rw_halves(r, rf);
    noc_bs_set(r, cfg, "routing_function", rf, NULL);
}

/* use_read_write with two-class routing: BookSim2 halves each packet
 * kind's VC range as it halves all VCs without kinds (routefunc.cpp:
 * available_vcs = (vcEnd - vcBegin + 1) / 2), so an odd range's halves
 * share its middle VC: refused as an odd num_vcs is. (Negative ends: the
 * halves BookSim2's InitializeRoutingMap gives.) */
void noc_bs_rw_halves(noc_bs_read_t *r, const char *rf)
{
    long rw = 0, vcs = 0;
    if (noc_bs_int_key(r, "use_read_write", 0, 1, &rw) || !rw || noc_bs_int_key(r, "num_vcs", 1, 64, &vcs))
        return;
    static const char *const kind[4] = { "read_request", "write_request", "read_reply", "write_reply" };
    for (int k = 0; k < 4; k++) {
        char kb[32], ke[32];
        snprintf(kb, sizeof kb, "%s_begin_vc", kind[k]);
        snprintf(ke, sizeof ke, "%s_end_vc", kind[k]);
        long kb_v, ke_v;
        if (noc_bs_int_key(r, kb, -1000000, 1000000, &kb_v) || noc_bs_int_key(r, ke, -1000000, 1000000, &ke_v))
            return;
        long long b, e;
        noc_pkt_kind_vcs(NOC_PKT_READ_REQ + k, kb_v, ke_v, (int)vcs, &b, &e);
        if (e >= b && (e - b + 1) % 2) {
            unsigned long line;
            noc_bs_value_of(r, ke, &line);
            noc_bs_refuse(r, line, "'%s' and '%s': %s VCs %lld to %lld, an odd number, with %s: BookSim2's two halves of "
                          "them share the middle VC, noctua's two VC classes share none: give an even number", kb, ke,
                          kind[k], b, e, rf);
        }
    }
}

/* topology, k, n and the routing function; the latency of the network's
 * channels in *lat (0: the link classes' own, NOC_BS_DFLY_CLASS_LATENCY). */
static void translate_fabric(noc_bs_read_t *r, noc_config_t *cfg, long *lat)
{
    unsigned long lt, lrf, lf;
    const char *topo = noc_bs_value_of(r, "topology", &lt), *rf = noc_bs_value_of(r, "routing_function", &lrf);
    int torus = strcmp(topo, "torus") == 0, anynet = strcmp(topo, "anynet") == 0, cmesh = strcmp(topo, "cmesh") == 0;
    int dfly = strcmp(topo, "dragonflynew") == 0;
    noc_bs_set(r, cfg, "topology", topo, "topology");
    noc_bs_set(r, cfg, "k", noc_bs_value_of(r, "k", &lt), "k");
    noc_bs_set(r, cfg, "n", noc_bs_value_of(r, "n", &lt), "n");
    long use_noc = 1;
    noc_bs_int_key(r, "use_noc_latency", 0, 1, &use_noc);
    if (anynet && strcmp(rf, "none") != 0) {
        noc_bs_translate_anynet(r, cfg, rf, lrf, lat);
        return;
    }
    if (cmesh && strcmp(rf, "none") != 0) {
        noc_bs_translate_cmesh(r, cfg, rf, lrf, use_noc, lat);
        return;
    }
    if (strcmp(topo, "fly") == 0 && strcmp(rf, "none") != 0) {
        noc_bs_translate_kary(r, cfg, "fly", 127, rf, lrf, "dest_tag", "BookSim2's fly has dest_tag only (dest_tag_fly)",
                              lat);
        return;
    }
    if (strcmp(topo, "fattree") == 0 && strcmp(rf, "none") != 0) {
        int anca = strcmp(rf, "anca") == 0;
        noc_bs_translate_kary(r, cfg, "fattree", 31, anca ? "nca" : rf, lrf, "nca", "BookSim2's fattree has nca and anca",
                              lat);
        long rd = 1;
        unsigned long lrd;
        if (anca && noc_bs_int_key(r, "routing_delay", 0, 16, &rd) == 0 && rd == 0) {
            noc_bs_value_of(r, "routing_delay", &lrd);
            noc_bs_refuse(r, lrd ? lrd : lrf, "'routing_function = anca' with routing_delay = 0: BookSim2 then makes the "
                          "route at the router before (lookahead) and picks the up port from this router's credits as the "
                          "flit leaves that one; noctua picks at this router when the head arrives, which past saturation "
                          "accepts 13%% more (docs/fabrics/fattree.md); give routing_delay = 1");
        } else if (anca) { /* the less used of two up ports drawn: adaptive */
            noc_bs_set(r, cfg, "routing_function", "anca", NULL);
        }
        return;
    }
    if (dfly && strcmp(rf, "none") != 0) {
        noc_bs_translate_dragonfly(r, cfg, rf, lrf, lat);
        return;
    }
    if ((strcmp(topo, "qtree") == 0 || strcmp(topo, "tree4") == 0) && strcmp(rf, "none") != 0) {
        noc_bs_translate_tree(r, cfg, topo, rf, lrf, lat);
        return;
    }
    if (strcmp(topo, "flatfly") == 0 && strcmp(rf, "none") != 0) {
        noc_bs_translate_flatfly(r, cfg, rf, lrf, use_noc, lat);
        return;
    }
    long xr = 1;
    if (noc_bs_int_key(r, "xr", 1, 64, &xr) == 0 && xr != 1) {
        noc_bs_value_of(r, "xr", &lf);
        noc_bs_refuse(r, lf, "'xr = %ld' on %s: BookSim2's tornado, neighbor and badperm_yarc patterns then work on digits "
                      "of radix k*xr, noctua's on k (xr > 1 is for cmesh and flatfly)", xr, topo);
    }
    if (!anynet && noc_bs_value_of(r, "network_file", &lf)[0]) {
        char where[600];
        snprintf(where, sizeof where, "%s:%lu", r->t->path, lf);
        warn(r->diag, where, noc_bs_key("network_file"));
    }
    if (strcmp(rf, "none") == 0)
        noc_bs_refuse(r, 0, "no routing_function: BookSim2 has no default (its 'none' stops it); give %s",
                      anynet || dfly ? "min" : strcmp(topo, "flatfly") == 0 ? "ran_min" : torus ? "dim_order" : "dor or dim_order");
    else if (torus && strcmp(rf, "dor") == 0)
        noc_bs_refuse(r, lrf, "'routing_function = dor' on a torus: BookSim2 has no dor_torus; its torus function is dim_order");
    else if ((strcmp(rf, "xy_yx") == 0 || strcmp(rf, "valiant") == 0 || strcmp(rf, "romm") == 0 ||
              strcmp(rf, "adaptive_xy_yx") == 0) && !torus)
        translate_two_class(r, cfg, rf);
    else if ((strcmp(rf, "min_adapt") == 0 || strcmp(rf, "planar_adapt") == 0) && !torus) /* as BookSim2's set keeps them */
        noc_bs_set(r, cfg, "routing_function", strcmp(rf, "min_adapt") == 0 ? "min_adapt_booksim" : "planar_adapt_booksim",
                   NULL);
    else if (strcmp(rf, "valiant") == 0) /* (BookSim2 28f4329, routefunc.cpp) */
        noc_bs_refuse(r, lrf, "'routing_function = valiant' on a torus: BookSim2's valiant_torus reads its ring part "
                      "unset when a packet goes on in a dimension and stops on its assertion 'ring_part == 1': no meaning "
                      "to honour; noctua's own valiant on a torus SPEC (routing_function=valiant) runs");
    else if (strcmp(rf, "min_adapt") == 0) /* (BookSim2 28f4329, routefunc.cpp) */
        noc_bs_refuse(r, lrf, "'routing_function = min_adapt' on a torus: BookSim2's min_adapt_torus is not modelled "
                      "yet (min_adapt on a mesh is)");
    else if (strcmp(rf, "dim_order_bal") == 0 && torus) { /* (BookSim2 28f4329: dim_order_bal_torus) */
        noc_bs_rw_halves(r, "dim_order_bal on a torus");
        noc_bs_set(r, cfg, "routing_function", "dor_bal_booksim", NULL);
    } else if (strcmp(rf, "dor") != 0 && strcmp(rf, "dim_order") != 0) /* min, dest_tag, nca, xy_yx on a torus */
        noc_bs_refuse(r, lrf, "'routing_function = %s' on a %s: BookSim2 has no %s_%s; its function there is %s", rf,
                      topo, rf, topo, torus ? "dim_order" : "dor, dim_order, xy_yx, valiant, romm, min_adapt or adaptive_xy_yx");
    else { /* BookSim2's dim_order_torus assigns its VC classes its own way */
        if (torus)
            noc_bs_rw_halves(r, "dim_order on a torus");
        noc_bs_set(r, cfg, "routing_function", torus ? "dor_booksim" : "dor", NULL);
    }
    *lat = torus && use_noc ? 2 : 1; /* networks/kncube.cpp */
}

/* The router's timing: stages, the credit loop, the channels. */
static void translate_timing(noc_bs_read_t *r, noc_config_t *cfg, long lat)
{
    long prep = 0, fin = 1, cd = 0, buf = 8;
    int ok = noc_bs_int_key(r, "st_prepare_delay", 0, 16, &prep) == 0;
    ok &= noc_bs_int_key(r, "st_final_delay", 0, 16, &fin) == 0;
    ok &= noc_bs_int_key(r, "credit_delay", 0, 60, &cd) == 0;
    ok &= noc_bs_int_key(r, "vc_buf_size", 1, 4096, &buf) == 0;
    if (!ok)
        return;
    noc_bs_set_int(r, cfg, "st_final_delay", prep + fin, "st_final_delay");
    /* (lat 0: the links' own latencies, their credits over each: link_credits) */
    noc_bs_set_int(r, cfg, "link_latency", lat ? lat : 1, "use_noc_latency");
    noc_bs_set_int(r, cfg, "credit_delay", cd + lat + 1, "credit_delay");
    noc_bs_set(r, cfg, "link_credits", lat ? "0" : "1", NULL);
    /* the channels between a source and its router: BookSim2's injection
     * takes a cycle more, its credits come back in 2 (docs/booksim.md) */
    noc_bs_set(r, cfg, "local_latency", "1", NULL);
    noc_bs_set(r, cfg, "inject_latency", "2", NULL);
    noc_bs_set(r, cfg, "inject_credit_delay", "2", NULL);
    /* BookSim2's ejection channel returns a credit for every flit its NI
     * takes, over a loop of crossbar + 4 + credit_delay cycles from the
     * switch: noctua's ejection ports count credits too, the NI's coming
     * back after the loop less the switch, crossbar and ejection channel
     * (sw_alloc_delay + prep + fin + 1): 2 + credit_delay with BookSim2's
     * sw_alloc_delay of 1 (test_booksim_anynet.c, test_eject_credits). It
     * holds flits back when the loop is longer than a VC's buffer, and
     * frees a VC after its tail's credit with wait_for_tail_credit. */
    long sa = 1, wt = 0, loop = prep + fin + 4 + cd;
    /* (only where they can matter: with a buffer of at least the loop and
     * VCs freed at the tail, the credits never hold a flit back, and the
     * rtl core, which has none, runs the file too; with internal or output
     * speedup the ejection port's output queue can fill faster than it
     * drains, and the credits bound it as in BookSim2; with
     * vc_busy_when_full an ejection VC whose credits are all out, as when
     * the loop equals the buffer, is busy for a cycle) */
    unsigned long sl;
    int fills = strtod(noc_bs_value_of(r, "internal_speedup", &sl), NULL) != 1.0 ||
                strtol(noc_bs_value_of(r, "output_speedup", &sl), NULL, 10) != 1 ||
                strtol(noc_bs_value_of(r, "vc_busy_when_full", &sl), NULL, 10) != 0;
    if (noc_bs_int_key(r, "wait_for_tail_credit", 0, 1, &wt) == 0 && (buf < loop || wt || fills) &&
        noc_bs_int_key(r, "sw_alloc_delay", 0, 16, &sa) == 0) {
        long back = loop - (sa + prep + fin + 1);
        if (back < 1) {
            unsigned long line;
            noc_bs_value_of(r, "sw_alloc_delay", &line);
            noc_bs_refuse(r, line, "sw_alloc_delay = %ld: BookSim2's ejection credit would then come back before its "
                          "flit arrives (a loop of %ld cycles), which noctua does not model", sa, loop);
        } else {
            noc_bs_set_int(r, cfg, "eject_credit_delay", back, "credit_delay");
        }
    }
}

/* The sampling periods (max_samples and the thresholds have the same
 * meaning: set by translate). */
static void translate_sampling(noc_bs_read_t *r, noc_config_t *cfg)
{
    long periods = 3, period = 1000, samples = 10;
    if (noc_bs_int_key(r, "warmup_periods", 0, 1L << 30, &periods) || noc_bs_int_key(r, "sample_period", 1, 1L << 30, &period) ||
        noc_bs_int_key(r, "max_samples", 1, 1L << 30, &samples))
        return;
    noc_bs_set_int(r, cfg, "warmup_cycles", periods * period, "warmup_periods");
    noc_bs_set_int(r, cfg, "sample_cycles", period, "sample_period");
}

/* A vector of per-class values of key k (line `line`): noctua's class_
 * list, and its first value to the key's own parameter; no more values
 * than classes (BookSim2 would drop the others). */
static void translate_class_values(noc_bs_read_t *r, noc_config_t *cfg, const char *k, const char *v,
                                   unsigned long line)
{
    char *list = malloc(2 * NOC_CONFIG_STR_MAX), *first = list + NOC_CONFIG_STR_MAX, msg[768], param[64];
    long classes = 1;
    if (!list) {
        noc_bs_refuse(r, line, "'%s': out of memory", k);
        return;
    }
    int n = noc_bs_class_values(k, v, list, NOC_CONFIG_STR_MAX, first, NOC_CONFIG_STR_MAX, msg, sizeof msg);
    if (n < 0) {
        noc_bs_refuse(r, line, "%s", msg);
    } else if (noc_bs_int_key(r, "classes", 1, 8, &classes) == 0 && n > classes) {
        noc_bs_refuse(r, line, "'%s = %s': %d values for %ld traffic class%s (classes): BookSim2 would drop the "
                      "last %ld; give one a class", k, v, n, classes, classes == 1 ? "" : "es", n - classes);
    } else {
        snprintf(param, sizeof param, "class_%s", k);
        noc_bs_set(r, cfg, param, list, k);
        noc_bs_set(r, cfg, k, first, k);
    }
    free(list);
}

/* class_priority (BookSim2's GetIntArray, or one integer): noctua's
 * class_priority list with priority = class; with any other priority
 * BookSim2 reads it for nothing (warned). */
static void translate_class_priority(noc_bs_read_t *r, noc_config_t *cfg)
{
    unsigned long line, pl;
    const char *v = noc_bs_value_of(r, "class_priority", &line), *pri = noc_bs_value_of(r, "priority", &pl);
    if (!line)
        return;
    if (strcmp(pri, "class") != 0) {
        fprintf(r->diag, "noctua: %s:%lu: warning: BookSim2's 'class_priority' has no effect with priority = %s; "
                "ignored\n", r->t->path, line, pri);
        return;
    }
    char list[NOC_CONFIG_STR_MAX];
    size_t w = 0;
    for (const char *c = v; *c && w + 1 < sizeof list; c++)
        if (*c != '{' && *c != '}' && *c != ' ')
            list[w++] = *c;
    list[w] = '\0';
    noc_bs_set(r, cfg, "class_priority", list, "class_priority");
}

/* subnets and the packet kinds' subnets. BookSim2 (main.cpp) builds
 * `subnets` copies of the network; trafficmanager.cpp sends a packet
 * without a kind (use_read_write = 0) on one drawn at random
 * (RandomInt(subnets - 1)) and a packet of a kind on that kind's subnet.
 * A network that carries nothing draws nothing and shares no state with
 * the others (its routers skip their steps while idle; the sources keep a
 * buffer state, a last class and a last VC per subnet), so a file whose
 * kinds all travel on one subnet runs as with subnets = 1 (BookSim2's
 * report is the same, byte for byte): noctua's one network is that
 * subnet. Refused: packets spread over several networks (not modelled),
 * a kind on a subnet past the last (BookSim2 would index past its
 * networks), and hold_switch_for_packet = 1 with packets of several
 * flits, on which BookSim2 stops (an idle subnet's sources look at
 * another subnet's packet held for the switch: its assertion
 * f->vc == _last_vc[n][subnet][last_class] fails). */
static void translate_subnets(noc_bs_read_t *r)
{
    static const char *const kind[4] = { "read_request", "write_request", "read_reply", "write_reply" };
    long nets = 1, rw = 0, hold = 0, sub[4] = { 0 }, size[4] = { 1, 1, 1, 1 };
    unsigned long ln, lk;
    if (noc_bs_int_key(r, "subnets", 1, 1024, &nets) || noc_bs_int_key(r, "use_read_write", 0, 1, &rw) ||
        noc_bs_int_key(r, "hold_switch_for_packet", 0, 1, &hold))
        return;
    noc_bs_value_of(r, "subnets", &ln);
    if (!rw) {
        if (nets > 1)
            noc_bs_refuse(r, ln, "'subnets = %ld' without use_read_write: BookSim2 sends each packet on one of its %ld "
                          "networks drawn at random (trafficmanager.cpp, RandomInt(subnets - 1)), which share the load; "
                          "noctua builds one network: not modelled (subnets > 1 is honoured when every packet kind "
                          "travels on one subnet, the others carrying nothing)", nets, nets);
        return;
    }
    /* the kinds a run makes: reads unless write_fraction = 1, writes
     * unless 0 (sim_type = batch tosses an even coin: both) */
    unsigned long lx;
    int batch = strcmp(noc_bs_value_of(r, "sim_type", &lx), "batch") == 0;
    double wf = strtod(noc_bs_value_of(r, "write_fraction", &lx), NULL);
    int used[4] = { batch || wf < 1.0, batch || wf > 0.0, batch || wf < 1.0, batch || wf > 0.0 };
    int first = -1, spread = 0, longer = 0;
    for (int k = 0; k < 4; k++) {
        char key[32];
        snprintf(key, sizeof key, "%s_subnet", kind[k]);
        if (noc_bs_int_key(r, key, -1000000, 1000000, &sub[k]))
            return;
        snprintf(key, sizeof key, "%s_size", kind[k]);
        noc_bs_int_key(r, key, -1000000, 1000000, &size[k]);
        if (!used[k])
            continue;
        snprintf(key, sizeof key, "%s_subnet", kind[k]);
        noc_bs_value_of(r, key, &lk);
        if (sub[k] < 0 || sub[k] >= nets) {
            noc_bs_refuse(r, lk ? lk : ln, "'%s = %ld' with subnets = %ld: BookSim2's networks are 0 to %ld, it would "
                          "index past them", key, sub[k], nets, nets - 1);
            return;
        }
        spread |= first >= 0 && sub[k] != sub[first];
        longer |= size[k] > 1;
        if (first < 0)
            first = k;
    }
    if (spread) {
        char list[256];
        size_t w = 0;
        for (int k = 0; k < 4; k++)
            if (used[k])
                w += (size_t)snprintf(list + w, sizeof list - w, "%s%s %ld", w ? ", " : "", kind[k], sub[k]);
        noc_bs_refuse(r, ln, "'subnets = %ld' with the packet kinds on different subnets (%s): BookSim2 sends each "
                      "kind on its own network, where the kinds do not meet; noctua builds one network: not modelled "
                      "(honoured when every kind a run makes travels on one subnet)", nets, list);
    } else if (nets > 1 && hold && longer) {
        unsigned long lh;
        noc_bs_value_of(r, "hold_switch_for_packet", &lh);
        noc_bs_refuse(r, lh ? lh : ln, "'subnets = %ld' with hold_switch_for_packet = 1 and packets of several flits: "
                      "BookSim2 stops on its assertion f->vc == _last_vc[n][subnet][last_class] (trafficmanager.cpp: "
                      "an idle subnet's sources take up another subnet's packet held for the switch): no meaning to "
                      "honour", nets);
    }
}

static void translate(noc_bs_read_t *r, noc_config_t *cfg)
{
    long lat = 1;
    translate_fabric(r, cfg, &lat);
    for (size_t i = 0; i < N_KEYS; i++) { /* the same meaning */
        const char *k = keys[i].key;
        if (keys[i].disp != NOC_BS_SAME || strcmp(k, "topology") == 0 || strcmp(k, "k") == 0 ||
            strcmp(k, "n") == 0)
            continue;
        unsigned long line;
        const char *v = noc_bs_value_of(r, k, &line);
        char tr[NOC_CONFIG_STR_MAX], msg[768];
        if (v[0] == '{' && per_class(k)) {
            translate_class_values(r, cfg, k, v, line);
            continue;
        }
        if (strcmp(k, "traffic") == 0 && noc_bs_traffic(v, tr, sizeof tr, msg, sizeof msg) != 0)
            noc_bs_refuse(r, line, "%s", msg);
        else
            noc_bs_set(r, cfg, keys[i].noctua, strcmp(k, "traffic") == 0 ? tr : v, k);
    }
    translate_timing(r, cfg, lat);
    translate_sampling(r, cfg);
    translate_class_priority(r, cfg);
    translate_subnets(r);
    noc_bs_set(r, cfg, "router", "vc", NULL);
    noc_bs_set(r, cfg, "va_in_pointer", "router", NULL); /* iq_router's one VC allocator over all output VCs */
    noc_bs_set(r, cfg, "class_latency", lat ? "" : r->class_lat[0] ? r->class_lat : NOC_BS_DFLY_CLASS_LATENCY, NULL);
    noc_bs_set(r, cfg, "lookahead", "0", NULL);
    noc_bs_set(r, cfg, "ni_ports", "1", NULL);
    noc_bs_set(r, cfg, "self_traffic", "1", NULL);
    noc_bs_set(r, cfg, "source_queue", "0", NULL);
    noc_bs_set(r, cfg, "measure_queued", "1", NULL);
    /* BookSim2 drains every measured packet, however long it takes (past
     * saturation, the backlog made before the window closed) */
    noc_bs_set(r, cfg, "max_drain_cycles", "1099511627776", NULL);
    noc_bs_set(r, cfg, "booksim", "1", NULL);
}

int noc_bs_load(noc_config_t *cfg, const noc_bs_text_t *t, FILE *diag, char *err, size_t errlen)
{
    noc_bs_read_t r = { .t = t, .diag = diag };
    read_lines(&r);
    if (!r.errors)
        translate(&r, cfg);
    for (size_t i = 0; !r.errors && i < r.n_nk; i++) {
        char msg[512];
        if (noc_config_set(cfg, r.nk[i].key, r.nk[i].value, msg, sizeof msg) != 0)
            noc_bs_refuse(&r, r.nk[i].line, "%s", msg);
    }
    free(r.nk);
    if (!r.errors)
        return 0;
    snprintf(err, errlen, "%s: a BookSim2 file (its statements end with ';') that noctua cannot run with BookSim2's "
             "meaning: %d line%s above (docs/booksim.md)", t->path, r.errors, r.errors == 1 ? "" : "s");
    return -1;
}

/* ---- key=value arguments ---- */

int noc_bs_arg(noc_config_t *cfg, const char *key, const char *value, const char *where, FILE *diag, char *err,
               size_t errlen)
{
    const noc_bs_key_t *k = noc_bs_key(key);
    char probe[64];
    int shared = noc_config_get(cfg, key, probe, sizeof probe) == 0; /* a noctua parameter too */
    if (!k || (shared && !cfg->booksim))
        return 0; /* noctua's parameter, noctua's meaning */
    size_t kl = strlen(key);
    if (strcmp(key, "subnets") == 0 || (kl > 7 && strcmp(key + kl - 7, "_subnet") == 0)) {
        /* (a file's subnets are checked against its packet kinds: one network, subnet 0, as an argument) */
        char one[2] = { key[0] == 's' ? '1' : '0', '\0' };
        double x;
        if (number(value, &x) && x == one[0] - '0')
            return 1;
        snprintf(err, errlen, "BookSim2's '%s = %s': as an argument noctua honours %s only (its one network); in a "
                 "BookSim2 file, subnets > 1 is honoured when every packet kind travels on one subnet", key, value,
                 one);
        return -1;
    }
    if (k->disp == NOC_BS_CONV || (cfg->booksim && strcmp(key, "topology") == 0)) {
        if (cfg->booksim)
            snprintf(err, errlen, "BookSim2's '%s' is converted when a BookSim2 file is read (%s); as an argument "
                     "after one it would not be: put it in the file", key, k->note);
        else
            snprintf(err, errlen, "BookSim2's '%s' is converted when a BookSim2 file is read (%s); without one, "
                     "give noctua's %s", key, k->note, k->noctua);
        return -1;
    }
    char msg[4096];
    int j = judge(k, value, msg, sizeof msg);
    if (j < 0) {
        snprintf(err, errlen, "%s", msg);
        return -1;
    }
    if (j == 0) {
        warn(diag, where, k);
        return 1;
    }
    char tr[NOC_CONFIG_STR_MAX];
    if (strcmp(key, "traffic") == 0 && noc_bs_traffic(value, tr, sizeof tr, err, errlen) != 0)
        return -1;
    if (k->disp == NOC_BS_SAME &&
        noc_config_set(cfg, k->noctua, strcmp(key, "traffic") == 0 ? tr : value, err, errlen) != 0)
        return -1;
    if (cfg->booksim && strcmp(key, "max_samples") == 0 && cfg->max_samples < 1) {
        snprintf(err, errlen, "BookSim2's 'max_samples = %s': %s", value, k->note);
        return -1;
    }
    return 1; /* (FIXED: what noctua does anyway) */
}
