/* channel.h: the channels and the active-work accounting, the one module that
 * writes them. Routers, NIs and the cycle loop call these functions; nobody
 * else stores into a channel slot, an arrival mask, a link's serialisation
 * state or a node's work count (the invariant checker, the waveform writer
 * and the benches read them, through the accessors at the end).
 *
 * A channel c (numbered as in sim_internal.h) is two delay lines, each a ring
 * of cap slots (a power of two larger than any delay): slot (t & mask) holds
 * the flit (and, the other way, the credits per VC) that arrives in cycle t.
 * A write in cycle t lands in slot ((t + delay) & mask), delay >= 1 but for
 * the local channels of a direct_ni router, so it never lands on the slot
 * read this cycle: the order in which nodes evaluate cannot matter.
 *
 * With every slot it writes, a send sets the reader's bit in that node's
 * arrival mask of the arrival cycle (bit p: router port p; NOC_NI_BIT: the
 * NI), so readers poll only the ports that have something, and clear the
 * bits they have taken. (Sends write the masks through arr_flit_to and
 * arr_credit_to, which are arr_flit and arr_credit but in a thread's view
 * of a threaded run, model/sim_threads.c: there they are the view's own,
 * and the view's work counts and listed flags its own copies, added into
 * the run's after the cycle.) A flit or credit in flight is a unit of work of the
 * node it goes to (work[], sim_internal.h): the send adds it and puts the
 * node on the active list; whoever consumes it takes it off with
 * noc_work_sub (a flit moving into a router's buffer stays that node's work
 * until it leaves).
 *
 * Functions take ring slots (noc_chan_slot) where a hot caller already has
 * them, and the far end of the channel (node, arrival bit) where a router
 * keeps its own copy of the wiring; the plain forms look both up. All are
 * inlined: the module costs no speed. */
#ifndef NOC_CHANNEL_H
#define NOC_CHANNEL_H
#include "model/sim_internal.h"
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_CHAN_INLINE static inline __attribute__((always_inline))

/* ---- activity ---- */

/* Give node n d more units of work (d >= 0), putting it on the active list
 * (in the order nodes get work: the order of the next cycle's list). */
NOC_CHAN_INLINE void noc_work_add(struct noc_sim *s, int n, int d)
{
    s->work[n] += d;
    if (!s->listed[n]) {
        s->listed[n] = 1;
        s->woken[s->n_woken++] = n;
    }
}

/* Take d units of work off node n (it keeps its place on the active list to
 * the end of the cycle). */
NOC_CHAN_INLINE void noc_work_sub(struct noc_sim *s, int n, int d)
{
    s->work[n] -= d;
    assert(s->work[n] >= 0);
}

/* The nodes that got work since the last call join the active list. */
NOC_CHAN_INLINE void noc_work_merge(struct noc_sim *s)
{
    for (int i = 0; i < s->n_woken; i++)
        s->active[s->n_active++] = s->woken[i];
    s->n_woken = 0;
}

/* End of a cycle: of the first n_act nodes of the active list, those with
 * work stay on it (in order), the others leave it. */
NOC_CHAN_INLINE void noc_work_prune(struct noc_sim *s, int n_act)
{
    int k = 0;
    for (int i = 0; i < n_act; i++) {
        int n = s->active[i];
        if (s->work[n] > 0)
            s->active[k++] = n;
        else
            s->listed[n] = 0;
    }
    s->n_active = k;
}

/* ---- slots and arrival masks ---- */

/* The ring slot of cycle t. */
NOC_CHAN_INLINE uint32_t noc_chan_slot(const struct noc_sim *s, uint64_t t)
{
    return (uint32_t)(t & s->mask);
}

/* Index of node n's arrival masks for ring slot `slot`. */
NOC_CHAN_INLINE uint32_t noc_chan_at(const struct noc_sim *s, int n, uint32_t slot)
{
    return (uint32_t)n * s->cap + slot;
}

/* The ports (bits) of a node at which flits (credits) arrive: its masks at
 * index at (noc_chan_at). */
