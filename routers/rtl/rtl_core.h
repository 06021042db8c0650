/* rtl_core.h: the C ABI between routers/rtl (C) and one Verilated build of
 * the router core rtl/noc_vc_router.sv. Each parameter set (ports, VCs,
 * buffer depth, VC classes, arbiter kind) is its own shared object, made on
 * demand from routers/rtl/rtl_core_shim.cpp (the only C++ of the datapath)
 * and loaded with dlopen (rtl_model.c; docs/rtl.md, "The RTL datapath").
 *
 * A call of cycle() is one clock cycle of one core: it takes the cycle's
 * inputs (flits in, credits in), clocks the core, and gives the flits its
 * output registers now hold (the crossings of that cycle) and the taps of the
 * next cycle, which depend on registers only: which input VCs cross then
 * (in_credit_o), which bid for the switch and which have a credit. */
#ifndef NOC_RTL_CORE_H
#define NOC_RTL_CORE_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_RTL_ABI 5
#define NOC_RTL_MAX_P 64    /* ports of a core (bit masks of one word) */
#define NOC_RTL_LWORDS 4    /* words of a bit set over input VCs: P * V <= 256 */
#define NOC_RTL_MAX_L (64 * NOC_RTL_LWORDS)

/* The 128-bit flit payload the core carries through its buffers: the data
 * word, and the flit's identity (packet pool slot, index, hops so far). */
typedef struct noc_rtl_payload {
    uint64_t data;
    uint64_t tag; /* pkt | seq << 32 | hops << 48 */
} noc_rtl_payload_t;

/* One cycle's inputs. Entries of ports not in `valid` are not read. */
typedef struct noc_rtl_in {
    uint64_t valid, head, tail;          /* bit p: a flit on input port p */
    uint8_t vc[NOC_RTL_MAX_P];           /* its VC */
    uint8_t port[NOC_RTL_MAX_P];         /* heads: the output port here (the route) */
    uint8_t cls[NOC_RTL_MAX_P];          /* heads: the VC class on it */
    noc_rtl_payload_t data[NOC_RTL_MAX_P];
    uint64_t credit[NOC_RTL_LWORDS];     /* bit o*V+v: a credit for output VC v of port o */
} noc_rtl_in_t;

/* The output registers after the clock edge. */
typedef struct noc_rtl_out {
    uint64_t valid, head, tail;          /* bit o: a flit leaves output port o */
    uint8_t vc[NOC_RTL_MAX_P];
    noc_rtl_payload_t data[NOC_RTL_MAX_P];
    /* With count_toggles on: the bits of the core's flip-flops (its *_q
     * registers) that this clock edge changed; 0 otherwise. */
    uint64_t toggles;
} noc_rtl_out_t;

/* The taps of the cycle after the edge (bit l = p*V + v: input VC v of p). */
typedef struct noc_rtl_taps {
    uint64_t cross[NOC_RTL_LWORDS]; /* crosses the switch (its credit goes upstream) */
    uint64_t bid[NOC_RTL_LWORDS];   /* holds an output VC and a flit */
    uint64_t ready[NOC_RTL_LWORDS]; /* ... and a credit */
    uint8_t port[NOC_RTL_MAX_L];    /* output port of its packet */
} noc_rtl_taps_t;

typedef struct noc_rtl_core_api {
    uint32_t abi;                  /* NOC_RTL_ABI */
    int P, V, depth, n_class, arb; /* what this build is (arb: 0 round-robin, 1 matrix) */
    int traced;                    /* built with Verilator's FST tracing (the trace_* below) */
    void *(*create)(const char *name); /* a core, out of reset; name: its scope in a trace */
    void (*destroy)(void *core);
    void (*cycle)(void *core, const noc_rtl_in_t *in, noc_rtl_out_t *out, noc_rtl_taps_t *taps);
    /* The core's registers as its last clock edge left them (for a lockstep
     * bench, not the datapath): the credit count of each output VC o*V+v
     * and the fill of each input VC's FIFO l = p*V+v, P*V entries each. */
    void (*observe)(void *core, uint16_t *credits, uint16_t *usage);
    /* on 1: from now on, cycle() counts the toggles of the core's
     * flip-flops against their values now (a copy of them is kept; when
     * off, cycle() reads none of them); 0: stop. (rtl_toggles=1,
     * docs/energy.md "Activity from the RTL".) */
    void (*count_toggles)(void *core, int on);
    /* Traced builds: one FST file for the cores added to it (before it is
     * opened), sampled by trace_dump at a time in cycles. NULL otherwise. */
    void (*trace_add)(void *core);
    int (*trace_open)(const char *path); /* 0, or -1 */
    void (*trace_dump)(uint64_t cycle);
    /* 0, or -1 when a write of the file failed (waves/fst_guard.h: the
     * build's fstapi is linked with the guard); the file is then bad. */
    int (*trace_close)(void);
} noc_rtl_core_api_t;

/* The one symbol a model's shared object exports. */
typedef const noc_rtl_core_api_t *(*noc_rtl_core_api_fn)(void);
#define NOC_RTL_CORE_API_SYMBOL "noc_rtl_core_api"

#ifdef __cplusplus
}
#endif
#endif
