// tb_router.cpp: unit bench of the router core, rtl/noc_vc_router.sv
// (ctest rtl.router). Not yet a lockstep against routers/vc (docs/rtl.md,
// "The router core"): it checks the core's own contract.
//
// For each Verilated configuration (tb_router_configs.h, made by CMake):
//   (a) zero load: a one-flit packet given on input port p, VC v in cycle t,
//       routed to output port o, crosses the switch (its credit on
//       in_credit_o) in cycle t+3 and is on out_*_o in cycle t+4, alone
//       (the vc pipeline with R = VA = SA = ST = 1; docs/rtl.md), for every
//       p, v and o;
//   (b) streaming: a packet of 3*DEPTH flits given one a cycle leaves one a
//       cycle, in order, from t+4 on (credits returned downstream);
//   (c) credits: with no credit returned downstream, exactly DEPTH flits
//       leave per output VC of a non-ejection port; each credit returned
//       then lets exactly one more through;
//   (d) random traffic: every input port sends packets of random lengths on
//       random VCs (obeying the credits the core returns) to random output
//       ports and classes; the downstream side returns credits after random
//       delays. Every flit must leave exactly once, on the port its route
//       names, on an output VC of its class, in order per input VC, and
//       packets must not interleave on an output VC; all must drain.
// Any assertion of the core (flit into a full VC, credit overflow, ...)
// stops the run.
//
// Usage: tb_rtl router [cycles [seed]]   (cycles: of the random run)
#include "tb_util.h"
#include "tb_main.h"
#include "tb_router_configs.h"

#include <deque>
#include <map>
#include <vector>

namespace {

using noc_vl::idx_width;

struct Cfg {
    const char *name;
    unsigned P, V, depth, flit_w, n_class, arb;
};

struct InFlit {
    bool valid = false, head = false, tail = false;
    unsigned vc = 0, port = 0, cls = 0;
    uint64_t data = 0;
};
struct OutFlit {
    bool valid;
    bool head, tail;
    unsigned vc;
    uint64_t data;
};

template <class M>
class Dut {
  public:
    Dut(const Cfg &c) : c_(c), pw_(idx_width(c.P)), vw_(idx_width(c.V)), cw_(idx_width(c.n_class)) {}
    M &m() { return *part_.m; }
    const Cfg &cfg() const { return c_; }

    void reset()
    {
        clear_inputs();
        tb::reset(m());
        now_ = 0;
    }
    void clear_inputs()
    {
        M &d = m();
        d.in_valid_i = 0;
        d.in_head_i = 0;
        d.in_tail_i = 0;
        tb::set_bits(d.in_vc_i, 0, 1, 0);
        for (unsigned p = 0; p < c_.P; p++) {
            tb::set_bits(d.in_data_i, p * c_.flit_w, c_.flit_w, 0);
            tb::set_bits(d.in_vc_i, p * vw_, vw_, 0);
            tb::set_bits(d.in_port_i, p * pw_, pw_, 0);
            tb::set_bits(d.in_class_i, p * cw_, cw_, 0);
        }
        for (unsigned k = 0; k < c_.P * c_.V; k++)
            tb::set_bits(d.out_credit_i, k, 1, 0);
    }
    void drive(unsigned p, const InFlit &f)
    {
        M &d = m();
        tb::set_bits(d.in_valid_i, p, 1, f.valid);
        tb::set_bits(d.in_head_i, p, 1, f.head);
        tb::set_bits(d.in_tail_i, p, 1, f.tail);
        tb::set_bits(d.in_data_i, p * c_.flit_w, c_.flit_w, f.data);
        tb::set_bits(d.in_vc_i, p * vw_, vw_, f.vc);
        tb::set_bits(d.in_port_i, p * pw_, pw_, f.port);
        tb::set_bits(d.in_class_i, p * cw_, cw_, f.cls);
    }
    void credit(unsigned o, unsigned v, bool on) { tb::set_bits(m().out_credit_i, o * c_.V + v, 1, on); }
    // after settle(): this cycle's outputs
    void settle() { m().eval(); }
    OutFlit out(unsigned o)
    {
        M &d = m();
        return OutFlit{tb::get_bits(d.out_valid_o, o, 1) != 0, tb::get_bits(d.out_head_o, o, 1) != 0,
                       tb::get_bits(d.out_tail_o, o, 1) != 0, (unsigned)tb::get_bits(d.out_vc_o, o * vw_, vw_),
                       tb::get_bits(d.out_data_o, o * c_.flit_w, c_.flit_w)};
    }
    bool credit_out(unsigned p, unsigned v) { return tb::get_bits(m().in_credit_o, p * c_.V + v, 1) != 0; }
    void tick()
    {
        tb::tick(m());
        now_++;
    }
    uint64_t now() const { return now_; }
    // VCs of class cls (noc_vc_class_range)
    unsigned class_lo(unsigned cls) const { return cls * c_.V / c_.n_class; }
    unsigned class_hi(unsigned cls) const { return (cls + 1) * c_.V / c_.n_class; }

