// cosim.cpp: the router core rtl/noc_vc_router.sv in lockstep with the C
// router routers/vc, inside a fabric run by the ordinary kernel (ctest
// cosim.short; docs/rtl.md, "Lockstep with routers/vc").
//
// The C simulator runs a small fabric (mesh:3x3) with synthetic traffic and
// the vc router at its default pipeline (routing_delay 1, VA, SA, ST 1,
// separable input-first allocators, lookahead 0). Every node n (or one, with
// node=LABEL) is shadowed by a Verilated noc_vc_router of the node's port
// count, V, DEPTH and arbiter kind. Between noc_sim_step calls, after C
// cycle T:
//   - the RTL gets, as its inputs of cycle T, what arrives at n in cycle
//     T+1 (the C model's arrival cycle is one after the RTL's input cycle,
//     docs/rtl.md "Pipeline and timing"): the flits in slot T+1 of the
//     channels into n, with their route at n (noc_graph_route, computed here:
//     the core has no topology), and the credits in slot T+1 of the rings of
//     n's output channels;
//   - its in_credit_o (combinational, the crossings of cycle T) is compared
//     with the credits n wrote in cycle T (slot T + credit_delay of the
//     rings of n's input channels);
//   - after the clock edge, its out_*_o (registered: the crossings of cycle
//     T) is compared with the flits n wrote in cycle T (slot T +
//     sw_alloc_delay + st_final_delay + the channel's latency of n's output
//     channels): valid, VC, head/tail, and the flit's identity (packet pool
//     slot, flit index and destination, packed into the 64-bit payload).
// The first difference stops the run with the cycle, the node, the port, the
// VC and both values. The core's own assertions (flit into a full VC, credit
// overflow, ...) are on.
//
// Usage: cosim [cycles [seed]] [key=value ...]
//   key=value: a run parameter (model/params.def) for the C side, or
//   node=LABEL (shadow that node only). Without arb_type, the run is made
//   twice, with round_robin and with matrix arbiters.
#include "tb_util.h"
#include "cosim_models.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "model/sim_internal.h"
#include "routers/registry.h"
#include "traffic/synthetic.h"
}

namespace {

using noc_vl::idx_width;

// The flit's identity in the core's 64-bit payload.
uint64_t pack(const noc_flit_t &f)
{
    return (uint64_t)f.pkt | (uint64_t)f.seq << 32 | (uint64_t)(uint16_t)f.dst << 48;
}

std::string flit_str(const noc_sim_t *s, bool valid, unsigned vc, bool head, bool tail, uint64_t data)
{
    if (!valid)
        return "no flit";
    char buf[160];
    uint32_t pkt = (uint32_t)data;
    std::snprintf(buf, sizeof buf, "flit %u of packet slot %u (id %llu) to node %u, VC %u%s%s",
                  (unsigned)(data >> 32 & 0xffff), pkt,
                  pkt < s->pkt_cap ? (unsigned long long)s->pkts[pkt].id : 0ull, (unsigned)(data >> 48), vc,
                  head ? ", head" : "", tail ? ", tail" : "");
    return buf;
}

struct Shadow {
    virtual ~Shadow() = default;
    // One cycle, after C cycle T; returns 0, or 1 after printing the first
    // difference.
    virtual int cycle(noc_sim_t *s, uint64_t T) = 0;
    uint64_t flits = 0, credits = 0;
};

template <class M>
class ShadowT : public Shadow {
  public:
    ShadowT(noc_sim_t *s, int n) : n_(n)
    {
        const noc_graph_t *t = s->graph;
        P_ = (unsigned)(t->port_base[n + 1] - t->port_base[n]);
        V_ = (unsigned)s->V;
        base_ = t->port_base[n];
        pw_ = idx_width(P_);
        vw_ = idx_width(V_);
        cw_ = idx_width((unsigned)t->n_vclasses);
        out_delay_ = (unsigned)(s->cfg.sw_alloc_delay + s->cfg.st_final_delay);
        noc_graph_label(t, n, label_, sizeof label_);
        M &m = *part_.m;
        m.in_valid_i = 0;
        tb::reset(m);
    }

