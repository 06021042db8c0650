/* example.cpp: the SystemC bench of noc_sc_fabric (docs/systemc.md), run by
 * ctest as `systemc.example`.
 *
 * Two fabrics bsn:ring:4 (32 PEs) under the papers' unit timing with step
 * barriers (timing=unit, sync_steps=1: `--timing unit --sync steps`), one
 * clock. On the first, 32 SystemC PEs broadcast the root's words down a BFS
 * spanning tree; on the second they sum all PEs' words (reduce up the tree,
 * broadcast the sum back). Each PE is an sc_module whose SC_THREAD talks to
 * its PE channel through an sc_port<noc_sc_pe_if>.
 *
 * The bench fails (exit 1) unless
 *   - every PE holds the right value (the root's words, the sum);
 *   - the fabric's cycle count equals that of the same algorithm's program
 *     from noctua's own generator (`broadcast` and `data-sum`, variant
 *     tree) run by the C engine alone, the run `noctua run bsn:ring:4
 *     --program broadcast --variant tree --timing unit --sync steps` makes;
 *   - the program the fabric recorded, run by the C engine alone, ends
 *     every op in the cycle it ended under SystemC.
 * Arguments: [SPEC [WORDS [DIR]]]: another fabric, words per message, and
 * a folder to write the recorded programs to (sc_broadcast.goal,
 * sc_data_sum.goal) for `noctua run SPEC --program-file`. */
#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "systemc/noc_sc_fabric.h"
#include "traffic/gen.h"
#include "traffic/gen_util.h"

using namespace sc_core;

static const uint64_t SEED = 1;

/* The tree both algorithms use: noctua's BFS spanning tree from node 0,
 * children in node order (as the generators take them). */
struct tree_t {
    std::vector<int> parent;
    std::vector<std::vector<int>> kids;
};

static tree_t make_tree(const noc_topo_t *t)
{
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(t, 0, &tr);
    tree_t out;
    out.parent.assign(tr.parent, tr.parent + noc_topo_nodes(t));
    out.kids.resize((size_t)noc_topo_nodes(t));
    for (int v = 0; v < noc_topo_nodes(t); v++)
        if (out.parent[(size_t)v] >= 0)
            out.kids[(size_t)out.parent[(size_t)v]].push_back(v);
    noc_gen_tree_free(&tr);
    return out;
}

/* A SystemC PE running the broadcast: receive from the parent, pass on to
 * every child. */
SC_MODULE(bcast_pe) {
    sc_port<noc_sc_pe_if> net;
    const tree_t *tree = nullptr;
    int rank = 0, words = 1;
    std::vector<int64_t> value;
    bool done = false;

    SC_CTOR(bcast_pe) : net("net") { SC_THREAD(run); }

    void run()
    {
        net->step("tree");
        int parent = tree->parent[(size_t)rank];
        if (parent < 0) {
            for (int k = 0; k < words; k++)
                value.push_back(noc_gen_value(SEED, rank, k));
        } else {
            value = net->recv(parent, 0, (uint32_t)words);
        }
        for (int c : tree->kids[(size_t)rank])
            net->send(c, 0, value);
        done = true;
    }
};

/* A SystemC PE running the data sum: add the children's partial sums to its
 * own (one compute cycle a word, what an add op costs), send the result up;
 * then take the total from the parent and pass it down. */
SC_MODULE(sum_pe) {
    sc_port<noc_sc_pe_if> net;
    const tree_t *tree = nullptr;
    int rank = 0, words = 1;
    int64_t compute_cycles = 1;
    std::vector<int64_t> value;
    bool done = false;

    SC_CTOR(sum_pe) : net("net") { SC_THREAD(run); }

    void run()
    {
        for (int k = 0; k < words; k++)
            value.push_back(noc_gen_value(SEED, rank, k));
        int parent = tree->parent[(size_t)rank];
        net->step("reduce");
        for (int c : tree->kids[(size_t)rank]) {
            std::vector<int64_t> x = net->recv(c, 0, (uint32_t)words);
            for (int k = 0; k < words; k++)
                value[(size_t)k] += x[(size_t)k];
            net->compute((uint64_t)(compute_cycles * words));
        }
        if (parent >= 0)
            net->send(parent, 0, value);
        net->step("broadcast");
        if (parent >= 0)
            value = net->recv(parent, 1, (uint32_t)words);
        for (int c : tree->kids[(size_t)rank])
            net->send(c, 1, value);
        done = true;
    }
};

