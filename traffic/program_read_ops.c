/* program_read_ops.c: the ops of a rank block in a traffic program's text
 * (docs/programs.md): GOAL's send, recv and calc, noctua's add, min, max
 * and copy, their sizes, peers, tags and options, and the labels that name
 * them (an open-addressing table per block, so a dependency may name a
 * label defined later). Each op goes straight into the builder
 * (model/program.h). Part of the reader (program_read.c). */
#include "traffic/program_read_internal.h"

/* ---- labels of the open block ---- */

size_t noc_rd_keep_name(reader_t *r, const char *s)
{
    size_t n = strlen(s) + 1;
    r->arena = grow(r->arena, &r->cap_arena, r->used + n, 1);
    memcpy(r->arena + r->used, s, n);
    r->used += n;
    return r->used - n;
}

static size_t label_slot(const reader_t *r, const char *s)
{
    size_t h = 2166136261u;
    for (const char *c = s; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    h &= r->n_slots - 1;
    while (r->slot[h].name && strcmp(r->arena + r->slot[h].name - 1, s) != 0)
        h = (h + 1) & (r->n_slots - 1);
    return h;
}

label_t *noc_rd_find_label(const reader_t *r, const char *s)
{
    if (!r->n_slots)
        return NULL;
    label_t *l = &r->slot[label_slot(r, s)];
    return l->name ? l : NULL;
}

static void rehash(reader_t *r)
{
    label_t *old = r->slot;
    size_t n_old = r->n_slots;
    r->n_slots = n_old ? 2 * n_old : 64;
    r->slot = noc_xcalloc(r->n_slots, sizeof *r->slot, "program labels");
    for (size_t i = 0; i < n_old; i++)
        if (old[i].name)
            r->slot[label_slot(r, r->arena + old[i].name - 1)] = old[i];
    free(old);
}

static int define_label(reader_t *r, const char *s, uint32_t op)
{
    label_t *l = noc_rd_find_label(r, s);
    if (l)
        return fail(r, "label '%.60s' defined twice in rank %d (first at line %" PRIu32 ")", s,
                    r->rank, l->line);
    if (2 * (r->n_labels + 1) > r->n_slots)
        rehash(r);
    size_t h = label_slot(r, s);
    r->slot[h] = (label_t){noc_rd_keep_name(r, s) + 1, op, r->line};
    r->n_labels++;
    return 0;
}

/* ---- ops ---- */

static int add_op(reader_t *r, noc_op_t *op, const char *label)
{
    op->line = r->line;
    uint32_t i = noc_prog_add(r->p, r->rank, op);
    return label ? define_label(r, label, i) : 0;
}

static noc_op_t new_op(noc_op_kind_t kind)
{
    noc_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = (uint8_t)kind;
    op.addr = NOC_PROG_NO_ADDR;
    op.src = NOC_PROG_NO_ADDR;
    return op;
}

/* A size at tok[*i]: "16b" (bytes, when bytes_ok), "2w" (words); the unit
 * may also stand apart ("16 b"). */
static int read_size(reader_t *r, size_t *i, noc_op_t *op, int bytes_ok, const char *kind)
{
    const char *t = tok(r, *i);
    if (!t)
        return fail(r, "expected a size after '%s' (like %s)", kind, bytes_ok ? "16b or 2w" : "2w");
    size_t d = 0;
    while (isdigit((unsigned char)t[d]))
        d++;
    const char *unit = t + d;
    if (!*unit && (is(tok(r, *i + 1), "b") || is(tok(r, *i + 1), "w")))
        unit = tok(r, ++*i);
    if (d == 0 || (!is(unit, "b") && !is(unit, "w")))
        return fail(r, "expected the size of %s %s (like %s), found '%.60s'", article(kind), kind,
                    bytes_ok ? "16b or 2w" : "2w", t);
    int dd = d > 60 ? 60 : (int)d; /* digits shown in messages */
    if (unit[0] == 'b' && !bytes_ok)
        return fail(r, "the size of %s %s is in words (like %.*sw), not bytes", article(kind),
                    kind, dd, t);
    ++*i;
    uint64_t n = 0;
    for (size_t k = 0; k < d; k++)
        n = n > (UINT64_MAX - 9) / 10 ? UINT64_MAX : n * 10 + (uint64_t)(t[k] - '0');
    if (unit[0] == 'b') {
        if (n > MAX_BYTES)
            return fail(r, "size %.*sb out of range [0, %" PRIu64 "] bytes", dd, t, MAX_BYTES);
        op->in_bytes = 1;
        op->bytes = n;
        n = (n + NOC_PROG_WORD_BYTES - 1) / NOC_PROG_WORD_BYTES;
        op->words = n ? (uint32_t)n : 1;
        return 0;
    }
    if (n < 1 || n > UINT32_MAX)
        return fail(r, "size %.*sw out of range [1, %" PRIu32 "] words", dd, t, UINT32_MAX);
    op->words = (uint32_t)n;
    return 0;
}

/* A rank at token t: destination of a send, source of a recv (-1 / any). */
static int read_peer(reader_t *r, const char *t, noc_op_t *op)
{
    int recv = op->kind == NOC_OP_RECV;
    if (!t)
        return fail(r, "expected a rank after '%s'", recv ? "from" : "to");
    int64_t v;
    if (recv && is(t, "any")) {
        op->peer = NOC_PROG_ANY;
        return 0;
    }
    int rc = noc_rd_parse_i64(t, &v);
    if (rc < 0)
        return fail(r, "expected a rank after '%s', found '%.60s'", recv ? "from" : "to", t);
    if (rc == 0 && recv && v == NOC_PROG_ANY) {
        op->peer = NOC_PROG_ANY;
        return 0;
    }
    if (rc > 0 || v < 0 || v >= r->p->n_ranks)
        return fail(r, "%s rank %.60s out of range [0, %d)%s", recv ? "source" : "destination", t,
                    r->p->n_ranks, recv ? " (or -1 / any: any source)" : "");
    op->peer = (int32_t)v;
    return 0;
}

static int read_tag(reader_t *r, const char *t, noc_op_t *op)
{
    int64_t v;
    if (op->kind == NOC_OP_RECV && is(t, "any")) {
        op->tag = NOC_PROG_ANY;
        return 0;
    }
    if (op->kind == NOC_OP_RECV && t && noc_rd_parse_i64(t, &v) == 0 && v == NOC_PROG_ANY) {
        op->tag = NOC_PROG_ANY;
        return 0;
    }
    if (noc_rd_number(r, t, "tag", 0, INT32_MAX, &v))
        return -1;
    op->tag = (int32_t)v;
    return 0;
}

static int option_bit(const char *k)
{
    static const char *const names[] = {"tag", "cpu", "nic", "addr", "cost"};
    for (int b = 0; b < 5; b++)
        if (is(k, names[b]))
            return 1 << b;
    return 0;
}

static int read_option(reader_t *r, int bit, const char *t, noc_op_t *op)
{
    int64_t v;
    switch (bit) {
    case OPT_TAG:
        return read_tag(r, t, op);
    case OPT_CPU:
    case OPT_NIC:
        if (noc_rd_number(r, t, bit == OPT_CPU ? "cpu" : "nic", 0, 255, &v))
            return -1;
        *(bit == OPT_CPU ? &op->cpu : &op->nic) = (uint8_t)v;
        return 0;
    case OPT_ADDR:
        if (noc_rd_number(r, t, "address", 0, NOC_PROG_MAX_MEM - 1, &v))
            return -1;
        op->addr = (int32_t)v;
        return 0;
    default:
        if (noc_rd_number(r, t, "cost", 0, INT64_MAX, &v))
            return -1;
        op->cost = v;
        return 0;
    }
}

/* "KEY VALUE" pairs from tok[i] on; `allowed`: OPT_ bits. */
static int read_options(reader_t *r, size_t i, noc_op_t *op, int allowed, const char *kind,
                        const char *list)
{
    int seen = 0;
    for (; i < r->n_tok; i += 2) {
        const char *k = r->tok[i];
        int bit = option_bit(k);
        if (!(bit & allowed))
            return fail(r, "unknown option '%.60s' for %s %s (expected %s)", k, article(kind),
                        kind, list);
        if (seen & bit)
            return fail(r, "'%s' given twice", k);
        seen |= bit;
        if (i + 1 >= r->n_tok)
            return fail(r, "expected a value after '%s'", k);
        if (read_option(r, bit, r->tok[i + 1], op))
            return -1;
    }
    return 0;
}

/* [LABEL:] send SIZE to R [tag T] [cpu C] [nic N] [addr A], recv alike. */
int noc_rd_item_message(reader_t *r, noc_op_kind_t kind, const char *label)
{
    noc_op_t op = new_op(kind);
    const char *k = noc_op_kind_name(kind), *dir = kind == NOC_OP_SEND ? "to" : "from";
    size_t i = 1;
    if (read_size(r, &i, &op, 1, k))
        return -1;
    if (!is(tok(r, i), dir))
        return fail(r, "expected '%s' after the size of %s %s", dir, article(k), k);
    if (read_peer(r, tok(r, i + 1), &op) ||
        read_options(r, i + 2, &op, OPT_TAG | OPT_CPU | OPT_NIC | OPT_ADDR, k,
                     "tag, cpu, nic or addr"))
        return -1;
    return add_op(r, &op, label);
}

/* [LABEL:] calc N [cpu C] [nic N] */
int noc_rd_item_calc(reader_t *r, const char *label)
{
    noc_op_t op = new_op(NOC_OP_CALC);
    if (noc_rd_number(r, tok(r, 1), "the cycles of a calc", 0, INT64_MAX, &op.cost) ||
        read_options(r, 2, &op, OPT_CPU | OPT_NIC, "calc", "cpu or nic"))
        return -1;
    return add_op(r, &op, label);
}

/* [LABEL:] add|min|max|copy Nw at DST from SRC [cost C] [cpu C] [nic N] */
int noc_rd_item_combine(reader_t *r, noc_op_kind_t kind, const char *label)
{
    noc_op_t op = new_op(kind);
    const char *k = noc_op_kind_name(kind);
    int64_t v;
    size_t i = 1;
    op.cost = NOC_PROG_DEFAULT_COST;
    if (read_size(r, &i, &op, 0, k))
        return -1;
    if (!is(tok(r, i), "at"))
        return fail(r, "expected 'at' after the size of %s %s", article(k), k);
    if (noc_rd_number(r, tok(r, i + 1), "the destination address", 0, NOC_PROG_MAX_MEM - 1, &v))
        return -1;
    op.addr = (int32_t)v;
    if (!is(tok(r, i + 2), "from"))
        return fail(r, "expected 'from' after the destination of %s %s", article(k), k);
    if (noc_rd_number(r, tok(r, i + 3), "the source address", 0, NOC_PROG_MAX_MEM - 1, &v))
        return -1;
    op.src = (int32_t)v;
    if (read_options(r, i + 4, &op, OPT_COST | OPT_CPU | OPT_NIC, k, "cost, cpu or nic"))
        return -1;
    return add_op(r, &op, label);
}
