// rtl_core_shim.cpp: the C ABI of routers/rtl/rtl_core.h around one
// Verilated build of rtl/noc_vc_router.sv. Compiled once per parameter set,
// with the Verilated model (prefix Vnoc_rtl_core) and NOC_RTL_P, NOC_RTL_V,
// NOC_RTL_DEPTH, NOC_RTL_NCLASS, NOC_RTL_ARB defined, into a shared object
// that exports the single symbol noc_rtl_core_api (routers/rtl/
// build_model.sh). The only C++ of the datapath: it copies the C side's
// inputs into the model's ports, clocks it, and copies its outputs back;
// with count_toggles on, it also counts the bits of the core's flip-flops
// that each clock edge changed (rtl_toggles=1, docs/energy.md).
#include "Vnoc_rtl_core.h"
#include "Vnoc_rtl_core___024root.h"
#include "noc_toggle_regs.h" // NOC_TOGGLE_REGS: the core's flip-flops (build_model.sh)
#include <verilated.h>
#if NOC_RTL_TRACE
#include "Vnoc_rtl_core__Syms.h"
#include <verilated_fst_c.h>
#define NOC_FST_GUARD_WRAP 1
#include "waves/fst_guard.h"
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "routers/rtl/rtl_bits.h"
#include "routers/rtl/rtl_core.h"