NOC_CHAN_INLINE uint64_t noc_chan_flits_in(const struct noc_sim *s, uint32_t at)
{
    return s->arr_flit[at];
}
NOC_CHAN_INLINE uint64_t noc_chan_credits_in(const struct noc_sim *s, uint32_t at)
{
    return s->arr_credit[at];
}

/* The reader has seen the arrivals of the ports in `bits`: clear them. */
NOC_CHAN_INLINE void noc_chan_flits_seen(struct noc_sim *s, uint32_t at, uint64_t bits)
{
    s->arr_flit[at] &= ~bits;
}
NOC_CHAN_INLINE void noc_chan_credits_seen(struct noc_sim *s, uint32_t at, uint64_t bits)
{
    s->arr_credit[at] &= ~bits;
}

/* ---- flits ---- */

/* Write flit f into channel c's slot `slot` (noc_chan_slot of its arrival
 * cycle), with no work change: the work of `to` is counted already. `to` and
 * `bit`: the node reading c and its arrival bit there (chan_to[c],
 * chan_in_port[c], or the caller's copy). Returns 0, writing nothing, if the
 * slot holds a flit (two flits on one link in one cycle). */
NOC_CHAN_INLINE int noc_chan_place_flit(struct noc_sim *s, int c, uint32_t slot, int to, int bit,
                                        const noc_flit_t *f)
{
    uint32_t i = (uint32_t)c * s->cap + slot;
    if (s->ring_valid[i])
        return 0;
    s->ring_flit[i] = *f;
    s->ring_valid[i] = 1;
    s->arr_flit_to[(uint32_t)to * s->cap + slot] |= UINT64_C(1) << bit;
    return 1;
}

/* Send flit f down channel c to arrive in ring slot `slot`, at node `to`,
 * arrival bit `bit` (see noc_chan_place_flit): the flit becomes work of
 * `to`. The slot must be free. */
NOC_CHAN_INLINE void noc_chan_send_flit_to(struct noc_sim *s, int c, uint32_t slot, int to, int bit,
                                           const noc_flit_t *f)
{
    int ok = noc_chan_place_flit(s, c, slot, to, bit, f);
    assert(ok);
    (void)ok;
    noc_work_add(s, to, 1);
}

/* A router forwards flit *f (from its buffer) down channel c, to arrive in
 * ring slot `slot` at node `to`, arrival bit `bit` (see noc_chan_place_flit):
 * the copy in the channel travels on VC vc with `hop` more hops, and becomes
 * work of `to`. The slot must be free. (The copy is made in place: the flit
 * is copied once per hop.) */
NOC_CHAN_INLINE void noc_chan_forward_flit(struct noc_sim *s, int c, uint32_t slot, int to, int bit,
                                           const noc_flit_t *f, int vc, int hop)
{
    uint32_t i = (uint32_t)c * s->cap + slot;
    noc_flit_t *d = &s->ring_flit[i];
    assert(!s->ring_valid[i]);
    *d = *f;
    d->hops = (uint16_t)(d->hops + hop);
    d->vc = (uint8_t)vc;
    s->ring_valid[i] = 1;
    s->arr_flit_to[(uint32_t)to * s->cap + slot] |= UINT64_C(1) << bit;
    noc_work_add(s, to, 1);
}

/* Lookahead routing: the flit just sent into channel c's slot `slot` carries
 * its route at the next router (output port, VC class). */
NOC_CHAN_INLINE void noc_chan_set_lookahead(struct noc_sim *s, int c, uint32_t slot, int port, int cls)
{
    noc_flit_t *d = &s->ring_flit[(uint32_t)c * s->cap + slot];
    assert(s->ring_valid[(uint32_t)c * s->cap + slot]);
    d->la_port = (uint8_t)port;
    d->la_class = (uint8_t)cls;
}

