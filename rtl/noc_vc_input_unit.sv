// noc_vc_input_unit: one input port of the router core: a FIFO per VC and
// the VC's registers (routers/vc's vc_input.h and vc_ivc_t, register for
// register; docs/rtl.md, "The router core").
//
// A flit given on in_*_i in cycle t is at the front of its VC's FIFO from
// t+1. A head at the front of an idle VC is routed (route_o) with the route
// it carries (in_port_i, in_class_i: the C side's lookahead); the VC then
// bids for an output VC (va_o) until va_won_i, then holds the output VC
// ovc_o (active_o) until its tail crosses (pop_i with the tail at the
// front). Vectors are per VC v of this port.
//
// Reset: asynchronous, active low.

module noc_vc_input_unit #(
  parameter int unsigned P       = 5,   // ports of the router (routes name one)
  parameter int unsigned V       = 2,   // VCs per port
  parameter int unsigned DEPTH   = 4,   // flits per VC
  parameter int unsigned FLIT_W  = 32,  // payload bits
  parameter int unsigned N_CLASS = 1,   // VC classes of the routing
  parameter int unsigned PORT    = 0,   // this port's number (for messages only)
  // derived, do not set
  localparam int unsigned PortW = noc_pkg::idx_width(P),
  localparam int unsigned VcW   = noc_pkg::idx_width(V),
  localparam int unsigned ClsW  = noc_pkg::idx_width(N_CLASS),
  localparam int unsigned UseW  = $clog2(DEPTH + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // the flit arriving on this port
  input  logic                in_valid_i,
  input  logic [FLIT_W-1:0]   in_data_i,
  input  logic                in_head_i,
  input  logic                in_tail_i,
  input  logic [VcW-1:0]      in_vc_i,
  input  logic [PortW-1:0]    in_port_i,   // heads: the output port (the route)
  input  logic [ClsW-1:0]     in_class_i,  // heads: the VC class on it
  // from the allocators, this cycle
  input  logic [V-1:0]        va_won_i,    // VC v got an output VC ...
  input  logic [V*VcW-1:0]    va_ovc_i,    // ... this one
  input  logic [V-1:0]        pop_i,       // the flit at the front of VC v crosses
  // the VCs' state
  output logic [V-1:0]        empty_o,
  output logic [V*UseW-1:0]   usage_o,     // flits held
  output logic [V-1:0]        f_head_o,    // the front flit
  output logic [V-1:0]        f_tail_o,
  output logic [V*FLIT_W-1:0] f_data_o,
  output logic [V-1:0]        va_o,        // bids for an output VC
  output logic [V-1:0]        active_o,    // holds an output VC
  output logic [V*PortW-1:0]  rport_o,     // its route: output port ...
  output logic [V*V-1:0]      rmask_o,     // ... and the output VCs of its class
  output logic [V*VcW-1:0]    ovc_o        // the output VC it holds
);

  // VC states (vc_ivc_t.state, with the stage the C timed sets add):
  // Idle (empty, or a head in its route stage), Va (bidding for an output
  // VC), Active (holding one, past the VA delay: bids for the switch).
  localparam logic [1:0] StIdle   = 2'd0;
  localparam logic [1:0] StVa     = 2'd1;
  localparam logic [1:0] StActive = 2'd2;

  // A FIFO entry: the flit and, for a head, its route, at these offsets
  // (a packed struct would say it better, but yosys 0.23, which `noctua
  // area` synthesizes with, reads none inside a generate block).
  localparam int unsigned OffHead = FLIT_W;
  localparam int unsigned OffTail = FLIT_W + 1;
  localparam int unsigned OffPort = FLIT_W + 2;
  localparam int unsigned OffCls  = FLIT_W + 2 + PortW;
  localparam int unsigned EntryW  = FLIT_W + 2 + PortW + ClsW;

  // Registers (vc_ivc_t)
  logic [V*2-1:0]     state_d, state_q;
  logic [V*PortW-1:0] rport_d, rport_q;
  logic [V*V-1:0]     rmask_d, rmask_q;     // class_mask[vc_ivc_t.rclass]
  logic [V*VcW-1:0]   ovc_d, ovc_q;

  logic [V-1:0]        push, full, route;
  logic [EntryW-1:0]   in_entry;
  logic [V*EntryW-1:0] front;       // the entry at the front of each FIFO
  logic [V*PortW-1:0]  f_port;      // ... its route
  logic [V*ClsW-1:0]   f_class;
  assign in_entry = {in_class_i, in_port_i, in_tail_i, in_head_i, in_data_i}; // (field order)

  for (genvar v = 0; v < V; v++) begin : gen_vc
    assign push[v] = in_valid_i && (in_vc_i == VcW'(v));
    noc_fifo #(
      .DEPTH(DEPTH),
      .WIDTH(EntryW)
    ) u_fifo (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .push_i (push[v]),
      .data_i (in_entry),
      .full_o (full[v]),
      .pop_i  (pop_i[v]),
      .data_o (front[v*EntryW +: EntryW]),
      .empty_o(empty_o[v]),
      .usage_o(usage_o[v*UseW +: UseW])
    );
    assign f_data_o[v*FLIT_W +: FLIT_W] = front[v*EntryW +: FLIT_W];
    assign f_head_o[v]                  = front[v*EntryW + OffHead];
    assign f_tail_o[v]                  = front[v*EntryW + OffTail];
    assign f_port[v*PortW +: PortW]     = front[v*EntryW + OffPort +: PortW];
    assign f_class[v*ClsW +: ClsW]      = front[v*EntryW + OffCls +: ClsW];
    // route stage (vc_route): the head at the front of an idle VC
    assign route[v] = (state_q[v*2 +: 2] == StIdle) && !empty_o[v];
  end

  // The VCs of each class (noc_vc_class_range), and "any" for ejection.
  logic [N_CLASS*V-1:0] class_mask;
  for (genvar c = 0; c < N_CLASS; c++) begin : gen_class
    for (genvar v = 0; v < V; v++) begin : gen_vc
      assign class_mask[c*V + v] = (v >= c * V / N_CLASS) && (v < (c + 1) * V / N_CLASS);
    end
  end

  // The output VCs a routed head may take: those of its class, all for
  // port 0 (the ejection port).
  logic [V*V-1:0] route_mask;
  for (genvar v = 0; v < V; v++) begin : gen_mask
    always_comb begin
      route_mask[v*V +: V] = {V{1'b1}};
      if (f_port[v*PortW +: PortW] != '0) begin
        route_mask[v*V +: V] = '0;
        for (int unsigned c = 0; c < N_CLASS; c++) begin
          if (f_class[v*ClsW +: ClsW] == ClsW'(c)) begin
            route_mask[v*V +: V] = class_mask[c*V +: V];
          end
        end
      end
    end
  end

  // Next state: routed -> Va; granted an output VC -> Active; the tail
  // crossed -> Idle (at most one of these per VC and cycle).
  always_comb begin
    state_d = state_q;
    rport_d = rport_q;
    rmask_d = rmask_q;
    ovc_d   = ovc_q;
    for (int unsigned v = 0; v < V; v++) begin
      if (route[v]) begin
        state_d[v*2 +: 2]         = StVa;
        rport_d[v*PortW +: PortW] = f_port[v*PortW +: PortW];
        rmask_d[v*V +: V]         = route_mask[v*V +: V];
      end
      if (va_won_i[v]) begin
        state_d[v*2 +: 2]     = StActive;
        ovc_d[v*VcW +: VcW]   = va_ovc_i[v*VcW +: VcW];
      end
      if (pop_i[v] && f_tail_o[v]) begin
        state_d[v*2 +: 2] = StIdle;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= '0;
      rport_q <= '0;
      rmask_q <= '0;
      ovc_q   <= '0;
    end else begin
      state_q <= state_d;
      rport_q <= rport_d;
      rmask_q <= rmask_d;
      ovc_q   <= ovc_d;
    end
  end

  for (genvar v = 0; v < V; v++) begin : gen_out
    assign va_o[v]     = state_q[v*2 +: 2] == StVa;
    assign active_o[v] = state_q[v*2 +: 2] == StActive;
  end
  assign rport_o = rport_q;
  assign rmask_o = rmask_q;
  assign ovc_o   = ovc_q;

`ifndef SYNTHESIS
  // Handshake misuse (checked with Verilator's --assert).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      for (int unsigned v = 0; v < V; v++) begin
        assert (!(push[v] && full[v]))
          else $error("noc_vc_router: flit into full input VC %0d of port %0d", v, PORT);
        assert (!(route[v] && !f_head_o[v]))
          else $error("noc_vc_router: body flit at the front of idle input VC %0d of port %0d", v, PORT);
      end
      assert (!in_valid_i || (32'(in_vc_i) < V))
        else $error("noc_vc_router: flit on port %0d names VC %0d", PORT, in_vc_i);
      assert (!(in_valid_i && in_head_i) || (32'(in_port_i) < P))
        else $error("noc_vc_router: head on port %0d routed to port %0d", PORT, in_port_i);
      assert (!(in_valid_i && in_head_i) || (32'(in_class_i) < N_CLASS))
        else $error("noc_vc_router: head on port %0d names VC class %0d", PORT, in_class_i);
    end
  end
`else
  logic unused_input;
  assign unused_input = ^{full};
`endif

endmodule
