// noc_vc_vcalloc: VC allocation of the router core (routers/vc's
// vc_vcalloc.h; docs/rtl.md, "The router core"). Per output port o, one
// noc_sep_alloc_if over (the P*V input VCs) x (o's V output VCs): an input
// VC in the VA stage (va_i) whose route names o requests the output VCs of
// its class (rmask_i) that are free (free_i). Combinational but for the
// allocators' arbiters.
//
// Vectors are flat: input VC l = p*V + v; output VC o*V + v.
// Reset: asynchronous, active low.

module noc_vc_vcalloc #(
  parameter int unsigned P        = 5,   // ports
  parameter int unsigned V        = 2,   // VCs per port
  parameter int unsigned ARB_KIND = noc_pkg::ArbRoundRobin, // a noc_pkg::arb_kind_e
  // derived, do not set
  localparam int unsigned PortW = noc_pkg::idx_width(P),
  localparam int unsigned VcW   = noc_pkg::idx_width(V)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // per input VC l: bidding, its route's output port and class mask
  input  logic [P*V-1:0]       va_i,
  input  logic [P*V*PortW-1:0] rport_i,
  input  logic [P*V*V-1:0]     rmask_i,
  // per output VC: not held by a packet
  input  logic [P*V-1:0]       free_i,
  // the grants, this cycle
  output logic [P*V-1:0]       won_o,   // input VC l got an output VC ...
  output logic [P*V*VcW-1:0]   ovc_o,   // ... this one (on its route's port)
  output logic [P*V-1:0]       taken_o  // output VCs granted
);

  localparam int unsigned L = P * V;   // input VCs

  logic [P*L*V-1:0]   req, gnt;
  logic [P*L-1:0]     gvalid;
  logic [P*L*VcW-1:0] gidx;
  // the arbiters' state (for a lockstep bench to come; not used here)
  localparam int unsigned InW  = noc_pkg::arb_state_width(ARB_KIND, V);
  localparam int unsigned OutW = noc_pkg::arb_state_width(ARB_KIND, L);
  logic [P*L*InW-1:0]  in_state;
  logic [P*V*OutW-1:0] out_state;

  for (genvar o = 0; o < P; o++) begin : gen_va
    for (genvar l = 0; l < L; l++) begin : gen_req
      assign req[(o*L + l)*V +: V] =
          (va_i[l] && (rport_i[l*PortW +: PortW] == PortW'(o))) ? (rmask_i[l*V +: V] & free_i[o*V +: V]) : '0;
    end
    noc_sep_alloc_if #(
      .N_IN    (L),
      .N_OUT   (V),
      .ARB_KIND(ARB_KIND)
    ) u_va (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .req_i      (req[o*L*V +: L*V]),
      .gnt_o      (gnt[o*L*V +: L*V]),
      .gnt_valid_o(gvalid[o*L +: L]),
      .gnt_idx_o  (gidx[o*L*VcW +: L*VcW]),
      .in_state_o (in_state[o*L*InW +: L*InW]),
      .out_state_o(out_state[o*V*OutW +: V*OutW])
    );
  end

  // An input VC bids on one output port, so at most one allocator grants it.
  always_comb begin
    won_o   = '0;
    ovc_o   = '0;
    taken_o = '0;
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned l = 0; l < L; l++) begin
        won_o[l]             = won_o[l] | gvalid[o*L + l];
        ovc_o[l*VcW +: VcW]  = ovc_o[l*VcW +: VcW] | gidx[(o*L + l)*VcW +: VcW];
        taken_o[o*V +: V]    = taken_o[o*V +: V] | gnt[(o*L + l)*V +: V];
      end
    end
  end

  logic unused_vcalloc;
  assign unused_vcalloc = ^{in_state, out_state};

endmodule
