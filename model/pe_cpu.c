/* pe_cpu.c: the CPUs of every rank (GOAL's `cpu C` field). LogGOPSim gives
 * each (host, cpu) its own timeline (nexto[host][cpu]): two calcs on two
 * CPUs of one rank run side by side, two on one CPU one after the other.
 * Here every rank has as many CPU slots as the highest CPU its ops name,
 * plus one, in one flat block built with the engine; an op appended later
 * with a higher CPU gives its rank a block of its own (between cycles). */
#include "model/pe_internal.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static void idle(cpu_slot_t *c, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        c[k] = (cpu_slot_t){ .op = -1 };
}

void noc_pe_cpu_build(noc_pe_t *pe, const noc_program_t *p)
{
    for (int r = 0; r < p->n_ranks; r++)
        pe->rank[r].n_cpus = 1;
    for (uint32_t i = 0; i < p->n_ops; i++) {
        rank_state_t *rs = &pe->rank[pe->op_rank[i]];
        if (p->ops[i].cpu >= rs->n_cpus)
            rs->n_cpus = (uint16_t)(p->ops[i].cpu + 1);
    }
    size_t total = 0;
    for (int r = 0; r < p->n_ranks; r++)
        total += pe->rank[r].n_cpus;
    pe->cpus = noc_xcalloc(total + 1, sizeof *pe->cpus, "PE engine");
    idle(pe->cpus, (uint32_t)total);
    size_t at = 0;
    for (int r = 0; r < p->n_ranks; r++) {
        pe->rank[r].cpu = pe->cpus + at;
        at += pe->rank[r].n_cpus;
    }
}

void noc_pe_cpu_room(noc_pe_t *pe, int r, int cpu)
{
    rank_state_t *rs = &pe->rank[r];
    if (cpu < rs->n_cpus)
        return;
    cpu_slot_t *c = noc_xcalloc((size_t)cpu + 1, sizeof *c, "PE engine");
    idle(c, (uint32_t)cpu + 1);
    memcpy(c, rs->cpu, rs->n_cpus * sizeof *c);
    if (rs->cpu_own)
        free(rs->cpu);
    rs->cpu = c;
    rs->cpu_own = 1;
    rs->n_cpus = (uint16_t)(cpu + 1);
}

void noc_pe_cpu_free(noc_pe_t *pe)
{
    for (int r = 0; r < pe->n_ranks; r++)
        if (pe->rank[r].cpu_own)
            free(pe->rank[r].cpu);
    free(pe->cpus);
}

int32_t noc_pe_cpu_op(const rank_state_t *rs)
{
    if (!rs->cpus_busy)
        return -1;
    for (uint16_t k = 0; k < rs->n_cpus; k++)
        if (rs->cpu[k].op >= 0)
            return rs->cpu[k].op;
    return -1;
}

int noc_pe_cpu_wanted(const rank_state_t *rs)
{
    if (rs->compute.head == rs->compute.tail)
        return 0;
    for (uint16_t k = 0; k < rs->n_cpus; k++)
        if (rs->cpu[k].op < 0 && rs->cpu[k].queued)
            return 1;
    return 0;
}
