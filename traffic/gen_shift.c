/* gen_shift.c: `shift`: the circular q-shift of Grama et al., Introduction
 * to Parallel Computing, 4.6 (docs/algorithms/shift.md): PE i's block of m
 * words (--words, at address 0) moves to PE (i + q) mod p, so every PE i
 * ends with the block PE (i - q) mod p started with.
 *
 * Variants (`auto`, the default, picks the fabric's own):
 *   rowcol (auto on tori, meshes, rings): PEs in row-major order (PE i on
 *     node i). Unit shifts along the rows by q mod C (the shorter way
 *     round), one compensating unit shift down the columns for the blocks
 *     that crossed a row's wraparound edge, then unit shifts along the
 *     columns by floor(q / C) (the shorter way). On a mesh without
 *     wraparound links the wrapped unit moves are routed back along the line.
 *   gray (auto on hypercubes): PE i on node G(i), the reflected Gray code.
 *     q is written as a sum of signed powers of two, q = sum e_j 2^j mod p
 *     with e_j in {-1, 0, +1}, the one whose steps cost least (1 for
 *     j = 0, 2 otherwise; ties go forward); one phase per e_j != 0, highest
 *     j first: a 2^j-shift along the Gray ring, forward or backward, one
 *     hop for j = 0, else two (across dimension j - 1, then across the one
 *     other bit in which G(i) and G(i +- 2^j) differ). At most log p steps.
 *   gray-forward: the same with forward phases only, one per set bit of q
 *     (Figure 4.23): at most 2 log p - 1 steps.
 *   ecube (hypercube): PE i on node i; every PE sends its block straight to
 *     its destination in one step, routed by the fabric's e-cube routing.
 *   direct (auto on any other fabric): the same as ecube on any fabric,
 *     PE i on node i, with the fabric's own routing.
 * Every move is a permutation of the blocks between nodes: a node sends the
 * block it holds and receives the next one into the same words, once its
 * send has copied them (a send copies its words when it starts). */
#include "traffic/gen_util.h"
#include "util/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = { "auto",  "rowcol", "gray", "gray-forward",
                                        "ecube", "direct", NULL };
extern const noc_generator_t noc_gen_shift;

/* A program being built: the blocks' moves, one permutation at a time. */
typedef struct shift {
    noc_program_t *p;
    const noc_topo_t *t;
    int n;           /* p: the PEs */
    int q;           /* the shift, reduced: 0 <= q < n */
    uint32_t words;  /* m */
    int *dest;       /* the move being built: v passes its block to dest[v] (v: keeps it) */
    int *src;        /* its inverse */
    uint32_t *last;  /* v's last receive, or NOC_GEN_NONE */
    int tag;         /* one tag per move */
} shift_t;

/* The rowcol plan on a C x R grid (R = 1 for a ring). */
typedef struct rowcol {
    int cols, rows;
    int b, a;                 /* q = a*C + b */
    int row_n, row_dir;       /* unit shifts along the rows, and which way */
    int comp;                 /* 1: a compensating column shift */
    int col_n, col_dir;       /* unit shifts along the columns */
} rowcol_t;

static int gray_code(int i) { return i ^ (i >> 1); }

