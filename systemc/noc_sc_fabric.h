/* noc_sc_fabric.h: a whole noctua fabric as one SystemC module, for
 * SystemC virtual platforms (docs/systemc.md).
 *
 * noc_sc_fabric wraps a simulator (model/sim.h) running the PE program
 * engine (model/pe.h). On every rising edge of `clk` it advances the fabric
 * one cycle. Each PE r has one channel, pe(r), a noc_sc_pe_if that
 * SystemC processes call directly or bind an sc_port<noc_sc_pe_if> to:
 *   send(dst, tag, words)   non-blocking, like the engine's send op;
 *   recv(src, tag, words)   blocks the calling SC_THREAD until a matching
 *                           message has arrived whole, returns its words;
 *   compute(cycles)         blocks for a computation of that many cycles
 *                           on the PE's processor (the engine's calc op);
 *   step(name)              the ops that follow belong to step `name`.
 *
 * How the cycle counts stay noctua's: every call becomes an op of a traffic
 * program (model/program.h) that the wrapper records as the processes issue
 * it, chained to the calling process's previous op ("requires" after a
 * blocking op, "irequires" after a send). The program grows while it runs
 * (noc_pe_append_op: in place, O(1) an op): each cycle is simulated in
 * parts (noc_sim_cycle_*), and
 * between the arrivals and the PEs' turn the threads that a completion woke
 * issue their next ops, which start in that same cycle, as a program's op
 * starts in the cycle its dependency completed. Nothing is simulated twice;
 * the recorded program, run by noctua alone, gives the same cycle for every
 * op. A process that waits on SystemC time between its calls gets a calc op
 * for the gap (docs/systemc.md).
 *
 * C++17 (SystemC 2.3.4 is built for it). */
#ifndef NOC_SC_FABRIC_H
#define NOC_SC_FABRIC_H

#include <systemc>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/config.h"
#include "model/pe.h"
#include "model/program.h"
#include "model/sim.h"
#include "routers/registry.h"
#include "topologies/topo.h"

class noc_sc_fabric;

/* The interface of one PE. Blocking calls must come from an SC_THREAD (or
 * SC_CTHREAD); send and step may come from any process. Words are the
 * engine's 64-bit words (one flit each). */
class noc_sc_pe_if : virtual public sc_core::sc_interface {
public:
    /* Send words (at least one) to PE dst with tag >= 0. Returns at once. */
    virtual void send(int dst, int tag, const std::vector<int64_t> &words) = 0;
    /* Receive a message of at most `words` words from src (NOC_PROG_ANY:
     * any) with tag (NOC_PROG_ANY: any); blocks until it has arrived. */
    virtual std::vector<int64_t> recv(int src, int tag, uint32_t words = 1) = 0;
    /* Occupy the PE's processor for `cycles` cycles; blocks until done. */
    virtual void compute(uint64_t cycles) = 0;
    /* Ops issued from now on (by this process) belong to step `name`
     * (nullptr or "": to none). Steps are ordered as first named. */
    virtual void step(const char *name) = 0;
    /* This PE's rank (= node number) and its label in the fabric. */
    virtual int rank() const = 0;
    virtual std::string label() const = 0;
};

/* One PE's channel (an sc_object inside the fabric, named pe_<rank>). */
class noc_sc_pe : public sc_core::sc_object, public noc_sc_pe_if {
public:
    noc_sc_pe(const char *name, noc_sc_fabric &fab, int rank);
    void send(int dst, int tag, const std::vector<int64_t> &words) override;
    std::vector<int64_t> recv(int src, int tag, uint32_t words = 1) override;
    void compute(uint64_t cycles) override;
    void step(const char *name) override;
    int rank() const override { return rank_; }
    std::string label() const override;
    const char *kind() const override { return "noc_sc_pe"; }

private:
    noc_sc_fabric &fab_;
    int rank_;
};

