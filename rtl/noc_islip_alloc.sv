// noc_islip_alloc: iSLIP allocator (McKeown), N_IN requesters x N_OUT
// resources, ITERS grant/accept iterations in one cycle.
//
// Iteration 1 is the output-first allocator of noc_sep_alloc_of. Each later
// iteration repeats grant/accept over the requesters and resources still
// unmatched, asking the same arbiters with the same (unmoved) priority
// state. Only first-iteration matches move priorities. The grants of all
// iterations together are the result. This is noc_alloc_run of
// model/alloc.c for NOC_ALLOC_ISLIP with `iters` = ITERS (the C model
// stops early when an iteration makes no match; the iterations after it
// would make none either, so the result is the same). ARB_KIND arbiters at
// both stages.
//
// In a later iteration the arbiters asked are those of unmatched requesters
// and resources, whose state the first iteration left alone; so the picks
// read the registered state (noc_arb_pick on noc_arbiter's state_o).
//
// Matrices are flat, row by row: req_i[i*N_OUT + r] is requester i wanting
// resource r, gnt_o likewise (at most one bit per row and per column).
// in_state_o / out_state_o show the arbiters' state (noc_arbiter's state_o,
// one after the other) for the lockstep bench.
// Reset: asynchronous, active low.

module noc_islip_alloc #(
  parameter int unsigned N_IN     = 4,
  parameter int unsigned N_OUT    = 4,
  parameter int unsigned ITERS    = 2,
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

  logic [N_OUT-1:0] out_won; // the first iteration's pick of each resource was accepted

  // Iteration t, with its own signals (gen_iter[t].*): the requests still
  // open (row i), the output picks (row r), what each requester was offered
  // (row i), the matches made (row i), all matches so far (row i and row r),
  // and the resources taken so far.
  for (genvar t = 0; t < ITERS; t++) begin : gen_iter
    logic [N_IN*N_OUT-1:0]   req, in_req, match, acc;
    logic [N_OUT*N_IN-1:0]   out_req, out_gnt, acc_t;
    logic [N_OUT*InIdxW-1:0] out_idx;
    logic [N_OUT-1:0]        out_valid, taken;
    logic [N_IN*OutIdxW-1:0] in_idx;
    logic [N_IN-1:0]         in_valid;

    if (t == 0) begin : gen_req
      assign req = req_i;
      assign acc = match;
    end else begin : gen_req
      // Those of unmatched requesters for resources nobody took.
      for (genvar i = 0; i < N_IN; i++) begin : gen_left
        assign req[i*N_OUT +: N_OUT] = (|gen_iter[t-1].acc[i*N_OUT +: N_OUT]) ? '0
                                     : (req_i[i*N_OUT +: N_OUT] & ~gen_iter[t-1].taken);
      end
      assign acc = gen_iter[t-1].acc | match;
    end

    for (genvar r = 0; r < N_OUT; r++) begin : gen_out
      for (genvar i = 0; i < N_IN; i++) begin : gen_col
        assign out_req[r*N_IN + i] = req[i*N_OUT + r];
        assign in_req[i*N_OUT + r] = out_gnt[r*N_IN + i];
        assign acc_t[r*N_IN + i]   = acc[i*N_OUT + r];
      end
      assign taken[r] = |acc_t[r*N_IN +: N_IN];
    end

    if (t == 0) begin : gen_arb
      // Grant: the resources' arbiters, which move for accepted picks.
      for (genvar r = 0; r < N_OUT; r++) begin : gen_out_arb
        noc_arbiter #(
          .N       (N_IN),
          .ARB_KIND(ARB_KIND)
        ) u_out_arb (
          .clk_i   (clk_i),
          .rst_ni  (rst_ni),
          .req_i   (out_req[r*N_IN +: N_IN]),
          .update_i(out_won[r]),
          .gnt_o   (out_gnt[r*N_IN +: N_IN]),
          .idx_o   (out_idx[r*InIdxW +: InIdxW]),
          .valid_o (out_valid[r]),
          .state_o (out_state_o[r*OutStateW +: OutStateW])
        );
      end
      // Accept: the requesters' arbiters, whose picks are all matches.
      for (genvar i = 0; i < N_IN; i++) begin : gen_in_arb
        noc_arbiter #(
          .N       (N_OUT),
          .ARB_KIND(ARB_KIND)
        ) u_in_arb (
          .clk_i   (clk_i),
          .rst_ni  (rst_ni),
          .req_i   (in_req[i*N_OUT +: N_OUT]),
          .update_i(in_valid[i]),
          .gnt_o   (match[i*N_OUT +: N_OUT]),
          .idx_o   (in_idx[i*OutIdxW +: OutIdxW]),
          .valid_o (in_valid[i]),
          .state_o (in_state_o[i*InStateW +: InStateW])
        );
      end
      assign out_won = taken;
    end else begin : gen_arb
      // The same arbiters asked again, on their registered state.
      for (genvar r = 0; r < N_OUT; r++) begin : gen_out_pick
        noc_arb_pick #(
          .N       (N_IN),
          .ARB_KIND(ARB_KIND)
        ) u_out_pick (
          .req_i   (out_req[r*N_IN +: N_IN]),
          .state_i (out_state_o[r*OutStateW +: OutStateW]),
          .gnt_o   (out_gnt[r*N_IN +: N_IN]),
          .idx_o   (out_idx[r*InIdxW +: InIdxW]),
          .valid_o (out_valid[r])
        );
      end
      for (genvar i = 0; i < N_IN; i++) begin : gen_in_pick
        noc_arb_pick #(
          .N       (N_OUT),
          .ARB_KIND(ARB_KIND)
        ) u_in_pick (
          .req_i   (in_req[i*N_OUT +: N_OUT]),
          .state_i (in_state_o[i*InStateW +: InStateW]),
          .gnt_o   (match[i*N_OUT +: N_OUT]),
          .idx_o   (in_idx[i*OutIdxW +: OutIdxW]),
          .valid_o (in_valid[i])
        );
      end
    end

    // (picks show in match; the last iteration's `taken` is not needed)
    logic unused_picks;
    assign unused_picks = ^{out_idx, out_valid, in_idx, in_valid, taken};
  end

  // The result: the matches of all iterations (disjoint by construction).
  assign gnt_o = gen_iter[ITERS-1].acc;

  for (genvar i = 0; i < N_IN; i++) begin : gen_gnt
    assign gnt_valid_o[i] = |gnt_o[i*N_OUT +: N_OUT];
    always_comb begin
      gnt_idx_o[i*OutIdxW +: OutIdxW] = '0;
      for (int unsigned r = 0; r < N_OUT; r++) begin
        if (gnt_o[i*N_OUT + r]) begin
          gnt_idx_o[i*OutIdxW +: OutIdxW] = OutIdxW'(r);
        end
      end
    end
  end

endmodule
