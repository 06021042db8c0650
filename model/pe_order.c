/* pe_order.c: messages are matched in the order they were sent, per
 * (source, destination) pair, whatever the network reorders (MPI's and
 * LogGOPSim's non-overtaking rule; docs/programs.md, "GOAL semantics").
 * Every pair of ranks that some send connects gets a number when the
 * engine is built (or when a send is appended, pe_extend.c): a small
 * open-addressing table from (source, destination) to the pair, outside the
 * cycle loop. While the run goes, a send takes the pair's next sequence
 * number when it starts (pair_sent), and the receiver matches a message
 * only when its number is the pair's next expected one (pair_next); one
 * that arrived early is held on its rank's held list (linked through
 * msg_next) until those before it have arrived. Flat arrays only: the cycle
 * loop allocates nothing. */
#include "model/pe_internal.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static uint32_t hash_key(uint64_t key, uint32_t mask)
{
    key *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(key >> 32) & mask;
}

/* The hash slots again, for cap_pairs pairs (at most half full). */
static void rehash(noc_pe_t *pe)
{
    uint32_t slots = 16;
    while (slots < 2 * pe->cap_pairs)
        slots *= 2;
    free(pe->pair_slot);
    pe->pair_slot = noc_xcalloc(slots, sizeof *pe->pair_slot, "PE engine");
    pe->pair_mask = slots - 1;
    for (uint32_t k = 0; k < pe->n_pairs; k++) {
        uint32_t h = hash_key(pe->pair_key[k], pe->pair_mask);
        while (pe->pair_slot[h])
            h = (h + 1) & pe->pair_mask;
        pe->pair_slot[h] = k + 1;
    }
}

static void grow_pairs(noc_pe_t *pe, uint32_t need)
{
    if (need <= pe->cap_pairs && pe->pair_slot)
        return;
    uint32_t cap = pe->cap_pairs ? pe->cap_pairs : 8;
    while (cap < need)
        cap *= 2;
    pe->pair_key = noc_xrealloc(pe->pair_key, (size_t)cap * sizeof *pe->pair_key, "PE engine");
    pe->pair_sent = noc_xrealloc(pe->pair_sent, (size_t)cap * sizeof *pe->pair_sent, "PE engine");
    pe->pair_next = noc_xrealloc(pe->pair_next, (size_t)cap * sizeof *pe->pair_next, "PE engine");
    pe->pair_post_head = noc_xrealloc(pe->pair_post_head, (size_t)cap * sizeof *pe->pair_post_head, "PE engine");
    pe->pair_post_tail = noc_xrealloc(pe->pair_post_tail, (size_t)cap * sizeof *pe->pair_post_tail, "PE engine");
    pe->pair_arr_head = noc_xrealloc(pe->pair_arr_head, (size_t)cap * sizeof *pe->pair_arr_head, "PE engine");
    pe->pair_arr_tail = noc_xrealloc(pe->pair_arr_tail, (size_t)cap * sizeof *pe->pair_arr_tail, "PE engine");
    pe->cap_pairs = cap;
    rehash(pe);
}

uint32_t noc_pe_order_pair(noc_pe_t *pe, int src, int dst)
{
    grow_pairs(pe, pe->n_pairs + 1);
    uint64_t key = (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
    uint32_t h = hash_key(key, pe->pair_mask);
    for (; pe->pair_slot[h]; h = (h + 1) & pe->pair_mask)
        if (pe->pair_key[pe->pair_slot[h] - 1] == key)
            return pe->pair_slot[h] - 1;
    uint32_t k = pe->n_pairs++;
    pe->pair_key[k] = key;
    pe->pair_sent[k] = pe->pair_next[k] = 0;
    pe->pair_post_head[k] = pe->pair_post_tail[k] = pe->pair_arr_head[k] = pe->pair_arr_tail[k] = -1;
    pe->pair_slot[h] = k + 1;
    return k;
}

void noc_pe_order_build(noc_pe_t *pe, const noc_program_t *p)
{
    uint32_t named = 0; /* sends, and receives from a named source */
    for (uint32_t i = 0; i < p->n_ops; i++)
        named += p->ops[i].kind == NOC_OP_SEND || (p->ops[i].kind == NOC_OP_RECV && p->ops[i].peer != NOC_PROG_ANY);
    grow_pairs(pe, named + 1);
    for (uint32_t i = 0; i < p->n_ops; i++) {
        if (p->ops[i].kind == NOC_OP_SEND)
            pe->pair_of[i] = noc_pe_order_pair(pe, (int)pe->op_rank[i], p->ops[i].peer);
        else if (p->ops[i].kind == NOC_OP_RECV && p->ops[i].peer != NOC_PROG_ANY)
            pe->pair_of[i] = noc_pe_order_pair(pe, p->ops[i].peer, (int)pe->op_rank[i]);
    }
}

void noc_pe_order_free(noc_pe_t *pe)
{
    free(pe->pair_slot);
    free(pe->pair_key);
    free(pe->pair_sent);
    free(pe->pair_next);
    free(pe->pair_post_head);
    free(pe->pair_post_tail);
    free(pe->pair_arr_head);
    free(pe->pair_arr_tail);
}

void noc_pe_order_sent(noc_pe_t *pe, uint32_t msg)
{
    pe->msg_seq[msg] = pe->pair_sent[pe->pair_of[msg]]++;
}

int noc_pe_order_hold(noc_pe_t *pe, rank_state_t *rs, uint32_t msg)
{
    if (pe->msg_seq[msg] == pe->pair_next[pe->pair_of[msg]])
        return 0;
    pe->msg_next[msg] = rs->held_head;
    rs->held_head = (int32_t)msg;
    return 1;
}

int32_t noc_pe_order_release(noc_pe_t *pe, rank_state_t *rs, uint32_t msg)
{
    uint32_t pair = pe->pair_of[msg];
    uint32_t want = ++pe->pair_next[pair];
    int32_t prev = -1;
    for (int32_t m = rs->held_head; m >= 0; prev = m, m = pe->msg_next[m]) {
        if (pe->pair_of[m] != pair || pe->msg_seq[m] != want)
            continue;
        if (prev < 0)
            rs->held_head = pe->msg_next[m];
        else
            pe->msg_next[prev] = pe->msg_next[m];
        return m;
    }
    return -1;
}
