// tb_arbiter.cpp: rtl/noc_rr_arbiter.sv and rtl/noc_matrix_arbiter.sv
// against the C arbiters (model/arbiter.h) in lockstep (ctest rtl.arbiter).
//
// For each Verilated configuration (tb_arbiter_configs.h, made by CMake)
// the RTL arbiter and its C twins get the same random requests (sparse to
// full, in bursts) and the same "grant was final" decisions (always, often,
// seldom) for thousands of cycles, with resets on the way. Every cycle the
// winner (idx_o, valid_o and the one-hot gnt_o) must equal every C pick, and
// after every clock edge the priority state must equal the C state:
//  - round-robin: noc_arbiter_pick / noc_arbiter_update (the inline fast
//    path), noc_arbiter_pick_general / noc_arbiter_update_general (the
//    multi-word path) and the allocators' bare pointer (noc_rr_pick,
//    noc_rr_next, read through noc_rr_ptr) against ptr_o;
//  - matrix: noc_arbiter_pick / noc_arbiter_update against prio_o, bit for
//    bit of the C arbiter's matrix.
// The first difference fails with the cycle, the inputs and both outputs.
// Then the misuse check: update_i without a request trips an assertion.
//
// Usage: tb_rtl arbiter [cycles [seed]]
#include "tb_util.h"
#include "tb_main.h"
#include "tb_arbiter_configs.h"

extern "C" {
#include "model/arbiter.h"
}

