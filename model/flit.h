/* flit.h: the flit and packet records. Flits travel by value through
 * channels and buffers (no per-flit heap objects); a packet's bookkeeping sits
 * in one slot of the simulator's packet pool, named by flit.pkt. */
#ifndef NOC_FLIT_H
#define NOC_FLIT_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

enum {
    NOC_FLIT_HEAD = 1u,
    NOC_FLIT_TAIL = 2u,
};

typedef struct noc_flit {
    int64_t data;     /* payload word; synthetic traffic: the cycle its NI sent it */
    uint32_t pkt;     /* packet pool slot */
    int32_t dst;      /* destination node (what a router routes on) */
    uint16_t seq;     /* index of the flit in its packet */
    uint16_t hops;    /* network links crossed so far */
    uint8_t flags;    /* NOC_FLIT_HEAD | NOC_FLIT_TAIL */
    uint8_t vc;       /* VC on the channel it travels */
    uint8_t la_port;  /* lookahead routing: output port at the next router */
    uint8_t la_class; /* lookahead routing: VC class on that port */
} noc_flit_t;

#ifndef __cplusplus
_Static_assert(sizeof(noc_flit_t) == 24, "a flit stays 24 bytes: it is copied on every hop");
#endif

/* What a packet is (use_read_write: BookSim2's Flit::FlitType): plain
 * traffic, or a request or reply, each kind on its own VCs. */
enum noc_pkt_type {
    NOC_PKT_ANY = 0,
    NOC_PKT_READ_REQ,
    NOC_PKT_WRITE_REQ,
    NOC_PKT_READ_REP,
    NOC_PKT_WRITE_REP,
    NOC_PKT_TYPES
};

/* The VCs [*b, *e] (inclusive) of kind k (a request or reply) from its
 * begin_vc and end_vc parameters with num_vcs V: a negative end stands for
 * BookSim2's halves, requests the lower, replies the upper
 * (routefunc.cpp InitializeRoutingMap). */
static inline void noc_pkt_kind_vcs(int k, long long begin, long long end, int V, long long *b, long long *e)
{
    int reply = k >= NOC_PKT_READ_REP;
    *b = begin < 0 ? (reply ? V / 2 : 0) : begin;
    *e = end < 0 ? (reply ? V - 1 : V / 2 - 1) : end;
}

typedef struct noc_packet {
    uint64_t created;   /* cycle the source generated it */
    uint64_t injected;  /* cycle its head entered the injection channel */
    uint64_t id;        /* sequence number, unique in a run */
    int32_t src, dst;
    uint16_t size;      /* flits */
    uint16_t received;  /* flits delivered so far */
    uint16_t hops;      /* network links its head crossed (set on delivery) */
    uint16_t step;      /* programs: the step of its message (per-step link tables) */
    uint8_t measured;   /* created inside the measurement window */
    uint8_t type;       /* enum noc_pkt_type */
    uint8_t cls;        /* traffic class (classes > 1; else 0) */
    uint8_t pad;
    uint32_t msg;       /* programs: the message (its send op) the packet carries part of */
    union {
        uint32_t off;     /* programs: word offset of its first flit in the message */
        uint32_t src_seq; /* synthetic traffic: its number at its source, from 1 (priority = sequence) */
    };
    uint32_t salt;      /* random word of its header: what routing that draws
                           (noc_graph_t.route_rand) draws from */
} noc_packet_t;

#ifndef __cplusplus
_Static_assert(sizeof(noc_packet_t) == 56, "the salt fills the record's tail padding");
#endif

#ifdef __cplusplus
}
#endif
#endif
