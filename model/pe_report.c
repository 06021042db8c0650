/* pe_report.c: the PE program engine (pe.h) read after, or during, a
 * run: whether every op completed and every message was taken, the result
 * check against the program's expect values, the ops still waiting (for a
 * deadlock report), statistics, the critical path, and the views the
 * waveforms and reports take of a rank's memory and state. */
#include "model/pe_internal.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>

int noc_pe_finished(const noc_pe_t *pe, char *err, size_t errlen)
{
    if (pe->error[0]) {
        snprintf(err, errlen, "%s", pe->error);
        return -1;
    }
    if (pe->st.ops_done < pe->st.ops) {
        snprintf(err, errlen, "%llu of %llu operations never completed",
                 (unsigned long long)(pe->st.ops - pe->st.ops_done), (unsigned long long)pe->st.ops);
        return -1;
    }
    for (int r = 0; r < pe->n_ranks; r++)
        if (pe->rank[r].arrived_head >= 0) {
            uint32_t m = (uint32_t)pe->rank[r].arrived_head;
            snprintf(err, errlen, "rank %d: a message from rank %d (tag %d, %u words) arrived that no receive took",
                     r, (int)pe->op_rank[m], pe->p->ops[m].tag, pe->p->ops[m].words);
            return -1;
        }
    return 0;
}

int noc_pe_check(const struct noc_sim *s, char *err, size_t errlen)
{
    const noc_pe_t *pe = s->pe;
    const noc_program_t *p = pe->p;
    for (int r = 0; r < p->n_ranks; r++) {
        const noc_rank_t *rk = &p->ranks[r];
        for (uint32_t k = 0; k < rk->n_expect; k++) {
            const noc_memval_t *v = &p->expect[rk->expect_start + k];
            int64_t got = pe->rank[r].mem[v->addr];
            if (got != v->value) {
                char label[64];
                noc_graph_label(s->graph, r, label, sizeof label);
                snprintf(err, errlen, "wrong result at PE %s (rank %d): word %u holds %lld, expected %lld",
                         label, r, v->addr, (long long)got, (long long)v->value);
                return -1;
            }
        }
    }
    return 0;
}

/* Every rank's ops in op order, rank by rank: order[at[r] .. at[r + 1]) are
 * rank r's (a program that grew in place has them interleaved). */
static uint32_t *ops_by_rank(const noc_pe_t *pe, uint32_t **at_out)
{
    uint32_t N = (uint32_t)pe->st.ops, *at = noc_xcalloc((size_t)pe->n_ranks + 2, sizeof *at, "waiting ops");
    uint32_t *order = noc_xcalloc((size_t)N + 1, sizeof *order, "waiting ops");
    for (uint32_t i = 0; i < N; i++)
        at[pe->op_rank[i] + 2]++;
    for (int r = 0; r < pe->n_ranks; r++)
        at[r + 2] += at[r + 1];
    for (uint32_t i = 0; i < N; i++)
        order[at[pe->op_rank[i] + 1]++] = i;
    *at_out = at;
    return order;
}

void noc_pe_report_waiting(const struct noc_sim *s, FILE *f, int max_lines)
{
    const noc_pe_t *pe = s->pe;
    const noc_program_t *p = pe->p;
    uint32_t *at, *order = ops_by_rank(pe, &at);
    int lines = 0;
    for (int r = 0; r < pe->n_ranks && lines < max_lines; r++) {
        char label[64];
        noc_graph_label(s->graph, r, label, sizeof label);
        for (uint32_t k = at[r]; k < at[r + 1] && lines < max_lines; k++) {
            uint32_t i = order[k], nth = k - at[r];
            const noc_op_t *o = &p->ops[i];
            if (pe->state[i] == OP_DONE)
                continue;
            const char *what = pe->state[i] == OP_WAIT ? "waits for its dependencies"
                             : pe->state[i] == OP_READY ? "is ready" : "has started";
            if (o->kind == NOC_OP_RECV && pe->state[i] == OP_STARTED)
                fprintf(f, "  PE %s (rank %d): op %u (recv from %d tag %d, line %u) waits for its message\n",
                        label, r, nth, o->peer, o->tag, o->line);
            else
                fprintf(f, "  PE %s (rank %d): op %u (%s, line %u) %s\n", label, r, nth,
                        noc_op_kind_name((noc_op_kind_t)o->kind), o->line, what);
            lines++;
        }
    }
    free(order);
    free(at);
}

const noc_pe_stats_t *noc_pe_stats(const noc_pe_t *pe) { return &pe->st; }

int32_t noc_pe_recv_message(const noc_pe_t *pe, uint32_t recv_op) { return pe->recv_msg[recv_op]; }

/* What released op: the dependency whose completion (requires) or start
 * (irequires) came last, or -1 if none (or none that late). */
static int32_t released_by(const noc_pe_t *pe, uint32_t op)
{
    const noc_op_t *o = &pe->p->ops[op];
    int32_t best = -1;
    uint64_t when = 0;
    for (uint32_t k = 0; k < o->n_deps; k++) {
        const noc_dep_t *d = &pe->p->deps[o->dep_start + k];
        uint64_t t = d->start ? pe->st.op_start[d->op] : pe->st.op_end[d->op];
        if (t == NOC_NEVER)
            continue;
        if (best < 0 || t > when) {
            best = (int32_t)d->op;
            when = t;
        }
    }
    return best;
}

int noc_pe_critical_path(const noc_pe_t *pe, uint32_t *ops, int max)
{
    int64_t last = -1;
    for (uint32_t i = 0; i < pe->st.ops; i++)
        if (pe->st.op_end[i] != NOC_NEVER && (last < 0 || pe->st.op_end[i] > pe->st.op_end[last]))
            last = i;
    int n = 0;
    for (int64_t op = last; op >= 0 && n < max;) {
        ops[n++] = (uint32_t)op;
        const noc_op_t *o = &pe->p->ops[op];
        if (o->kind == NOC_OP_RECV && pe->recv_msg[op] >= 0 && pe->st.op_end[op] > pe->st.op_start[op]) {
            op = pe->recv_msg[op]; /* it waited for its message */
            continue;
        }
        int32_t r = released_by(pe, (uint32_t)op);
        if (r < 0 || pe->st.op_start[op] == 0)
            break;
        op = r;
    }
    return n;
}

const int64_t *noc_pe_memory(const noc_pe_t *pe, int r) { return pe->rank[r].mem; }

void noc_pe_rank_view(const noc_pe_t *pe, int r, noc_pe_rank_view_t *v)
{
    const rank_state_t *rs = &pe->rank[r];
    int32_t on = noc_pe_cpu_op(rs);
    v->op = on >= 0 ? on : rs->last_op;
    v->step = v->op >= 0 ? pe->p->ops[v->op].step : -1;
    v->sends_out = rs->sends_out;
    v->recvs_open = rs->recvs_open;
    v->ops_left = rs->ops_left;
}

int noc_pe_current_step(const noc_pe_t *pe)
{
    if (pe->sync)
        return pe->cur_step < pe->st.n_steps ? pe->cur_step : -1;
    for (int k = 0; k < pe->st.n_steps; k++)
        if (pe->step_active[k] > 0)
            return k;
    return -1;
}

const noc_program_t *noc_pe_program(const noc_pe_t *pe) { return pe->p; }
