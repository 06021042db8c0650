/* program_write.c: writes a finished traffic program in the text form of
 * docs/programs.md, so that reading the output gives the same program: ops
 * in the same order, the same dependencies (in the same order), steps,
 * memory sizes, init and expect values. Ops are labelled l0, l1, ... by
 * their index within the rank; each op's dependencies follow it (a label
 * may point forward); "step" lines stand where the step changes; "mem"
 * only where the memory is larger than the ops and values imply. Programs
 * that use no extension come out as plain GOAL. */
#include "model/program.h"
#include <inttypes.h>

#define VALUES_PER_LINE 16

/* Words of memory that the ops, init and expect of rank r reach. */
static uint64_t implied_mem(const noc_program_t *p, int r)
{
    const noc_rank_t *rk = &p->ranks[r];
    uint64_t m = 0, e;
    for (uint32_t i = rk->op_start; i < rk->op_start + rk->n_ops; i++) {
        const noc_op_t *o = &p->ops[i];
        int32_t top = o->addr > o->src ? o->addr : o->src;
        e = top >= 0 ? (uint64_t)top + o->words : 0;
        m = e > m ? e : m;
    }
    if (rk->n_init) {
        e = (uint64_t)p->init[rk->init_start + rk->n_init - 1].addr + 1;
        m = e > m ? e : m;
    }
    if (rk->n_expect) {
        e = (uint64_t)p->expect[rk->expect_start + rk->n_expect - 1].addr + 1;
        m = e > m ? e : m;
    }
    return m;
}

/* "init A V1 V2 ...": runs of consecutive addresses, a few values a line. */
static int write_values(FILE *f, const char *key, const noc_memval_t *v, uint32_t n)
{
    int bad = 0;
    for (uint32_t i = 0; i < n;) {
        bad |= fprintf(f, "%s %" PRIu32, key, v[i].addr) < 0;
        uint32_t j = i;
        do {
            bad |= fprintf(f, " %" PRId64, v[j].value) < 0;
            j++;
        } while (j < n && j - i < VALUES_PER_LINE && v[j].addr == v[j - 1].addr + 1);
        bad |= fputc('\n', f) == EOF;
        i = j;
    }
    return bad;
}

static int write_message(FILE *f, const noc_op_t *o)
{
    int bad = 0;
    if (o->in_bytes)
        bad |= fprintf(f, " %" PRIu64 "b", o->bytes) < 0;
    else
        bad |= fprintf(f, " %" PRIu32 "w", o->words) < 0;
    bad |= fprintf(f, " %s %" PRId32 " tag %" PRId32, o->kind == NOC_OP_SEND ? "to" : "from",
                   o->peer, o->tag) < 0;
    if (o->addr != NOC_PROG_NO_ADDR)
        bad |= fprintf(f, " addr %" PRId32, o->addr) < 0;
    return bad;
}

/* "l3: send 16b to 2 tag 0 ...". */
static int write_op(FILE *f, const noc_op_t *o, uint32_t index)
{
    int bad = fprintf(f, "l%" PRIu32 ": %s", index, noc_op_kind_name((noc_op_kind_t)o->kind)) < 0;
    if (o->kind == NOC_OP_SEND || o->kind == NOC_OP_RECV) {
        bad |= write_message(f, o);
    } else if (o->kind == NOC_OP_CALC) {
        bad |= fprintf(f, " %" PRId64, o->cost) < 0;
    } else {
        bad |= fprintf(f, " %" PRIu32 "w at %" PRId32 " from %" PRId32, o->words, o->addr,
                       o->src) < 0;
        if (o->cost != NOC_PROG_DEFAULT_COST)
            bad |= fprintf(f, " cost %" PRId64, o->cost) < 0;
    }
    if (o->cpu)
        bad |= fprintf(f, " cpu %d", o->cpu) < 0;
    if (o->nic)
        bad |= fprintf(f, " nic %d", o->nic) < 0;
    return bad | (fputc('\n', f) == EOF);
}

static int write_ops(FILE *f, const noc_program_t *p, const noc_rank_t *rk)
{
    int bad = 0;
    int32_t step = -1;
    for (uint32_t i = 0; i < rk->n_ops; i++) {
        const noc_op_t *o = &p->ops[rk->op_start + i];
        if (o->step != step) {
            step = o->step;
            bad |= fprintf(f, "step %s\n", step >= 0 ? p->steps[step] : "-") < 0;
        }
        bad |= write_op(f, o, i);
        for (uint32_t d = o->dep_start; d < o->dep_start + o->n_deps; d++)
            bad |= fprintf(f, "l%" PRIu32 " %s l%" PRIu32 "\n", i,
                           p->deps[d].start ? "irequires" : "requires",
                           p->deps[d].op - rk->op_start) < 0;
    }
    return bad;
}

static int write_rank(FILE *f, const noc_program_t *p, int r)
{
    const noc_rank_t *rk = &p->ranks[r];
    uint64_t implied = implied_mem(p, r);
    if (!rk->n_ops && !rk->n_init && !rk->n_expect && rk->mem_words <= implied)
        return 0;
    int bad = fprintf(f, "\nrank %d {\n", r) < 0;
    if (rk->mem_words > implied)
        bad |= fprintf(f, "mem %" PRIu32 "\n", rk->mem_words) < 0;
    bad |= write_values(f, "init", p->init + rk->init_start, rk->n_init);
    bad |= write_values(f, "expect", p->expect + rk->expect_start, rk->n_expect);
    bad |= write_ops(f, p, rk);
    return bad | (fputs("}\n", f) == EOF);
}

int noc_prog_write(const noc_program_t *p, FILE *f)
{
    if (p->build) /* not finished */
        return -1;
    int bad = 0;
    if (p->name)
        bad |= fprintf(f, "program %s\n", p->name) < 0;
    bad |= fprintf(f, "num_ranks %d\n", p->n_ranks) < 0;
    if (p->n_steps > 0) { /* their order (the ranks may use them in another) */
        bad |= fputs("steps", f) < 0;
        for (int k = 0; k < p->n_steps; k++)
            bad |= fprintf(f, " %s", p->steps[k]) < 0;
        bad |= fputc('\n', f) < 0;
    }
    for (int r = 0; r < p->n_ranks; r++)
        bad |= write_rank(f, p, r);
    bad |= fflush(f) != 0;
    return bad || ferror(f) ? -1 : 0;
}
