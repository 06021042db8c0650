/* pe_skip.c: idle time is skipped, not ticked. When no flit or credit is
 * in flight anywhere and every rank waits only on its CPUs' timers (no op
 * ready to start, no send handing out or injecting words, no computation
 * waiting for an idle CPU, no step barrier about to open), the cycles until
 * the first computation ends would change nothing: noc_pe_run sets the
 * clock to that cycle instead of ticking them, so `calc 10000000000` costs
 * one loop iteration. Every figure of the report is what ticking gives
 * (statistics count flits, and none move). With an observer attached
 * (waveforms, --waves) the clock never jumps, so the waves keep one sample
 * a cycle. */
#include "model/pe_internal.h"
#include "model/sim_internal.h"

/* The cycle the first computation of any rank ends, or 0 if some rank
 * could do something sooner (or nothing computes). */
static uint64_t next_timer(const struct noc_sim *s)
{
    const noc_pe_t *pe = s->pe;
    uint64_t next = UINT64_MAX;
    for (int r = 0; r < pe->n_ranks; r++) {
        const rank_state_t *rs = &pe->rank[r];
        if (rs->ready.head != rs->ready.tail || rs->send_head >= 0 || rs->sends_out || noc_pe_cpu_wanted(rs))
            return 0;
        for (uint16_t k = 0; k < rs->n_cpus && rs->cpus_busy; k++)
            if (rs->cpu[k].op >= 0 && rs->cpu[k].end < next)
                next = rs->cpu[k].end;
    }
    return next == UINT64_MAX ? 0 : next;
}

void noc_pe_skip_idle(struct noc_sim *s)
{
    noc_pe_t *pe = s->pe;
    /* credits of the last flits return within the longest channel delay */
    if (s->observer || s->in_network > 0 || s->now - s->last_move <= (uint64_t)s->cap + 2)
        return;
    if (pe->sync && pe->cur_step < pe->st.n_steps && pe->step_left[pe->cur_step] == 0)
        return; /* the barrier opens this cycle */
    uint64_t next = next_timer(s);
    if (next <= s->now + 1)
        return;
    pe->skipped += next - s->now;
    s->now = next;
    s->st.cycles = next;
}

uint64_t noc_pe_skipped_cycles(const noc_pe_t *pe) { return pe->skipped; }
