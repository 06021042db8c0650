/* pe_build.c: building the PE program engine (pe.h) for a program on a
 * simulator: the refusals (synthetic traffic, too many ranks, a send to
 * itself, a program the memory cannot hold, estimated by pe_bytes), then
 * every table the run uses, sized from the program up front so that the
 * run allocates nothing (memories, dependents, queues, messages, steps,
 * per-step link tables), and taking it down again; and the growth of the
 * per-op tables for ops appended while it runs (pe_extend.c). The run
 * itself is pe.c; what is read after it, pe_report.c. */
#include "model/pe_internal.h"
#include "util/meminfo.h"
#include "util/xalloc.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The bytes noc_pe_attach allocates for p on s: the ranks' memories, a
 * few words per op and dependency, the words of every message twice (sent
 * and received, for the data check), and the per-step link tables; by the
 * same counts as the allocations below. */
static uint64_t pe_bytes(const struct noc_sim *s, const noc_program_t *p)
{
    uint64_t N = p->n_ops, R = (uint64_t)p->n_ranks, K = (uint64_t)p->n_steps + 1, mem = 0, words = 0;
    for (int r = 0; r < p->n_ranks; r++)
        mem += p->ranks[r].mem_words;
    for (uint32_t i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == NOC_OP_SEND)
            words += p->ops[i].words;
    uint64_t b = sizeof(noc_pe_t) + (mem + 1) * sizeof(int64_t);
    b += (N + 1) * (4 + 1 + 4 + 2 * 4 + 2 * 4 + 4 + 4 + 1 + 8 + 4 + 4 + 4 + 4 + 4 + 4 + 2 * 8) + 4;
    b += (N + 1) * 5 * 4 + 2 * ((uint64_t)s->n_ports + 1) * 4; /* matching and send lists */
    b += (N + 1) * (8 + 4 + 4 + 4 * 4 + 2 * 2 * 4);           /* pairs, hash slots at most half full */
    b += ((uint64_t)p->n_deps + 1) * sizeof(rdep_t) + R * sizeof(rank_state_t);
    b += 2 * (words + 1) * sizeof(int64_t);
    b += K * (4 + 4 + 4 + sizeof(noc_pe_step_stats_t));
    uint64_t cells = K * (uint64_t)s->n_chan;
    if (cells <= noc_pe_step_cells_max()) /* the tables, each message's waits, each packet slot's */
        b += (1 + NOC_WAIT_KINDS) * cells * sizeof(uint32_t) + (N + 1 + s->pkt_alloc) * NOC_WAIT_KINDS * sizeof(uint32_t);
    return b;
}

/* The refusals before anything is built: synthetic traffic on s, more
 * ranks than nodes, a send to itself, a program larger than the memory. */