/* Send flit f down channel c, to arrive `delay` cycles from now. */
NOC_CHAN_INLINE void noc_chan_send_flit(struct noc_sim *s, int c, uint32_t delay, const noc_flit_t *f)
{
    assert(delay < s->cap && (delay >= 1 || s->chan_local[c]));
    noc_chan_send_flit_to(s, c, noc_chan_slot(s, s->now + delay), s->chan_to[c], s->chan_in_port[c], f);
}

/* Take the flit arriving on channel c in ring slot `slot` (this cycle's):
 * returns it in place, the slot marked empty (the pointer stays good until
 * the next send on c), or NULL if none. The reader's work count stays. */
NOC_CHAN_INLINE const noc_flit_t *noc_chan_pop_flit(struct noc_sim *s, int c, uint32_t slot)
{
    uint32_t i = (uint32_t)c * s->cap + slot;
    if (!s->ring_valid[i])
        return NULL;
    s->ring_valid[i] = 0;
    return &s->ring_flit[i];
}

/* Copy the flit arriving on channel c this cycle to *f and take it; returns
 * 0 if none. The reader's work count stays: the flit moves into its buffer. */
NOC_CHAN_INLINE int noc_chan_recv_flit(struct noc_sim *s, int c, noc_flit_t *f)
{
    const noc_flit_t *in = noc_chan_pop_flit(s, c, noc_chan_slot(s, s->now));
    if (!in)
        return 0;
    *f = *in;
    return 1;
}

/* ---- credits ---- */

/* Send a credit for VC vc back up channel c, to arrive in ring slot `slot`
 * at node `from`, arrival bit `bit` (chan_from[c], chan_out_port[c], or the
 * caller's copy): a unit of work of `from`. Several may share a cycle, even
 * on one VC. */
NOC_CHAN_INLINE void noc_chan_send_credit_to(struct noc_sim *s, int c, int vc, uint32_t slot, int from,
                                             int bit)
{
    uint8_t *k = &s->ring_credit[((size_t)c * s->cap + slot) * (size_t)s->V + (size_t)vc];
    assert(*k < UINT8_MAX);
    (*k)++;
    s->arr_credit_to[(uint32_t)from * s->cap + slot] |= UINT64_C(1) << bit;
    noc_work_add(s, from, 1);
}

/* Send a credit for VC vc back up channel c, to arrive chan_cdelay[c]
 * cycles from now (credit_delay; inject_credit_delay on a channel from an
 * NI). */
NOC_CHAN_INLINE void noc_chan_send_credit(struct noc_sim *s, int c, int vc)
{
    uint32_t d = s->chan_cdelay[c];
    noc_chan_send_credit_to(s, c, vc, noc_chan_slot(s, s->now + d), s->chan_from[c], s->chan_out_port[c]);
}

/* Move the credit counters k[0..V) of one slot into counts[0..V), clearing
 * them; returns how many there were. bytes: credit_bytes (0: V > 8, or a
 * thread's view, whose word read would cover later slots that another
 * thread may be writing: one counter at a time). (A helper of the two
 * below.) */
NOC_CHAN_INLINE int noc_chan_row_take(uint8_t *k, int16_t *counts, int V, uint64_t bytes)
{
    int total = 0;
    if (bytes) {
        /* the slot's counters as one word (the ring has spare bytes at its
         * end); usually a single one is set */
        uint64_t word;
        memcpy(&word, k, sizeof word);
        for (word &= bytes; word;) {
            int v = __builtin_ctzll(word) >> 3;
            counts[v] = (int16_t)(counts[v] + k[v]);
            total += k[v];
            k[v] = 0;
            word &= ~(UINT64_C(0xff) << (8 * v));
        }
        return total;
    }
    for (int v = 0; v < V; v++) {
        if (k[v]) {
            counts[v] = (int16_t)(counts[v] + k[v]);
            total += k[v];
            k[v] = 0;
        }
    }
    return total;
}

/* Add the credits arriving on channel c in ring slot `slot` (this cycle's)
 * to counts[v] (one counter per VC) and take them; returns how many. The
 * caller takes that much work off the node with noc_work_sub. */
