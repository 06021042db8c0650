// noc_vc_router: the router core, an input-queued virtual-channel wormhole
// router with credit flow control: the default pipeline of routers/vc
// (routing_delay 1, vc_alloc_delay 1, sw_alloc_delay 1, st_final_delay 1,
// separable input-first VC and switch allocators), register for register
// (docs/rtl.md, "The router core").
//
// It knows no topology: the route of this router travels with the head
// flit (in_port_i: output port, in_class_i: VC class), computed by the C
// side (lookahead); the router still spends the one-cycle route stage, so
// its timing is that of routers/vc with routing_delay=1.
//
// Timing of the ports (t is a cycle of the core's clock):
//   - a flit given on in_*_i in cycle t is at the front of its VC's FIFO
//     from cycle t+1 (the C model's arrival cycle a = t+1);
//   - a head at the front of an idle VC in cycle a is routed in a, bids for
//     an output VC in a+1 (VA), when granted in c bids for the switch from
//     c+1 (SA); granted the switch in s, it leaves the FIFO in s, its credit
//     is on in_credit_o in s, and it is on out_*_o in s+1 (output register);
//     body flits bid from the cycle they are at the front;
//   - a credit given on out_credit_i in cycle t can be spent from t+1.
//   So a flit crossing in s reaches the front of the next router wired
//   directly to out_*_o in s+2 (= SA + ST, link latency 0), and a credit
//   returned in s counts upstream from s+1 (credit_delay 1).
//
// Output port 0 is the ejection port, as in routers/vc: a packet leaves
// there on any VC (class "any"), and its sink always accepts: port 0 keeps
// no credit count and takes no credits (out_credit_i for port 0 is misuse).
//
// VC classes: class c of N_CLASS owns VCs [c*V/N_CLASS, (c+1)*V/N_CLASS)
// (noc_vc_class_range of model/router_if.h).
//
// Vectors are flat: input VC l = p*V + v; output VC o*V + v; flits between
// the boxes are flit_t (noc_pkg's NOC_TYPEDEF_FLIT) as flat words. (Flat
// rather than packed [P][V] arrays of FlooNoC's kind: yosys 0.23, which
// `noctua area` synthesizes with, reads no multi-dimensional packed arrays
// and misreads indexed arrays of typedefs and structs; see noc_pkg.)
//
// The boxes of the block diagram are modules, as routers/vc's are headers;
// this top only wires them: a noc_vc_input_unit per input port (a
// noc_vc_input_vc per VC: FIFO, route stage, registers; vc_input.h), the VC allocation
// (noc_vc_vcalloc; vc_vcalloc.h), the switch allocation (noc_vc_switch;
// vc_switch.h), the crossbar (noc_vc_crossbar) and a noc_vc_output_unit per
// output port (free output VCs, credits, output register; vc_output.h).
// Reset: asynchronous, active low.