class noc_sc_fabric : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk;

    /* The fabric of topology `spec` (as the CLI takes it: "bsn:ring:4")
     * under configuration cfg (copied). Bad input: SC_REPORT_ERROR with the
     * message naming the parameter. */
    noc_sc_fabric(sc_core::sc_module_name name, const std::string &spec, const noc_config_t &cfg);
    /* The same from "key=value" strings over the defaults (noc_config_set's
     * keys, plus timing=unit | unit-sync | router as the CLI's --timing). */
    noc_sc_fabric(sc_core::sc_module_name name, const std::string &spec,
                  const std::vector<std::string> &settings);
    ~noc_sc_fabric() override;
    SC_HAS_PROCESS(noc_sc_fabric);

    int n_pes() const;
    noc_sc_pe &pe(int r);
    const noc_topo_t *topo() const { return topo_; }
    const noc_config_t &config() const { return cfg_; }
    /* Name a step ahead of its first use (fixes the step order). */
    void declare_step(const std::string &name);

    /* Cycles simulated so far (rising edges seen). */
    uint64_t now() const { return stepped_; }
    /* The cycle the last op completed (noc_pe_stats: cycles): the count a
     * `noctua run` of the recorded program reports. */
    uint64_t cycles() const;
    /* Every op issued so far has completed and the network is empty. */
    bool quiet() const;
    /* The run's program as recorded so far, rank by rank as noctua reads
     * it back (owned by the fabric, built when asked for after ops were
     * added: O(ops); valid until the next call); its engine, which numbers
     * the ops in the order they were issued (its op k is this program's op
     * n of rank r for op_start(r, n)), and the simulator. */
    const noc_program_t *program() const;
    const noc_pe_t *engine() const { return sim_ ? noc_sim_pe(sim_) : nullptr; }
    const noc_sim_t *sim() const { return sim_; }
    /* Write the recorded program in the text form (docs/programs.md):
     * `noctua run SPEC --program-file FILE` replays it. 0 or -1. */
    int write_program(std::FILE *f) const;
    /* Start and end cycle of the n-th op that PE r issued (its index
     * counted over the PE's calls, gap calcs included); NOC_NEVER if not. */
    uint64_t op_start(int r, size_t n) const;
    uint64_t op_end(int r, size_t n) const;
    /* "" while all is well; else the first error (a replay that diverged,
     * a message larger than its receive, ...). */
    const std::string &error() const { return error_; }

private:
    friend class noc_sc_pe;
    struct rec_op {
        int rank;
        noc_op_kind_t kind;   /* SEND, RECV or CALC */
        int peer, tag;
        uint32_t words;
        int64_t cost;         /* CALC */
        std::vector<int64_t> data; /* SEND: its words; RECV: filled on arrival */
        int step;             /* index into steps_, -1: none */
        long dep;             /* recorded index of the op it waits for, -1 */
        int dep_start;        /* 1: irequires (a send before it) */
        uint64_t issued;      /* the cycle it was issued in */
        uint64_t gap_from = NOC_NEVER; /* a calc of a gap: the cycle it started in */
        bool blocking;        /* RECV and CALC: its process waits */
        bool notified;
        uint64_t end;         /* blocking, once notified */
        int32_t addr;         /* SEND/RECV: its words in the rank's memory */
        const sc_core::sc_object *proc; /* the process that issued it */
        std::unique_ptr<sc_core::sc_event> done;
    };
    struct proc_state {
        long last = -1;          /* its last op (recorded index) */
        int step = -1;
    };

    void init(const std::string &spec);
    void engine_thread();
    long issue(int rank, rec_op &&op);
    void wait_for(long k);
    void grow();
    noc_program_t *record() const;
    size_t notify_completions();
    void fail(const std::string &msg);
    int step_index(const char *name);
    proc_state &proc();
    static const sc_core::sc_object *current_process();

    noc_config_t cfg_;
    noc_topo_t *topo_ = nullptr;
    std::vector<std::unique_ptr<noc_sc_pe>> pes_;
    std::vector<rec_op> ops_;
    std::vector<std::vector<long>> rank_ops_; /* per rank: its recorded ops in issue order */
    std::vector<uint32_t> mem_top_;           /* per rank: next free word */
    std::vector<std::string> steps_;
    std::map<const sc_core::sc_object *, proc_state> procs_;
    size_t built_ = 0;       /* ops_ in the engine (ops_[k] is its op k) */
    size_t engine_steps_ = 0; /* steps_ in the engine (the same indices) */
    std::vector<long> waiting_; /* blocking ops in the program, not yet completed */
    noc_program_t *empty_ = nullptr;             /* the program attached at the start */
    mutable noc_program_t *recorded_ = nullptr;  /* program(), built for recorded_ops_ ops */
    mutable size_t recorded_ops_ = 0;
    noc_sim_t *sim_ = nullptr;
    uint64_t stepped_ = 0;
    std::string error_;
};

#endif