static int check_attach(const struct noc_sim *s, const noc_program_t *p, const uint32_t *op_rank, char *err,
                        size_t errlen)
{
    if (s->traffic.ops) {
        snprintf(err, errlen, "a program needs a simulator without synthetic traffic");
        return -1;
    }
    if (s->conc) {
        snprintf(err, errlen, "%s has routers with several terminals or none (concentration): programs do not "
                 "run on such fabrics yet (rank r runs on node r)", s->graph->name);
        return -1;
    }
    if (s->cfg.use_read_write) {
        snprintf(err, errlen, "parameter 'use_read_write': request/reply traffic is synthetic traffic's; a "
                 "program's messages are its own (leave use_read_write = 0)");
        return -1;
    }
    if (s->cfg.sim_count != 1) {
        snprintf(err, errlen, "parameter 'sim_count': %lld simulations of a program would all be the same run (a "
                 "program draws nothing); leave sim_count out", (long long)s->cfg.sim_count);
        return -1;
    }
    if (s->cfg.classes != 1) {
        snprintf(err, errlen, "parameter 'classes': traffic classes are synthetic traffic's sources; a program's "
                 "messages are its own (leave classes out)");
        return -1;
    }
    if (strcmp(s->cfg.priority, "none") != 0) {
        snprintf(err, errlen, "parameter 'priority': %s ranks synthetic traffic's packets; a program's messages "
                 "are not ranked yet (leave priority out)", s->cfg.priority);
        return -1;
    }
    if (strcmp(s->cfg.sim_type, "batch") == 0) {
        snprintf(err, errlen, "parameter 'sim_type': batch is a run of synthetic traffic (batch_size packets a "
                 "node); a program's messages are its own (leave sim_type out)");
        return -1;
    }
    if (s->graph->route_set) {
        snprintf(err, errlen, "%s: its routing adapts to the load (routing_function = %s): programs do not run "
                 "on adaptive routing yet", s->graph->name, s->cfg.routing_function);
        return -1;
    }
    if (s->graph->route_rand) {
        snprintf(err, errlen, "%s routes every packet its own random way: programs do not run on such "
                 "routing yet", s->graph->name);
        return -1;
    }
    if (p->n_ranks > s->n_nodes) {
        snprintf(err, errlen, "the program has %d ranks, but %s has only %d nodes (rank r runs on node r)",
                 p->n_ranks, s->graph->name, s->n_nodes);
        return -1;
    }
    for (uint32_t i = 0; i < p->n_ops; i++) {
        const noc_op_t *o = &p->ops[i];
        uint32_t r = op_rank[i];
        if (o->kind == NOC_OP_SEND && o->peer == (int32_t)r) {
            uint32_t nth = 0; /* its index within the rank */
            for (uint32_t j = 0; j < i; j++)
                nth += op_rank[j] == r;
            snprintf(err, errlen, "rank %u: a send to itself (op %u, line %u); a PE does not use "
                     "the network for that", r, nth, o->line);
            return -1;
        }
    }
    if (s->cfg.memory_check) {
        char what[NOC_GRAPH_NAME_MAX + 160];
        snprintf(what, sizeof what, "the program engine for %u operations of %d ranks on %s", p->n_ops,
                 p->n_ranks, s->graph->name);
        if (noc_mem_check(pe_bytes(s, p), what, "make the messages or the ranks' memory smaller (their words are "
                          "kept to check the result), or memory_check=0 to try anyway", err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* The ranks' memories, one block (each rank's mem points into it), with
 * their init values. */
static void build_memories(noc_pe_t *pe, const noc_program_t *p)
{
    uint64_t total = 0;
    for (int r = 0; r < p->n_ranks; r++)
        total += p->ranks[r].mem_words;
    pe->mem = noc_xcalloc((size_t)total + 1, sizeof(int64_t), "PE engine");
    uint64_t off = 0;
    for (int r = 0; r < p->n_ranks; r++) {
        rank_state_t *rs = &pe->rank[r];
        rs->mem = pe->mem + off;
        rs->mem_cap = p->ranks[r].mem_words;
        off += p->ranks[r].mem_words;
        for (uint32_t k = 0; k < p->ranks[r].n_init; k++) {
            const noc_memval_t *v = &p->init[p->ranks[r].init_start + k];
            rs->mem[v->addr] = v->value;
        }
    }
}

/* The per-op arrays, with the bytes of one element of each. */
typedef struct op_array {
    void **arr;
    size_t size;
} op_array_t;

enum { N_OP_ARRAYS = 25 };

static void op_arrays(noc_pe_t *pe, op_array_t *a)
{
    int n = 0;
#define OP_ARRAY(field) a[n++] = (op_array_t){ (void **)&(field), sizeof *(field) }
    OP_ARRAY(pe->pending);
    OP_ARRAY(pe->state);
    OP_ARRAY(pe->op_rank);
    OP_ARRAY(pe->rdep_head);
    OP_ARRAY(pe->rdep_tail);
    OP_ARRAY(pe->send_next);
    OP_ARRAY(pe->send_prev);
    OP_ARRAY(pe->send_pnext);
    OP_ARRAY(pe->send_off);
    OP_ARRAY(pe->send_port);
    OP_ARRAY(pe->msg_off);
    OP_ARRAY(pe->msg_sent);
    OP_ARRAY(pe->msg_got);
    OP_ARRAY(pe->msg_next);
    OP_ARRAY(pe->msg_prev);
    OP_ARRAY(pe->msg_pnext);
    OP_ARRAY(pe->recv_next);
    OP_ARRAY(pe->recv_seq);
    OP_ARRAY(pe->recv_msg);
    OP_ARRAY(pe->msg_arrived);
    OP_ARRAY(pe->pair_of);
    OP_ARRAY(pe->msg_seq);
    OP_ARRAY(pe->park_next);
    OP_ARRAY(pe->st.op_start);
    OP_ARRAY(pe->st.op_end);
#undef OP_ARRAY
    assert(n == N_OP_ARRAYS);
}

void noc_pe_grow_ops(noc_pe_t *pe, uint32_t need)
{
    if (need <= pe->cap_ops && pe->pending)
        return;
    uint64_t cap = pe->pending ? 2 * (uint64_t)pe->cap_ops : need; /* attach: exactly; then doubling */
    if (pe->pending && cap < 16)
        cap = 16;
    if (cap < need)
        cap = need;
    if (cap > UINT32_MAX - 1)
        cap = UINT32_MAX - 1;
    op_array_t a[N_OP_ARRAYS];
    op_arrays(pe, a);
    for (int k = 0; k < N_OP_ARRAYS; k++) {
        if (!*a[k].arr) {
            *a[k].arr = noc_xcalloc((size_t)cap + 1, a[k].size, "PE engine");
            continue;
        }
        *a[k].arr = noc_xrealloc(*a[k].arr, ((size_t)cap + 1) * a[k].size, "PE engine");
        memset((char *)*a[k].arr + ((size_t)pe->cap_ops + 1) * a[k].size, 0,
               (size_t)(cap - pe->cap_ops) * a[k].size);
    }
    if (pe->msg_wait) {
        size_t w = NOC_WAIT_KINDS * sizeof *pe->msg_wait;
        pe->msg_wait = noc_xrealloc(pe->msg_wait, ((size_t)cap + 1) * w, "PE engine");
        memset((char *)pe->msg_wait + ((size_t)pe->cap_ops + 1) * w, 0, (size_t)(cap - pe->cap_ops) * w);
    }
    pe->cap_ops = (uint32_t)cap;
}

void noc_pe_add_dependent(noc_pe_t *pe, uint32_t on, uint32_t op, int start)
{
    if (pe->n_rdep == pe->cap_rdep) {
        uint64_t cap = pe->cap_rdep ? 2 * (uint64_t)pe->cap_rdep : 16;
        if (cap > UINT32_MAX)
            cap = UINT32_MAX;
        pe->rdep = noc_xrealloc(pe->rdep, (size_t)cap * sizeof *pe->rdep, "PE engine");
        pe->cap_rdep = (uint32_t)cap;
    }
    uint32_t k = pe->n_rdep++;
    pe->rdep[k] = (rdep_t){ op, NOC_PE_NONE, (uint8_t)start };
    if (pe->rdep_tail[on] == NOC_PE_NONE)
        pe->rdep_head[on] = k;
    else
        pe->rdep[pe->rdep_tail[on]].next = k;
    pe->rdep_tail[on] = k;
}

/* Per op: its pending dependencies, state and rank; and the reverse of
 * the dependency lists (every op's dependents, from rdep_head[op]), in
 * the order of the dependent ops. */
static void build_dependents(noc_pe_t *pe, const noc_program_t *p, const uint32_t *op_rank)
{
    uint32_t N = p->n_ops;
    noc_pe_grow_ops(pe, N);
    memcpy(pe->op_rank, op_rank, (size_t)N * sizeof *op_rank);
    memset(pe->rdep_head, 0xff, ((size_t)N + 1) * sizeof *pe->rdep_head);
    memset(pe->rdep_tail, 0xff, ((size_t)N + 1) * sizeof *pe->rdep_tail);
    pe->cap_rdep = p->n_deps + 1;
    pe->rdep = noc_xcalloc(pe->cap_rdep, sizeof *pe->rdep, "PE engine");
    for (uint32_t i = 0; i < N; i++) {
        pe->pending[i] = p->ops[i].n_deps;
        for (uint32_t k = 0; k < p->ops[i].n_deps; k++) {
            const noc_dep_t *d = &p->deps[p->ops[i].dep_start + k];
            noc_pe_add_dependent(pe, d->op, i, d->start);
        }
    }
}

/* The queues of every rank (two regions of one block, room for each of
 * its ops), and the messages: each send op's words (sent and received, for
 * the data check). */
static void build_queues_and_messages(noc_pe_t *pe, const noc_program_t *p)
{
    uint32_t N = p->n_ops;
    pe->qslot = noc_xcalloc(2 * (size_t)N + 1, sizeof(uint32_t), "PE engine");
    size_t at = 0;
    for (int r = 0; r < p->n_ranks; r++) {
        rank_state_t *rs = &pe->rank[r];
        uint32_t n = p->ranks[r].n_ops;
        rs->ready.slot = pe->qslot + at;
        rs->compute.slot = pe->qslot + at + n;
        rs->q_cap = n;
        at += 2 * (size_t)n;
    }
    uint64_t words = 0;
    for (uint32_t i = 0; i < N; i++) {
        pe->msg_off[i] = words;
        if (p->ops[i].kind == NOC_OP_SEND) {
            words += p->ops[i].words;
            pe->messages_left++;
            pe->st.messages++;
        }
    }
    pe->st.words = words;
    pe->cap_words = words;
    pe->tx = noc_xcalloc((size_t)words + 1, sizeof(int64_t), "PE engine");
    pe->rx = noc_xcalloc((size_t)words + 1, sizeof(int64_t), "PE engine");
    for (uint32_t i = 0; i < N; i++)
        pe->recv_msg[i] = -1;
}

/* The steps: ops left per step, the barrier's parking lists (sync_steps),
 * the first step with ops, and the statistics per step and per op. */
static void build_steps(noc_pe_t *pe, const noc_program_t *p, int sync)
{
    uint32_t N = p->n_ops;
    pe->sync = sync;
    pe->cap_steps = p->n_steps;
    pe->step_left = noc_xcalloc((size_t)p->n_steps + 1, sizeof(uint32_t), "PE engine");
    pe->step_active = noc_xcalloc((size_t)p->n_steps + 1, sizeof(uint32_t), "PE engine");
    pe->park_head = noc_xcalloc((size_t)p->n_steps + 1, sizeof(int32_t), "PE engine");
    pe->step_open = noc_xcalloc((size_t)p->n_steps + 1, sizeof(uint64_t), "PE engine");
    for (int k = 0; k <= p->n_steps; k++)
        pe->park_head[k] = -1;
    for (uint32_t i = 0; i < N; i++)
        if (p->ops[i].step >= 0)
            pe->step_left[p->ops[i].step]++;
    while (pe->cur_step < p->n_steps && pe->step_left[pe->cur_step] == 0)
        pe->cur_step++;
    for (int k = pe->cur_step + 1; k <= p->n_steps; k++) /* the steps up to the first with ops: cycle 0 */
        pe->step_open[k] = NOC_NEVER;
    pe->st.ops = N;
    pe->st.n_steps = p->n_steps;
    pe->st.steps = noc_xcalloc((size_t)p->n_steps + 1, sizeof(noc_pe_step_stats_t), "PE engine");
    for (int k = 0; k <= p->n_steps; k++) {
        pe->st.steps[k].name = k < p->n_steps ? p->steps[k] : "(no step)";
        pe->st.steps[k].first_start = pe->st.steps[k].last_end = NOC_NEVER;
    }
    for (uint32_t i = 0; i < N; i++)
        pe->st.op_start[i] = pe->st.op_end[i] = NOC_NEVER;
}

/* The simulator's per-step link tables (flits, and the waits by resource),
 * unless they would be large, and each message's waits. */
static void build_step_links(struct noc_sim *s, noc_pe_t *pe, const noc_program_t *p)
{
    size_t cells = ((size_t)p->n_steps + 1) * (size_t)s->n_chan;
    if (cells <= noc_pe_step_cells_max()) {
        s->n_step_rows = p->n_steps + 1;
        pe->cap_step_rows = s->n_step_rows;
        s->step_flits = noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables");
        for (int k = 0; k < NOC_WAIT_KINDS; k++)
            s->step_wait[k] = noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables");
        pe->msg_wait = noc_xcalloc(((size_t)pe->cap_ops + 1) * NOC_WAIT_KINDS, sizeof *pe->msg_wait, "PE engine");
        s->pkt_wait = noc_xcalloc((size_t)s->pkt_alloc * NOC_WAIT_KINDS, sizeof *s->pkt_wait, "per-step link tables");
    }
}

noc_pe_t *noc_pe_build(const struct noc_sim *s, const noc_program_t *p, char *err, size_t errlen)
{
    const uint32_t *ranks = noc_prog_op_ranks(p);
    uint32_t *op_rank = NULL;
    if (!ranks) { /* rank by rank */
        op_rank = noc_xcalloc((size_t)p->n_ops + 1, sizeof *op_rank, "PE engine");
        for (int r = 0; r < p->n_ranks; r++)
            for (uint32_t i = p->ranks[r].op_start; i < p->ranks[r].op_start + p->ranks[r].n_ops; i++)
                op_rank[i] = (uint32_t)r;
        ranks = op_rank;
    }
    if (check_attach(s, p, ranks, err, errlen) != 0) {
        free(op_rank);
        return NULL;
    }
    noc_pe_t *pe = noc_xcalloc(1, sizeof *pe, "PE engine");
    pe->p = p;
    pe->n_ranks = p->n_ranks;
    pe->compute_cycles = s->cfg.compute_cycles;
    pe->packet_size = (int)s->cfg.packet_size;
    pe->rank = noc_xcalloc((size_t)p->n_ranks + 1, sizeof(rank_state_t), "PE engine");
    pe->port_base = s->graph->port_base;
    pe->port_send_head = noc_xcalloc((size_t)s->graph->n_ports + 1, sizeof(int32_t), "PE engine");
    pe->port_send_tail = noc_xcalloc((size_t)s->graph->n_ports + 1, sizeof(int32_t), "PE engine");
    build_memories(pe, p);
    build_dependents(pe, p, ranks);
    free(op_rank);
    build_queues_and_messages(pe, p);
    noc_pe_order_build(pe, p);
    noc_pe_cpu_build(pe, p);
    build_steps(pe, p, s->cfg.sync_steps != 0);
    return pe;
}

int noc_pe_attach(struct noc_sim *s, const noc_program_t *p, char *err, size_t errlen)
{
    const char *why = s->rops->programs_refused ? s->rops->programs_refused(s) : NULL;
    if (s->thr) /* (model/sim_threads.c: synthetic traffic only, for now) */
        why = "parameter 'threads': programs run on one thread only for now; use threads=1";
    if (s->rk) /* (model/sim_ranks.c: synthetic traffic only, for now) */
        why = "mpirun: programs run in one process only for now; run them without mpirun";
    if (why) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    noc_pe_t *pe = noc_pe_build(s, p, err, errlen);
    if (!pe)
        return -1;
    build_step_links(s, pe, p);
    s->pe = pe;
    if (s->step_flits && s->rops->waits_on)
        s->rops->waits_on(s);
    noc_pe_start(s);
    return 0;
}

void noc_pe_destroy(noc_pe_t *pe)
{
    if (!pe)
        return;
    for (int r = 0; r < pe->n_ranks; r++) {
        if (pe->rank[r].q_own)
            free(pe->rank[r].ready.slot); /* both queues, one allocation */
        if (pe->rank[r].mem_own)
            free(pe->rank[r].mem);
    }
    noc_pe_cpu_free(pe); /* reads rank[] */
    op_array_t a[N_OP_ARRAYS];
    op_arrays(pe, a);
    for (int k = 0; k < N_OP_ARRAYS; k++)
        free(*a[k].arr);
    free(pe->msg_wait);
    free(pe->mem);
    free(pe->qslot);
    free(pe->rdep);
    free(pe->rank);
    free(pe->port_send_head);
    free(pe->port_send_tail);
    free(pe->tx);
    free(pe->rx);
    free(pe->step_left);
    free(pe->step_active);
    free(pe->park_head);
    free(pe->step_open);
    free(pe->st.steps);
    noc_pe_order_free(pe);
    noc_prog_free(pe->own);
    free(pe);
}