static void put(char *buf, size_t len, const char *fmt, ...)
{
    size_t at = strlen(buf);
    if (at + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
}

/* ---- which variant, on which fabric ---- */

static int is_grid(const noc_topo_t *t)
{
    return noc_gen_is_grid(t) &&
           noc_topo_dims(t) <= 2;
}

static int is_gray(const char *v) { return strncmp(v, "gray", 4) == 0; }

/* The variant to run: a->variant, or for auto the fabric's own. */
static const char *pick(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    const char *v = noc_gen_variant(&noc_gen_shift, a, err, errlen);
    if (!v || strcmp(v, "auto") != 0)
        return v;
    if (noc_gen_is(t, "hypercube"))
        return "gray";
    return is_grid(t) ? "rowcol" : "direct";
}

/* 0 if variant v runs on t and the arguments are good, else -1 with the
 * reason in err. */
static int check(const noc_topo_t *t, const noc_gen_args_t *a, const char *v, char *err,
                 size_t errlen)
{
    if (a->words < 1 || a->words > NOC_PROG_MAX_MEM) {
        snprintf(err, errlen, "shift: --words %d out of range (1 .. %d words per block)", a->words,
                 NOC_PROG_MAX_MEM);
        return -1;
    }
    if (strcmp(v, "rowcol") == 0 && !is_grid(t)) {
        snprintf(err, errlen,
                 "shift: variant rowcol needs a 2-D torus (or a 2-D mesh or a ring); %s is a %d-D %s",
                 noc_topo_spec(t), noc_topo_dims(t), noc_topo_kind(t));
        return -1;
    }
    if ((is_gray(v) || strcmp(v, "ecube") == 0) && !noc_gen_is(t, "hypercube")) {
        snprintf(err, errlen, "shift: variant %s needs a hypercube; %s is a %s", v, noc_topo_spec(t),
                 noc_topo_kind(t));
        return -1;
    }
    return 0;
}

static int reduce_q(int64_t q, int n) { return (int)(((q % n) + n) % n); }

/* ---- building blocks ---- */

/* Where PE i sits: node G(i) for gray, node i otherwise. */
static int place(const char *v, int i) { return is_gray(v) ? gray_code(i) : i; }

/* Every PE i starts with its block; it must end with PE (i - q)'s. */
static void blocks(shift_t *s, const noc_gen_args_t *a, const char *v)
{
    for (int i = 0; i < s->n; i++) {
        int from = (i - s->q + s->n) % s->n, node = place(v, i);
        for (uint32_t k = 0; k < s->words; k++) {
            noc_prog_init(s->p, node, k, noc_gen_value(a->seed, i, (int)k));
            noc_prog_expect(s->p, node, k, noc_gen_value(a->seed, from, (int)k));
        }
    }
}

/* Emit the move in s->dest as one round of messages in step `step`. It must
 * be a permutation (it is, for every move this file makes). */
static void move(shift_t *s, const char *step)
{
    for (int v = 0; v < s->n; v++)
        s->src[v] = -1;
    for (int v = 0; v < s->n; v++)
        s->src[s->dest[v]] = v;
    for (int v = 0; v < s->n; v++) {
        if (s->dest[v] == v)
            continue;
        noc_prog_step(s->p, v, step);
        uint32_t sd = noc_prog_send(s->p, v, s->dest[v], s->tag, s->words, 0);
        if (s->last[v] != NOC_GEN_NONE)
            noc_prog_dep(s->p, sd, s->last[v], 0);
        uint32_t rv = noc_prog_recv(s->p, v, s->src[v], s->tag, s->words, 0);
        noc_prog_dep(s->p, rv, sd, 1); /* the send has copied the block */
        s->last[v] = rv;
    }
    s->tag++;
}

/* ---- rowcol ---- */

/* The node `by` steps from v along dimension d, round the line. */
static int along(const noc_topo_t *t, int v, int d, int by)
{
    int c = noc_topo_coord(t, v, d), k = noc_topo_k(t, d);
    int c2 = ((c + by) % k + k) % k;
    return v + (c2 - c) * noc_topo_stride(t, d);
}

static void rowcol_plan(const noc_topo_t *t, int q, rowcol_t *rc)
{
    rc->cols = noc_topo_k(t, 0);
    rc->rows = noc_topo_dims(t) > 1 ? noc_topo_k(t, 1) : 1;
    rc->b = q % rc->cols;
    rc->a = q / rc->cols;
    rc->row_dir = rc->b <= rc->cols - rc->b ? +1 : -1;
    rc->row_n = rc->row_dir > 0 ? rc->b : rc->cols - rc->b;
    rc->comp = rc->b > 0 && rc->rows > 1;
    rc->col_dir = rc->a <= rc->rows - rc->a ? +1 : -1;
    rc->col_n = rc->col_dir > 0 ? rc->a : rc->rows - rc->a;
}

/* `count` unit shifts of every block along dimension d, way dir. */
static void unit_shifts(shift_t *s, int d, int dir, int count, const char *step)
{
    for (int r = 0; r < count; r++) {
        for (int v = 0; v < s->n; v++)
            s->dest[v] = along(s->t, v, d, dir);
        move(s, step);
    }
}

static void rowcol(shift_t *s)
{
    rowcol_t rc;
    rowcol_plan(s->t, s->q, &rc);
    if (rc.row_n)
        noc_prog_declare_step(s->p, "row");
    if (rc.comp)
        noc_prog_declare_step(s->p, "compensate");
    if (rc.col_n)
        noc_prog_declare_step(s->p, "column");
    unit_shifts(s, 0, rc.row_dir, rc.row_n, "row");
    if (rc.comp) {
        /* the blocks that wrapped now sit in columns 0 .. b-1 */
        for (int v = 0; v < s->n; v++)
            s->dest[v] = noc_topo_coord(s->t, v, 0) < rc.b ? along(s->t, v, 1, +1) : v;
        move(s, "compensate");
    }
    unit_shifts(s, 1, rc.col_dir, rc.col_n, "column");
}

/* ---- gray ---- */

/* What a 2^j phase costs in steps: one hop for j = 0, else two. */
static int phase_cost(int j) { return j ? 2 : 1; }

/* The phases of a q-shift on 2^d Gray-ring PEs: e[j] in {-1, 0, +1} with
 * sum e_j 2^j = q mod 2^d. Forward only: the bits of q. Otherwise the
 * cheapest signed-digit form, by a walk from bit 0 up with a carry c in
 * {0, 1}: the digit at j must make bit j of (q >> j) + c vanish, so it is
 * 0 if that sum is even, else +1 (carry 0) or -1 (carry 1); the carry out
 * of bit d - 1 is a multiple of p and dropped. cost[j][c] is the least
 * cost of bits j.. with carry c. Returns the steps. */
static int gray_plan(int q, int d, int forward_only, int *e)
{
    int cost[32][2];
    cost[d][0] = cost[d][1] = 0;
    for (int j = d - 1; j >= 0; j--)
        for (int c = 0; c < 2; c++) {
            int b = (q >> j & 1) + c;
            if (b != 1)
                cost[j][c] = cost[j + 1][b / 2];
            else if (forward_only)
                cost[j][c] = phase_cost(j) + cost[j + 1][0];
            else
                cost[j][c] = phase_cost(j) + (cost[j + 1][0] <= cost[j + 1][1] ? cost[j + 1][0]
                                                                                : cost[j + 1][1]);
        }
    for (int j = 0, c = 0; j < d; j++) {
        int b = (q >> j & 1) + c;
        e[j] = 0;
        if (b != 1) {
            c = b / 2;
            continue;
        }
        int back = !forward_only && cost[j + 1][1] < cost[j + 1][0];
        e[j] = back ? -1 : +1;
        c = back;
    }
    return cost[0][0];
}

/* The step of the phase 2^j, way dir: "shift4", "shift-2". */
static void phase_name(char *buf, size_t len, int j, int dir)
{
    snprintf(buf, len, "shift%s%d", dir < 0 ? "-" : "", 1 << j);
}

/* One phase: the 2^j-shift along the Gray ring, way dir. */
static void gray_phase(shift_t *s, int j, int dir, const char *step)
{
    int n = s->n, s2 = 1 << j;
    if (j > 0) {
        /* G(i) and G(i +- 2^j) differ in bit j-1 and one bit above it */
        for (int v = 0; v < n; v++)
            s->dest[v] = v ^ (1 << (j - 1));
        move(s, step);
    }
    for (int i = 0; i < n; i++) {
        int at = j > 0 ? gray_code(i) ^ (1 << (j - 1)) : gray_code(i);
        s->dest[at] = gray_code(((i + dir * s2) % n + n) % n);
    }
    move(s, step);
}

static void gray(shift_t *s, int forward_only)
{
    char step[32];
    int d = noc_topo_dims(s->t), e[32];
    gray_plan(s->q, d, forward_only, e);
    for (int j = d - 1; j >= 0; j--)
        if (e[j]) {
            phase_name(step, sizeof step, j, e[j]);
            noc_prog_declare_step(s->p, step);
        }
    for (int j = d - 1; j >= 0; j--)
        if (e[j]) {
            phase_name(step, sizeof step, j, e[j]);
            gray_phase(s, j, e[j], step);
        }
}

/* ---- ecube, direct ---- */

static void direct(shift_t *s, const char *step)
{
    if (s->q == 0)
        return;
    noc_prog_declare_step(s->p, step);
    for (int v = 0; v < s->n; v++)
        s->dest[v] = (v + s->q) % s->n;
    move(s, step);
}

/* ---- the generator ---- */

static noc_program_t *make(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    const char *v = pick(t, a, err, errlen);
    if (!v || check(t, a, v, err, errlen) != 0)
        return NULL;
    shift_t s = { 0 };
    s.t = t;
    s.n = noc_topo_nodes(t);
    s.q = reduce_q(a->q, s.n);
    s.words = (uint32_t)a->words;
    s.p = noc_prog_new(s.n, "shift");
    s.dest = noc_xcalloc((size_t)s.n, sizeof(int), "shift");
    s.src = noc_xcalloc((size_t)s.n, sizeof(int), "shift");
    s.last = noc_xcalloc((size_t)s.n, sizeof(uint32_t), "shift");
    for (int i = 0; i < s.n; i++)
        s.last[i] = NOC_GEN_NONE;
    blocks(&s, a, v);
    if (strcmp(v, "rowcol") == 0)
        rowcol(&s);
    else if (is_gray(v))
        gray(&s, strcmp(v, "gray-forward") == 0);
    else
        direct(&s, v);
    free(s.dest);
    free(s.src);
    free(s.last);
    return noc_gen_finish(s.p, err, errlen);
}

/* g(q): the highest j with 2^j dividing q (q > 0). */
static int two_adic(int q)
{
    int g = 0;
    while (!(q >> g & 1))
        g++;
    return g;
}

static void facts_rowcol(const noc_topo_t *t, int q, uint32_t m, char *buf, size_t len)
{
    rowcol_t rc;
    rowcol_plan(t, q, &rc);
    int units = rc.row_n + rc.comp + rc.col_n;
    put(buf, len, "pe_order = row-major (PE i on node i)\n");
    put(buf, len, "row_shifts = %d (%s)\ncompensating_shift = %d\ncolumn_shifts = %d (%s)\n",
        rc.row_n, rc.row_dir > 0 ? "forward" : "backward", rc.comp, rc.col_n,
        rc.col_dir > 0 ? "forward" : "backward");
    put(buf, len, "unit_shifts = %d\n", units);
    if (noc_topo_wrap(t))
        put(buf, len, "unit_time_cycles = %llu (m per unit shift)\n",
            (unsigned long long)units * m);
    put(buf, len, "paper_bound = (t_s + t_w m)(sqrt(p) + 1)\n");
}

static void facts_gray(const noc_topo_t *t, int q, uint32_t m, int forward_only, char *buf,
                       size_t len)
{
    int d = noc_topo_dims(t), e[32], phases = 0, back = 0;
    int steps = gray_plan(q, d, forward_only, e);
    for (int j = 0; j < d; j++) {
        phases += e[j] != 0;
        back += e[j] < 0;
    }
    put(buf, len, "pe_order = reflected Gray code (PE i on node G(i))\n");
    put(buf, len, "phases = %d (%d backward)\nsteps = %d\nunit_time_cycles = %llu (m per step)\n",
        phases, back, steps, (unsigned long long)steps * m);
    if (forward_only)
        put(buf, len, "paper_bound = (t_s + t_w m)(2 log p - 1) = %llu with t_s = 0, t_w = 1\n",
            (unsigned long long)(2 * d - 1) * m);
    else
        put(buf, len, "paper_bound = (t_s + t_w m) log p = %llu with t_s = 0, t_w = 1\n",
            (unsigned long long)d * m);
}

static void facts_direct(const noc_topo_t *t, int q, uint32_t m, int ecube, char *buf, size_t len)
{
    int hops = 0;
    for (int v = 0; v < noc_topo_nodes(t) && q; v++) {
        int h = noc_topo_route_hops(t, v, (v + q) % noc_topo_nodes(t));
        hops = h > hops ? h : hops;
    }
    put(buf, len, "pe_order = node order (PE i on node i)\nlongest_route = %d hops\n", hops);
    if (ecube && q)
        put(buf, len, "paper_longest_path = log p - g(q) = %d\n", noc_topo_dims(t) - two_adic(q));
    if (q)
        put(buf, len, "unit_time_cycles = %llu (longest route + m - 1, %s)\n",
            (unsigned long long)hops + m - 1,
            ecube ? "congestion-free" : "if no two blocks share a link");
    if (ecube)
        put(buf, len, "paper = t_s + t_w m (+ t_h (log p - g(q)))\n");
}

static void facts(const noc_topo_t *t, const noc_gen_args_t *a, char *buf, size_t len)
{
    char err[256];
    if (len)
        buf[0] = '\0';
    const char *v = pick(t, a, err, sizeof err);
    if (!v || check(t, a, v, err, sizeof err) != 0)
        return;
    int q = reduce_q(a->q, noc_topo_nodes(t));
    uint32_t m = (uint32_t)a->words;
    put(buf, len, "variant = %s\np = %d\nq = %d\nm = %u\n", v, noc_topo_nodes(t), q, m);
    if (strcmp(v, "rowcol") == 0)
        facts_rowcol(t, q, m, buf, len);
    else if (is_gray(v))
        facts_gray(t, q, m, strcmp(v, "gray-forward") == 0, buf, len);
    else
        facts_direct(t, q, m, strcmp(v, "ecube") == 0, buf, len);
}

const noc_generator_t noc_gen_shift = {
    .name = "shift",
    .summary = "circular q-shift: PE i's block moves to PE (i + q) mod p",
    .args_help =
        "  --q Q          the shift (default 1; reduced mod p, 0 gives an empty program)\n"
        "  --words W      words per PE's block, m (default 1)\n"
        "  --seed S       the data values\n"
        "  variants: auto (torus, mesh, ring: rowcol; hypercube: gray; others: direct),\n"
        "            rowcol (row-major PEs: row shifts, compensating column shift, column\n"
        "            shifts; 2-D torus or mesh, ring), gray (hypercube, PEs on the Gray-code\n"
        "            ring, forward and backward 2^j-shifts, the cheapest mix: at most\n"
        "            log p steps), gray-forward (forward phases only, one per set bit\n"
        "            of q: at most 2 log p - 1), ecube (hypercube, one step, every\n"
        "            block straight to its destination by e-cube routing), direct (any\n"
        "            fabric, one step by its own routing)\n",
    .variants = variants,
    .make = make,
    .facts = facts,
    .volume = noc_gen_volume_twice, /* every PE's block of W words, sent and expected */
};