/* Stops the simulation when every PE's thread has finished and both
 * fabrics are quiet (or after a bound). */
SC_MODULE(monitor) {
    sc_in<bool> clk;
    std::vector<const bool *> flags;
    std::vector<const noc_sc_fabric *> fabs;
    uint64_t edges = 0, limit = 100000;

    SC_CTOR(monitor) : clk("clk")
    {
        SC_METHOD(check);
        sensitive << clk.neg();
        dont_initialize();
    }

    void check()
    {
        bool all = true;
        for (const bool *f : flags)
            all = all && *f;
        for (const noc_sc_fabric *f : fabs)
            all = all && f->quiet() && f->error().empty();
        for (const noc_sc_fabric *f : fabs)
            if (!f->error().empty())
                all = true;
        if (all || ++edges > limit)
            sc_stop();
    }
};

/* noctua alone: run program p on spec under the fabric's configuration;
 * returns the cycle count, or -1 (with a message) if the run fails. */
static long run_alone(const noc_topo_t *t, const noc_config_t &cfg, const noc_program_t *p,
                      const noc_sc_fabric *fab, const char *what)
{
    char err[512];
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    if (!s || noc_pe_attach(s, p, err, sizeof err) != 0) {
        std::fprintf(stderr, "%s: %s\n", what, err);
        noc_sim_destroy(s);
        return -1;
    }
    long cycles = -1;
    if (noc_pe_run(s) != NOC_RUN_OK)
        std::fprintf(stderr, "%s: the run did not finish\n", what);
    else if (noc_pe_finished(noc_sim_pe(s), err, sizeof err) != 0 || noc_pe_check(s, err, sizeof err) != 0)
        std::fprintf(stderr, "%s: %s\n", what, err);
    else
        cycles = (long)noc_pe_stats(noc_sim_pe(s))->cycles;
    /* the recorded program: every op ends when it ended under SystemC */
    if (cycles >= 0 && fab) {
        /* op n of rank r: the recorded program's op ranks[r].op_start + n */
        const noc_pe_stats_t *a = noc_pe_stats(noc_sim_pe(s));
        for (int r = 0; r < p->n_ranks && cycles >= 0; r++)
            for (uint32_t n = 0; n < p->ranks[r].n_ops; n++) {
                uint32_t i = p->ranks[r].op_start + n;
                uint64_t bs = fab->op_start(r, n), be = fab->op_end(r, n);
                if (a->op_end[i] != be || a->op_start[i] != bs) {
                    std::fprintf(stderr, "%s: rank %d's op %u ran %llu..%llu alone, %llu..%llu under SystemC\n",
                                 what, r, n, (unsigned long long)a->op_start[i], (unsigned long long)a->op_end[i],
                                 (unsigned long long)bs, (unsigned long long)be);
                    cycles = -1;
                    break;
                }
            }
    }
    noc_sim_destroy(s);
    return cycles;
}

/* The generator's program for the same algorithm, run alone. */
static long run_generator(const noc_topo_t *t, const noc_config_t &cfg, const char *name, int words)
{
    char err[512];
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.variant = "tree";
    a.words = words;
    a.seed = SEED;
    noc_program_t *p = noc_gen_find(name)->make(t, &a, err, sizeof err);
    if (!p) {
        std::fprintf(stderr, "%s: %s\n", name, err);
        return -1;
    }
    long c = run_alone(t, cfg, p, nullptr, name);
    noc_prog_free(p);
    return c;
}

static void write_program(const noc_sc_fabric &f, const std::string &dir, const char *file)
{
    std::string path = dir + "/" + file;
    std::FILE *out = std::fopen(path.c_str(), "w");
    if (!out || f.write_program(out) != 0)
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
    if (out)
        std::fclose(out);
}

