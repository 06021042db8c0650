/* stress.cpp: the SystemC wrapper under the cycle-level router (ctest
 * `systemc.stress`, docs/systemc.md). On mesh:4x4 with the default vc
 * router, every PE has two threads: a worker that for ROUNDS rounds sends a
 * message of 1 to 4 words to one PE and receives one from another (a new
 * pair every round, so messages cross in flight while the program grows),
 * computes, and now and then waits on SystemC time (a calc of the gap); and
 * a listener that takes the notes the workers send every fifth round.
 * Ops are issued in most cycles, so the program grows thousands of times.
 *
 * Fails (exit 1) unless every received word is the one sent, the fabric
 * reports no error, and the recorded program, run by the C engine alone
 * from cycle 0, starts and ends every op in the cycle it did under
 * SystemC. Arguments: [SPEC [ROUNDS]] (default mesh:4x4 300). */
#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "systemc/noc_sc_fabric.h"

using namespace sc_core;

static int n_pes = 16, rounds = 300;

static int mod(int a, int n) { return ((a % n) + n) % n; }
static uint32_t words_of(int from, int round) { return 1 + (uint32_t)mod(from + round, 4); }
static int64_t word(int from, int round, int k) { return (int64_t)from * 100000 + round * 10 + k; }

SC_MODULE(worker) {
    sc_port<noc_sc_pe_if> net;
    int rank = 0, bad = 0;
    bool done = false;
    SC_CTOR(worker) : net("net") { SC_THREAD(run); }
    void run()
    {
        for (int i = 0; i < rounds; i++) {
            int to = mod(rank + 1 + i, n_pes), from = mod(rank - 1 - i, n_pes);
            if (to != rank) {
                std::vector<int64_t> m;
                for (uint32_t k = 0; k < words_of(rank, i); k++)
                    m.push_back(word(rank, i, (int)k));
                net->send(to, i, m);
            }
            if (i % 5 == 0)
                net->send(mod(rank + 3, n_pes), 100000, { word(rank, i, 7), word(rank, i, 8) });
            if (from != rank) {
                std::vector<int64_t> m = net->recv(from, i, 4);
                bad += m.size() != words_of(from, i);
                for (size_t k = 0; k < m.size(); k++)
                    bad += m[k] != word(from, i, (int)k);
            }
            if ((rank + i) % 3)
                net->compute((uint64_t)((rank + i) % 3));
            if ((rank + i) % 7 == 0)
                wait(25, SC_NS); /* two and a half cycles elsewhere: a calc of the gap */
        }
        done = true;
    }
};

SC_MODULE(listener) {
    sc_port<noc_sc_pe_if> net;
    int rank = 0, bad = 0;
    bool done = false;
    SC_CTOR(listener) : net("net") { SC_THREAD(run); }
    void run()
    {
        int from = mod(rank - 3, n_pes);
        for (int i = 0; i < rounds; i += 5) {
            std::vector<int64_t> m = net->recv(NOC_PROG_ANY, 100000, 2);
            bad += m.size() != 2 || m[0] != word(from, i, 7) || m[1] != word(from, i, 8);
        }
        done = true;
    }
};

SC_MODULE(monitor) {
    sc_in<bool> clk;
    std::vector<const bool *> flags;
    const noc_sc_fabric *fab = nullptr;
    uint64_t edges = 0;
    SC_CTOR(monitor) : clk("clk")
    {
        SC_METHOD(check);
        sensitive << clk.neg();
        dont_initialize();
    }
    void check()
    {
        bool all = fab->quiet() || !fab->error().empty();
        for (const bool *f : flags)
            all = all && *f;
        if (all || ++edges > 1000000)
            sc_stop();
    }
};

int sc_main(int argc, char *argv[])
{
    std::string spec = argc > 1 ? argv[1] : "mesh:4x4";
    if (argc > 2)
        rounds = std::atoi(argv[2]);
    sc_clock clk("clk", 10, SC_NS);
    noc_sc_fabric fab("fabric", spec, std::vector<std::string>{});
    fab.clk(clk);
    n_pes = fab.n_pes();
    monitor mon("monitor");
    mon.clk(clk);
    mon.fab = &fab;
    std::vector<std::unique_ptr<worker>> ws;
    std::vector<std::unique_ptr<listener>> ls;
    for (int r = 0; r < n_pes; r++) {
        ws.emplace_back(new worker(("worker_" + std::to_string(r)).c_str()));
        ws.back()->rank = r;
        ws.back()->net(fab.pe(r));
        mon.flags.push_back(&ws.back()->done);
        ls.emplace_back(new listener(("listener_" + std::to_string(r)).c_str()));
        ls.back()->rank = r;
        ls.back()->net(fab.pe(r));
        mon.flags.push_back(&ls.back()->done);
    }
    sc_start();

    int bad = 0;
    if (!fab.error().empty() || !fab.quiet()) {
        std::fprintf(stderr, "%s\n", fab.error().empty() ? "the fabric did not finish" : fab.error().c_str());
        return 1;
    }
    for (int r = 0; r < n_pes; r++) {
        if (!ws[(size_t)r]->done || !ls[(size_t)r]->done || ws[(size_t)r]->bad || ls[(size_t)r]->bad) {
            std::fprintf(stderr, "PE %d: %s\n", r, ws[(size_t)r]->bad || ls[(size_t)r]->bad ? "wrong words" : "not done");
            bad = 1;
        }
    }
    /* the recorded program alone, from cycle 0 */
    char err[512];
    noc_traffic_t none = { NULL, NULL };
    noc_config_t cfg = fab.config();
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(fab.topo()), none, err, sizeof err);
    const noc_program_t *p = fab.program();
    if (!s || noc_pe_attach(s, p, err, sizeof err) != 0 || noc_pe_run(s) != NOC_RUN_OK) {
        std::fprintf(stderr, "the recorded program alone: %s\n", s ? err : "no simulator");
        noc_sim_destroy(s);
        return 1;
    }
    /* op n of rank r: the recorded program's op ranks[r].op_start + n */
    const noc_pe_stats_t *a = noc_pe_stats(noc_sim_pe(s)), *b = noc_pe_stats(fab.engine());
    for (int r = 0; r < p->n_ranks && !bad; r++)
        for (uint32_t n = 0; n < p->ranks[r].n_ops; n++) {
            uint32_t i = p->ranks[r].op_start + n;
            uint64_t bs = fab.op_start(r, n), be = fab.op_end(r, n);
            if (a->op_start[i] != bs || a->op_end[i] != be) {
                std::fprintf(stderr, "rank %d's op %u (%s): %llu..%llu alone, %llu..%llu under SystemC\n", r, n,
                             noc_op_kind_name((noc_op_kind_t)p->ops[i].kind),
                             (unsigned long long)a->op_start[i], (unsigned long long)a->op_end[i],
                             (unsigned long long)bs, (unsigned long long)be);
                bad = 1;
                break;
            }
        }
    if (b->ops != p->n_ops)
        bad = 1;
    std::printf("%s, %d rounds: %u ops, %llu messages, %llu cycles under SystemC and alone: %s\n", spec.c_str(),
                rounds, p->n_ops, (unsigned long long)a->messages, (unsigned long long)b->cycles,
                bad ? "FAIL" : "ok");
    if (a->cycles != b->cycles)
        bad = 1;
    noc_sim_destroy(s);
    return bad;
}