    int cycle(noc_sim_t *s, uint64_t T) override
    {
        M &m = *part_.m;
        const noc_graph_t *t = s->graph;
        const uint32_t cap = s->cap, mask = s->mask, V = V_;
        const uint32_t next = (uint32_t)((T + 1) & mask);
        // inputs: what arrives at n in cycle T+1
        m.in_valid_i = 0;
        m.in_head_i = 0;
        m.in_tail_i = 0;
        for (unsigned p = 0; p < P_; p++) {
            int c = s->in_chan[base_ + (int)p];
            uint32_t i = (uint32_t)c * cap + next;
            uint64_t data = 0;
            unsigned vc = 0, port = 0, cls = 0;
            bool valid = s->ring_valid[i] != 0, head = false, tail = false;
            if (valid) {
                const noc_flit_t &f = s->ring_flit[i];
                noc_route_t rt;
                noc_graph_route_pkt(t, s->pkts, f.pkt, n_, f.dst, f.hops, &rt);
                data = pack(f);
                vc = f.vc;
                port = rt.port;
                cls = rt.port ? rt.vclass : 0;
                head = f.flags & NOC_FLIT_HEAD;
                tail = f.flags & NOC_FLIT_TAIL;
            }
            tb::set_bits(m.in_valid_i, p, 1, valid);
            tb::set_bits(m.in_head_i, p, 1, head);
            tb::set_bits(m.in_tail_i, p, 1, tail);
            tb::set_bits(m.in_data_i, p * 64, 64, data);
            tb::set_bits(m.in_vc_i, p * vw_, vw_, vc);
            tb::set_bits(m.in_port_i, p * pw_, pw_, port);
            tb::set_bits(m.in_class_i, p * cw_, cw_, cls);
        }
        for (unsigned o = 0; o < P_; o++)
            for (unsigned v = 0; v < V; v++) {
                unsigned k = 0;
                if (o != 0) {
                    int c = base_ + (int)o;
                    k = s->ring_credit[((size_t)c * cap + next) * V + v];
                    if (k > 1) {
                        std::printf("cosim: cycle %llu, node %s: %u credits at once for output VC %u.%u "
                                    "(the core takes one a cycle)\n",
                                    (unsigned long long)T, label_, k, o, v);
                        return 1;
                    }
                }
                tb::set_bits(m.out_credit_i, o * V + v, 1, k);
            }
        m.eval();
        // credits upstream: the crossings of cycle T
        const uint32_t cslot = (uint32_t)((T + s->credit_delay) & mask);
        for (unsigned p = 0; p < P_; p++)
            for (unsigned v = 0; v < V; v++) {
                int c = s->in_chan[base_ + (int)p];
                unsigned want = s->ring_credit[((size_t)c * cap + cslot) * V + v];
                unsigned got = (unsigned)tb::get_bits(m.in_credit_o, p * V + v, 1);
                if (want != got) {
                    std::printf("cosim: cycle %llu, node %s: credit upstream from input port %u, VC %u: "
                                "C %u, RTL %u\n",
                                (unsigned long long)T, label_, p, v, want, got);
                    return 1;
                }
                credits += got;
            }
        tb::tick(m);
        // flits out: the crossings of cycle T
        for (unsigned o = 0; o < P_; o++) {
            int g = base_ + (int)o;
            uint32_t i = (uint32_t)g * cap + (uint32_t)((T + out_delay_ + s->chan_delay[g]) & mask);
            bool cv = s->ring_valid[i] != 0;
            const noc_flit_t &f = s->ring_flit[i];
            bool rv = tb::get_bits(m.out_valid_o, o, 1) != 0;
            unsigned rvc = (unsigned)tb::get_bits(m.out_vc_o, o * vw_, vw_);
            bool rh = tb::get_bits(m.out_head_o, o, 1) != 0, rt = tb::get_bits(m.out_tail_o, o, 1) != 0;
            uint64_t rd = tb::get_bits(m.out_data_o, o * 64, 64);
            bool same = cv == rv;
            if (same && cv)
                same = rvc == f.vc && rh == ((f.flags & NOC_FLIT_HEAD) != 0) &&
                       rt == ((f.flags & NOC_FLIT_TAIL) != 0) && rd == pack(f);
            if (!same) {
                std::printf("cosim: cycle %llu, node %s: output port %u:\n  C:   %s\n  RTL: %s\n",
                            (unsigned long long)T, label_, o,
                            flit_str(s, cv, f.vc, f.flags & NOC_FLIT_HEAD, f.flags & NOC_FLIT_TAIL, pack(f)).c_str(),
                            flit_str(s, rv, rvc, rh, rt, rd).c_str());
                return 1;
            }
            flits += cv;
        }
        return 0;
    }

