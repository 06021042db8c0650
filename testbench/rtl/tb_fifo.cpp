// tb_fifo.cpp: rtl/noc_fifo.sv against the C model's FIFO (model/fifo.h) in
// lockstep (ctest rtl.fifo).
//
// For each Verilated configuration (tb_fifo_configs.h, made by CMake), the
// RTL FIFO and a C FIFO of the same depth -- a ring of noc_flit_t slots with
// free-running head/tail counters, rewound when a pop empties it, as the vc
// router keeps its buffers -- get the same random pushes and pops (never a
// push when full nor a pop when empty: credit flow control rules them out)
// for thousands of cycles, with bursts of mostly-push and mostly-pop and
// resets on the way. Every cycle, before the clock edge, full_o, empty_o,
// usage_o and (when not empty) data_o must equal the C FIFO's; the first
// difference fails with the cycle, the inputs and both sides' outputs.
// Then the misuse checks: a push while full and a pop while empty must trip
// the RTL's assertions and leave its state alone.
//
// Usage: tb_rtl fifo [cycles [seed]]
#include "tb_util.h"
#include "tb_main.h"
#include "tb_fifo_configs.h"

#include <vector>

extern "C" {
#include "model/fifo.h"
}

namespace {

template <class M>
int run_lockstep(const char *name, unsigned depth, unsigned width, const tb::Args &args)
{
    tb::Part<M> part;
    M &m = *part.m;
    tb::Rng rng(args.seed * 0x100000001b3ull + depth * 131u + width);
    const uint32_t cap = noc_fifo_capacity(depth), qmask = cap - 1u;
    std::vector<noc_flit_t> slots(cap);
    uint16_t head = 0, tail = 0;
    const uint64_t wmask = tb::mask_of(width);
    uint32_t push_pct = 50, pop_pct = 50;
    uint64_t pushes = 0, pops = 0, fulls = 0, resets = 0;

    m.push_i = 0;
    m.pop_i = 0;
    tb::reset(m);
    for (uint64_t cyc = 0; cyc < args.cycles; cyc++) {
        if (cyc % 64 == 0) {
            static const uint32_t mix[][2] = {{50, 50}, {90, 20}, {20, 90}, {100, 100}, {10, 10}};
            const auto &p = mix[rng.below(5)];
            push_pct = p[0];
            pop_pct = p[1];
        }
        if (rng.below(2048) == 0) {
            tb::reset(m);
            head = tail = 0;
            resets++;
        }
        const uint32_t count = noc_fifo_count(head, tail);
        const bool full = count == depth, empty = count == 0;
        const bool push = !full && rng.pct(push_pct);
        const bool pop = !empty && rng.pct(pop_pct);
        const uint64_t data = rng.next() & wmask;
        m.push_i = push;
        m.pop_i = pop;
        tb::set_bits(m.data_i, 0, width, data);
        m.eval();

        const uint64_t c_front = empty ? 0 : (uint64_t)noc_fifo_front(slots.data(), qmask, head)->data;
        const uint64_t r_front = tb::get_bits(m.data_o, 0, width);
        if (m.full_o != full || m.empty_o != empty || m.usage_o != count ||
            (!empty && r_front != c_front)) {
            std::printf("rtl.fifo: %s (DEPTH %u, WIDTH %u): difference in cycle %" PRIu64
                        " (push %d pop %d data_i 0x%" PRIx64 ")\n"
                        "  C:   full %d empty %d usage %u front 0x%" PRIx64 "\n"
                        "  RTL: full %d empty %d usage %u data_o 0x%" PRIx64 "\n",
                        name, depth, width, cyc, push, pop, data, full, empty, count, c_front,
                        (int)m.full_o, (int)m.empty_o, (unsigned)m.usage_o, r_front);
            return 1;
        }
        fulls += full;

        if (pop) {
            noc_fifo_pop(&head, tail);
            noc_fifo_rewind(&head, &tail);
            pops++;
        }
        if (push) {
            noc_flit_t f{};
            f.data = (int64_t)data;
            noc_fifo_push(slots.data(), qmask, &tail, &f);
            pushes++;
        }
        tb::tick(m);
    }
    std::printf("rtl.fifo: %s (DEPTH %u, WIDTH %u): %" PRIu64 " cycles, %" PRIu64 " pushes, %" PRIu64
                " pops, %" PRIu64 " cycles full, %" PRIu64 " resets: identical\n",
                name, depth, width, args.cycles, pushes, pops, fulls, resets);
    return 0;
}

// A push while full, then a pop while empty: each must trip an assertion
// (counted by the part's own context) and change nothing.
template <class M>
int run_misuse(const char *name, unsigned depth)
{
    std::printf("rtl.fifo: %s: misuse checks; two assertion failures follow, as they must:\n", name);
    std::fflush(stdout);
    int bad = 0;
    {
        tb::Part<M> part(false);
        M &m = *part.m;
        m.pop_i = 0;
        m.push_i = 0;
        tb::reset(m);
        m.push_i = 1;
        for (unsigned k = 0; k < depth; k++)
            tb::tick(m);
        bool clean = !part.ctx.gotError();
        tb::tick(m); /* one push too many */
        std::fflush(stdout);
        if (!clean || !part.ctx.gotError() || m.usage_o != depth || !m.full_o) {
            std::printf("rtl.fifo: %s: push while full: assertion %s, usage %u (want %u)\n", name,
                        part.ctx.gotError() ? "fired" : "did not fire", (unsigned)m.usage_o, depth);
            bad = 1;
        }
    }
    {
        tb::Part<M> part(false);
        M &m = *part.m;
        m.push_i = 0;
        m.pop_i = 0;
        tb::reset(m);
        m.pop_i = 1;
        tb::tick(m);
        std::fflush(stdout);
        if (!part.ctx.gotError() || m.usage_o != 0 || !m.empty_o) {
            std::printf("rtl.fifo: %s: pop while empty: assertion %s, usage %u (want 0)\n", name,
                        part.ctx.gotError() ? "fired" : "did not fire", (unsigned)m.usage_o);
            bad = 1;
        }
    }
    if (!bad)
        std::printf("rtl.fifo: %s: both misuses caught, state unchanged\n", name);
    return bad;
}

} // namespace

int tb_fifo_main(int argc, char **argv)
{
    const tb::Args args = tb::parse_args(argc, argv, 20000, 1);
    int failed = 0, configs = 0;
#define RUN(V, DEPTH, WIDTH)                                                                       \
    configs++;                                                                                     \
    failed += run_lockstep<V>(#V, DEPTH, WIDTH, args) || run_misuse<V>(#V, DEPTH);
    NOC_TB_FIFO_CONFIGS(RUN)
#undef RUN
    std::printf("rtl.fifo: %d passed, %d failed\n", configs - failed, failed);
    return failed ? 1 : 0;
}