NOC_CHAN_INLINE int noc_chan_pop_credits(struct noc_sim *s, int c, uint32_t slot, int16_t *counts)
{
    return noc_chan_row_take(&s->ring_credit[((size_t)c * s->cap + slot) * (size_t)s->V], counts, s->V,
                             s->credit_bytes);
}

/* The same for a router's output channels c0 + p, p the ports in `ports`:
 * their credits go to counts[p * V + v]; returns how many in all (the router
 * takes them off its work at once). */
NOC_CHAN_INLINE int noc_chan_pop_port_credits(struct noc_sim *s, int c0, uint64_t ports, uint32_t slot,
                                              int16_t *counts)
{
    int V = s->V, total = 0;
    size_t stride = (size_t)s->cap * (size_t)V;
    uint8_t *ring = &s->ring_credit[((size_t)c0 * s->cap + slot) * (size_t)V];
    uint64_t bytes = s->credit_bytes;
    for (; ports; ports &= ports - 1) {
        int p = __builtin_ctzll(ports);
        total += noc_chan_row_take(ring + (size_t)p * stride, counts + (size_t)p * (size_t)V, V, bytes);
    }
    return total;
}

/* Take the credits arriving upstream on channel c this cycle into counts[v]
 * and off the work of the node they reach; returns how many arrived. */
NOC_CHAN_INLINE int noc_chan_recv_credits(struct noc_sim *s, int c, int16_t *counts)
{
    int total = noc_chan_pop_credits(s, c, noc_chan_slot(s, s->now), counts);
    if (total)
        noc_work_sub(s, s->chan_from[c], total);
    return total;
}

/* ---- serialisation (links narrower than a flit) ---- */

/* Output ports of node n whose links still serialise an earlier flit (bit p:
 * port p of the node, for p < 64; a router with more ports asks
 * noc_chan_ser_busy for the others); 0 unless the run serialises. */
NOC_CHAN_INLINE uint64_t noc_chan_ser_held(const struct noc_sim *s, int n)
{
    uint64_t m = 0;
    if (!s->serialise)
        return 0;
    int base = s->graph->port_base[n], P = s->graph->port_base[n + 1] - base;
    for (int p = s->conc ? noc_node_terms(s, n) : 1; p < P && p < 64; p++)
        if (s->chan_free_at[base + p] > s->now)
            m |= UINT64_C(1) << p;
    return m;
}

/* Does output channel c still serialise an earlier flit? */
NOC_CHAN_INLINE int noc_chan_ser_busy(const struct noc_sim *s, int c)
{
    return s->serialise && s->chan_free_at[c] > s->now;
}

/* A flit starts across channel c now: hold the link for its phits; returns
 * the cycles its last phit adds to the channel's delay. */
NOC_CHAN_INLINE uint32_t noc_chan_ser_start(struct noc_sim *s, int c)
{
    uint32_t k = s->chan_ser[c];
    s->chan_free_at[c] = s->now + k;
    return k - 1;
}

/* ---- readers ---- */

/* The flit in channel c's ring slot `slot`, or NULL if none (left in place). */
NOC_CHAN_INLINE const noc_flit_t *noc_chan_flit_at(const struct noc_sim *s, int c, uint32_t slot)
{
    uint32_t i = (uint32_t)c * s->cap + slot;
    return s->ring_valid[i] ? &s->ring_flit[i] : NULL;
}

/* The credit counters (V of them, one per VC) of channel c's ring slot
 * `slot` (left in place). */
NOC_CHAN_INLINE const uint8_t *noc_chan_credits_at(const struct noc_sim *s, int c, uint32_t slot)
{
    return &s->ring_credit[((size_t)c * s->cap + slot) * (size_t)s->V];
}

/* Units of work node n holds. */
NOC_CHAN_INLINE int noc_work_of(const struct noc_sim *s, int n)
{
    return s->work[n];
}

#ifdef __cplusplus
}
#endif
#endif
