// noc_rr_arbiter: round-robin arbiter over N requesters.
//
// The winner is the first requester at or after the pointer (noc_rr_pick).
// The pointer moves past the winner -- to idx_o + 1, wrapping to 0 -- only in
// a cycle with update_i set, the signal that this cycle's choice became a
// final grant (the handshake rule of common_cells' rr_arb_tree). This is
// noc_arbiter_pick / noc_arbiter_update of model/arbiter.h for
// NOC_ARB_ROUND_ROBIN, and the bare pointers of model/alloc.h (noc_rr_pick,
// noc_rr_next; ptr_o is noc_rr_ptr()). After reset the pointer is 0.
//
// update_i without any request is misuse (asserted).
// Reset: asynchronous, active low.

module noc_rr_arbiter #(
  parameter int unsigned N = 4,
  // derived, do not set
  localparam int unsigned IdxW = noc_pkg::idx_width(N)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            update_i, // this cycle's choice was granted: move the pointer
  output logic [N-1:0]    gnt_o,    // one-hot winner, or 0
  output logic [IdxW-1:0] idx_o,
  output logic            valid_o,
  output logic [IdxW-1:0] ptr_o     // the requester first in line
);

  localparam logic [IdxW-1:0] Last = IdxW'(N - 1);

  logic [IdxW-1:0] ptr_d, ptr_q;

  noc_rr_pick #(
    .N(N)
  ) u_pick (
    .req_i  (req_i),
    .ptr_i  (ptr_q),
    .gnt_o  (gnt_o),
    .idx_o  (idx_o),
    .valid_o(valid_o)
  );

  always_comb begin
    ptr_d = ptr_q;
    if (update_i && valid_o) begin
      ptr_d = (idx_o == Last) ? '0 : idx_o + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0;
    end else begin
      ptr_q <= ptr_d;
    end
  end

  assign ptr_o = ptr_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(update_i && !valid_o))
        else $error("noc_rr_arbiter: update without a request");
    end
  end
`endif

endmodule
