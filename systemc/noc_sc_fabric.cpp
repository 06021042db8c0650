/* noc_sc_fabric.cpp: the SystemC wrapper (noc_sc_fabric.h): recording the
 * processes' calls as program ops, appending them to the running engine's
 * program (noc_pe_append_op: the n-th op recorded is the engine's op n),
 * stepping it a cycle on every rising clock edge in parts, waking the
 * processes whose receives and computations completed, and building the
 * recorded program, rank by rank, when it is asked for. */
#include "systemc/noc_sc_fabric.h"

#include <cstring>
#include <sstream>

using namespace sc_core;

/* ---- the per-PE channel ---- */

noc_sc_pe::noc_sc_pe(const char *name, noc_sc_fabric &fab, int rank)
    : sc_object(name), fab_(fab), rank_(rank)
{
}

std::string noc_sc_pe::label() const
{
    char buf[64];
    noc_topo_label(fab_.topo_, rank_, buf, sizeof buf);
    return buf;
}

void noc_sc_pe::send(int dst, int tag, const std::vector<int64_t> &words)
{
    if (dst < 0 || dst >= fab_.n_pes() || dst == rank_ || tag < 0 || words.empty()) {
        std::ostringstream m;
        m << "PE " << rank_ << ": send to " << dst << " tag " << tag << " of " << words.size()
          << " words: the destination must be another PE of the fabric, the tag >= 0, "
             "the message at least one word";
        fab_.fail(m.str());
        return;
    }
    noc_sc_fabric::rec_op o{};
    o.kind = NOC_OP_SEND;
    o.peer = dst;
    o.tag = tag;
    o.words = (uint32_t)words.size();
    o.data = words;
    fab_.issue(rank_, std::move(o));
}

std::vector<int64_t> noc_sc_pe::recv(int src, int tag, uint32_t words)
{
    if ((src != NOC_PROG_ANY && (src < 0 || src >= fab_.n_pes())) || tag < NOC_PROG_ANY || words == 0) {
        std::ostringstream m;
        m << "PE " << rank_ << ": recv from " << src << " tag " << tag << " of " << words
          << " words: the source must be a PE or NOC_PROG_ANY, the tag >= 0 or NOC_PROG_ANY, "
             "the size at least one word";
        fab_.fail(m.str());
        return {};
    }
    noc_sc_fabric::rec_op o{};
    o.kind = NOC_OP_RECV;
    o.peer = src;
    o.tag = tag;
    o.words = words;
    o.blocking = true;
    long k = fab_.issue(rank_, std::move(o));
    fab_.wait_for(k);
    return fab_.ops_[(size_t)k].data;
}

void noc_sc_pe::compute(uint64_t cycles)
{
    noc_sc_fabric::rec_op o{};
    o.kind = NOC_OP_CALC;
    o.cost = (int64_t)cycles;
    o.blocking = true;
    long k = fab_.issue(rank_, std::move(o));
    fab_.wait_for(k);
}

void noc_sc_pe::step(const char *name)
{
    fab_.proc().step = name && *name ? fab_.step_index(name) : -1;
    (void)rank_;
}

/* ---- the fabric ---- */

noc_sc_fabric::noc_sc_fabric(sc_module_name name, const std::string &spec, const noc_config_t &cfg)
    : sc_module(name), clk("clk"), cfg_(cfg)
{
    init(spec);
}

noc_sc_fabric::noc_sc_fabric(sc_module_name name, const std::string &spec,
                             const std::vector<std::string> &settings)
    : sc_module(name), clk("clk")
{
    noc_config_defaults(&cfg_);
    for (const std::string &kv : settings) {
        size_t eq = kv.find('=');
        if (eq == std::string::npos) {
            SC_REPORT_ERROR("noc_sc_fabric", ("setting '" + kv + "': expected key=value").c_str());
            continue;
        }
        std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
        if (k == "timing") {
            if (v == "unit")
                noc_config_timing(&cfg_, NOC_TIMING_UNIT);
            else if (v == "unit-sync")
                noc_config_timing(&cfg_, NOC_TIMING_UNIT_SYNC);
            else if (v != "router")
                SC_REPORT_ERROR("noc_sc_fabric",
                                ("timing=" + v + ": expected unit, unit-sync or router").c_str());
            continue;
        }
        char err[256];
        if (noc_config_set(&cfg_, k.c_str(), v.c_str(), err, sizeof err) != 0)
            SC_REPORT_ERROR("noc_sc_fabric", err);
    }
    init(spec);
}

