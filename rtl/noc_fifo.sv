// noc_fifo: a first-in first-out buffer of DEPTH entries of WIDTH bits.
//
// The RTL twin of the C model's flit FIFO (model/fifo.h): DEPTH is any
// number from 1 up (not only powers of two), and "full" means DEPTH entries
// whatever the storage. data_o shows the entry at the front while the FIFO
// is not empty (no fall-through: an entry pushed in cycle t is at the front
// from cycle t+1 at the earliest).
//
// Handshake: push_i writes data_i at the end, pop_i drops the front entry;
// both may be given in the same cycle. Pushing while full_o or popping while
// empty_o is misuse (credit flow control rules it out in the router) and
// trips an assertion; the FIFO's state is then left unchanged by that
// request. full_o does not depend on pop_i: a full FIFO takes no entry even
// in a cycle in which it gives one.
//
// Reset: asynchronous, active low (rst_ni); the storage itself is not reset.

module noc_fifo #(
  parameter int unsigned DEPTH = 4,
  parameter int unsigned WIDTH = 32,
  // derived, do not set
  localparam int unsigned CntW = $clog2(DEPTH + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // write side
  input  logic             push_i,
  input  logic [WIDTH-1:0] data_i,
  output logic             full_o,
  // read side
  input  logic             pop_i,
  output logic [WIDTH-1:0] data_o,
  output logic             empty_o,
  // entries held
  output logic [CntW-1:0]  usage_o
);

  localparam int unsigned PtrW = noc_pkg::idx_width(DEPTH);
  localparam logic [PtrW-1:0] LastSlot = PtrW'(DEPTH - 1);

  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [PtrW-1:0] rd_ptr_d, rd_ptr_q, wr_ptr_d, wr_ptr_q;
  logic [CntW-1:0] cnt_d, cnt_q;
  logic do_push, do_pop;

  assign full_o  = (cnt_q == CntW'(DEPTH));
  assign empty_o = (cnt_q == '0);
  assign usage_o = cnt_q;
  assign data_o  = mem_q[rd_ptr_q];

  assign do_push = push_i & ~full_o;
  assign do_pop  = pop_i & ~empty_o;

  always_comb begin
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    cnt_d    = cnt_q;
    if (do_push) begin
      wr_ptr_d = (wr_ptr_q == LastSlot) ? '0 : wr_ptr_q + 1'b1;
    end
    if (do_pop) begin
      rd_ptr_d = (rd_ptr_q == LastSlot) ? '0 : rd_ptr_q + 1'b1;
    end
    if (do_push && !do_pop) begin
      cnt_d = cnt_q + 1'b1;
    end else if (do_pop && !do_push) begin
      cnt_d = cnt_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      cnt_q    <= '0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      cnt_q    <= cnt_d;
    end
  end

  // The storage: written, never reset.
  always_ff @(posedge clk_i) begin
    if (do_push) begin
      mem_q[wr_ptr_q] <= data_i;
    end
  end

`ifndef SYNTHESIS
  // Handshake misuse (checked with Verilator's --assert).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(push_i && full_o))
        else $error("noc_fifo: push while full (DEPTH %0d)", DEPTH);
      assert (!(pop_i && empty_o))
        else $error("noc_fifo: pop while empty");
    end
  end
`endif

endmodule
