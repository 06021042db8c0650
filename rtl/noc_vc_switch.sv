// noc_vc_switch: switch allocation of the router core (routers/vc's
// vc_switch.h; docs/rtl.md, "The router core"). An input VC is ready when it
// holds an output VC (active_i, past the VA delay), has a flit at the front
// and a credit for its output VC (credit_ok_i; always at the ejection port).
// Input port p requests the output ports of its ready VCs; a P x P
// noc_sep_alloc_if matches ports; each matched input port's VC arbiter (a
// noc_arbiter over its ready VCs for the matched output port) picks the VC
// that crosses (xing_o): its flit leaves the FIFO and its credit goes
// upstream this cycle. Combinational but for the arbiters.
//
// Vectors are flat: input VC l = p*V + v; output VC o*V + v.
// Reset: asynchronous, active low.

module noc_vc_switch #(
  parameter int unsigned P        = 5,   // ports
  parameter int unsigned V        = 2,   // VCs per port
  parameter int unsigned ARB_KIND = noc_pkg::ArbRoundRobin, // a noc_pkg::arb_kind_e
  // derived, do not set
  localparam int unsigned PortW = noc_pkg::idx_width(P),
  localparam int unsigned VcW   = noc_pkg::idx_width(V)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // per input VC l
  input  logic [P*V-1:0]       active_i,    // holds an output VC
  input  logic [P*V-1:0]       empty_i,     // its FIFO is empty
  input  logic [P*V*PortW-1:0] rport_i,     // its route's output port
  input  logic [P*V*VcW-1:0]   ovc_i,       // the output VC it holds there
  // per output VC: a credit to spend
  input  logic [P*V-1:0]       credit_ok_i,
  // per input VC l, this cycle
  output logic [P*V-1:0]       ready_o,     // bids for the switch
  output logic [P*V-1:0]       xing_o       // crosses (at most one per port, in and out)
);

  localparam int unsigned L = P * V;   // input VCs

  logic [P*P-1:0]     sa_req, sa_gnt;
  logic [P-1:0]       sa_gvalid;
  logic [P*PortW-1:0] sa_gidx;
  logic [L-1:0]       cand;            // per input VC: a candidate of its VC arbiter
  // the arbiters' state (for a lockstep bench to come; not used here)
  localparam int unsigned SaW    = noc_pkg::arb_state_width(ARB_KIND, P);
  localparam int unsigned VcArbW = noc_pkg::arb_state_width(ARB_KIND, V);
  logic [P*SaW-1:0]    sa_in_state, sa_out_state;
  logic [P*VcArbW-1:0] vc_arb_state;
  logic [P*VcW-1:0]    vc_idx;
  logic [P-1:0]        vc_valid;

  for (genvar l = 0; l < L; l++) begin : gen_ready
    assign ready_o[l] = active_i[l] && !empty_i[l]
                        && credit_ok_i[32'(rport_i[l*PortW +: PortW]) * V + 32'(ovc_i[l*VcW +: VcW])];
  end

  always_comb begin
    sa_req = '0;
    for (int unsigned p = 0; p < P; p++) begin
      for (int unsigned v = 0; v < V; v++) begin
        for (int unsigned o = 0; o < P; o++) begin
          if (ready_o[p*V + v] && (rport_i[(p*V + v)*PortW +: PortW] == PortW'(o))) begin
            sa_req[p*P + o] = 1'b1;
          end
        end
      end
    end
  end

  noc_sep_alloc_if #(
    .N_IN    (P),
    .N_OUT   (P),
    .ARB_KIND(ARB_KIND)
  ) u_sa (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (sa_req),
    .gnt_o      (sa_gnt),
    .gnt_valid_o(sa_gvalid),
    .gnt_idx_o  (sa_gidx),
    .in_state_o (sa_in_state),
    .out_state_o(sa_out_state)
  );

  // Per input port: the VC arbiter (vc_port_t.vc_ptr, or sa_vc for matrix).
  for (genvar p = 0; p < P; p++) begin : gen_vc_arb
    for (genvar v = 0; v < V; v++) begin : gen_cand
      assign cand[p*V + v] = sa_gvalid[p] && ready_o[p*V + v]
                             && (rport_i[(p*V + v)*PortW +: PortW] == sa_gidx[p*PortW +: PortW]);
    end
    noc_arbiter #(
      .N       (V),
      .ARB_KIND(ARB_KIND)
    ) u_vc_arb (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .req_i   (cand[p*V +: V]),
      .update_i(sa_gvalid[p]),
      .gnt_o   (xing_o[p*V +: V]),
      .idx_o   (vc_idx[p*VcW +: VcW]),
      .valid_o (vc_valid[p]),
      .state_o (vc_arb_state[p*VcArbW +: VcArbW])
    );
  end

  // (the VC arbiters' index and validity, the SA grant matrix and the
  // arbiters' state are not needed)
  logic unused_switch;
  assign unused_switch = ^{vc_idx, vc_valid, sa_gnt, sa_in_state, sa_out_state, vc_arb_state};

endmodule