int sc_main(int argc, char *argv[])
{
    std::string spec = argc > 1 ? argv[1] : "bsn:ring:4";
    int words = argc > 2 ? std::atoi(argv[2]) : 1;
    std::string dir = argc > 3 ? argv[3] : "";
    const std::vector<std::string> settings = { "timing=unit", "sync_steps=1" };

    sc_clock clk("clk", 10, SC_NS);
    noc_sc_fabric fb("bcast_fabric", spec, settings), fs("sum_fabric", spec, settings);
    fb.clk(clk);
    fs.clk(clk);
    fs.declare_step("reduce");
    fs.declare_step("broadcast");
    const int n = fb.n_pes();
    tree_t tree = make_tree(fb.topo());

    std::vector<std::unique_ptr<bcast_pe>> bpes;
    std::vector<std::unique_ptr<sum_pe>> spes;
    monitor mon("monitor");
    mon.clk(clk);
    for (int r = 0; r < n; r++) {
        bpes.emplace_back(new bcast_pe(("bpe_" + std::to_string(r)).c_str()));
        bpes.back()->tree = &tree;
        bpes.back()->rank = r;
        bpes.back()->words = words;
        bpes.back()->net(fb.pe(r));
        mon.flags.push_back(&bpes.back()->done);
        spes.emplace_back(new sum_pe(("spe_" + std::to_string(r)).c_str()));
        spes.back()->tree = &tree;
        spes.back()->rank = r;
        spes.back()->words = words;
        spes.back()->compute_cycles = fs.config().compute_cycles;
        spes.back()->net(fs.pe(r));
        mon.flags.push_back(&spes.back()->done);
    }
    mon.fabs = { &fb, &fs };

    sc_start();

    int bad = 0;
    for (const noc_sc_fabric *f : { &fb, &fs })
        if (!f->error().empty() || !f->quiet()) {
            std::fprintf(stderr, "%s: %s\n", f->name(), f->error().empty() ? "did not finish" : f->error().c_str());
            bad = 1;
        }
    /* results */
    for (int r = 0; r < n && !bad; r++)
        for (int k = 0; k < words; k++) {
            int64_t root = noc_gen_value(SEED, 0, k), sum = 0;
            for (int v = 0; v < n; v++)
                sum += noc_gen_value(SEED, v, k);
            if (bpes[(size_t)r]->value.size() != (size_t)words || bpes[(size_t)r]->value[(size_t)k] != root) {
                std::fprintf(stderr, "broadcast: PE %d word %d wrong\n", r, k);
                bad = 1;
            }
            if (spes[(size_t)r]->value.size() != (size_t)words || spes[(size_t)r]->value[(size_t)k] != sum) {
                std::fprintf(stderr, "data sum: PE %d word %d wrong\n", r, k);
                bad = 1;
            }
        }
    if (bad)
        return 1;

    /* cycle counts */
    noc_config_t cfg = fb.config();
    struct row {
        const char *name, *gen;
        const noc_sc_fabric *f;
    } rows[] = { { "broadcast", "broadcast", &fb }, { "data sum", "data-sum", &fs } };
    std::printf("%s, %d word(s) a PE, timing=unit sync_steps=1 (--timing unit --sync steps)\n", spec.c_str(),
                words);
    std::printf("  %-10s %10s %16s %18s\n", "program", "SystemC", "recorded alone", "generator alone");
    for (const row &w : rows) {
        long sc = (long)w.f->cycles();
        long rec = run_alone(fb.topo(), cfg, w.f->program(), w.f, w.name);
        long gen = run_generator(fb.topo(), cfg, w.gen, words);
        std::printf("  %-10s %10ld %16ld %18ld%s\n", w.name, sc, rec, gen,
                    sc == rec && sc == gen ? "" : "   MISMATCH");
        if (sc != rec || sc != gen)
            bad = 1;
    }
    if (!dir.empty()) {
        write_program(fb, dir, "sc_broadcast.goal");
        write_program(fs, dir, "sc_data_sum.goal");
    }
    std::printf("%s\n", bad ? "FAIL" : "ok");
    return bad;
}
