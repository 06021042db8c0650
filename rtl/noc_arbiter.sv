// noc_arbiter: an arbiter of the kind ARB_KIND (noc_pkg::arb_kind_e, the
// values of noc_arb_kind_t) over N requesters, for the allocators, which
// take the kind as a parameter as the C allocators do (model/alloc.h: one
// kind at both stages).
//
// state_o shows the priority state in one vector, for noc_arb_pick and the
// lockstep benches: the pointer of a round-robin arbiter, or the N x N
// beats matrix of a matrix arbiter (bit i*N + j: i beats j).
// Reset: asynchronous, active low.

module noc_arbiter #(
  parameter int unsigned N        = 4,
  parameter int unsigned ARB_KIND = noc_pkg::ArbRoundRobin, // a noc_pkg::arb_kind_e
  // derived, do not set
  localparam int unsigned IdxW   = noc_pkg::idx_width(N),
  localparam int unsigned StateW = noc_pkg::arb_state_width(ARB_KIND, N)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [N-1:0]      req_i,
  input  logic              update_i, // this cycle's choice was granted
  output logic [N-1:0]      gnt_o,    // one-hot winner, or 0
  output logic [IdxW-1:0]   idx_o,
  output logic              valid_o,
  output logic [StateW-1:0] state_o
);

  if (ARB_KIND == noc_pkg::ArbMatrix) begin : gen_matrix
    noc_matrix_arbiter #(
      .N(N)
    ) u_arb (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .req_i   (req_i),
      .update_i(update_i),
      .gnt_o   (gnt_o),
      .idx_o   (idx_o),
      .valid_o (valid_o),
      .prio_o  (state_o)
    );
  end else begin : gen_rr
    noc_rr_arbiter #(
      .N(N)
    ) u_arb (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .req_i   (req_i),
      .update_i(update_i),
      .gnt_o   (gnt_o),
      .idx_o   (idx_o),
      .valid_o (valid_o),
      .ptr_o   (state_o)
    );
  end

endmodule