void noc_sc_fabric::init(const std::string &spec)
{
    char err[512];
    topo_ = noc_topo_create(spec.c_str(), 0, err, sizeof err);
    if (!topo_) {
        SC_REPORT_ERROR("noc_sc_fabric", err);
        return;
    }
    /* the simulator, running an empty program that grows as the
     * processes issue ops (which also checks the configuration now) */
    noc_traffic_t none = { NULL, NULL };
    sim_ = noc_sim_create(&cfg_, noc_topo_graph(topo_), none, err, sizeof err);
    empty_ = noc_prog_new(noc_topo_nodes(topo_), "systemc");
    if (!sim_ || noc_prog_finish(empty_, err, sizeof err) != 0 || noc_pe_attach(sim_, empty_, err, sizeof err) != 0) {
        SC_REPORT_ERROR("noc_sc_fabric", err);
        return;
    }
    noc_sim_measure_all(sim_); /* what noc_pe_run sets up: the whole run is measured */
    int n = noc_topo_nodes(topo_);
    rank_ops_.resize((size_t)n);
    mem_top_.assign((size_t)n, 0);
    for (int r = 0; r < n; r++)
        pes_.emplace_back(new noc_sc_pe(("pe_" + std::to_string(r)).c_str(), *this, r));
    SC_THREAD(engine_thread);
    sensitive << clk.pos();
    dont_initialize();
}

noc_sc_fabric::~noc_sc_fabric()
{
    noc_sim_destroy(sim_);
    noc_prog_free(empty_);
    noc_prog_free(recorded_);
    noc_topo_destroy(topo_);
}

int noc_sc_fabric::n_pes() const { return topo_ ? noc_topo_nodes(topo_) : 0; }

noc_sc_pe &noc_sc_fabric::pe(int r) { return *pes_.at((size_t)r); }

void noc_sc_fabric::declare_step(const std::string &name) { step_index(name.c_str()); }

int noc_sc_fabric::step_index(const char *name)
{
    for (size_t i = 0; i < steps_.size(); i++)
        if (steps_[i] == name)
            return (int)i;
    steps_.push_back(name);
    return (int)steps_.size() - 1;
}

const sc_object *noc_sc_fabric::current_process()
{
    sc_process_handle h = sc_get_current_process_handle();
    return h.valid() ? h.get_process_object() : nullptr;
}

noc_sc_fabric::proc_state &noc_sc_fabric::proc() { return procs_[current_process()]; }

void noc_sc_fabric::fail(const std::string &msg)
{
    if (error_.empty())
        error_ = msg;
    SC_REPORT_ERROR("noc_sc_fabric", msg.c_str());
}

uint64_t noc_sc_fabric::cycles() const
{
    return sim_ ? noc_pe_stats(noc_sim_pe(sim_))->cycles : 0;
}

bool noc_sc_fabric::quiet() const
{
    if (ops_.size() > built_)
        return false;
    if (!sim_)
        return true;
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(sim_));
    return st->ops_done == st->ops && noc_sim_flits_in_network(sim_) == 0;
}

const noc_program_t *noc_sc_fabric::program() const
{
    if (!sim_)
        return nullptr;
    if (!recorded_ || recorded_ops_ != built_) {
        noc_prog_free(recorded_);
        recorded_ = record();
        recorded_ops_ = built_;
    }
    return recorded_;
}

/* The program of the ops in the engine, rank by rank (what noctua reads
 * back from the text form): each rank's ops in the order issued, with
 * their steps, dependencies and the words sent as the memory's initial
 * values. The engine's program holds the same ops in the order issued. */
noc_program_t *noc_sc_fabric::record() const
{
    char err[512];
    noc_program_t *p = noc_prog_new(n_pes(), "systemc");
    for (const std::string &s : steps_)
        noc_prog_declare_step(p, s.c_str());
    std::vector<uint32_t> index(built_);
    for (int r = 0; r < n_pes(); r++) {
        int cur = -1;
        for (long k : rank_ops_[(size_t)r]) {
            if ((size_t)k >= built_)
                break; /* issued in order: the rest are not in the engine yet */
            const rec_op &o = ops_[(size_t)k];
            if (o.step != cur) {
                noc_prog_step(p, r, o.step >= 0 ? steps_[(size_t)o.step].c_str() : nullptr);
                cur = o.step;
            }
            uint32_t i;
            if (o.kind == NOC_OP_SEND) {
                i = noc_prog_send(p, r, o.peer, o.tag, o.words, o.addr);
                if (o.addr != NOC_PROG_NO_ADDR)
                    for (uint32_t w = 0; w < o.words; w++)
                        noc_prog_init(p, r, (uint32_t)o.addr + w, o.data[w]);
            } else if (o.kind == NOC_OP_RECV) {
                i = noc_prog_recv(p, r, o.peer, o.tag, o.words, o.addr);
            } else {
                i = noc_prog_calc(p, r, o.cost);
            }
            index[(size_t)k] = i;
            if (o.dep >= 0)
                noc_prog_dep(p, i, index[(size_t)o.dep], o.dep_start);
        }
    }
    if (noc_prog_finish(p, err, sizeof err) != 0) { /* the engine took every op: cannot happen */
        std::fprintf(stderr, "noc_sc_fabric: the recorded program: %s\n", err);
        noc_prog_free(p);
        return nullptr;
    }
    return p;
}

