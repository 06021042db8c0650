// noc_matrix_pick: the choice of a matrix arbiter, without its state.
//
// prio_i[i*N + j] set means requester i beats requester j (row i of the
// beats matrix is prio_i[i*N +: N]). The winner is the
// requester that beats every other requester (pick_matrix of
// model/arbiter.c). The diagonal is ignored. When prio_i is a total order,
// as noc_matrix_arbiter keeps it, exactly one requester wins whenever any
// requests; otherwise the lowest index among those that beat all the others
// wins, as in the C model, and none may. Purely combinational.

module noc_matrix_pick #(
  parameter int unsigned N = 4,
  // derived, do not set
  localparam int unsigned IdxW = noc_pkg::idx_width(N)
) (
  input  logic [N-1:0]         req_i,
  input  logic [N*N-1:0]       prio_i,  // [i*N + j]: i beats j
  output logic [N-1:0]         gnt_o,   // one-hot winner, or 0
  output logic [IdxW-1:0]      idx_o,
  output logic                 valid_o  // somebody requests
);

  logic [N-1:0] beats_all;

  // i wins if it requests and, for every j, j does not request, or j is i,
  // or i beats j.
  always_comb begin
    for (int unsigned i = 0; i < N; i++) begin
      beats_all[i] = req_i[i] & (&(prio_i[i*N +: N] | ~req_i | (N'(1) << i)));
    end
  end

  // The lowest of them (the only one for a total order).
  assign gnt_o   = beats_all & (~beats_all + 1'b1);
  assign valid_o = |req_i;

  always_comb begin
    idx_o = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (gnt_o[i]) begin
        idx_o = IdxW'(i);
      end
    end
  end

endmodule