module noc_vc_router #(
  parameter int unsigned P        = 5,   // ports (port 0: the local NI)
  parameter int unsigned V        = 2,   // VCs per port
  parameter int unsigned DEPTH    = 4,   // flits per VC
  parameter int unsigned FLIT_W   = 32,  // payload bits
  parameter int unsigned N_CLASS  = 1,   // VC classes of the routing (1 <= N_CLASS <= V)
  parameter int unsigned ARB_KIND = noc_pkg::ArbRoundRobin, // a noc_pkg::arb_kind_e
  // derived, do not set
  localparam int unsigned PortW = noc_pkg::idx_width(P),
  localparam int unsigned VcW   = noc_pkg::idx_width(V),
  localparam int unsigned ClsW  = noc_pkg::idx_width(N_CLASS)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // input ports: flits in, credits back upstream
  input  logic [P-1:0]          in_valid_i,
  input  logic [P*FLIT_W-1:0]   in_data_i,
  input  logic [P-1:0]          in_head_i,
  input  logic [P-1:0]          in_tail_i,
  input  logic [P*VcW-1:0]      in_vc_i,
  input  logic [P*PortW-1:0]    in_port_i,   // route (head flits): output port
  input  logic [P*ClsW-1:0]     in_class_i,  // route (head flits): VC class
  output logic [P*V-1:0]        in_credit_o, // [p*V + v]: a flit left input VC v of p
  // output ports: flits out, credits in from downstream
  output logic [P-1:0]          out_valid_o,
  output logic [P*FLIT_W-1:0]   out_data_o,
  output logic [P-1:0]          out_head_o,
  output logic [P-1:0]          out_tail_o,
  output logic [P*VcW-1:0]      out_vc_o,
  input  logic [P*V-1:0]        out_credit_i, // [o*V + v]: a credit for output VC v of o
  // observation taps (no function; what performance counters would read,
  // and what routers/rtl's link statistics are made of), this cycle:
  output logic [P*V-1:0]        obs_bid_o,   // [l]: input VC l holds an output VC and a flit
  output logic [P*V-1:0]        obs_ready_o, // [l]: ... and a credit: it bids for the switch
  output logic [P*V*PortW-1:0]  obs_port_o,  // [l]: the output port of input VC l's packet
  // ... and the registers a lockstep bench compares with the C router's
  // state (testbench/cosim/lockstep.c), after this cycle's edge:
  output logic [P*V*$clog2(DEPTH+1)-1:0] obs_credit_o, // [o*V+v]: credits of output VC v of o
  output logic [P*V*$clog2(DEPTH+1)-1:0] obs_usage_o   // [l]: flits in input VC l's FIFO
);

  localparam int unsigned L     = P * V;                        // input VCs
  localparam int unsigned CntW  = $clog2(DEPTH + 1);            // a credit count, a FIFO fill
  localparam int unsigned FlitW = noc_pkg::flit_width(FLIT_W);  // a flit_t

  // ---------------------------------------------------------------------
  // Input units: per input port, its VCs' FIFOs and registers.
  logic [L-1:0]        empty, vc_va, vc_active, pop;
  logic [L*CntW-1:0]   usage;
  logic [L*FlitW-1:0]  f_flit;     // the flit at the front of each input VC
  logic [L*PortW-1:0]  rport;      // the route of each input VC ...
  logic [L*V-1:0]      rmask;      // ... the output VCs its class may take
  logic [L*VcW-1:0]    ovc;        // ... the output VC it holds
  logic [L-1:0]        va_won;     // input VC l got an output VC
  logic [L*VcW-1:0]    va_ovc;     // which

  for (genvar p = 0; p < P; p++) begin : gen_in_port
    noc_vc_input_unit #(
      .P      (P),
      .V      (V),
      .DEPTH  (DEPTH),
      .FLIT_W (FLIT_W),
      .N_CLASS(N_CLASS),
      .PORT   (p)
    ) u_in (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .in_valid_i(in_valid_i[p]),
      .in_data_i (in_data_i[p*FLIT_W +: FLIT_W]),
      .in_head_i (in_head_i[p]),
      .in_tail_i (in_tail_i[p]),
      .in_vc_i   (in_vc_i[p*VcW +: VcW]),
      .in_port_i (in_port_i[p*PortW +: PortW]),
      .in_class_i(in_class_i[p*ClsW +: ClsW]),
      .va_won_i  (va_won[p*V +: V]),
      .va_ovc_i  (va_ovc[p*V*VcW +: V*VcW]),
      .pop_i     (pop[p*V +: V]),
      .empty_o   (empty[p*V +: V]),
      .usage_o   (usage[p*V*CntW +: V*CntW]),
      .flit_o    (f_flit[p*V*FlitW +: V*FlitW]),
      .va_o      (vc_va[p*V +: V]),
      .active_o  (vc_active[p*V +: V]),
      .rport_o   (rport[p*V*PortW +: V*PortW]),
      .rmask_o   (rmask[p*V*V +: V*V]),
      .ovc_o     (ovc[p*V*VcW +: V*VcW])
    );
  end

  // The output units' state (below), read by the allocators.
  logic [P*V-1:0]      free, credit_ok;
  logic [P*V*CntW-1:0] credits;

  // ---------------------------------------------------------------------
  // VC allocation (vc_vcalloc.h): per output port, (input VCs) x (its
  // output VCs), requests masked by the free VCs of the route's class.
  logic [P*V-1:0] va_taken;    // output VCs granted this cycle

  noc_vc_vcalloc #(
    .P       (P),
    .V       (V),
    .ARB_KIND(ARB_KIND)
  ) u_vcalloc (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .va_i   (vc_va),
    .rport_i(rport),
    .rmask_i(rmask),
    .free_i (free),
    .won_o  (va_won),
    .ovc_o  (va_ovc),
    .taken_o(va_taken)
  );

  // ---------------------------------------------------------------------
  // Switch allocation (vc_switch.h): the ready VCs bid, ports are matched,
  // each matched input port's VC arbiter picks the VC that crosses.
  logic [L-1:0] ready, xing;   // per input VC: ready, crossing now

  noc_vc_switch #(
    .P       (P),
    .V       (V),
    .ARB_KIND(ARB_KIND)
  ) u_switch (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .active_i   (vc_active),
    .empty_i    (empty),
    .rport_i    (rport),
    .ovc_i      (ovc),
    .credit_ok_i(credit_ok),
    .ready_o    (ready),
    .xing_o     (xing)
  );

  assign pop         = xing;  // the crossing flit leaves its FIFO now
  assign in_credit_o = xing;  // and its credit goes upstream

  // ---------------------------------------------------------------------
  // Crossbar (the traversal of vc_output.h): the flit crossing to each
  // output port.
  logic [P-1:0]       x_valid;
  logic [P*FlitW-1:0] x_flit;
  logic [P*VcW-1:0]   x_vc;

  noc_vc_crossbar #(
    .P     (P),
    .V     (V),
    .FLIT_W(FLIT_W)
  ) u_xbar (
    .xing_i (xing),
    .rport_i(rport),
    .ovc_i  (ovc),
    .flit_i (f_flit),
    .valid_o(x_valid),
    .flit_o (x_flit),
    .vc_o   (x_vc)
  );

  // ---------------------------------------------------------------------
  // Output units: per output port, its output VCs and output register.
  for (genvar o = 0; o < P; o++) begin : gen_out_port
    noc_vc_output_unit #(
      .V     (V),
      .DEPTH (DEPTH),
      .FLIT_W(FLIT_W),
      .EJECT (o == 0),
      .PORT  (o)
    ) u_out (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .taken_i     (va_taken[o*V +: V]),
      .xing_valid_i(x_valid[o]),
      .xing_flit_i (x_flit[o*FlitW +: FlitW]),
      .xing_vc_i   (x_vc[o*VcW +: VcW]),
      .credit_i    (out_credit_i[o*V +: V]),
      .free_o      (free[o*V +: V]),
      .credit_ok_o (credit_ok[o*V +: V]),
      .credits_o   (credits[o*V*CntW +: V*CntW]),
      .out_valid_o (out_valid_o[o]),
      .out_data_o  (out_data_o[o*FLIT_W +: FLIT_W]),
      .out_head_o  (out_head_o[o]),
      .out_tail_o  (out_tail_o[o]),
      .out_vc_o    (out_vc_o[o*VcW +: VcW])
    );
  end

  // ---------------------------------------------------------------------
  // Observation taps: a VC that holds an output VC and has a flit bids for
  // the switch (obs_bid_o); with a credit too it is ready (obs_ready_o).
  assign obs_bid_o    = vc_active & ~empty;
  assign obs_ready_o  = ready;
  assign obs_port_o   = rport;
  assign obs_credit_o = credits;
  assign obs_usage_o  = usage;

endmodule
