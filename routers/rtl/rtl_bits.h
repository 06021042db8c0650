// rtl_bits.h: bit fields of Verilated ports, for the C++ that drives
// Verilated models (the shim routers/rtl/rtl_core_shim.cpp and the benches
// of testbench/rtl and testbench/cosim through tb_util.h). A port up to 64
// bits is an integer; a wider one is a VlWide of 32-bit words.
#ifndef NOC_RTL_BITS_H
#define NOC_RTL_BITS_H

#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace noc_vl {

constexpr uint64_t mask_of(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1u; }

// Bits of an index over n things, as noc_pkg::idx_width (at least 1).
constexpr unsigned idx_width(unsigned n)
{
    unsigned w = 0;
    while ((1u << w) < n)
        w++;
    return n > 1 ? w : 1;
}

// Bits [lo, lo + w) of a port, w <= 64.
template <class T>
inline uint64_t get(const T &v, unsigned lo, unsigned w)
{
    static_assert(std::is_integral<T>::value, "integer port");
    return ((uint64_t)v >> lo) & mask_of(w);
}
template <std::size_t N>
inline uint64_t get(const VlWide<N> &v, unsigned lo, unsigned w)
{
    uint64_t x = 0;
    for (unsigned got = 0; got < w;) {
        unsigned k = lo / 32, b = lo % 32, n = std::min(w - got, 32 - b);
        x |= (uint64_t)((v[k] >> b) & (uint32_t)mask_of(n)) << got;
        got += n;
        lo += n;
    }
    return x;
}

// Set bits [lo, lo + w) of a port to x, w <= 64.
template <class T>
inline void put(T &v, unsigned lo, unsigned w, uint64_t x)
{
    static_assert(std::is_integral<T>::value, "integer port");
    uint64_t m = mask_of(w) << lo;
    v = (T)(((uint64_t)v & ~m) | ((x << lo) & m));
}
template <std::size_t N>
inline void put(VlWide<N> &v, unsigned lo, unsigned w, uint64_t x)
{
    while (w) {
        unsigned k = lo / 32, b = lo % 32, n = std::min(w, 32 - b);
        uint32_t m = (uint32_t)(mask_of(n) << b);
        v[k] = (v[k] & ~m) | ((uint32_t)(x << b) & m);
        x = n >= 64 ? 0 : x >> n;
        lo += n;
        w -= n;
    }
}

} // namespace noc_vl
#endif
