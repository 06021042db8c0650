// tb_alloc.cpp: rtl/noc_sep_alloc_if.sv, rtl/noc_sep_alloc_of.sv and
// rtl/noc_islip_alloc.sv against the C allocators (model/alloc.h) in
// lockstep (ctest rtl.alloc).
//
// For each Verilated configuration (tb_alloc_configs.h, made by CMake: kind,
// arbiter kind, N_IN x N_OUT, iSLIP iterations) three allocators get the
// same request matrix every cycle:
//  - the RTL allocator;
//  - a C allocator driven through the dense entry, noc_alloc_run;
//  - a C allocator driven through the sparse entry, noc_alloc_run_sparse,
//    with the requesters listed in a random order (and now and then one
//    that requests nothing), so that its inline shortcuts -- the lone
//    requester, the two requesters of a round-robin input-first allocator,
//    every requester alone on its one resource -- and the list form all
//    face the RTL.
// The grants of all three must agree (and the RTL's gnt_o must be the
// one-hot form of gnt_idx_o), and so must every arbiter's state after every
// clock edge: round-robin pointers (noc_alloc_in_ptr / noc_alloc_out_ptr) or
// matrix arbiters' matrices, bit for bit. The first difference fails with
// the configuration, the cycle (or state), the request matrix and the grants
// and states of each side.
//
// Two runs per configuration:
//  - random, for `cycles` cycles: bursts of 64 cycles of one pattern --
//    random at a density from 5% to 100%, one or two requesters, every
//    requester on its own single resource, everybody on one or two hot
//    resources, everybody on everything -- with resets on the way;
//  - exhaustive, for configurations of at most 9 request bits: every
//    request matrix from every arbiter state reachable from reset (see
//    run_exhaustive).
//
// Usage: tb_rtl alloc [cycles [seed]]
#include "tb_util.h"
#include "tb_main.h"
#include "tb_alloc_configs.h"

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "model/alloc.h"
}

