/* fuzz_goal.c: the GOAL side of the program reader (traffic/program_read.c;
 * docs/programs.md: the text format is a superset of LogGOPSim's GOAL, and
 * a GOAL schedule reads as it is). Seeded with GOAL schedules. An input the
 * reader refuses must be refused with "fuzz.goal:LINE: ...". For every
 * input it accepts that is plain GOAL (sends, receives and calcs, sizes in
 * bytes, none of noctua's extensions):
 *   - the writer gives plain GOAL back (no noctua word in it);
 *   - the program spelled again in other ways GOAL allows, chosen by a hash
 *     of the input (rank blocks in another order, other labels, no label
 *     where none is needed, `l : op` and `l:op`, `16 b`, options in another
 *     order or left at their defaults, -1 or any for any source or tag,
 *     dependencies before, after or among their ops, the three kinds of
 *     comments, blank lines, tabs, CRLF line ends, empty rank blocks), read
 *     back, is the same program: the reader takes every spelling, not only
 *     the writer's;
 *   - a small one runs under the papers' unit timing (router=ideal,
 *     all-port) with the invariant checker on after every cycle;
 *   - one of up to 20,000 ops runs under LogGOPSim's model (model/loggp.h,
 *     with its defaults and with parameters from the input's hash): it
 *     ends, its finishing time is the latest of the ranks', it completes
 *     no more ops than there are, and one that ends well completes all. */
#include "testbench/fuzz/fuzz_prog.h"
#include "model/loggp.h"

typedef struct rng {
    uint64_t s;
} rng_t;

static uint32_t pick(rng_t *g, uint32_t n)
{
    g->s = g->s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(g->s >> 33) % n;
}

static int plain_goal(const noc_program_t *p)
{
    if (p->name || p->n_init || p->n_expect || p->n_steps)
        return 0;
    for (int r = 0; r < p->n_ranks; r++)
        if (p->ranks[r].mem_words)
            return 0;
    for (uint32_t i = 0; i < p->n_ops; i++) {
        const noc_op_t *o = &p->ops[i];
        if (o->kind == NOC_OP_CALC)
            continue;
        if ((o->kind != NOC_OP_SEND && o->kind != NOC_OP_RECV) || !o->in_bytes || o->addr != NOC_PROG_NO_ADDR)
            return 0;
    }
    return 1;
}

/* The writer's text of a plain GOAL program has no word of noctua's. */
static void check_plain_text(const char *text)
{
    static const char *const noctua_words[] = { "addr", "mem", "init", "expect", "step", "steps", "program",
                                                "any", "add", "min", "max", "copy", "cost", NULL };
    const char *s = text;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        size_t n = strcspn(s, " \t\n");
        for (int k = 0; noctua_words[k]; k++)
            if (n == strlen(noctua_words[k]) && strncmp(s, noctua_words[k], n) == 0)
                FUZZ_FAIL("plain GOAL written with the noctua word '%s':\n%s", noctua_words[k], text);
        if (n >= 2 && s[n - 1] == 'w' && strspn(s, "0123456789") == n - 1)
            FUZZ_FAIL("plain GOAL written with a size in words (%.*s):\n%s", (int)n, s, text);
        s += n;
    }
}

/* Between two words: a blank, a tab, or a comment. */
static void gap(FILE *f, rng_t *g)
{
    switch (pick(g, 8)) {
    case 0:
        fputs("\t", f);
        break;
    case 1:
        fputs("  ", f);
        break;
    case 2:
        fputs(" /* c */ ", f);
        break;
    default:
        fputs(" ", f);
    }
}

/* The end of a line: maybe a comment, maybe blanks, then LF or CRLF, maybe
 * a blank line or a comment across lines after it. */
static void eol(FILE *f, rng_t *g, int crlf)
{
    const char *nl = crlf ? "\r\n" : "\n";
    switch (pick(g, 10)) {
    case 0:
        fputs(" // a comment", f);
        break;
    case 1:
        fputs("\t# a comment", f);
        break;
    case 2:
        fputs(" /* a comment */", f);
        break;
    case 3:
        fputs("   ", f);
        break;
    }
    fputs(nl, f);
    switch (pick(g, 12)) {
    case 0:
        fputs(nl, f);
        break;
    case 1:
        fprintf(f, "/* a comment%sacross lines */%s", nl, nl);
        break;
    case 2:
        fprintf(f, "# send 8b to 0%s", nl);
        break;
    }
}

static void indent(FILE *f, rng_t *g)
{
    static const char *const ind[] = { "", "  ", "\t", "    " };
    fputs(ind[pick(g, 4)], f);
}

