/* gen_flow.c: the dataflow builder of the fabric generators (gen_fabric.h):
 * every PE's memory cut into slots, each op's dependencies taken from the
 * slots it reads and writes (the last writer, the readers since), and
 * combine ops held back until an op of their rank touches their slots or
 * the step changes. The group steps (gen_group.c), the BSN algorithms
 * (gen_bsn.c) and the OTIS algorithms (gen_otis.c) add their ops through it. */
#include "traffic/gen_flow_internal.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t cell(const noc_gen_flow_t *f, int v, int s)
{
    return (size_t)v * (size_t)f->max_slots + (size_t)s;
}

static int32_t addr_of(const noc_gen_flow_t *f, int s) { return (int32_t)((uint32_t)s * f->words); }

static void *grow(void *a, uint32_t *cap, size_t size)
{
    *cap = *cap ? 2 * *cap : 1024;
    void *b = realloc(a, (size_t)*cap * size);
    if (!b) {
        noc_oom("program generator", 0);
    }
    return b;
}

noc_gen_flow_t *noc_gen_flow_new(noc_program_t *p, uint32_t words, const noc_topo_t *omega)
{
    noc_gen_flow_t *f = noc_xcalloc(1, sizeof *f, "program generator");
    f->p = p;
    f->n_nodes = p->n_ranks;
    f->words = words;
    f->n_slots = NOC_GEN_FIRST_SLOT;
    f->max_slots = NOC_GEN_MAX_SLOTS + (noc_gen_is(omega, "complete") ? noc_topo_nodes(omega)
                                                                      : noc_topo_max_degree(omega));
    size_t cells = cell(f, f->n_nodes, 0);
    f->writer = noc_xcalloc(cells, sizeof *f->writer, "program generator");
    f->readers = noc_xcalloc(cells, sizeof *f->readers, "program generator");
    for (size_t i = 0; i < cells; i++) {
        f->writer[i] = NOC_GEN_NONE;
        f->readers[i] = -1;
    }
    f->held_first = noc_xcalloc((size_t)f->n_nodes, sizeof *f->held_first, "program generator");
    f->held_last = noc_xcalloc((size_t)f->n_nodes, sizeof *f->held_last, "program generator");
    for (int v = 0; v < f->n_nodes; v++)
        f->held_first[v] = f->held_last[v] = -1;
    f->hd_free = -1;
    f->mark = noc_xcalloc((size_t)f->max_slots, 1, "program generator");
    return f;
}

int noc_gen_flow_slot(noc_gen_flow_t *f)
{
    if (f->n_slots >= NOC_GEN_MAX_SLOTS) {
        fprintf(stderr, "noctua: program generator: more than %d memory slots\n", NOC_GEN_MAX_SLOTS);
        abort();
    }
    return f->n_slots++;
}

int32_t noc_gen_flow_tags(noc_gen_flow_t *f, int k)
{
    int32_t t = f->tag;
    f->tag += k;
    return t;
}

/* Op `op` of rank v reads slot s: it waits for the slot's writer, and the
 * slot's next writer waits for it (for its start if `start`). */
static void reads(noc_gen_flow_t *f, int v, int s, uint32_t op, int start)
{
    size_t c = cell(f, v, s);
    if (f->writer[c] != NOC_GEN_NONE)
        noc_prog_dep(f->p, op, f->writer[c], 0);
    if (f->rd_n == f->rd_cap)
        f->rd = grow(f->rd, &f->rd_cap, sizeof *f->rd);
    f->rd[f->rd_n] = (reader_t){ op, f->readers[c], (uint8_t)start };
    f->readers[c] = (int32_t)f->rd_n++;
}

/* Op `op` of rank v writes slot s: after the last writer and every reader
 * since. */
static void writes(noc_gen_flow_t *f, int v, int s, uint32_t op)
{
    size_t c = cell(f, v, s);
    if (f->writer[c] != NOC_GEN_NONE)
        noc_prog_dep(f->p, op, f->writer[c], 0);
    for (int32_t r = f->readers[c]; r >= 0; r = f->rd[r].next)
        if (f->rd[r].op != op)
            noc_prog_dep(f->p, op, f->rd[r].op, f->rd[r].start);
    f->readers[c] = -1;
    f->writer[c] = op;
}

