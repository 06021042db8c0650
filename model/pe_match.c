/* pe_match.c: matching messages and receives, MPI's rule (docs/programs.md,
 * "GOAL semantics"): an arriving message goes to the oldest posted receive
 * that matches it (source and tag, either may be "any"), a posted receive
 * takes the oldest arrived message it matches. Both in time that follows
 * the candidates of one pair of ranks, not everything a rank has waiting:
 * receives that name their source wait on the list of their (source,
 * destination) pair (pe_order.c numbers the pairs, for receives too);
 * receives from any source on their rank's own list; and every unmatched
 * message is on its pair's list and on its rank's list (arrival order,
 * doubly linked, for receives from any source and the end-of-run check).
 * A posted receive carries its rank's post number, so that a message which
 * matches one on its pair's list and one on the rank's any-source list
 * takes the one posted first. Flat arrays, no allocation. */
#include "model/pe_internal.h"
#include "model/program.h"

static int tag_ok(const noc_op_t *rv, int tag)
{
    return rv->tag == NOC_PROG_ANY || rv->tag == tag;
}

/* The first receive of the list from head (linked by recv_next) whose tag
 * matches, and the one before it (-1: none). */
static int32_t find_recv(const noc_pe_t *pe, int32_t head, int tag, int32_t *prev)
{
    *prev = -1;
    for (int32_t v = head; v >= 0; *prev = v, v = pe->recv_next[v])
        if (tag_ok(&pe->p->ops[v], tag))
            return v;
    return -1;
}

static void unlink_recv(noc_pe_t *pe, int32_t *head, int32_t *tail, int32_t prev, int32_t v)
{
    if (prev < 0)
        *head = pe->recv_next[v];
    else
        pe->recv_next[prev] = pe->recv_next[v];
    if (*tail == v)
        *tail = prev;
}

static void append_recv(noc_pe_t *pe, int32_t *head, int32_t *tail, int32_t v)
{
    pe->recv_next[v] = -1;
    if (*tail >= 0)
        pe->recv_next[*tail] = v;
    else
        *head = v;
    *tail = v;
}

/* Message m off its pair's list and its rank's list. */
static void unlink_msg(noc_pe_t *pe, rank_state_t *rs, int32_t m)
{
    uint32_t pair = pe->pair_of[m];
    int32_t prev = -1;
    for (int32_t x = pe->pair_arr_head[pair]; x != m; x = pe->msg_pnext[x])
        prev = x;
    if (prev < 0)
        pe->pair_arr_head[pair] = pe->msg_pnext[m];
    else
        pe->msg_pnext[prev] = pe->msg_pnext[m];
    if (pe->pair_arr_tail[pair] == m)
        pe->pair_arr_tail[pair] = prev;
    noc_pe_list_unlink(pe->msg_next, pe->msg_prev, &rs->arrived_head, &rs->arrived_tail, m);
}

int32_t noc_pe_match_message(noc_pe_t *pe, rank_state_t *rs, uint32_t msg)
{
    uint32_t pair = pe->pair_of[msg];
    int tag = pe->p->ops[msg].tag;
    int32_t pp, wp;
    int32_t v = find_recv(pe, pe->pair_post_head[pair], tag, &pp);
    int32_t w = find_recv(pe, rs->any_head, tag, &wp);
    if (w >= 0 && (v < 0 || pe->recv_seq[w] < pe->recv_seq[v])) {
        unlink_recv(pe, &rs->any_head, &rs->any_tail, wp, w);
        return w;
    }
    if (v >= 0) {
        unlink_recv(pe, &pe->pair_post_head[pair], &pe->pair_post_tail[pair], pp, v);
        return v;
    }
    /* nobody waits for it: onto its pair's list and its rank's */
    int32_t m = (int32_t)msg;
    pe->msg_pnext[m] = -1;
    if (pe->pair_arr_tail[pair] >= 0)
        pe->msg_pnext[pe->pair_arr_tail[pair]] = m;
    else
        pe->pair_arr_head[pair] = m;
    pe->pair_arr_tail[pair] = m;
    pe->msg_next[m] = -1;
    pe->msg_prev[m] = rs->arrived_tail;
    if (rs->arrived_tail >= 0)
        pe->msg_next[rs->arrived_tail] = m;
    else
        rs->arrived_head = m;
    rs->arrived_tail = m;
    return -1;
}

int32_t noc_pe_match_receive(noc_pe_t *pe, rank_state_t *rs, uint32_t op)
{
    const noc_op_t *o = &pe->p->ops[op];
    int32_t m;
    if (o->peer == NOC_PROG_ANY) { /* the oldest arrived message of its tag, from anyone */
        for (m = rs->arrived_head; m >= 0; m = pe->msg_next[m])
            if (tag_ok(o, pe->p->ops[m].tag))
                break;
    } else { /* the oldest of its pair's with its tag */
        for (m = pe->pair_arr_head[pe->pair_of[op]]; m >= 0; m = pe->msg_pnext[m])
            if (tag_ok(o, pe->p->ops[m].tag))
                break;
    }
    if (m >= 0) {
        unlink_msg(pe, rs, m);
        return m;
    }
    pe->recv_seq[op] = rs->post_seq++;
    if (o->peer == NOC_PROG_ANY)
        append_recv(pe, &rs->any_head, &rs->any_tail, (int32_t)op);
    else
        append_recv(pe, &pe->pair_post_head[pe->pair_of[op]], &pe->pair_post_tail[pe->pair_of[op]], (int32_t)op);
    return -1;
}

void noc_pe_match_start(noc_pe_t *pe)
{
    for (int r = 0; r < pe->n_ranks; r++) {
        rank_state_t *rs = &pe->rank[r];
        rs->any_head = rs->any_tail = rs->arrived_head = rs->arrived_tail = -1;
        rs->post_seq = 0;
    }
    for (uint32_t k = 0; k < pe->n_pairs; k++)
        pe->pair_post_head[k] = pe->pair_post_tail[k] = pe->pair_arr_head[k] = pe->pair_arr_tail[k] = -1;
}