static void label(FILE *f, const char *prefix, uint32_t k)
{
    fprintf(f, "%s%u", prefix, k);
}

/* An op's line, without its label. */
static void op_text(FILE *f, rng_t *g, const noc_op_t *o)
{
    char opt[3][48];
    int n_opt = 0;
    if (o->kind == NOC_OP_CALC) {
        fprintf(f, "calc");
        gap(f, g);
        fprintf(f, "%lld", (long long)o->cost);
    } else {
        int send = o->kind == NOC_OP_SEND;
        fprintf(f, "%s", send ? "send" : "recv");
        gap(f, g);
        fprintf(f, pick(g, 4) ? "%llub" : "%llu b", (unsigned long long)o->bytes);
        gap(f, g);
        fprintf(f, "%s", send ? "to" : "from");
        gap(f, g);
        if (o->peer == NOC_PROG_ANY)
            fprintf(f, "%s", pick(g, 3) ? "-1" : "any");
        else
            fprintf(f, "%d", o->peer);
        if (o->tag == NOC_PROG_ANY)
            snprintf(opt[n_opt++], sizeof opt[0], "tag %s", pick(g, 3) ? "-1" : "any");
        else if (o->tag != 0 || pick(g, 2))
            snprintf(opt[n_opt++], sizeof opt[0], "tag %d", o->tag);
    }
    if (o->cpu != 0 || pick(g, 4) == 0)
        snprintf(opt[n_opt++], sizeof opt[0], "cpu %d", o->cpu);
    if (o->nic != 0 || pick(g, 4) == 0)
        snprintf(opt[n_opt++], sizeof opt[0], "nic %d", o->nic);
    for (int k = n_opt - 1; k > 0; k--) { /* in another order */
        int j = (int)pick(g, (uint32_t)k + 1);
        char t[48];
        memcpy(t, opt[k], sizeof t);
        memcpy(opt[k], opt[j], sizeof t);
        memcpy(opt[j], t, sizeof t);
    }
    for (int k = 0; k < n_opt; k++) {
        gap(f, g);
        fputs(opt[k], f);
    }
}

/* The dependency lines of op i (of the rank whose ops start at first), in
 * their order. */
static void deps_text(FILE *f, rng_t *g, const noc_program_t *p, uint32_t first, uint32_t i, const char *prefix,
                      int crlf)
{
    const noc_op_t *o = &p->ops[i];
    for (uint32_t d = o->dep_start; d < o->dep_start + o->n_deps; d++) {
        indent(f, g);
        label(f, prefix, i - first);
        gap(f, g);
        fputs(p->deps[d].start ? "irequires" : "requires", f);
        gap(f, g);
        label(f, prefix, p->deps[d].op - first);
        eol(f, g, crlf);
    }
}

/* p's ranks in another spelling of GOAL (docs/programs.md), chosen by g. */
static char *respell(const noc_program_t *p, rng_t *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    int crlf = pick(g, 4) == 0;
    if (pick(g, 3) == 0)
        fprintf(f, "/* a GOAL schedule%s*/ ", crlf ? "\r\n" : "\n");
    fprintf(f, "num_ranks");
    gap(f, g);
    fprintf(f, "%d", p->n_ranks);
    eol(f, g, crlf);
    int *order = malloc((size_t)p->n_ranks * sizeof *order);
    uint8_t *used = calloc(p->n_ops ? p->n_ops : 1, 1); /* ops that a dependency names */
    if (!order || !used)
        abort();
    for (uint32_t d = 0; d < p->n_deps; d++)
        used[p->deps[d].op] = 1;
    for (uint32_t i = 0; i < p->n_ops; i++)
        if (p->ops[i].n_deps)
            used[i] = 1;
    for (int r = 0; r < p->n_ranks; r++)
        order[r] = r;
    for (int r = p->n_ranks - 1; r > 0; r--) {
        int j = (int)pick(g, (uint32_t)r + 1), t = order[r];
        order[r] = order[j];
        order[j] = t;
    }
    static const char *const prefixes[] = { "l", "op", "x_", "A", "send1_" };
    static const char *const colons[] = { ": ", " : ", ":", ":\t", " :" };
    for (int k = 0; k < p->n_ranks; k++) {
        int r = order[k];
        const noc_rank_t *rk = &p->ranks[r];
        if (rk->n_ops == 0 && pick(g, 3))
            continue; /* a rank without a block, or (else) with an empty one */
        fprintf(f, "rank");
        gap(f, g);
        fprintf(f, "%d", r);
        gap(f, g);
        fputs("{", f);
        eol(f, g, crlf);
        const char *prefix = prefixes[pick(g, 5)];
        int where = (int)pick(g, 3); /* dependencies: 0 after their op, 1 at the end, 2 first */
        if (where == 2)
            for (uint32_t i = rk->op_start; i < rk->op_start + rk->n_ops; i++)
                deps_text(f, g, p, rk->op_start, i, prefix, crlf);
        for (uint32_t i = rk->op_start; i < rk->op_start + rk->n_ops; i++) {
            indent(f, g);
            if (used[i] || pick(g, 2)) {
                label(f, prefix, i - rk->op_start);
                fputs(colons[pick(g, 5)], f);
            }
            op_text(f, g, &p->ops[i]);
            eol(f, g, crlf);
            if (where == 0)
                deps_text(f, g, p, rk->op_start, i, prefix, crlf);
        }
        if (where == 1)
            for (uint32_t i = rk->op_start; i < rk->op_start + rk->n_ops; i++)
                deps_text(f, g, p, rk->op_start, i, prefix, crlf);
        fputs("}", f);
        eol(f, g, crlf);
    }
    free(order);
    free(used);
    if (fclose(f) != 0)
        abort();
    return buf;
}