int noc_sc_fabric::write_program(std::FILE *f) const
{
    const noc_program_t *p = built_ ? program() : nullptr;
    return p ? noc_prog_write(p, f) : -1;
}

uint64_t noc_sc_fabric::op_start(int r, size_t n) const
{
    if (!sim_ || r < 0 || (size_t)r >= rank_ops_.size() || n >= rank_ops_[(size_t)r].size())
        return NOC_NEVER;
    size_t k = (size_t)rank_ops_[(size_t)r][n];
    return k < built_ ? noc_pe_stats(noc_sim_pe(sim_))->op_start[k] : NOC_NEVER;
}

uint64_t noc_sc_fabric::op_end(int r, size_t n) const
{
    if (!sim_ || r < 0 || (size_t)r >= rank_ops_.size() || n >= rank_ops_[(size_t)r].size())
        return NOC_NEVER;
    size_t k = (size_t)rank_ops_[(size_t)r][n];
    return k < built_ ? noc_pe_stats(noc_sim_pe(sim_))->op_end[k] : NOC_NEVER;
}

/* Record op o of rank r, issued by the calling process now. It counts as
 * issued in cycle stepped_: the cycle the fabric is simulating at this
 * time step (from the rising edge until it has finished the cycle: the
 * threads it woke run meanwhile), or else the next one. If that is later
 * than the op's chain would start it (the process waited on other SystemC
 * events), a calc op fills the gap: in the recorded program it starts
 * where the chain could have gone on, and the engine is told it started
 * then (noc_pe_append_op's start_at), so the op starts in the cycle it was
 * issued. */
long noc_sc_fabric::issue(int r, rec_op &&o)
{
    proc_state &ps = proc();
    uint64_t now = stepped_;
    long last = ps.last;
    /* a process drives one PE at a time: its chain restarts on another */
    if (last >= 0 && ops_[(size_t)last].rank != r)
        last = -1;
    uint64_t ready = 0;
    if (last >= 0) {
        const rec_op &l = ops_[(size_t)last];
        ready = l.blocking ? l.end : l.issued; /* after a send: from its start (irequires) */
    }
    if (now > ready) {
        rec_op gap{};
        gap.rank = r;
        gap.kind = NOC_OP_CALC;
        gap.cost = (int64_t)(now - ready);
        gap.step = ps.step;
        gap.dep = last;
        gap.dep_start = last >= 0 && ops_[(size_t)last].kind == NOC_OP_SEND;
        gap.issued = ready;
        gap.gap_from = ready;
        gap.proc = current_process();
        gap.done.reset(new sc_event());
        ops_.push_back(std::move(gap));
        rank_ops_[(size_t)r].push_back((long)ops_.size() - 1);
        last = (long)ops_.size() - 1;
    }
    o.rank = r;
    o.step = ps.step;
    o.dep = last;
    o.dep_start = last >= 0 && ops_[(size_t)last].kind == NOC_OP_SEND;
    o.issued = now;
    o.proc = current_process();
    o.done.reset(new sc_event());
    if (o.kind == NOC_OP_SEND || o.kind == NOC_OP_RECV) {
        o.addr = (int32_t)mem_top_[(size_t)r];
        if ((uint64_t)mem_top_[(size_t)r] + o.words > NOC_PROG_MAX_MEM) {
            fail("PE " + std::to_string(r) + ": its messages outgrow the engine's local memory (" +
                 std::to_string(NOC_PROG_MAX_MEM) + " words in all)");
            o.addr = NOC_PROG_NO_ADDR;
        } else {
            mem_top_[(size_t)r] += o.words;
        }
    } else {
        o.addr = NOC_PROG_NO_ADDR;
    }
    ops_.push_back(std::move(o));
    long k = (long)ops_.size() - 1;
    rank_ops_[(size_t)r].push_back(k);
    ps.last = k;
    return k;
}

void noc_sc_fabric::wait_for(long k)
{
    while (!ops_[(size_t)k].notified && error_.empty())
        sc_core::wait(*ops_[(size_t)k].done);
}

/* Append the ops recorded since the last call to the running engine's
 * program (noc_pe_append_op), with the steps named since and the words of
 * the messages' memory: what has run stays, the new ops join in the cycle
 * being simulated, nothing is simulated again, and no op is handed over
 * twice, so a run's growth costs O(its ops) in all. */
