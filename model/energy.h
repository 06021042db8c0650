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
 * model) turns the counts into energy. */
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

/* "buffer_write", "buffer_read", "route", "vc_alloc", "sw_alloc",
 * "crossbar", "link", "credit", "inject", "eject": the keys of a table
 * file and of the reports. */
const char *noc_event_name(int ev);

#define NOC_ENERGY_NAME_MAX 96
/* Per-event energies (pJ; per flit, route and vc_alloc per head flit) for
 * flits of flit_bits bits, and the static powers. */
typedef struct noc_energy_table {
    char name[NOC_ENERGY_NAME_MAX];
    int flit_bits;
    double pj[NOC_EV_COUNT];
    double leak_buffer_bit_uw; /* leakage per bit of input buffer, uW */
    double static_router_mw;   /* per router (crossbar leakage, output registers' clock), mW */
    double static_link_mw;     /* per channel (repeater leakage, its registers' clock), mW */
    double clock_ghz;          /* the clock the energies and powers are for */
} noc_energy_table_t;

/* The built-in table (docs/energy.md: BookSim2's power model and 32 nm
 * techfile, for 64-bit flits, 5-port routers with 16 flits of buffer per
 * input port and 2 mm links, by tools/energy_table.sh). */
void noc_energy_default(noc_energy_table_t *t);

/* Keys a table file must give: every key of noc_energy_line. */
#define NOC_ENERGY_KEYS (NOC_EV_COUNT + 6)
/* One line of a table file into t: blank, "# comment" or "key = value"
 * (keys: name, flit_bits, the event names, leak_buffer_bit,
 * static_router, static_link, clock_ghz); values are non-negative numbers
 * (flit_bits a positive integer, clock_ghz positive). seen: a bit per key
 * given so far (a key twice is refused). 0, or -1 with the key at fault in
 * err (the caller adds file and line). */
int noc_energy_line(noc_energy_table_t *t, const char *line, uint64_t *seen, char *err, size_t errlen);
/* After the last line: 0 when every key was given, or -1 naming the first
 * missing one. */
int noc_energy_complete(uint64_t seen, char *err, size_t errlen);

/* Events of router (node) n of run s over its counted cycles into
 * ev[NOC_EV_COUNT], for every node at once: ev[n * NOC_EV_COUNT + e]
 * (all n_nodes rows filled, zeros included). Inject and eject are the
 * node's NI's. */
void noc_events_nodes(const noc_sim_t *s, uint64_t *ev);
/* The whole run's events (the sum over the nodes). */
void noc_events_total(const noc_sim_t *s, uint64_t ev[NOC_EV_COUNT]);
/* A program run's step k (0 .. n_steps, n_steps: no step): its events from
 * the per-step tables. 0, or -1 when the run keeps no such tables. */
int noc_events_step(const noc_sim_t *s, int k, uint64_t ev[NOC_EV_COUNT]);

/* Dynamic energy of counts ev with table t: sum of ev[e] * t->pj[e], pJ. */
double noc_energy_dynamic_pj(const noc_energy_table_t *t, const uint64_t ev[NOC_EV_COUNT]);

/* What a run spent. */
typedef struct noc_energy_sum {
    uint64_t ev[NOC_EV_COUNT];
    double ev_pj[NOC_EV_COUNT]; /* each event kind's share of dynamic_pj */
    double dynamic_pj;
    uint64_t buffer_bits;       /* input buffer bits of every router */
    int routers, channels;
    double leak_buffer_mw;      /* the buffers' leakage */
    double static_mw;           /* every static power: buffers, routers, channels */
    uint64_t cycles;            /* cycles counted */
    double ns;                  /* their time at the table's clock */
    double static_pj, total_pj; /* static power over ns; dynamic + static */
    double avg_mw;              /* total_pj / ns */
    uint64_t flits;             /* flits delivered in those cycles */
    double pj_per_flit, pj_per_bit; /* total_pj per flit, per bit delivered (0 when none) */
} noc_energy_sum_t;
/* The energy of run s with table t over its counted cycles (a synthetic
 * run's window; all of a program run). */
void noc_energy_run(const noc_sim_t *s, const noc_energy_table_t *t, noc_energy_sum_t *out);

/* A run with energy figures: t is copied onto s (NULL: none). 0, or -1
 * with a message naming the parameter when the table cannot describe the
 * run (a router family with no microarchitecture to count, a flit width
 * other than the table's). */
int noc_sim_set_energy(noc_sim_t *s, const noc_energy_table_t *t, char *err, size_t errlen);
/* The table set on s, or NULL. */
const noc_energy_table_t *noc_sim_energy(const noc_sim_t *s);

#ifdef __cplusplus
}
#endif
#endif
