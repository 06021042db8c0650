// noc_rr_pick: the choice of a round-robin arbiter, without its state.
//
// Among the set bits of req_i, the winner is the first requester at or after
// ptr_i, going round from N-1 to 0. This is noc_rr_pick() of model/arbiter.h
// (ptr_i is the pointer as an RTL arbiter holds it, 0 .. N-1). Purely
// combinational; noc_rr_arbiter adds the pointer register, and the iSLIP
// allocator uses further copies of it on the same pointers.

module noc_rr_pick #(
  parameter int unsigned N = 4,
  // derived, do not set
  localparam int unsigned IdxW = noc_pkg::idx_width(N)
) (
  input  logic [N-1:0]    req_i,
  input  logic [IdxW-1:0] ptr_i,
  output logic [N-1:0]    gnt_o,   // one-hot winner, or 0 when nobody requests
  output logic [IdxW-1:0] idx_o,   // index of the winner (0 when nobody requests)
  output logic            valid_o  // somebody requests
);

  logic [N-1:0] from_ptr, req_hi, cand;

  // Requesters at or after the pointer.
  always_comb begin
    for (int unsigned i = 0; i < N; i++) begin
      from_ptr[i] = (i >= 32'(ptr_i));
    end
  end

  // Those of them that request, if any; else all that request: the winner is
  // the lowest set bit of cand.
  assign req_hi  = req_i & from_ptr;
  assign cand    = (|req_hi) ? req_hi : req_i;
  assign gnt_o   = cand & (~cand + 1'b1);
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