void noc_sc_fabric::grow()
{
    char err[512];
    for (; engine_steps_ < steps_.size(); engine_steps_++)
        if (noc_pe_append_step(sim_, steps_[engine_steps_].c_str(), err, sizeof err) < 0) {
            fail(std::string("the recorded program: ") + err);
            return;
        }
    for (size_t k = built_; k < ops_.size(); k++) {
        const rec_op &o = ops_[k];
        bool message = o.kind == NOC_OP_SEND || o.kind == NOC_OP_RECV;
        if (message && o.addr != NOC_PROG_NO_ADDR &&
            noc_pe_append_memory(sim_, o.rank, (uint32_t)o.addr, o.kind == NOC_OP_SEND ? o.data.data() : nullptr,
                                 o.words, err, sizeof err) != 0) {
            fail(std::string("the recorded program: ") + err);
            return;
        }
        noc_op_t op{};
        op.kind = (uint8_t)o.kind;
        op.peer = message ? o.peer : 0;
        op.tag = message ? o.tag : 0;
        op.words = message ? o.words : 0;
        op.addr = message ? o.addr : NOC_PROG_NO_ADDR;
        op.src = NOC_PROG_NO_ADDR;
        op.cost = message ? 0 : o.cost;
        op.step = o.step;
        noc_dep_t dep{ (uint32_t)o.dep, (uint8_t)o.dep_start };
        int64_t i = noc_pe_append_op(sim_, o.rank, &op, o.dep >= 0 ? &dep : nullptr, o.dep >= 0 ? 1 : 0,
                                     o.gap_from, err, sizeof err);
        if (i != (int64_t)k) {
            fail("cycle " + std::to_string(stepped_) + ": the ops issued change what earlier cycles did (" +
                 (i < 0 ? std::string(err) : "op " + std::to_string(k) + " became " + std::to_string(i)) + ")");
            return;
        }
        if (o.blocking)
            waiting_.push_back((long)k);
        built_ = k + 1;
    }
}

/* Wake the processes whose blocking ops have completed; how many. */
size_t noc_sc_fabric::notify_completions()
{
    const noc_pe_t *pe = noc_sim_pe(sim_);
    const noc_pe_stats_t *st = noc_pe_stats(pe);
    size_t woke = 0, keep = 0;
    for (long k : waiting_) {
        rec_op &o = ops_[(size_t)k];
        if (st->op_end[k] == NOC_NEVER) {
            waiting_[keep++] = k;
            continue;
        }
        o.notified = true;
        o.end = st->op_end[k];
        if (o.kind == NOC_OP_RECV && o.addr != NOC_PROG_NO_ADDR) {
            const int64_t *m = noc_pe_memory(pe, o.rank);
            o.data.assign(m + o.addr, m + o.addr + o.words);
            int32_t msg = noc_pe_recv_message(pe, (uint32_t)k);
            const noc_program_t *p = noc_pe_program(pe);
            if (msg >= 0 && p->ops[msg].words < o.words)
                o.data.resize(p->ops[msg].words);
        }
        o.done->notify();
        woke++;
    }
    waiting_.resize(keep);
    return woke;
}

/* One cycle a rising edge, in three parts (noc_sim_cycle_*): the arrivals;
 * then, until the threads stop issuing, the threads whose receives and
 * computations completed run (a delta cycle), the program grows by what
 * they issued, and the PEs start what is ready (completing the receives of
 * messages that have arrived already); then injection, routers, the end of
 * the cycle. */
void noc_sc_fabric::engine_thread()
{
    for (;;) {
        sc_core::wait(SC_ZERO_TIME); /* the threads this edge triggers issue first */
        if (error_.empty()) {
            noc_sim_cycle_arrivals(sim_);
            for (bool first = true;; first = false) {
                size_t woke = notify_completions();
                if (woke)
                    sc_core::wait(SC_ZERO_TIME);
                bool grew = ops_.size() > built_;
                if (grew)
                    grow();
                if (!error_.empty() || (!first && !woke && !grew))
                    break;
                noc_sim_cycle_pes(sim_, first);
            }
        }
        if (error_.empty()) {
            noc_run_status_t st = NOC_RUN_OK;
            if (noc_sim_cycle_finish(sim_, &st) != 0)
                fail("cycle " + std::to_string(stepped_) + ": the fabric stopped (status " +
                     std::to_string((int)st) + ")");
        }
        stepped_++;
        if (error_.empty() && notify_completions())
            fail("cycle " + std::to_string(stepped_ - 1) + ": a receive or computation completed after "
                 "the PEs' turn (an engine the wrapper does not know)");
        sc_core::wait();
    }
}