namespace {

// Request density and update probability change every 64 cycles.
struct Load {
    uint32_t req_pct = 50, upd_pct = 100;
    void pick(tb::Rng &rng)
    {
        static const uint32_t req[] = {5, 20, 50, 80, 100};
        static const uint32_t upd[] = {100, 100, 70, 20};
        req_pct = req[rng.below(5)];
        upd_pct = upd[rng.below(4)];
    }
};

// Winner as the RTL shows it: -1 when valid_o is low; -2 when gnt_o is not
// the one-hot of idx_o (or not 0 without a winner).
template <class M>
int rtl_winner(const M &m)
{
    uint64_t gnt = tb::get_bits(m.gnt_o, 0, 64);
    if (!m.valid_o)
        return gnt ? -2 : -1;
    return gnt == (1ull << m.idx_o) ? (int)m.idx_o : -2;
}

template <class M>
int run_rr(const char *name, int n, const tb::Args &args)
{
    tb::Part<M> part;
    M &m = *part.m;
    tb::Rng rng(args.seed * 0x100000001b3ull + (uint64_t)n * 7u);
    noc_arbiter_t fast, gen;
    unsigned bare = 0; // an allocator's pointer (may be n, meaning 0)
    noc_arbiter_init(&fast, NOC_ARB_ROUND_ROBIN, n);
    noc_arbiter_init(&gen, NOC_ARB_ROUND_ROBIN, n);
    Load load;
    uint64_t updates = 0, contested = 0;
    m.req_i = 0;
    m.update_i = 0;
    tb::reset(m);
    for (uint64_t cyc = 0; cyc < args.cycles; cyc++) {
        if (cyc % 64 == 0)
            load.pick(rng);
        if (rng.below(4096) == 0) {
            tb::reset(m);
            noc_arbiter_init(&fast, NOC_ARB_ROUND_ROBIN, n);
            noc_arbiter_init(&gen, NOC_ARB_ROUND_ROBIN, n);
            bare = 0;
        }
        const uint64_t req = rng.bits((unsigned)n, load.req_pct);
        m.req_i = req;
        m.update_i = 0;
        m.eval();
        const int wf = noc_arbiter_pick(&fast, &req), wg = noc_arbiter_pick_general(&gen, &req);
        const int wb = noc_rr_pick(req, bare), wr = rtl_winner(m);
        if (wf != wr || wg != wr || wb != wr) {
            std::printf("rtl.arbiter: %s (round-robin, N %d): difference in cycle %" PRIu64
                        ": req %s, pointer %d\n  C: pick %d, pick_general %d, noc_rr_pick %d\n"
                        "  RTL: idx_o %u valid_o %u gnt_o %s (winner %d)\n",
                        name, n, cyc, tb::bitstr(req, (unsigned)n).c_str(), (int)fast.ptr, wf, wg,
                        wb, (unsigned)m.idx_o, (unsigned)m.valid_o,
                        tb::bitstr(tb::get_bits(m.gnt_o, 0, (unsigned)n), (unsigned)n).c_str(), wr);
            return 1;
        }
        contested += (req & (req - 1)) != 0;
        const bool upd = wf >= 0 && rng.pct(load.upd_pct);
        if (upd) {
            m.update_i = 1;
            noc_arbiter_update(&fast, wf);
            noc_arbiter_update_general(&gen, wf);
            bare = noc_rr_next(wf);
            updates++;
        }
        tb::tick(m);
        const int pr = (int)m.ptr_o, pb = noc_rr_ptr(bare, n);
        if (fast.ptr != pr || gen.ptr != pr || pb != pr) {
            std::printf("rtl.arbiter: %s (round-robin, N %d): pointer difference after cycle %" PRIu64
                        " (req %s, winner %d, update %d)\n  C: ptr %d, general %d, bare %d\n  RTL: ptr_o %d\n",
                        name, n, cyc, tb::bitstr(req, (unsigned)n).c_str(), wf, upd, (int)fast.ptr,
                        (int)gen.ptr, pb, pr);
            return 1;
        }
    }
    noc_arbiter_free(&fast);
    noc_arbiter_free(&gen);
    std::printf("rtl.arbiter: %s (round-robin, N %d): %" PRIu64 " cycles, %" PRIu64 " contested, %" PRIu64
                " updates: identical\n",
                name, n, args.cycles, contested, updates);
    return 0;
}

// prio_o against the C matrix, bit for bit; returns the first (i, j) that
// differs as i * n + j, or -1.
template <class M>
int matrix_diff(const M &m, const noc_arbiter_t &a)
{
    const int n = a.n, words = NOC_ARB_WORDS(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            uint64_t c = (a.matrix[(size_t)i * (size_t)words + (size_t)(j >> 6)] >> (j & 63)) & 1u;
            if (c != tb::get_bits(m.prio_o, (unsigned)(i * n + j), 1))
                return i * n + j;
        }
    return -1;
}

template <class M>
int run_matrix(const char *name, int n, const tb::Args &args)
{
    tb::Part<M> part;
    M &m = *part.m;
    tb::Rng rng(args.seed * 0x100000001b3ull + (uint64_t)n * 11u + 1u);
    noc_arbiter_t a;
    noc_arbiter_init(&a, NOC_ARB_MATRIX, n);
    Load load;
    uint64_t updates = 0, contested = 0;
    m.req_i = 0;
    m.update_i = 0;
    tb::reset(m);
    for (uint64_t cyc = 0; cyc < args.cycles; cyc++) {
        if (cyc % 64 == 0)
            load.pick(rng);
        if (rng.below(4096) == 0) {
            tb::reset(m);
            noc_arbiter_free(&a);
            noc_arbiter_init(&a, NOC_ARB_MATRIX, n);
        }
        int d = matrix_diff(m, a);
        if (d >= 0) {
            std::printf("rtl.arbiter: %s (matrix, N %d): state difference before cycle %" PRIu64
                        ": C says %d beats %d: %d, RTL prio_o: %d\n",
                        name, n, cyc, d / n, d % n, !tb::get_bits(m.prio_o, (unsigned)d, 1),
                        (int)tb::get_bits(m.prio_o, (unsigned)d, 1));
            return 1;
        }
        const uint64_t req = rng.bits((unsigned)n, load.req_pct);
        m.req_i = req;
        m.update_i = 0;
        m.eval();
        const int wc = noc_arbiter_pick(&a, &req), wr = rtl_winner(m);
        if (wc != wr) {
            std::printf("rtl.arbiter: %s (matrix, N %d): difference in cycle %" PRIu64 ": req %s\n"
                        "  C: pick %d\n  RTL: idx_o %u valid_o %u gnt_o %s (winner %d)\n",
                        name, n, cyc, tb::bitstr(req, (unsigned)n).c_str(), wc, (unsigned)m.idx_o,
                        (unsigned)m.valid_o,
                        tb::bitstr(tb::get_bits(m.gnt_o, 0, (unsigned)n), (unsigned)n).c_str(), wr);
            return 1;
        }
        contested += (req & (req - 1)) != 0;
        if (wc >= 0 && rng.pct(load.upd_pct)) {
            m.update_i = 1;
            noc_arbiter_update(&a, wc);
            updates++;
        }
        tb::tick(m);
    }
    noc_arbiter_free(&a);
    std::printf("rtl.arbiter: %s (matrix, N %d): %" PRIu64 " cycles, %" PRIu64 " contested, %" PRIu64
                " updates: identical\n",
                name, n, args.cycles, contested, updates);
    return 0;
}

// update_i in a cycle without requests must trip the assertion.
template <class M>
int run_misuse(const char *name)
{
    std::printf("rtl.arbiter: %s: misuse check; an assertion failure follows, as it must:\n", name);
    std::fflush(stdout);
    tb::Part<M> part(false);
    M &m = *part.m;
    m.req_i = 0;
    m.update_i = 0;
    tb::reset(m);
    m.update_i = 1;
    tb::tick(m);
    std::fflush(stdout);
    if (!part.ctx.gotError()) {
        std::printf("rtl.arbiter: %s: update without a request: no assertion\n", name);
        return 1;
    }
    return 0;
}

} // namespace

int tb_arbiter_main(int argc, char **argv)
{
    const tb::Args args = tb::parse_args(argc, argv, 20000, 1);
    int failed = 0, configs = 0;
#define RUN_RR(V, N)                                                                               \
    configs++;                                                                                     \
    failed += run_rr<V>(#V, N, args) || run_misuse<V>(#V);
#define RUN_MATRIX(V, N)                                                                           \
    configs++;                                                                                     \
    failed += run_matrix<V>(#V, N, args) || run_misuse<V>(#V);
    NOC_TB_ARBITER_CONFIGS(RUN_RR, RUN_MATRIX)
#undef RUN_RR
#undef RUN_MATRIX
    std::printf("rtl.arbiter: %d passed, %d failed\n", configs - failed, failed);
    return failed ? 1 : 0;
}
