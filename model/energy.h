/* energy.h: energy and power of a run (docs/energy.md). The events are
 * derived from the counters every run keeps (per channel: flits and head
 * flits, model/stats.h; per program step: flits per channel and the
 * routers its packets passed), never counted in the cycle loop here: a flit
 * counted on the channel that leaves output port o of router m was read
 * from one of m's input buffers, won m's switch allocation, crossed m's
 * crossbar and sent a credit back upstream; the channel's far end wrote it
 * into an input buffer (a router's) or took it out of the network (the
 * NI's ejection); a network link carried it. A head flit there is one
 * route computation and one VC allocation at m. A table of per-event
 * energies and static powers (noc_energy_table_t, read from a file by
 * app/energy_file.c, or the built-in one derived from BookSim2's power
 * model) turns the counts into energy. A link is charged by its own length
 * (its latency in cycles, each cycle pitch_mm of wire) and width, a
 * router's static power by its own ports, VCs, depth and flit width, unless
 * the table is of the old form (one figure per link, per router); or, with
 * router_leakage=gates, by the cells of its synthesized core (counts passed
 * in by the caller, app/energy_file.c) times the table's leakage per cell. */
#ifndef NOC_ENERGY_H
#define NOC_ENERGY_H
#include <stddef.h>
#include <stdint.h>
#include "model/sim.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum noc_event {
    NOC_EV_BUF_WRITE, /* a flit written into a router's input buffer */
    NOC_EV_BUF_READ,  /* a flit read out of one */
    NOC_EV_ROUTE,     /* a head's route computation */
    NOC_EV_VC_ALLOC,  /* a head's output VC allocation */
    NOC_EV_SW_ALLOC,  /* a flit granted the switch */
    NOC_EV_XBAR,      /* a flit crossing the crossbar (into its output stage) */
    NOC_EV_LINK,      /* a flit crossing a network link */
    NOC_EV_CREDIT,    /* a credit sent upstream (to a router or an NI) */
    NOC_EV_INJECT,    /* a flit from an NI into its router (the injection channel) */
    NOC_EV_EJECT,     /* a flit from a router to its NI (the ejection channel) */
    NOC_EV_COUNT
} noc_event_t;
/* Beside the events, in every events array: the link traversals weighted
 * by each link's length in pitches (its latency in cycles), what a table of
 * the per-mm form charges its link energy by. */
#define NOC_EV_LINK_PITCHES NOC_EV_COUNT
#define NOC_EV_SLOTS (NOC_EV_COUNT + 1)

/* "buffer_write", "buffer_read", "route", "vc_alloc", "sw_alloc",
 * "crossbar", "link", "credit", "inject", "eject": the keys of a table
 * file and of the reports; NOC_EV_LINK_PITCHES is "link_pitches". */
const char *noc_event_name(int ev);

#define NOC_ENERGY_NAME_MAX 96
/* Per-event energies (pJ; per flit, route and vc_alloc per head flit) for
 * flits of flit_bits bits, and the static powers. */
typedef struct noc_energy_table {
    char name[NOC_ENERGY_NAME_MAX];
    int flit_bits;
    double pj[NOC_EV_COUNT];
    double leak_buffer_bit_uw; /* leakage per bit of input buffer, uW */
    double clock_ghz;          /* the clock the energies and powers are for */
    /* Links. per_mm 1: pj[NOC_EV_LINK] is derived, link_bit_mm_pj x pitch_mm
     * x flit_bits (a flit over one pitch), charged per pitch of each link;
     * a channel's static power is static_link_bit_mm_uw per wire and mm
     * (network links: their width and length; NI channels: flit_bits wires
     * over one pitch). per_mm 0 (the old form): pj[NOC_EV_LINK] per
     * traversal and static_link_mw per channel, whatever their length. */
    int per_mm;
    double link_bit_mm_pj;       /* pJ per bit per mm of link */
    double static_link_bit_mm_uw;/* uW per wire per mm */
    double pitch_mm;             /* mm of wire per cycle of link latency */
    double static_link_mw;       /* old form: per channel, mW */
    /* Routers. by_size 1: a router with I inputs and O outputs (channels
     * into and out of it) and W-bit flits has static power
     *   leak_crossbar_pw x W^2 (I^2 O + I O + O^2) pW (BookSim2's
     *   powerCrossbarLeak) + clock_output_bit_uw x O x W uW (its output
     *   registers' clock), beside its buffers' leakage.
     * by_size 0 (the old form): static_router_mw per router. */
    int by_size;
    double leak_crossbar_pw;
    double clock_output_bit_uw;
    double static_router_mw;   /* old form: per router, mW */
    /* Leakage per cell of the router core's gates (nW), for
     * router_leakage=gates; gate_keys 1 when the table gives them (the
     * three keys leak_nand, leak_not, leak_ff, all or none). */
    int gate_keys;
    double leak_nand_nw, leak_not_nw, leak_ff_nw;
    /* Energy of one bit toggle of a router core's flip-flop (pJ), for
     * rtl_toggles=1; toggle_key 1 when the table gives it (toggle_bit,
     * optional). */
    int toggle_key;
    double toggle_bit_pj;
    /* router_leakage=gates: each router's cells (n_nodes, set by
     * noc_sim_set_energy_gates); NULL: the figures above. */
    const struct noc_gate_count *gates;
} noc_energy_table_t;

