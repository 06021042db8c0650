// tb_util.h: what the RTL lockstep benches (tb_*.cpp) share: a seeded
// random source, bit access to Verilated ports of any width, clocking and
// reset of a Verilated part, and the command line (cycles, seed).
//
// The benches are the only C++ besides the Verilator shims to come: each
// drives a Verilated part and its C twin (through the C headers' extern "C"
// guards) with the same inputs and stops at the first difference.
#ifndef NOC_TB_UTIL_H
#define NOC_TB_UTIL_H

#include <verilated.h>

#include "routers/rtl/rtl_bits.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace tb {

// xorshift64*: the same stream on every platform for a given seed.
class Rng {
  public:
    explicit Rng(uint64_t seed) : s_(seed ? seed : 0x9e3779b97f4a7c15ull) {}
    uint64_t next()
    {
        s_ ^= s_ >> 12;
        s_ ^= s_ << 25;
        s_ ^= s_ >> 27;
        return s_ * 0x2545f4914f6cdd1dull;
    }
    // Uniform in [0, n), n >= 1.
    uint32_t below(uint32_t n) { return (uint32_t)((next() >> 32) % n); }
    // True with probability pct / 100.
    bool pct(uint32_t pct) { return below(100) < pct; }
    // n random bits, each set with probability pct / 100.
    uint64_t bits(unsigned n, uint32_t pct)
    {
        uint64_t v = 0;
        for (unsigned b = 0; b < n; b++)
            if (this->pct(pct))
                v |= 1ull << b;
        return v;
    }

  private:
    uint64_t s_;
};

using noc_vl::mask_of;

// Bits [lo, lo + w) of a port (w <= 64), for ports held in an integer
// (up to 64 bits) or in a VlWide (wider): routers/rtl/rtl_bits.h.
template <class T>
inline uint64_t get_bits(const T &v, unsigned lo, unsigned w)
{
    return noc_vl::get(v, lo, w);
}
template <class T>
inline void set_bits(T &v, unsigned lo, unsigned w, uint64_t x)
{
    noc_vl::put(v, lo, w, x);
}

// One rising clock edge; inputs are set, and outputs read, between edges.
template <class M>
inline void tick(M &m)
{
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
}

// The asynchronous active-low reset: a falling edge of rst_ni, then release.
template <class M>
inline void reset(M &m)
{
    m.clk_i = 0;
    m.rst_ni = 1;
    m.eval();
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
}

// A Verilated part with its own context, so that its assertion failures are
// counted apart; they stop the run unless `fatal` is false.
template <class M>
struct Part {
    VerilatedContext ctx;
    M *m;
    explicit Part(bool fatal = true)
    {
        ctx.fatalOnError(fatal);
        m = new M{&ctx};
    }
    ~Part()
    {
        m->final();
        delete m;
    }
    Part(const Part &) = delete;
    Part &operator=(const Part &) = delete;
};

// Command line of every bench: [cycles [seed]].
struct Args {
    uint64_t cycles;
    uint64_t seed;
};
inline Args parse_args(int argc, char **argv, uint64_t cycles, uint64_t seed)
{
    Args a{cycles, seed};
    if (argc > 1)
        a.cycles = std::strtoull(argv[1], nullptr, 0);
    if (argc > 2)
        a.seed = std::strtoull(argv[2], nullptr, 0);
    if (argc > 3 || a.cycles == 0) {
        std::fprintf(stderr, "usage: tb_rtl %s [cycles [seed]]\n", argv[0]);
        std::exit(2);
    }
    return a;
}

// A bit vector as text, bit 0 first ("0110").
inline std::string bitstr(uint64_t v, unsigned n)
{
    std::string s;
    for (unsigned b = 0; b < n; b++)
        s += ((v >> b) & 1u) ? '1' : '0';
    return s;
}

} // namespace tb

#endif
