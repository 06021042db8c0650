/* alloc_list.c: the separable allocators of alloc_list.h over a list of
 * requests with priorities (adaptive routing's VC allocation). Each stage is
 * a pass over the list: an arbiter's choice is kept as the index of the
 * request it holds so far, replaced by one that supersedes it (BookSim2's
 * RoundRobinArbiter: higher priority, or equal priority and nearer after
 * the pointer). */
#include "model/alloc_list.h"
#include <assert.h>
#include <string.h>

/* Position of x in line after ptr, cyclically over size. */
static inline int dist(int x, int ptr, int size)
{
    int d = x - ptr;
    return d < 0 ? d + size : d;
}

/* Does request a supersede request b (b < 0: none) at an arbiter with
 * pointer ptr over size positions, a's position pa and b's pb there? */
static inline int supersedes(int pri_a, int pa, int pri_b, int pb, int b, int ptr, int size)
{
    if (b < 0)
        return 1;
    if (pri_a != pri_b)
        return pri_a > pri_b;
    return dist(pa, ptr, size) < dist(pb, ptr, size);
}

static void grant_one(const noc_alloc_req_t *q, uint16_t *in_ptr, int n_in, uint16_t *out_ptr, int n_out)
{
    in_ptr[q->in] = (uint16_t)((q->out + 1) % n_out);
    out_ptr[q->out] = (uint16_t)((q->in + 1) % n_in);
}

static void input_first(int n, const noc_alloc_req_t *req, uint8_t *grant, uint16_t *in_ptr, int n_in,
                        uint16_t *out_ptr, int n_out, int16_t *in_sel, int16_t *out_sel)
{
    for (int k = 0; k < n; k++) {
        const noc_alloc_req_t *q = &req[k];
        int b = in_sel[q->in];
        if (supersedes(q->pri, q->out, b >= 0 ? req[b].pri : 0, b >= 0 ? req[b].out : 0, b, in_ptr[q->in], n_out))
            in_sel[q->in] = (int16_t)k;
    }
    for (int k = 0; k < n; k++) {
        const noc_alloc_req_t *q = &req[k];
        if (in_sel[q->in] != k)
            continue;
        int b = out_sel[q->out];
        if (supersedes(0, q->in, 0, b >= 0 ? req[b].in : 0, b, out_ptr[q->out], n_in))
            out_sel[q->out] = (int16_t)k;
    }
    for (int k = 0; k < n; k++)
        if (out_sel[req[k].out] == k) {
            grant[k] = 1;
            grant_one(&req[k], in_ptr, n_in, out_ptr, n_out);
        }
}

static void output_first(int n, const noc_alloc_req_t *req, uint8_t *grant, uint16_t *in_ptr, int n_in,
                         uint16_t *out_ptr, int n_out, int16_t *in_sel, int16_t *out_sel)
{
    for (int k = 0; k < n; k++) {
        const noc_alloc_req_t *q = &req[k];
        int b = out_sel[q->out];
        if (supersedes(0, q->in, 0, b >= 0 ? req[b].in : 0, b, out_ptr[q->out], n_in))
            out_sel[q->out] = (int16_t)k;
    }
    for (int k = 0; k < n; k++) {
        const noc_alloc_req_t *q = &req[k];
        if (out_sel[q->out] != k)
            continue;
        int b = in_sel[q->in];
        if (supersedes(q->pri, q->out, b >= 0 ? req[b].pri : 0, b >= 0 ? req[b].out : 0, b, in_ptr[q->in], n_out))
            in_sel[q->in] = (int16_t)k;
    }
    for (int k = 0; k < n; k++)
        if (in_sel[req[k].in] == k) {
            grant[k] = 1;
            grant_one(&req[k], in_ptr, n_in, out_ptr, n_out);
        }
}

static void islip(int iters, int n, const noc_alloc_req_t *req, uint8_t *grant, uint16_t *in_ptr, int n_in,
                  uint16_t *out_ptr, int n_out, int16_t *in_sel, int16_t *out_sel, int16_t *in_match,
                  int16_t *out_match)
{
    for (int it = 0; it < iters; it++) {
        for (int k = 0; k < n; k++) {
            in_sel[req[k].in] = -1;
            out_sel[req[k].out] = -1;
        }
        /* grant: every unmatched resource, among the unmatched requesters */
        for (int k = 0; k < n; k++) {
            const noc_alloc_req_t *q = &req[k];
            if (in_match[q->in] >= 0 || out_match[q->out] >= 0)
                continue;
            int b = out_sel[q->out];
            if (supersedes(0, q->in, 0, b >= 0 ? req[b].in : 0, b, out_ptr[q->out], n_in))
                out_sel[q->out] = (int16_t)k;
        }
        /* accept: every requester, among the resources that granted it */
        int any = 0;
        for (int k = 0; k < n; k++) {
            const noc_alloc_req_t *q = &req[k];
            if (out_sel[q->out] != k)
                continue;
            int b = in_sel[q->in];
            if (supersedes(0, q->out, 0, b >= 0 ? req[b].out : 0, b, in_ptr[q->in], n_out))
                in_sel[q->in] = (int16_t)k;
        }
        for (int k = 0; k < n; k++) {
            const noc_alloc_req_t *q = &req[k];
            if (in_sel[q->in] != k || out_sel[q->out] != k)
                continue;
            grant[k] = 1;
            in_match[q->in] = q->out;
            out_match[q->out] = q->in;
            any = 1;
            if (it == 0)
                grant_one(q, in_ptr, n_in, out_ptr, n_out);
        }
        if (!any)
            return;
    }
}

void noc_alloc_list(noc_alloc_kind_t kind, int iters, int n, const noc_alloc_req_t *req, uint8_t *grant,
                    uint16_t *in_ptr, int n_in, uint16_t *out_ptr, int n_out, int16_t *scratch)
{
    int16_t *in_sel = scratch, *out_sel = scratch + n_in, *in_match = out_sel + n_out, *out_match = in_match + n_in;
    memset(grant, 0, (size_t)n);
    for (int k = 0; k < n; k++) {
        assert(req[k].in >= 0 && req[k].in < n_in && req[k].out >= 0 && req[k].out < n_out);
        in_sel[req[k].in] = -1;
        out_sel[req[k].out] = -1;
        in_match[req[k].in] = -1;
        out_match[req[k].out] = -1;
    }
    switch (kind) {
    case NOC_ALLOC_INPUT_FIRST:
        input_first(n, req, grant, in_ptr, n_in, out_ptr, n_out, in_sel, out_sel);
        break;
    case NOC_ALLOC_OUTPUT_FIRST:
        output_first(n, req, grant, in_ptr, n_in, out_ptr, n_out, in_sel, out_sel);
        break;
    case NOC_ALLOC_ISLIP:
        islip(iters < 1 ? 1 : iters, n, req, grant, in_ptr, n_in, out_ptr, n_out, in_sel, out_sel, in_match,
              out_match);
        break;
    default:
        assert(!"noc_alloc_list: a separable kind");
    }
}