  private:
    Cfg c_;
    unsigned pw_, vw_, cw_;
    tb::Part<M> part_;
    uint64_t now_ = 0;
};

#define FAIL(...)                                                                                          \
    do {                                                                                                   \
        std::printf("rtl.router: %s: ", c.name);                                                           \
        std::printf(__VA_ARGS__);                                                                          \
        std::printf("\n");                                                                                 \
        return 1;                                                                                          \
    } while (0)

// (a) zero-load timing, every input port, input VC and output port.
template <class M>
int zero_load(Dut<M> &d)
{
    const Cfg &c = d.cfg();
    for (unsigned p = 0; p < c.P; p++)
        for (unsigned v = 0; v < c.V; v++)
            for (unsigned o = 0; o < c.P; o++) {
                d.reset();
                const unsigned cls = (p + o) % c.n_class;
                const uint64_t data = (0x5a5aull + p * 97 + v * 13 + o) & tb::mask_of(c.flit_w);
                const uint64_t t = 3;
                bool seen = false;
                for (uint64_t cyc = 0; cyc < 12; cyc++) {
                    d.clear_inputs();
                    if (cyc == t)
                        d.drive(p, InFlit{true, true, true, v, o, cls, data});
                    d.settle();
                    for (unsigned q = 0; q < c.P; q++)
                        for (unsigned w = 0; w < c.V; w++)
                            if (d.credit_out(q, w) != (cyc == t + 3 && q == p && w == v))
                                FAIL("zero load %u.%u -> %u: credit of input VC %u.%u %s in cycle %llu (flit in at %llu)",
                                     p, v, o, q, w, d.credit_out(q, w) ? "given" : "missing",
                                     (unsigned long long)cyc, (unsigned long long)t);
                    for (unsigned q = 0; q < c.P; q++) {
                        OutFlit f = d.out(q);
                        const bool want = cyc == t + 4 && q == o;
                        if (f.valid != want)
                            FAIL("zero load %u.%u -> %u: output port %u %s in cycle %llu (flit in at %llu, expected out at %llu)",
                                 p, v, o, q, f.valid ? "valid" : "idle", (unsigned long long)cyc,
                                 (unsigned long long)t, (unsigned long long)(t + 4));
                        if (!want)
                            continue;
                        seen = true;
                        const bool vc_ok = o == 0 || (f.vc >= d.class_lo(cls) && f.vc < d.class_hi(cls));
                        if (!f.head || !f.tail || f.data != data || !vc_ok)
                            FAIL("zero load %u.%u -> %u: wrong flit out (head %d tail %d data %llx vc %u)", p, v, o,
                                 f.head, f.tail, (unsigned long long)f.data, f.vc);
                    }
                    d.tick();
                }
                if (!seen)
                    FAIL("zero load %u.%u -> %u: no flit out", p, v, o);
            }
    return 0;
}

// (b) a long packet streams one flit a cycle.
template <class M>
int streaming(Dut<M> &d)
{
    const Cfg &c = d.cfg();
    for (unsigned p = 0; p < c.P; p++) {
        const unsigned o = (p + 1) % c.P, v = c.V - 1, n = 3 * c.depth;
        d.reset();
        const uint64_t t = 2;
        unsigned got = 0;
        // upstream obeys the credits; with DEPTH >= 4 they cover the round
        // trip (flit in t, credit back t+3, next flit t+4) and nothing stalls
        unsigned in = 0, up = c.depth;
        const bool one_a_cycle = c.depth >= 4;
        for (uint64_t cyc = 0; cyc < t + 3 * n + 10; cyc++) {
            d.clear_inputs();
            if (cyc >= t && in < n && up > 0) {
                const unsigned k = in++;
                up--;
                d.drive(p, InFlit{true, k == 0, k == n - 1, v, o, 0, (k + 1) & tb::mask_of(c.flit_w)});
            }
            d.settle();
            if (d.credit_out(p, v))
                up++;
            OutFlit f = d.out(o);
            if (f.valid) {
                if ((one_a_cycle && cyc != t + 4 + got) || f.data != ((got + 1) & tb::mask_of(c.flit_w)) || f.head != (got == 0) ||
                    f.tail != (got == n - 1))
                    FAIL("streaming %u -> %u: flit %u out in cycle %llu (expected %llu), data %llu", p, o, got,
                         (unsigned long long)cyc, (unsigned long long)(t + 4 + got), (unsigned long long)f.data);
                // return its credit right away (the downstream buffer drains)
                if (o != 0)
                    d.credit(o, f.vc, true);
                got++;
            }
            d.tick();
        }
        if (got != n)
            FAIL("streaming %u -> %u: %u of %u flits out", p, o, got, n);
    }
    return 0;
}

// (c) without returned credits, DEPTH flits per output VC; then one per credit.
template <class M>
int credits(Dut<M> &d)
{
    const Cfg &c = d.cfg();
    if (c.P < 2)
        return 0;
    const unsigned o = c.P - 1, n = 2 * c.depth + 2;
    d.reset();
    // one long packet per input VC of port 0, all of class 0 ... or of every
    // class, so that every output VC of o gets one
    std::vector<unsigned> sent(c.V, 0), up(c.V, c.depth);
    std::vector<unsigned> out_per_vc(c.V, 0);
    std::vector<int> vc_of(c.V, -1);
    for (uint64_t cyc = 0; cyc < 20 * n + 40; cyc++) {
        d.clear_inputs();
        // port 0 sends on VC cyc % V when it has a credit
        unsigned v = (unsigned)(cyc % c.V);
        unsigned cls = v * c.n_class / c.V; // spread over the classes
        if (sent[v] < n && up[v] > 0) {
            d.drive(0, InFlit{true, sent[v] == 0, sent[v] == n - 1, v, o, cls, (uint64_t)(v * 1000 + sent[v])});
            sent[v]++;
            up[v]--;
        }
        d.settle();
        for (unsigned w = 0; w < c.V; w++)
            if (d.credit_out(0, w))
                up[w]++;
        OutFlit f = d.out(o);
        if (f.valid)
            out_per_vc[f.vc]++;
        d.tick();
    }
    // each of the V packets holds its own output VC (as many as the classes allow)
    unsigned total = 0;
    for (unsigned w = 0; w < c.V; w++) {
        if (out_per_vc[w] != 0 && out_per_vc[w] != c.depth)
            FAIL("credits: %u flits left on output VC %u of port %u without credits back (DEPTH %u)", out_per_vc[w], w,
                 o, c.depth);
        total += out_per_vc[w];
    }
    if (total == 0)
        FAIL("credits: nothing left port %u", o);
    // one credit back on a used VC: exactly one more flit
    for (unsigned w = 0; w < c.V; w++) {
        if (!out_per_vc[w])
            continue;
        for (int k = 0; k < 10; k++) {
            d.clear_inputs();
            if (k == 0)
                d.credit(o, w, true);
            d.settle();
            OutFlit f = d.out(o);
            if (f.valid) {
                if (f.vc != w)
                    FAIL("credits: a flit left on output VC %u after a credit for VC %u", f.vc, w);
                out_per_vc[w]++;
            }
            d.tick();
        }
        if (out_per_vc[w] != c.depth + 1)
            FAIL("credits: %u flits on output VC %u after one credit back (expected %u)", out_per_vc[w], w,
                 c.depth + 1);
    }
    return 0;
}

// (d) random traffic.
template <class M>
int random_traffic(Dut<M> &d, const tb::Args &args, uint64_t *flits_out)
{
    const Cfg &c = d.cfg();
    tb::Rng rng(args.seed * 0x9e3779b97f4a7c15ull + c.P * 7919u + c.V * 31u + c.depth);
    const unsigned P = c.P, V = c.V;
    const uint64_t idmask = tb::mask_of(c.flit_w);
    struct Flit {
        unsigned in_p, in_v, port, cls;
        bool head, tail;
        uint64_t seq; // per input VC
        uint64_t pkt;
    };
    std::map<uint64_t, Flit> sent;          // by id (payload)
    std::vector<std::deque<Flit>> queue(P * V);  // flits waiting upstream, per input VC
    std::vector<unsigned> up(P * V, c.depth);     // upstream credits per input VC
    std::vector<uint64_t> next_seq(P * V, 0), last_seq(P * V, 0);
    std::vector<bool> any_out(P * V, false);
    std::vector<unsigned> owed(P * V, 0);         // credits to return per output VC
    std::vector<int64_t> open(P * V, -1);          // packet holding output VC (o, v), or -1
    std::vector<uint64_t> open_next(P * V, 0);
    uint64_t id = 1, pkt = 0, n_sent = 0, n_out = 0;
    unsigned load = 30, credit_pct = 50;
    d.reset();
    const uint64_t drain = 2000 + 50 * c.depth;
    for (uint64_t cyc = 0; cyc < args.cycles + drain; cyc++) {
        const bool injecting = cyc < args.cycles;
        if (cyc % 500 == 0) {
            static const unsigned loads[] = {5, 30, 60, 100};
            static const unsigned cps[] = {100, 50, 20, 5};
            load = loads[rng.below(4)];
            credit_pct = injecting ? cps[rng.below(4)] : 100;
        }
        // new packets
        if (injecting)
            for (unsigned l = 0; l < P * V; l++)
                if (queue[l].size() < 4 && rng.pct(load / 4 + 1)) {
                    unsigned len = 1 + (rng.pct(30) ? 0 : rng.below(2 * c.depth + 2));
                    unsigned port = rng.below(P), cls = rng.below(c.n_class);
                    for (unsigned k = 0; k < len; k++)
                        queue[l].push_back(Flit{l / V, l % V, port, cls, k == 0, k == len - 1, next_seq[l]++, pkt});
                    pkt++;
                }
        d.clear_inputs();
        // each input port sends at most one flit, from a VC with a credit
        for (unsigned p = 0; p < P; p++) {
            if (!rng.pct(load) && injecting)
                continue;
            unsigned start = rng.below(V);
            for (unsigned k = 0; k < V; k++) {
                unsigned l = p * V + (start + k) % V;
                if (queue[l].empty() || up[l] == 0)
                    continue;
                Flit f = queue[l].front();
                queue[l].pop_front();
                up[l]--;
                uint64_t pid = id++ & idmask;
                if (sent.count(pid))
                    FAIL("random: payload ids wrapped (run shorter or widen FLIT_W)");
                sent[pid] = f;
                d.drive(p, InFlit{true, f.head, f.tail, l % V, f.port, f.cls, pid});
                n_sent++;
                break;
            }
        }
        // credits back downstream
        for (unsigned k = V; k < P * V; k++)
            if (owed[k] && rng.pct(credit_pct)) {
                d.credit(k / V, k % V, true);
                owed[k]--;
            }
        d.settle();
        for (unsigned l = 0; l < P * V; l++)
            if (d.credit_out(l / V, l % V)) {
                up[l]++;
                if (up[l] > c.depth)
                    FAIL("random: credit overflow upstream of input VC %u.%u in cycle %llu", l / V, l % V,
                         (unsigned long long)cyc);
            }
        for (unsigned o = 0; o < P; o++) {
            OutFlit f = d.out(o);
            if (!f.valid)
                continue;
            auto it = sent.find(f.data);
            if (it == sent.end())
                FAIL("random: cycle %llu: unknown or duplicated flit %llx out of port %u", (unsigned long long)cyc,
                     (unsigned long long)f.data, o);
            Flit s = it->second;
            sent.erase(it);
            const unsigned l = s.in_p * V + s.in_v, k = o * V + f.vc;
            if (s.port != o)
                FAIL("random: cycle %llu: flit of input VC %u.%u routed to port %u left on port %u",
                     (unsigned long long)cyc, s.in_p, s.in_v, s.port, o);
            if (o != 0 && (f.vc < d.class_lo(s.cls) || f.vc >= d.class_hi(s.cls)))
                FAIL("random: cycle %llu: flit of class %u left port %u on VC %u", (unsigned long long)cyc, s.cls, o,
                     f.vc);
            if (f.head != s.head || f.tail != s.tail)
                FAIL("random: cycle %llu: head/tail bits changed", (unsigned long long)cyc);
            if (any_out[l] && s.seq != last_seq[l] + 1)
                FAIL("random: cycle %llu: input VC %u.%u: flit %llu out after flit %llu", (unsigned long long)cyc,
                     s.in_p, s.in_v, (unsigned long long)s.seq, (unsigned long long)last_seq[l]);
            any_out[l] = true;
            last_seq[l] = s.seq;
            // wormhole: one packet at a time per output VC
            if (s.head) {
                if (open[k] >= 0)
                    FAIL("random: cycle %llu: head on output VC %u.%u still held by packet %lld",
                         (unsigned long long)cyc, o, f.vc, (long long)open[k]);
                open[k] = (int64_t)s.pkt;
            } else if (open[k] != (int64_t)s.pkt) {
                FAIL("random: cycle %llu: body flit of packet %llu on output VC %u.%u held by %lld",
                     (unsigned long long)cyc, (unsigned long long)s.pkt, o, f.vc, (long long)open[k]);
            }
            if (s.tail)
                open[k] = -1;
            if (o != 0)
                owed[k]++;
            n_out++;
        }
        d.tick();
    }
    if (!sent.empty())
        FAIL("random: %zu of %llu flits never left", sent.size(), (unsigned long long)n_sent);
    for (unsigned l = 0; l < P * V; l++)
        if (!queue[l].empty() || up[l] != c.depth)
            FAIL("random: input VC %u.%u did not drain (%zu waiting, %u credits)", l / V, l % V, queue[l].size(), up[l]);
    *flits_out = n_out;
    return 0;
}

template <class M>
int run(const Cfg &c, const tb::Args &args)
{
    Dut<M> d(c);
    uint64_t flits = 0;
    if (zero_load(d) || streaming(d) || credits(d) || random_traffic(d, args, &flits))
        return 1;
    std::printf("rtl.router: %s (P %u, V %u, DEPTH %u, FLIT_W %u, %u classes, %s): zero load, streaming, "
                "credits, %llu random cycles (%llu flits): ok\n",
                c.name, c.P, c.V, c.depth, c.flit_w, c.n_class, c.arb ? "matrix" : "round-robin",
                (unsigned long long)args.cycles, (unsigned long long)flits);
    return 0;
}

} // namespace

int tb_router_main(int argc, char **argv)
{
    const tb::Args args = tb::parse_args(argc, argv, 100000, 1);
    int failed = 0, configs = 0;
#define X(V, name, P, Vc, depth, fw, ncls, arb)                                                            \
    do {                                                                                                   \
        configs++;                                                                                         \
        failed += run<V>(Cfg{name, P, Vc, depth, fw, ncls, arb}, args);                                    \
    } while (0);
    NOC_TB_ROUTER_CONFIGS(X)
#undef X
    std::printf("rtl.router: %d passed, %d failed\n", configs - failed, failed);
    return failed ? 1 : 0;
}
