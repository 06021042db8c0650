// noc_arb_pick: the choice an arbiter of kind ARB_KIND would make for req_i
// given its state state_i (as noc_arbiter shows it on state_o), without
// holding any state. Purely combinational: the iSLIP allocator asks its
// arbiters again in later iterations with it.

module noc_arb_pick #(
  parameter int unsigned N        = 4,
  parameter int unsigned ARB_KIND = noc_pkg::ArbRoundRobin, // a noc_pkg::arb_kind_e
  // derived, do not set
  localparam int unsigned IdxW   = noc_pkg::idx_width(N),
  localparam int unsigned StateW = noc_pkg::arb_state_width(ARB_KIND, N)
) (
  input  logic [N-1:0]      req_i,
  input  logic [StateW-1:0] state_i,
  output logic [N-1:0]      gnt_o,   // one-hot winner, or 0
  output logic [IdxW-1:0]   idx_o,
  output logic              valid_o
);

  if (ARB_KIND == noc_pkg::ArbMatrix) begin : gen_matrix
    noc_matrix_pick #(
      .N(N)
    ) u_pick (
      .req_i   (req_i),
      .prio_i  (state_i),
      .gnt_o   (gnt_o),
      .idx_o   (idx_o),
      .valid_o (valid_o)
    );
  end else begin : gen_rr
    noc_rr_pick #(
      .N(N)
    ) u_pick (
      .req_i   (req_i),
      .ptr_i   (state_i),
      .gnt_o   (gnt_o),
      .idx_o   (idx_o),
      .valid_o (valid_o)
    );
  end

endmodule