  private:
    tb::Part<M> part_;
    int n_, base_;
    unsigned P_, V_, pw_, vw_, cw_, out_delay_;
    char label_[64];
};

// A shadow for node n of s, if a model fits it.
std::unique_ptr<Shadow> make_shadow(noc_sim_t *s, int n)
{
    const noc_graph_t *t = s->graph;
    const unsigned P = (unsigned)(t->port_base[n + 1] - t->port_base[n]);
    const unsigned V = (unsigned)s->V, depth = (unsigned)s->cfg.vc_buf_size, ncls = (unsigned)t->n_vclasses;
    const unsigned arb = std::strcmp(s->cfg.arb_type, "matrix") == 0 ? 1 : 0;
#define X(Model, mp, mv, mdepth, mncls, marb)                                                              \
    if (P == mp && V == mv && depth == mdepth && ncls == mncls && arb == marb)                             \
        return std::unique_ptr<Shadow>(new ShadowT<Model>(s, n));
    NOC_COSIM_MODELS(X)
#undef X
    return nullptr;
}

int run(uint64_t cycles, uint64_t seed, const std::vector<std::string> &kv)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    // the configuration under which the core's timing is that of routers/vc
    static const char *const defaults[] = {
        "topology_spec=mesh:3x3", "num_vcs=2", "vc_buf_size=4", "packet_size=1", "injection_rate=0.3",
        "routing_delay=1", "vc_alloc_delay=1", "sw_alloc_delay=1", "st_final_delay=1", "lookahead=0",
        "credit_delay=1", "vc_allocator=separable_input_first", "sw_allocator=separable_input_first",
        "source_queue=64",
    };
    std::string only;
    std::vector<std::string> all(std::begin(defaults), std::end(defaults));
    all.push_back("seed=" + std::to_string(seed));
    all.insert(all.end(), kv.begin(), kv.end());
    for (const std::string &a : all) {
        size_t eq = a.find('=');
        if (eq == std::string::npos) {
            std::fprintf(stderr, "cosim: %s: not key=value\n", a.c_str());
            return 2;
        }
        std::string k = a.substr(0, eq), v = a.substr(eq + 1);
        if (k == "node") {
            only = v;
            continue;
        }
        if (noc_config_set(&cfg, k.c_str(), v.c_str(), err, sizeof err) != 0) {
            std::fprintf(stderr, "cosim: %s\n", err);
            return 2;
        }
    }
    noc_topo_t *topo = noc_topo_create(cfg.topology_spec, 0, err, sizeof err);
    if (!topo) {
        std::fprintf(stderr, "cosim: %s\n", err);
        return 2;
    }
    noc_synthetic_t syn;
    if (noc_synthetic_init(&syn, &cfg, topo, err, sizeof err) != 0) {
        std::fprintf(stderr, "cosim: %s\n", err);
        noc_topo_destroy(topo);
        return 2;
    }
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(topo), noc_synthetic_traffic(&syn), err, sizeof err);
    if (!s) {
        std::fprintf(stderr, "cosim: %s\n", err);
        noc_topo_destroy(topo);
        return 2;
    }
    int status = 0;
    std::vector<std::unique_ptr<Shadow>> sh;
    std::vector<int> nodes;
    int only_n = only.empty() ? -1 : noc_topo_find_label(topo, only.c_str());
    if (!only.empty() && only_n < 0) {
        std::fprintf(stderr, "cosim: node %s: no such node in %s\n", only.c_str(), cfg.topology_spec);
        status = 2;
    }
    for (int n = 0; n < noc_topo_nodes(topo) && status == 0; n++) {
        if (only_n >= 0 && n != only_n)
            continue;
        std::unique_ptr<Shadow> x = make_shadow(s, n);
        if (!x) {
            char lab[64];
            noc_topo_label(topo, n, lab, sizeof lab);
            std::fprintf(stderr,
                         "cosim: node %s: no Verilated model for its %d ports, V %d, DEPTH %lld, %d VC "
                         "classes, arb_type %s (testbench/cosim/CMakeLists.txt)\n",
                         lab, noc_topo_degree(topo, n) + 1, s->V, (long long)cfg.vc_buf_size,
                         noc_topo_vclasses(topo), cfg.arb_type);
            status = 2;
            break;
        }
        sh.push_back(std::move(x));
        nodes.push_back(n);
    }
    uint64_t T = 0;
    for (; status == 0 && T < cycles; T++) {
        if (noc_sim_now(s) != T) {
            std::fprintf(stderr, "cosim: the kernel is at cycle %llu, expected %llu\n",
                         (unsigned long long)noc_sim_now(s), (unsigned long long)T);
            status = 1;
            break;
        }
        noc_sim_step(s);
        for (auto &x : sh)
            if (x->cycle(s, T)) {
                status = 1;
                break;
            }
    }
    uint64_t flits = 0, credits = 0;
    for (auto &x : sh) {
        flits += x->flits;
        credits += x->credits;
    }
    if (status == 0)
        std::printf("cosim: %s, %s, %s arbiters, packet_size %lld, injection_rate %g, seed %llu: %zu nodes "
                    "shadowed, %llu cycles identical (%llu flits, %llu credits compared)\n",
                    cfg.topology_spec, cfg.router, cfg.arb_type, (long long)cfg.packet_size, cfg.injection_rate,
                    (unsigned long long)seed, sh.size(), (unsigned long long)T, (unsigned long long)flits,
                    (unsigned long long)credits);
    else if (status == 1)
        std::printf("cosim: %s, %s arbiters, packet_size %lld, seed %llu: divergence after %llu identical cycles\n",
                    cfg.topology_spec, cfg.arb_type, (long long)cfg.packet_size, (unsigned long long)seed,
                    (unsigned long long)T);
    sh.clear();
    noc_sim_destroy(s);
    noc_synthetic_free(&syn);
    noc_topo_destroy(topo);
    return status;
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t cycles = 3000, seed = 1;
    std::vector<std::string> kv;
    int pos = 0;
    bool arb_given = false;
    for (int i = 1; i < argc; i++) {
        if (std::strchr(argv[i], '=')) {
            kv.push_back(argv[i]);
            arb_given |= std::strncmp(argv[i], "arb_type=", 9) == 0;
        } else if (pos == 0) {
            cycles = std::strtoull(argv[i], nullptr, 0);
            pos++;
        } else if (pos == 1) {
            seed = std::strtoull(argv[i], nullptr, 0);
            pos++;
        } else {
            std::fprintf(stderr, "usage: cosim [cycles [seed]] [key=value ...]\n");
            return 2;
        }
    }
    if (arb_given)
        return run(cycles, seed, kv);
    int status = 0;
    for (const char *arb : {"arb_type=round_robin", "arb_type=matrix"}) {
        std::vector<std::string> k2 = kv;
        k2.push_back(arb);
        int st = run(cycles, seed, k2);
        status = status ? status : st;
        if (st)
            break;
    }
    return status;
}