/* A router core's cells as yosys leaves them (`abc -g NAND`: routers/rtl/
 * area.h): 2-input NANDs, inverters, flip-flops, and how many of those
 * flip-flops have an enable (a 2:1 multiplexer in front of a plain one). */
typedef struct noc_gate_count {
    long nand, inv, ff, ff_enable;
} noc_gate_count_t;
/* A core's leakage with table t, mW: nand x leak_nand + inv x leak_not +
 * ff x leak_ff, and per flip-flop with an enable its multiplexer as gates
 * (3 NANDs and an inverter: 3 leak_nand + leak_not). */
double noc_energy_gates_mw(const noc_energy_table_t *t, const noc_gate_count_t *g);

/* The built-in table (docs/energy.md: BookSim2's power model and 32 nm
 * techfile, for 64-bit flits, 5-port routers with 16 flits of buffer per
 * input port and 2 mm links, by tools/energy_table.sh). */
void noc_energy_default(noc_energy_table_t *t);

/* Keys a table file may give: every key of noc_energy_line. */
#define NOC_ENERGY_KEYS (NOC_EV_COUNT + 15)
/* One line of a table file into t: blank, "# comment" or "key = value"
 * (keys: name, flit_bits, the event names, leak_buffer_bit, clock_ghz;
 * links either link_bit_mm, static_link_bit_mm, pitch_mm or, the old
 * form, link, static_link; routers either leak_crossbar, clock_output_bit
 * or, the old form, static_router; and, optional, the gates' leakage
 * leak_nand, leak_not, leak_ff, and the flip-flops' toggle_bit); values are non-negative numbers
 * (flit_bits a positive integer, clock_ghz and pitch_mm positive). seen: a
 * bit per key given so far (a key twice is refused). 0, or -1 with the key
 * at fault in err (the caller adds file and line). */
int noc_energy_line(noc_energy_table_t *t, const char *line, uint64_t *seen, char *err, size_t errlen);
/* After the last line: 0 when every key was given (of one form for the
 * links and one for the routers: t->per_mm and t->by_size set, and the
 * derived pj[NOC_EV_LINK] of the per-mm form), or -1 naming the first
 * missing one or the two forms mixed. */
int noc_energy_complete(noc_energy_table_t *t, uint64_t seen, char *err, size_t errlen);

/* Events of router (node) n of run s over its counted cycles into
 * ev[NOC_EV_SLOTS], for every node at once: ev[n * NOC_EV_SLOTS + e]
 * (all n_nodes rows filled, zeros included). Inject and eject are the
 * node's NI's; a link is counted at the router it leaves. */
void noc_events_nodes(const noc_sim_t *s, uint64_t *ev);
/* The whole run's events (the sum over the nodes). */
void noc_events_total(const noc_sim_t *s, uint64_t ev[NOC_EV_SLOTS]);
/* A program run's step k (0 .. n_steps, n_steps: no step): its events from
 * the per-step tables. 0, or -1 when the run keeps no such tables. */
int noc_events_step(const noc_sim_t *s, int k, uint64_t ev[NOC_EV_SLOTS]);

/* The energy of one kind of event e (NOC_EV_*) of counts ev with table t:
 * ev[e] * t->pj[e], the links of a per-mm table ev[NOC_EV_LINK_PITCHES] *
 * t->pj[NOC_EV_LINK]. */
double noc_energy_event_pj(const noc_energy_table_t *t, const uint64_t ev[NOC_EV_SLOTS], int e);
/* Dynamic energy of counts ev with table t: the sum over the events, pJ. */
double noc_energy_dynamic_pj(const noc_energy_table_t *t, const uint64_t ev[NOC_EV_SLOTS]);