static void run_loggp(const noc_program_t *p, rng_t *g)
{
    noc_loggp_params_t lp = { 2500, 1500, 1000, 6, 0, 65535, 1 };
    for (int k = 0; k < 2; k++) {
        if (k == 1)
            lp = (noc_loggp_params_t){ pick(g, 50), pick(g, 20), pick(g, 20), pick(g, 4), pick(g, 3),
                                       pick(g, 200), pick(g, 3) };
        char err[512];
        noc_loggp_t *lg = noc_loggp_create(p, &lp, err, sizeof err);
        if (!lg)
            FUZZ_FAIL("parameters in range refused: %s", err);
        if (noc_loggp_run(lg, NULL) != 0)
            FUZZ_FAIL("a run with no stop flag stopped");
        const noc_loggp_stats_t *st = noc_loggp_stats(lg);
        uint64_t latest = 0;
        for (int r = 0; r < p->n_ranks; r++)
            latest = noc_loggp_rank_finish(lg, r) > latest ? noc_loggp_rank_finish(lg, r) : latest;
        if (st->finish != latest || noc_loggp_rank_finish(lg, st->finish_rank) != latest)
            FUZZ_FAIL("finish %llu at rank %d, but the latest rank ends at %llu", (unsigned long long)st->finish,
                      st->finish_rank, (unsigned long long)latest);
        if (st->ops_done > st->ops || st->ops != p->n_ops)
            FUZZ_FAIL("%llu of %llu ops done", (unsigned long long)st->ops_done, (unsigned long long)st->ops);
        if (noc_loggp_finished(lg, err, sizeof err) == 0 && st->ops_done != st->ops)
            FUZZ_FAIL("ended well with %llu of %llu ops done", (unsigned long long)st->ops_done,
                      (unsigned long long)st->ops);
        noc_loggp_destroy(lg);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size, 1 << 16), err[512];
    if (!text)
        return 0;
    noc_program_t *p = noc_prog_read_string(text, "fuzz.goal", err, sizeof err);
    free(text);
    if (!p) {
        if (strncmp(err, "fuzz.goal:", 10) != 0)
            FUZZ_FAIL("a refusal that does not name the file and line: %s", err);
        return 0;
    }
    if (!plain_goal(p) || p->n_ranks > 4096) { /* (a few ops of a million ranks respell slowly) */
        noc_prog_free(p);
        return 0;
    }
    char *once = fuzz_written(p);
    check_plain_text(once);
    free(once);
    rng_t g = { 0x9e3779b97f4a7c15u };
    for (size_t i = 0; i < size; i++)
        g.s = (g.s ^ data[i]) * 0x100000001b3u;
    for (int k = 0; k < 2; k++) {
        char *again = respell(p, &g);
        noc_program_t *q = noc_prog_read_string(again, "respelled.goal", err, sizeof err);
        if (!q)
            FUZZ_FAIL("the program spelled otherwise is refused: %s\n%s", err, again);
        fuzz_same_program(p, q, "spelled otherwise");
        noc_prog_free(q);
        free(again);
    }
    if (fuzz_small_program(p))
        fuzz_run_program(p, 1);
    if (p->n_ops <= 20000)
        run_loggp(p, &g);
    noc_prog_free(p);
    return 0;
}
