// noc_vc_output_unit: one output port of the router core: which of its
// output VCs are free, the credits it holds for each of the next router's
// input VCs, and the output register the crossbar writes (routers/vc's
// vc_output.h, vc_port_t.ovc_free and vc_node_t.credits, register for
// register; docs/rtl.md, "The router core").
//
// The crossing flit and the output register are flit_t (noc_pkg's
// NOC_TYPEDEF_FLIT). An output VC is taken when the VC allocator grants it (taken_i) and free
// again when a tail crosses on it; a crossing spends a credit of its output
// VC and a credit_i returns one, both counted from the next cycle. The
// crossing flit (xing_*_i) is on out_*_o from the next cycle (the output
// register). EJECT = 1 makes port 0: its sink (the NI) always accepts, so
// it keeps no credit count (its credits show DEPTH) and takes no credits.
//
// Reset: asynchronous, active low.

module noc_vc_output_unit #(
  parameter int unsigned V      = 2,   // VCs per port
  parameter int unsigned DEPTH  = 4,   // flits per VC of the next router
  parameter int unsigned FLIT_W = 32,  // payload bits
  parameter bit          EJECT  = 1'b0,// the ejection port
  parameter int unsigned PORT   = 0,   // this port's number (for messages only)
  // derived, do not set
  localparam int unsigned VcW  = noc_pkg::idx_width(V),
  localparam int unsigned CntW  = $clog2(DEPTH + 1),
  localparam int unsigned FlitW = noc_pkg::flit_width(FLIT_W)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // this cycle
  input  logic [V-1:0]      taken_i,      // output VCs the VC allocator grants
  input  logic              xing_valid_i, // a flit crosses the switch to this port ...
  input  logic [FlitW-1:0]  xing_flit_i,  // ... this flit_t ...
  input  logic [VcW-1:0]    xing_vc_i,    // ... on this output VC
  input  logic [V-1:0]      credit_i,     // a credit for output VC v comes back
  // the output VCs' state
  output logic [V-1:0]      free_o,       // not held by a packet
  output logic [V-1:0]      credit_ok_o,  // a credit to spend (always at port 0)
  output logic [V*CntW-1:0] credits_o,    // the credit counts
  // the output register
  output logic              out_valid_o,
  output logic [FLIT_W-1:0] out_data_o,
  output logic              out_head_o,
  output logic              out_tail_o,
  output logic [VcW-1:0]    out_vc_o
);

  localparam logic [CntW-1:0] FullCredits = CntW'(DEPTH);

  typedef `NOC_TYPEDEF_FLIT(FLIT_W) flit_t;

  // Registers
  logic [V-1:0]      free_d, free_q;   // vc_port_t.ovc_free
  logic [V*CntW-1:0] cred_d, cred_q;   // vc_node_t.credits of this port
  logic              ovalid_q;         // the output register: valid,
  flit_t             oflit_q;          // the flit (all 0 when not valid),
  logic [VcW-1:0]    ovc_q;            // its output VC

  flit_t xing_flit;
  assign xing_flit = xing_flit_i;

  // The output VC of the crossing flit, one-hot.
  logic [V-1:0] xing_ovc;
  for (genvar v = 0; v < V; v++) begin : gen_onehot
    assign xing_ovc[v] = xing_valid_i && (xing_vc_i == VcW'(v));
  end

  always_comb begin
    free_d = free_q & ~taken_i;
    if (xing_valid_i && xing_flit.tail) begin
      free_d = free_d | xing_ovc;
    end
    cred_d = cred_q;
    if (!EJECT) begin
      // one spent per crossing, one back per credit_i
      for (int unsigned v = 0; v < V; v++) begin
        cred_d[v*CntW +: CntW] = cred_q[v*CntW +: CntW] - CntW'(xing_ovc[v]) + CntW'(credit_i[v]);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      free_q   <= '1;
      cred_q   <= {V{FullCredits}};
      ovalid_q <= 1'b0;
      oflit_q  <= '0;
      ovc_q    <= '0;
    end else begin
      free_q   <= free_d;
      cred_q   <= cred_d;
      ovalid_q <= xing_valid_i;
      oflit_q  <= xing_valid_i ? xing_flit : '0;
      ovc_q    <= xing_valid_i ? xing_vc_i : '0;
    end
  end

  for (genvar v = 0; v < V; v++) begin : gen_ok
    assign credit_ok_o[v] = EJECT || (cred_q[v*CntW +: CntW] != '0);
  end
  assign free_o      = free_q;
  assign credits_o   = cred_q;
  assign out_valid_o = ovalid_q;
  assign out_data_o  = oflit_q.data;
  assign out_head_o  = oflit_q.head;
  assign out_tail_o  = oflit_q.tail;
  assign out_vc_o    = ovc_q;

`ifndef SYNTHESIS
  // Handshake misuse (checked with Verilator's --assert).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (EJECT) begin
        assert (credit_i == '0)
          else $error("noc_vc_router: credit for the ejection port");
      end else begin
        for (int unsigned v = 0; v < V; v++) begin
          assert (!(credit_i[v] && !xing_ovc[v] && (cred_q[v*CntW +: CntW] == FullCredits)))
            else $error("noc_vc_router: credit overflow on output VC %0d of port %0d", v, PORT);
        end
      end
    end
  end
`endif

endmodule