/* Add held entry h of rank v to the program and recycle it. */
static void emit_held(noc_gen_flow_t *f, int v, int32_t h)
{
    const held_t *x = &f->hd[h];
    noc_op_t o;
    memset(&o, 0, sizeof o);
    o.kind = x->kind;
    o.words = f->words;
    o.addr = addr_of(f, x->dst);
    o.src = addr_of(f, x->src);
    o.cost = x->cost;
    uint32_t op = noc_prog_add(f->p, v, &o);
    reads(f, v, x->src, op, 0);
    writes(f, v, x->dst, op);
    f->hd[h].next = f->hd_free;
    f->hd_free = h;
}

/* Add all of rank v's held ops, in order. */
static void release_all(noc_gen_flow_t *f, int v)
{
    for (int32_t h = f->held_first[v], next; h >= 0; h = next) {
        next = f->hd[h].next;
        emit_held(f, v, h);
    }
    f->held_first[v] = f->held_last[v] = -1;
}

/* Rank v is about to read (is_write 0) or write slot s: first add the held
 * ops that op depends on, directly or through other held ops, in order;
 * the others stay held (they touch nothing that those touch in a way that
 * orders them, so the new op and the released ones may go first). */
static void before(noc_gen_flow_t *f, int v, int s, int is_write)
{
    int n = 0;
    for (int32_t h = f->held_first[v]; h >= 0; h = f->hd[h].next) {
        if (n == (int)f->tmp_cap)
            f->tmp = grow(f->tmp, &f->tmp_cap, sizeof *f->tmp);
        f->tmp[n++] = h;
    }
    if (n == 0)
        return;
    memset(f->mark, 0, (size_t)f->max_slots);
    f->mark[s] = is_write ? 2 : 1; /* bit 0: read by what goes first, bit 1: written */
    int any = 0;
    for (int i = n - 1; i >= 0; i--) {
        held_t *x = &f->hd[f->tmp[i]];
        if (!f->mark[x->dst] && !(f->mark[x->src] & 2)) {
            f->tmp[i] = -1;
            continue;
        }
        f->mark[x->src] |= 1;
        f->mark[x->dst] |= 3;
        any = 1;
    }
    if (!any)
        return;
    int32_t first = -1, last = -1;
    for (int32_t h = f->held_first[v], i = 0, next; h >= 0; h = next, i++) {
        next = f->hd[h].next;
        if (f->tmp[i] >= 0) {
            emit_held(f, v, h);
            continue;
        }
        f->hd[h].next = -1;
        if (last >= 0)
            f->hd[last].next = h;
        else
            first = h;
        last = h;
    }
    f->held_first[v] = first;
    f->held_last[v] = last;
}

void noc_gen_flow_step(noc_gen_flow_t *f, const char *name)
{
    for (int v = 0; v < f->n_nodes; v++) {
        noc_prog_step(f->p, v, name);
        release_all(f, v);
    }
}

void noc_gen_flow_send(noc_gen_flow_t *f, int v, int to, int32_t tag, int s)
{
    before(f, v, s, 0);
    reads(f, v, s, noc_prog_send(f->p, v, to, tag, f->words, addr_of(f, s)), 1);
}

void noc_gen_flow_recv(noc_gen_flow_t *f, int v, int from, int32_t tag, int s)
{
    before(f, v, s, 1);
    writes(f, v, s, noc_prog_recv(f->p, v, from, tag, f->words, addr_of(f, s)));
}

void noc_gen_flow_op(noc_gen_flow_t *f, int v, noc_op_kind_t kind, int dst, int src)
{
    noc_gen_flow_op_cost(f, v, kind, dst, src, 0);
}

void noc_gen_flow_op_cost(noc_gen_flow_t *f, int v, noc_op_kind_t kind, int dst, int src, int cost)
{
    int32_t h = f->hd_free;
    if (h >= 0) {
        f->hd_free = f->hd[h].next;
    } else {
        if (f->hd_n == f->hd_cap)
            f->hd = grow(f->hd, &f->hd_cap, sizeof *f->hd);
        h = (int32_t)f->hd_n++;
    }
    f->hd[h] = (held_t){ -1, (uint8_t)kind, (uint8_t)cost, (int16_t)dst, (int16_t)src };
    if (f->held_last[v] >= 0)
        f->hd[f->held_last[v]].next = h;
    else
        f->held_first[v] = h;
    f->held_last[v] = h;
}

void noc_gen_flow_done(noc_gen_flow_t *f)
{
    for (int v = 0; v < f->n_nodes; v++)
        release_all(f, v);
    free(f->writer);
    free(f->readers);
    free(f->rd);
    free(f->held_first);
    free(f->held_last);
    free(f->hd);
    free(f->tmp);
    free(f->mark);
    if (f->centre.parent)
        noc_gen_tree_free(&f->centre);
    free(f);
}
