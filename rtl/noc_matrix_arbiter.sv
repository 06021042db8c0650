// noc_matrix_arbiter: least-recently-granted arbiter over N requesters.
//
// State: one bit per pair i < j, set when i beats j; the full "beats" matrix
// (prio_o[i*N + j]: i beats j; [j*N + i] is its complement, the diagonal 0)
// is always a total order, so exactly one requester wins whenever any
// requests (noc_matrix_pick). After reset lower indices beat higher ones.
// In a cycle with update_i set (this cycle's choice became a final grant)
// the winner drops to the lowest priority: it beats nobody, everybody beats
// it. This is noc_arbiter_pick / noc_arbiter_update of model/arbiter.h for
// NOC_ARB_MATRIX; prio_o is the C arbiter's `matrix`, row by row.
//
// update_i without any request is misuse (asserted).
// Reset: asynchronous, active low.

module noc_matrix_arbiter #(
  parameter int unsigned N = 4,
  // derived, do not set
  localparam int unsigned IdxW = noc_pkg::idx_width(N)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [N-1:0]        req_i,
  input  logic                update_i, // this cycle's choice was granted: it drops to last
  output logic [N-1:0]        gnt_o,    // one-hot winner, or 0
  output logic [IdxW-1:0]     idx_o,
  output logic                valid_o,
  output logic [N*N-1:0]      prio_o    // [i*N + j]: i beats j
);

  logic [N*N-1:0] prio;

  for (genvar i = 0; i < N; i++) begin : gen_row
    assign prio[i*N + i] = 1'b0;
    for (genvar j = i + 1; j < N; j++) begin : gen_pair
      logic beats_q; // i beats j

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          beats_q <= 1'b1;
        end else if (update_i) begin
          if (gnt_o[i]) begin
            beats_q <= 1'b0;
          end else if (gnt_o[j]) begin
            beats_q <= 1'b1;
          end
        end
      end

      assign prio[i*N + j] = beats_q;
      assign prio[j*N + i] = ~beats_q;
    end
  end

  noc_matrix_pick #(
    .N(N)
  ) u_pick (
    .req_i  (req_i),
    .prio_i (prio),
    .gnt_o  (gnt_o),
    .idx_o  (idx_o),
    .valid_o(valid_o)
  );

  assign prio_o = prio;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(update_i && !valid_o))
        else $error("noc_matrix_arbiter: update without a request");
    end
  end
`endif

endmodule