/* Channel c of run s as the table sees it: its length in pitches (a
 * network link's latency in cycles; 1 for an NI's channel) and its width
 * in wires (a network link's link_width or class_width, else flit_width). */
void noc_energy_channel_size(const noc_sim_t *s, int c, int *pitches, int *wires);
/* Static power of channel c (mW) and of router n (mW, its buffers left
 * out; its inputs and outputs into *in, *out when not NULL). */
double noc_energy_channel_static_mw(const noc_sim_t *s, const noc_energy_table_t *t, int c);
double noc_energy_router_static_mw(const noc_sim_t *s, const noc_energy_table_t *t, int n, int *in, int *out);
/* Input buffer bits of router n: its buffered inputs x VCs x depth x flit bits. */
uint64_t noc_energy_router_buffer_bits(const noc_sim_t *s, const noc_energy_table_t *t, int n);
/* Leakage of router n's input buffers, mW: its bits x leak_buffer_bit; 0
 * with router_leakage=gates (its buffers are flip-flops of its core). */
double noc_energy_router_buffer_mw(const noc_sim_t *s, const noc_energy_table_t *t, int n);
/* Router n's ports as a core has them: the larger of its inputs and
 * outputs (a node's degree + 1 with one NI), and its VC buffers' depth:
 * what its core is synthesized with (router_leakage=gates). */
int noc_energy_router_ports(const noc_sim_t *s, int n);
int noc_energy_buffer_depth(const noc_sim_t *s);

/* rtl_toggles=1: the bit toggles of router n's core's flip-flops over the
 * counted cycles into *toggles, 0; -1 (nothing written) when the run does
 * not count them. */
int noc_energy_router_toggles(const noc_sim_t *s, int n, uint64_t *toggles);

/* What a run spent. */
typedef struct noc_energy_sum {
    uint64_t ev[NOC_EV_SLOTS];
    double ev_pj[NOC_EV_COUNT]; /* each event kind's share of dynamic_pj */
    double dynamic_pj;
    uint64_t buffer_bits;       /* input buffer bits of every router */
    int routers, channels;
    double leak_buffer_mw;      /* the buffers' leakage */
    double router_mw;           /* the routers' static power beside their buffers
                                 * (router_leakage=gates: with them, gate_mw + clock_mw) */
    int gates;                  /* 1: router_leakage=gates */
    double gate_mw, clock_mw;   /* gates: the cores' leakage, the output registers' clock */
    noc_gate_count_t gate_total;/* gates: every router's cells */
    double channel_mw;          /* the channels' */
    double static_mw;           /* every static power: buffers, routers, channels */
    uint64_t cycles;            /* cycles counted */
    double ns;                  /* their time at the table's clock */
    double static_pj, total_pj; /* static power over ns; dynamic + static */
    double avg_mw;              /* total_pj / ns */
    uint64_t flits;             /* flits delivered in those cycles */
    double pj_per_flit, pj_per_bit; /* total_pj per flit, per bit delivered (0 when none) */
    /* rtl_toggles=1 (toggled 1): the bit toggles of every router core's
     * flip-flops in the counted cycles, their energy (toggles x
     * toggle_bit), and the event-based dynamic energy of the same routers
     * (buffers, route, allocators, crossbar, credits: no links, no NIs). */
    int toggled;
    uint64_t toggles;
    double toggle_pj, router_event_pj;
} noc_energy_sum_t;
/* The energy of run s with table t over its counted cycles (a synthetic
 * run's window; all of a program run). */
void noc_energy_run(const noc_sim_t *s, const noc_energy_table_t *t, noc_energy_sum_t *out);

/* A run with energy figures: t is copied onto s (NULL: none). 0, or -1
 * with a message naming the parameter when the table cannot describe the
 * run (a router family with no microarchitecture to count, a flit width
 * other than the table's). */
int noc_sim_set_energy(noc_sim_t *s, const noc_energy_table_t *t, char *err, size_t errlen);
/* The same with router_leakage=gates: gates[n] is router n's core
 * (n_nodes of them, copied), whose leakage with t's leak_nand, leak_not
 * and leak_ff replaces its buffers' and its crossbar's (the output clock
 * stays). -1 with a message naming the parameter when t has no gate keys
 * or gives its routers in the old form (static_router). */
int noc_sim_set_energy_gates(noc_sim_t *s, const noc_energy_table_t *t, const noc_gate_count_t *gates, char *err,
                             size_t errlen);
/* The table set on s, or NULL. */
const noc_energy_table_t *noc_sim_energy(const noc_sim_t *s);

#ifdef __cplusplus
}
#endif
#endif