namespace {

struct Cfg {
    const char *name;
    noc_alloc_kind_t kind;
    noc_arb_kind_t arb;
    int n_in, n_out, iters;
};

unsigned idx_width(int n) { return noc_vl::idx_width((unsigned)n); }

// The state of requester i's (in) or resource r's (out) arbiter in the C
// allocator, as the RTL shows it on in_state_o / out_state_o: a pointer, or
// the n x n matrix row by row. Bit b of that state.
uint64_t c_state_bit(const noc_alloc_t &a, bool in, int k, unsigned b)
{
    if (a.arb == NOC_ARB_ROUND_ROBIN) {
        int ptr = in ? noc_alloc_in_ptr(&a, k) : noc_alloc_out_ptr(&a, k);
        return ((unsigned)ptr >> b) & 1u;
    }
    const noc_arbiter_t &arb = in ? a.in_arb[k] : a.out_arb[k];
    const int n = arb.n, words = NOC_ARB_WORDS(n);
    const int i = (int)b / n, j = (int)b % n;
    return (arb.matrix[(size_t)i * (size_t)words + (size_t)(j >> 6)] >> (j & 63)) & 1u;
}

// Which path of noc_alloc_run_sparse a list takes (alloc.h), for the
// coverage line.
enum { PATH_LONE, PATH_PAIR, PATH_DISTINCT, PATH_GENERAL, PATH_COUNT };
int sparse_path(const noc_alloc_t &a, int n, const uint64_t *mask)
{
    if (n == 1 && mask[0])
        return PATH_LONE;
    if (n == 2 && a.kind == NOC_ALLOC_INPUT_FIRST && a.arb == NOC_ARB_ROUND_ROBIN && mask[0] && mask[1])
        return PATH_PAIR;
    uint64_t seen = 0;
    for (int k = 0; k < n; k++) {
        uint64_t m = mask[k];
        if ((m & (m - 1)) || (m & seen) || !m)
            return PATH_GENERAL;
        seen |= m;
    }
    return PATH_DISTINCT;
}

// One cycle's request matrix, by pattern.
void make_requests(tb::Rng &rng, int pattern, uint32_t pct, const Cfg &c, std::vector<uint64_t> &req)
{
    const uint64_t all = tb::mask_of((unsigned)c.n_out);
    std::fill(req.begin(), req.end(), 0);
    switch (pattern) {
    case 0: // random at a density
        for (auto &r : req)
            r = rng.bits((unsigned)c.n_out, pct);
        break;
    case 1: { // one or two requesters
        int n = 1 + (int)rng.below(2);
        for (int k = 0; k < n; k++) {
            uint64_t m = rng.bits((unsigned)c.n_out, pct);
            req[rng.below((uint32_t)c.n_in)] = m ? m : 1ull << rng.below((uint32_t)c.n_out);
        }
        break;
    }
    case 2: { // every requester alone on its single resource
        std::vector<int> res((size_t)c.n_out);
        for (int r = 0; r < c.n_out; r++)
            res[(size_t)r] = r;
        for (int r = c.n_out - 1; r > 0; r--)
            std::swap(res[(size_t)r], res[rng.below((uint32_t)r + 1)]);
        int next = 0;
        for (int i = 0; i < c.n_in && next < c.n_out; i++)
            if (rng.pct(pct))
                req[(size_t)i] = 1ull << res[(size_t)next++];
        break;
    }
    case 3: { // hot resources
        uint64_t hot = (1ull << rng.below((uint32_t)c.n_out)) | (1ull << rng.below((uint32_t)c.n_out));
        for (auto &r : req)
            if (rng.pct(pct))
                r = hot & (rng.pct(50) ? all : rng.next());
        break;
    }
    default: // everybody wants everything
        for (auto &r : req)
            r = all;
        break;
    }
}

std::string grants_str(const std::vector<int16_t> &g)
{
    std::string s;
    for (size_t i = 0; i < g.size(); i++) {
        if (i)
            s += ' ';
        s += std::to_string(g[i]);
    }
    return s;
}

// The sizes of a configuration's ports.
struct Dims {
    unsigned in_w, out_w, gi_w; // bits per input arbiter's state, output arbiter's, grant index
    explicit Dims(const Cfg &c)
        : in_w(c.arb == NOC_ARB_MATRIX ? (unsigned)(c.n_out * c.n_out) : idx_width(c.n_out)),
          out_w(c.arb == NOC_ARB_MATRIX ? (unsigned)(c.n_in * c.n_in) : idx_width(c.n_in)),
          gi_w(idx_width(c.n_out))
    {
    }
    unsigned bits(const Cfg &c) const { return (unsigned)c.n_in * in_w + (unsigned)c.n_out * out_w; }
};

// The state of all arbiters as a string of '0'/'1': in_state_o's bits, then
// out_state_o's, as the RTL shows them; c_key is the C allocator's state in
// that form, rtl_key the RTL's, c_set puts a key into a C allocator.
std::string c_key(const noc_alloc_t &a, const Cfg &c, const Dims &d)
{
    std::string k;
    for (int i = 0; i < c.n_in; i++)
        for (unsigned b = 0; b < d.in_w; b++)
            k += c_state_bit(a, true, i, b) ? '1' : '0';
    for (int r = 0; r < c.n_out; r++)
        for (unsigned b = 0; b < d.out_w; b++)
            k += c_state_bit(a, false, r, b) ? '1' : '0';
    return k;
}

template <class M>
std::string rtl_key(const M &m, const Cfg &c, const Dims &d)
{
    std::string k;
    for (unsigned b = 0; b < (unsigned)c.n_in * d.in_w; b++)
        k += tb::get_bits(m.in_state_o, b, 1) ? '1' : '0';
    for (unsigned b = 0; b < (unsigned)c.n_out * d.out_w; b++)
        k += tb::get_bits(m.out_state_o, b, 1) ? '1' : '0';
    return k;
}

void c_set(noc_alloc_t &a, const Cfg &c, const Dims &d, const std::string &k)
{
    size_t at = 0;
    for (int side = 0; side < 2; side++) {
        const bool in = side == 0;
        const int count = in ? c.n_in : c.n_out;
        const unsigned w = in ? d.in_w : d.out_w;
        for (int j = 0; j < count; j++, at += w) {
            if (a.arb == NOC_ARB_ROUND_ROBIN) {
                unsigned v = 0;
                for (unsigned b = 0; b < w; b++)
                    v |= (unsigned)(k[at + b] == '1') << b;
                if (in)
                    a.in_ptr[j] = (uint8_t)v;
                else
                    a.out_ptr[j] = (uint16_t)v;
                continue;
            }
            noc_arbiter_t &arb = in ? a.in_arb[j] : a.out_arb[j];
            const int n = arb.n, words = NOC_ARB_WORDS(n);
            for (unsigned b = 0; b < w; b++) {
                const int r = (int)b / n, col = (int)b % n;
                uint64_t &word = arb.matrix[(size_t)r * (size_t)words + (size_t)(col >> 6)];
                const uint64_t bit = 1ull << (col & 63);
                word = k[at + b] == '1' ? (word | bit) : (word & ~bit);
            }
        }
    }
}

// Where two keys first differ, in words.
std::string key_diff(const std::string &a, const std::string &b, const Cfg &c, const Dims &d)
{
    size_t at = 0;
    while (at < a.size() && a[at] == b[at])
        at++;
    const size_t in_bits = (size_t)c.n_in * d.in_w;
    char buf[96];
    if (at < in_bits)
        std::snprintf(buf, sizeof buf, "requester %zu's arbiter, state bit %zu", at / d.in_w, at % d.in_w);
    else
        std::snprintf(buf, sizeof buf, "resource %zu's arbiter, state bit %zu", (at - in_bits) / d.out_w,
                      (at - in_bits) % d.out_w);
    return buf;
}

template <class M>
void rtl_set_req(M &m, const Cfg &c, const std::vector<uint64_t> &req)
{
    for (size_t i = 0; i < req.size(); i++)
        tb::set_bits(m.req_i, (unsigned)(i * (size_t)c.n_out), (unsigned)c.n_out, req[i]);
}

// The RTL's grants (-1: none); false if gnt_o is not the one-hot form of
// gnt_idx_o and gnt_valid_o.
template <class M>
bool rtl_grants(const M &m, const Cfg &c, const Dims &d, std::vector<int16_t> &gr)
{
    bool onehot = true;
    for (size_t i = 0; i < gr.size(); i++) {
        uint64_t row = tb::get_bits(m.gnt_o, (unsigned)(i * (size_t)c.n_out), (unsigned)c.n_out);
        bool valid = tb::get_bits(m.gnt_valid_o, (unsigned)i, 1);
        uint64_t idx = tb::get_bits(m.gnt_idx_o, (unsigned)i * d.gi_w, d.gi_w);
        gr[i] = valid ? (int16_t)idx : (int16_t)-1;
        if (row != (valid ? 1ull << idx : 0) || (!valid && idx))
            onehot = false;
    }
    return onehot;
}

// The C allocator's sparse entry on req: the requesters in a random order,
// now and then with one that requests nothing. Returns the path taken.
int c_sparse(noc_alloc_t &a, const std::vector<uint64_t> &req, tb::Rng &rng, std::vector<int16_t> &gs)
{
    const size_t n_in = req.size();
    int16_t who[64], gl[64];
    uint64_t mask[64];
    int n = 0, path = -1;
    for (size_t i = 0; i < n_in; i++)
        if (req[i] || rng.below(32) == 0) {
            who[n] = (int16_t)i;
            mask[n] = req[i];
            n++;
        }
    for (int k = n - 1; k > 0; k--) {
        int j = (int)rng.below((uint32_t)k + 1);
        std::swap(who[k], who[j]);
        std::swap(mask[k], mask[j]);
    }
    if (n > 0) {
        path = sparse_path(a, n, mask);
        noc_alloc_run_sparse(&a, n, who, mask, gl);
    }
    std::fill(gs.begin(), gs.end(), -1);
    for (int k = 0; k < n; k++)
        gs[(size_t)who[k]] = gl[k];
    return path;
}

void print_grants(const Cfg &c, const std::vector<uint64_t> &req, const std::vector<int16_t> &gd,
                  const std::vector<int16_t> &gs, const std::vector<int16_t> &gr, bool onehot)
{
    std::printf("  requests (resource 0 first):");
    for (uint64_t r : req)
        std::printf(" %s", tb::bitstr(r, (unsigned)c.n_out).c_str());
    std::printf("\n  C dense:  %s\n  C sparse: %s\n  RTL:      %s%s\n", grants_str(gd).c_str(),
                grants_str(gs).c_str(), grants_str(gr).c_str(),
                onehot ? "" : " (gnt_o is not the one-hot of gnt_idx_o)");
}

template <class M>
int run_random(const Cfg &c, const tb::Args &args)
{
    tb::Part<M> part;
    M &m = *part.m;
    tb::Rng rng(args.seed * 0x100000001b3ull + (uint64_t)(c.kind * 1000 + c.arb * 100 + c.n_in * 10 + c.n_out));
    const Dims d(c);
    noc_alloc_t dense, sparse;
    noc_alloc_init(&dense, c.kind, c.arb, c.n_in, c.n_out, c.iters);
    noc_alloc_init(&sparse, c.kind, c.arb, c.n_in, c.n_out, c.iters);
    const size_t n_in = (size_t)c.n_in;
    std::vector<uint64_t> req(n_in);
    std::vector<int16_t> gd(n_in), gs(n_in), gr(n_in);
    uint64_t path[PATH_COUNT] = {0}, grants = 0, resets = 0;
    int pattern = 0;
    uint32_t pct = 50;

    rtl_set_req(m, c, req);
    tb::reset(m);
    for (uint64_t cyc = 0; cyc < args.cycles; cyc++) {
        if (cyc % 64 == 0) {
            static const uint32_t pcts[] = {5, 20, 50, 80, 100};
            pattern = (int)rng.below(5);
            pct = pcts[rng.below(5)];
        }
        if (rng.below(4096) == 0) {
            tb::reset(m);
            noc_alloc_free(&dense);
            noc_alloc_free(&sparse);
            noc_alloc_init(&dense, c.kind, c.arb, c.n_in, c.n_out, c.iters);
            noc_alloc_init(&sparse, c.kind, c.arb, c.n_in, c.n_out, c.iters);
            resets++;
        }

        // The arbiters' state, before this cycle's allocation.
        const std::string kr = rtl_key(m, c, d), kd = c_key(dense, c, d), ks = c_key(sparse, c, d);
        if (kr != kd || kr != ks) {
            const std::string &other = kr != kd ? kd : ks;
            std::printf("rtl.alloc: %s: state difference before cycle %" PRIu64 ": %s differs from C %s\n"
                        "  C dense:  %s\n  C sparse: %s\n  RTL:      %s\n",
                        c.name, cyc, key_diff(kr, other, c, d).c_str(), kr != kd ? "dense" : "sparse",
                        kd.c_str(), ks.c_str(), kr.c_str());
            return 1;
        }

        make_requests(rng, pattern, pct, c, req);
        rtl_set_req(m, c, req);
        m.eval();
        noc_alloc_run(&dense, req.data(), gd.data());
        int p = c_sparse(sparse, req, rng, gs);
        if (p >= 0)
            path[p]++;
        const bool onehot = rtl_grants(m, c, d, gr);
        if (gd != gr || gs != gr || !onehot) {
            std::printf("rtl.alloc: %s: difference in cycle %" PRIu64 "\n", c.name, cyc);
            print_grants(c, req, gd, gs, gr, onehot);
            return 1;
        }
        for (size_t i = 0; i < n_in; i++)
            grants += gr[i] >= 0;
        tb::tick(m);
    }
    noc_alloc_free(&dense);
    noc_alloc_free(&sparse);
    std::printf("rtl.alloc: %s: random: %" PRIu64 " cycles, %" PRIu64 " grants, %" PRIu64
                " resets; sparse paths: lone %" PRIu64 ", pair %" PRIu64 ", distinct %" PRIu64
                ", list %" PRIu64 ": identical\n",
                c.name, args.cycles, grants, resets, path[PATH_LONE], path[PATH_PAIR],
                path[PATH_DISTINCT], path[PATH_GENERAL]);
    return 0;
}

// Every request matrix from every arbiter state reachable from reset, for
// configurations with at most EXHAUSTIVE_BITS request bits. The states are
// found breadth first with the C allocator (whose state can be set); the
// RTL, whose state cannot, is brought to each state by replaying, from a
// reset, the requests that first reached it. For each (state, matrix) pair:
// the grants of the RTL, of the C dense entry and of the C sparse entry,
// and the RTL's next state against the C's.
enum { EXHAUSTIVE_BITS = 9 };

template <class M>
int run_exhaustive(const Cfg &c, const tb::Args &args)
{
    const Dims d(c);
    const unsigned bits = (unsigned)(c.n_in * c.n_out);
    if (bits > EXHAUSTIVE_BITS)
        return 0;
    tb::Part<M> part;
    M &m = *part.m;
    tb::Rng rng(args.seed + 77u);
    noc_alloc_t dense, sparse;
    noc_alloc_init(&dense, c.kind, c.arb, c.n_in, c.n_out, c.iters);
    noc_alloc_init(&sparse, c.kind, c.arb, c.n_in, c.n_out, c.iters);
    const size_t n_in = (size_t)c.n_in;
    std::vector<uint64_t> req(n_in);
    std::vector<int16_t> gd(n_in), gs(n_in), gr(n_in);
    const uint64_t all_req = 1ull << bits;
    auto unpack = [&](uint64_t mat) {
        for (size_t i = 0; i < n_in; i++)
            req[i] = (mat >> (i * (size_t)c.n_out)) & tb::mask_of((unsigned)c.n_out);
    };

    std::map<std::string, std::vector<uint32_t>> paths; // state -> requests reaching it
    std::deque<std::string> frontier;
    const std::string k0 = c_key(dense, c, d);
    paths[k0] = {};
    frontier.push_back(k0);
    uint64_t pairs = 0, cycles = 0;
    while (!frontier.empty()) {
        const std::string key = frontier.front();
        frontier.pop_front();
        const std::vector<uint32_t> path = paths[key];
        for (uint64_t mat = 0; mat < all_req; mat++) {
            // the RTL, brought to the state
            unpack(0);
            rtl_set_req(m, c, req);
            tb::reset(m);
            for (uint32_t p : path) {
                unpack(p);
                rtl_set_req(m, c, req);
                tb::tick(m);
            }
            cycles += path.size() + 1;
            if (rtl_key(m, c, d) != key) {
                std::printf("rtl.alloc: %s: exhaustive: replaying %zu cycles of requests did not bring the "
                            "RTL to the C state\n  C:   %s\n  RTL: %s\n",
                            c.name, path.size(), key.c_str(), rtl_key(m, c, d).c_str());
                return 1;
            }
            unpack(mat);
            rtl_set_req(m, c, req);
            m.eval();
            c_set(dense, c, d, key);
            c_set(sparse, c, d, key);
            noc_alloc_run(&dense, req.data(), gd.data());
            c_sparse(sparse, req, rng, gs);
            const bool onehot = rtl_grants(m, c, d, gr);
            if (gd != gr || gs != gr || !onehot) {
                std::printf("rtl.alloc: %s: exhaustive: difference in state %s\n", c.name, key.c_str());
                print_grants(c, req, gd, gs, gr, onehot);
                return 1;
            }
            tb::tick(m);
            const std::string kd = c_key(dense, c, d), ks = c_key(sparse, c, d), kr = rtl_key(m, c, d);
            if (kr != kd || kr != ks) {
                std::printf("rtl.alloc: %s: exhaustive: next-state difference from state %s\n", c.name,
                            key.c_str());
                print_grants(c, req, gd, gs, gr, onehot);
                std::printf("  next state: C dense %s, C sparse %s, RTL %s\n", kd.c_str(), ks.c_str(),
                            kr.c_str());
                return 1;
            }
            pairs++;
            if (!paths.count(kd)) {
                std::vector<uint32_t> next = path;
                next.push_back((uint32_t)mat);
                paths[kd] = next;
                frontier.push_back(kd);
            }
        }
    }
    noc_alloc_free(&dense);
    noc_alloc_free(&sparse);
    std::printf("rtl.alloc: %s: exhaustive: %zu reachable states x %" PRIu64 " request matrices = %" PRIu64
                " pairs (%" PRIu64 " cycles): identical\n",
                c.name, paths.size(), all_req, pairs, cycles);
    return 0;
}

} // namespace

int tb_alloc_main(int argc, char **argv)
{
    const tb::Args args = tb::parse_args(argc, argv, 20000, 1);
    int failed = 0, configs = 0;
#define RUN(V, KIND, ARB, N_IN, N_OUT, ITERS)                                                      \
    {                                                                                              \
        const Cfg c = {#V, (noc_alloc_kind_t)(KIND), (noc_arb_kind_t)(ARB), N_IN, N_OUT, ITERS};   \
        configs++;                                                                                 \
        failed += run_random<V>(c, args) || run_exhaustive<V>(c, args);                                                           \
    }
    NOC_TB_ALLOC_CONFIGS(RUN)
#undef RUN
    std::printf("rtl.alloc: %d passed, %d failed\n", configs - failed, failed);
    return failed ? 1 : 0;
}