namespace {

using noc_vl::get;
using noc_vl::idx_width;
using noc_vl::mask_of;
using noc_vl::put;

constexpr unsigned P = NOC_RTL_P, V = NOC_RTL_V, L = P * V;
constexpr unsigned PortW = idx_width(P), VcW = idx_width(V), ClsW = idx_width(NOC_RTL_NCLASS);
constexpr unsigned FlitW = 128;
static_assert(P <= NOC_RTL_MAX_P && L <= NOC_RTL_MAX_L, "core larger than the ABI's sets");

// A P*V-bit port to and from the ABI's word sets.
template <class T>
inline void put_set(T &v, const uint64_t *set)
{
    for (unsigned lo = 0; lo < L; lo += 64)
        put(v, lo, std::min(64u, L - lo), set[lo / 64]);
}
template <class T>
inline void get_set(const T &v, uint64_t *set)
{
    for (unsigned lo = 0; lo < L; lo += 64)
        set[lo / 64] = get(v, lo, std::min(64u, L - lo));
}

// The toggle count (count_toggles): a copy of every flip-flop of the core
// (every *_q register of rtl/, as Verilator keeps it in the model's root
// class) as the last clock edge left it; after each edge, the bits that
// differ are counted and the copy updated. Bits above a register's width
// in its last word are masked off.
using Root = Vnoc_rtl_core___024root;
struct Shadow {
#define NOC_SHADOW_REG(name, bits) decltype(Root::name) name;
    NOC_TOGGLE_REGS(NOC_SHADOW_REG)
#undef NOC_SHADOW_REG
};

inline uint64_t low_bits(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}
template <class T>
inline uint64_t toggled(const T &now, T &was, unsigned bits)
{
    uint64_t x = ((uint64_t)now ^ (uint64_t)was) & low_bits(bits);
    was = now;
    return (uint64_t)__builtin_popcountll(x);
}
template <std::size_t N>
inline uint64_t toggled(const VlWide<N> &now, VlWide<N> &was, unsigned bits)
{
    uint64_t n = 0;
    for (std::size_t w = 0; w < N; w++) {
        unsigned in_word = bits > 32 * w ? std::min(32u, bits - 32u * (unsigned)w) : 0u;
        n += (uint64_t)__builtin_popcountll((uint64_t)(now.at(w) ^ was.at(w)) & low_bits(in_word));
        was.at(w) = now.at(w);
    }
    return n;
}
template <class T, std::size_t N>
inline uint64_t toggled(const VlUnpacked<T, N> &now, VlUnpacked<T, N> &was, unsigned bits)
{
    uint64_t n = 0;
    for (std::size_t i = 0; i < N; i++)
        n += toggled(now[i], was[i], bits);
    return n;
}

uint64_t count_toggled(const Root &r, Shadow &sh)
{
    uint64_t n = 0;
#define NOC_COUNT_REG(name, bits) n += toggled(r.name, sh.name, (unsigned)(bits));
    NOC_TOGGLE_REGS(NOC_COUNT_REG)
#undef NOC_COUNT_REG
    return n;
}

void copy_regs(const Root &r, Shadow &sh)
{
#define NOC_COPY_REG(name, bits) sh.name = r.name;
    NOC_TOGGLE_REGS(NOC_COPY_REG)
#undef NOC_COPY_REG
}

struct Core {
    // (all cores share Verilator's default context)
    explicit Core(const char *name) : m(name) {}
    ~Core() { delete shadow; }
    Vnoc_rtl_core m;
    Shadow *shadow = nullptr; // count_toggles on: the flip-flops after the last edge
};

#if NOC_RTL_TRACE
std::vector<Core *> traced; // the cores added to the trace file (trace_add)
#endif

// Out of memory in the Verilated model (its constructors allocate with
// new): exit 4 with a message, as noctua's own allocations do
// (util/xalloc.h), not std::bad_alloc's abort; exit() runs the output
// layer's cleanup.
void out_of_memory()
{
    std::fputs("noctua: out of memory (an RTL core)\n", stderr);
    std::exit(4);
}

void *create(const char *name)
{
    std::set_new_handler(out_of_memory);
#if NOC_RTL_TRACE
    Verilated::traceEverOn(true);
#endif
    Core *c = new Core(name && *name ? name : "core");
    Vnoc_rtl_core &m = c->m;
    m.clk_i = 0;
    m.in_valid_i = 0;
    m.rst_ni = 1; // (an edge for the asynchronous reset)
    m.eval();
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
    return c;
}

void destroy(void *core)
{
    Core *c = static_cast<Core *>(core);
#if NOC_RTL_TRACE
    traced.erase(std::remove(traced.begin(), traced.end(), c), traced.end());
#endif
    if (c)
        c->m.final();
    delete c;
}

void cycle(void *core, const noc_rtl_in_t *in, noc_rtl_out_t *out, noc_rtl_taps_t *taps)
{
    Core *c = static_cast<Core *>(core);
    Vnoc_rtl_core &m = c->m;
    const uint64_t pm = mask_of(P);
    put(m.in_valid_i, 0, P, in->valid & pm);
    put(m.in_head_i, 0, P, in->head & pm);
    put(m.in_tail_i, 0, P, in->tail & pm);
    for (uint64_t b = in->valid & pm; b; b &= b - 1) {
        unsigned p = (unsigned)__builtin_ctzll(b);
        put(m.in_vc_i, p * VcW, VcW, in->vc[p]);
        put(m.in_port_i, p * PortW, PortW, in->port[p]);
        put(m.in_class_i, p * ClsW, ClsW, in->cls[p]);
        put(m.in_data_i, p * FlitW, 64, in->data[p].data);
        put(m.in_data_i, p * FlitW + 64, 64, in->data[p].tag);
    }
    put_set(m.out_credit_i, in->credit);
    m.clk_i = 1;
    m.eval();
    out->toggles = c->shadow ? count_toggled(*m.rootp, *c->shadow) : 0;
    uint64_t valid = get(m.out_valid_o, 0, P);
    out->valid = valid;
    out->head = get(m.out_head_o, 0, P);
    out->tail = get(m.out_tail_o, 0, P);
    for (uint64_t b = valid; b; b &= b - 1) {
        unsigned o = (unsigned)__builtin_ctzll(b);
        out->vc[o] = (uint8_t)get(m.out_vc_o, o * VcW, VcW);
        out->data[o].data = get(m.out_data_o, o * FlitW, 64);
        out->data[o].tag = get(m.out_data_o, o * FlitW + 64, 64);
    }
    get_set(m.in_credit_o, taps->cross);
    get_set(m.obs_bid_o, taps->bid);
    get_set(m.obs_ready_o, taps->ready);
    for (unsigned w = 0; w < (L + 63) / 64; w++) /* (the port of a VC that bids) */
        for (uint64_t b = taps->bid[w]; b; b &= b - 1) {
            unsigned l = 64 * w + (unsigned)__builtin_ctzll(b);
            taps->port[l] = (uint8_t)get(m.obs_port_o, l * PortW, PortW);
        }
    m.clk_i = 0;
    m.eval();
}

void observe(void *core, uint16_t *credits, uint16_t *usage)
{
    const Vnoc_rtl_core &m = static_cast<Core *>(core)->m;
    constexpr unsigned CntW = idx_width(NOC_RTL_DEPTH + 1);
    for (unsigned l = 0; l < L; l++) {
        credits[l] = (uint16_t)get(m.obs_credit_o, l * CntW, CntW);
        usage[l] = (uint16_t)get(m.obs_usage_o, l * CntW, CntW);
    }
}

void count_toggles(void *core, int on)
{
    Core *c = static_cast<Core *>(core);
    if (!on) {
        delete c->shadow;
        c->shadow = nullptr;
        return;
    }
    if (!c->shadow)
        c->shadow = new Shadow;
    copy_regs(*c->m.rootp, *c->shadow);
}

#if NOC_RTL_TRACE
// One trace file for every core added to it (Verilator samples them all at
// each dump). One cycle is a nanosecond, as in noctua's own wave files, at
// a resolution of 100 ps: cycle t is sampled twice, with clk_i high at
// 10t (the rising edge that starts the cycle, the registers as it left
// them) and low at 10t + 5, so the file shows a toggling clock. Both
// samples are of the same state: clk_i is set for the sample only (no
// evaluation), and is 0 again before the next cycle's edge, as Verilator's
// edge detection expects. (A dump writes changes only after an evaluation,
// which sets the model's activity flag: set here so that the clock's
// change is written; the internal signals' own flags stay as the last
// evaluation left them.)
VerilatedFstC *trace_file;
unsigned long trace_errors0; // fst_guard's count when the file was opened

VerilatedFstC *trace()
{
    if (!trace_file)
        trace_file = new VerilatedFstC;
    return trace_file;
}

void trace_add(void *core)
{
    static_cast<Core *>(core)->m.trace(trace(), 99);
    traced.push_back(static_cast<Core *>(core));
}

int trace_open(const char *path)
{
    VerilatedFstC *t = trace();
    t->set_time_unit("1ns");
    t->set_time_resolution("100ps");
    trace_errors0 = noc_fst_io_errors();
    t->open(path);
    return t->isOpen() ? 0 : -1;
}

void trace_dump(uint64_t cycle)
{
    if (!trace_file || !trace_file->isOpen())
        return;
    for (Core *c : traced) {
        c->m.clk_i = 1;
        c->m.rootp->vlSymsp->__Vm_activity = true;
    }
    trace_file->dump(10 * cycle);
    for (Core *c : traced) {
        c->m.clk_i = 0;
        c->m.rootp->vlSymsp->__Vm_activity = true;
    }
    trace_file->dump(10 * cycle + 5);
}

int trace_close()
{
    if (trace_file)
        trace_file->close();
    delete trace_file;
    trace_file = nullptr;
    traced.clear();
    return noc_fst_io_errors() != trace_errors0 ? -1 : 0;
}

const noc_rtl_core_api_t api = {
    NOC_RTL_ABI, (int)P, (int)V, NOC_RTL_DEPTH, NOC_RTL_NCLASS, NOC_RTL_ARB, 1, create, destroy, cycle, observe, count_toggles,
    trace_add, trace_open, trace_dump, trace_close,
};
#else
const noc_rtl_core_api_t api = {
    NOC_RTL_ABI, (int)P, (int)V, NOC_RTL_DEPTH, NOC_RTL_NCLASS, NOC_RTL_ARB, 0, create, destroy, cycle, observe, count_toggles,
    nullptr, nullptr, nullptr, nullptr,
};
#endif

} // namespace

extern "C" __attribute__((visibility("default"))) const noc_rtl_core_api_t *noc_rtl_core_api(void)
{
    return &api;
}
