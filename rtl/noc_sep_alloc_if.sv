// noc_sep_alloc_if: separable input-first allocator, N_IN requesters x
// N_OUT resources, one iteration.
//
// Every requester's input arbiter (over N_OUT resources) picks one of the
// resources it requests; every resource's output arbiter (over N_IN
// requesters) picks one of the requesters whose input arbiter picked it;
// that pair is granted. An arbiter's priority moves only for a final grant:
// an output arbiter whenever it picks (its pick is always granted), an input
// arbiter only when its pick won at the output. This is noc_alloc_run of
// model/alloc.c for NOC_ALLOC_INPUT_FIRST (and its list and sparse forms,
// which give the same grants), with ARB_KIND arbiters at both stages.
//
// Matrices are flat, row by row: req_i[i*N_OUT + r] is requester i wanting
// resource r, gnt_o likewise (at most one bit per row and per column).
// in_state_o / out_state_o show the arbiters' state (noc_arbiter's state_o,
// one after the other) for the lockstep bench.
// Reset: asynchronous, active low.

module noc_sep_alloc_if #(
  parameter int unsigned N_IN     = 4,
  parameter int unsigned N_OUT    = 4,
  parameter int unsigned ARB_KIND = noc_pkg::ArbRoundRobin, // a noc_pkg::arb_kind_e
  // derived, do not set
  localparam int unsigned OutIdxW   = noc_pkg::idx_width(N_OUT),
  localparam int unsigned InStateW  = noc_pkg::arb_state_width(ARB_KIND, N_OUT),
  localparam int unsigned OutStateW = noc_pkg::arb_state_width(ARB_KIND, N_IN)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [N_IN*N_OUT-1:0]        req_i,       // [i*N_OUT + r]: i wants r
  output logic [N_IN*N_OUT-1:0]        gnt_o,       // [i*N_OUT + r]: i is granted r
  output logic [N_IN-1:0]              gnt_valid_o, // requester i is granted a resource
  output logic [N_IN*OutIdxW-1:0]      gnt_idx_o,   // [i*OutIdxW +: OutIdxW]: which (0: none)
  output logic [N_IN*InStateW-1:0]     in_state_o,  // requester i's arbiter: [i*InStateW +: ..]
  output logic [N_OUT*OutStateW-1:0]   out_state_o  // resource r's arbiter: [r*OutStateW +: ..]
);

  localparam int unsigned InIdxW = noc_pkg::idx_width(N_IN);

  logic [N_IN*N_OUT-1:0]   in_gnt;    // each input arbiter's pick, row i
  logic [N_IN*OutIdxW-1:0] in_idx;
  logic [N_IN-1:0]         in_valid;
  logic [N_OUT*N_IN-1:0]   out_req;   // the picks by resource, row r
  logic [N_OUT*N_IN-1:0]   out_gnt;   // each output arbiter's pick, row r
  logic [N_OUT*InIdxW-1:0] out_idx;
  logic [N_OUT-1:0]        out_valid;

  // Stage 1: requesters pick.
  for (genvar i = 0; i < N_IN; i++) begin : gen_in
    noc_arbiter #(
      .N       (N_OUT),
      .ARB_KIND(ARB_KIND)
    ) u_in_arb (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .req_i   (req_i[i*N_OUT +: N_OUT]),
      .update_i(gnt_valid_o[i]),
      .gnt_o   (in_gnt[i*N_OUT +: N_OUT]),
      .idx_o   (in_idx[i*OutIdxW +: OutIdxW]),
      .valid_o (in_valid[i]),
      .state_o (in_state_o[i*InStateW +: InStateW])
    );
  end

  // Stage 2: resources pick among the requesters that picked them.
  for (genvar r = 0; r < N_OUT; r++) begin : gen_out
    for (genvar i = 0; i < N_IN; i++) begin : gen_col
      assign out_req[r*N_IN + i] = in_gnt[i*N_OUT + r];
      assign gnt_o[i*N_OUT + r]  = out_gnt[r*N_IN + i];
    end

    noc_arbiter #(
      .N       (N_IN),
      .ARB_KIND(ARB_KIND)
    ) u_out_arb (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .req_i   (out_req[r*N_IN +: N_IN]),
      .update_i(out_valid[r]),
      .gnt_o   (out_gnt[r*N_IN +: N_IN]),
      .idx_o   (out_idx[r*InIdxW +: InIdxW]),
      .valid_o (out_valid[r]),
      .state_o (out_state_o[r*OutStateW +: OutStateW])
    );
  end

  // A requester's grant is its own input arbiter's pick, when that won.
  for (genvar i = 0; i < N_IN; i++) begin : gen_gnt
    assign gnt_valid_o[i]                  = |gnt_o[i*N_OUT +: N_OUT];
    assign gnt_idx_o[i*OutIdxW +: OutIdxW] = gnt_valid_o[i] ? in_idx[i*OutIdxW +: OutIdxW] : '0;
  end

  // (a pick's validity shows in gnt_o; the output arbiters' index is not needed)
  logic unused_picks;
  assign unused_picks = ^{in_valid, out_idx};

endmodule
