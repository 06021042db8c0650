// noc_vc_input_vc: one input VC of the router core: its FIFO of flits with
// their routes, its route stage and its registers (routers/vc's vc_ivc_t,
// register for register; docs/rtl.md, "The router core"). A
// noc_vc_input_unit holds V of them.
//
// A flit pushed in cycle t is at the front from t+1. A head at the front of
// an idle VC is routed with the route it carries (the C side's lookahead):
// the VC then bids for an output VC (va_o) until va_won_i, then holds the
// output VC ovc_o (active_o) until its tail crosses (pop_i with the tail at
// the front).
//
// Reset: asynchronous, active low.

module noc_vc_input_vc #(
  parameter int unsigned P       = 5,   // ports of the router (routes name one)
  parameter int unsigned V       = 2,   // VCs per port
  parameter int unsigned DEPTH   = 4,   // flits
  parameter int unsigned FLIT_W  = 32,  // payload bits
  parameter int unsigned N_CLASS = 1,   // VC classes of the routing
  parameter int unsigned PORT    = 0,   // this VC's port and number (for messages only)
  parameter int unsigned VC      = 0,
  // derived, do not set
  localparam int unsigned PortW  = noc_pkg::idx_width(P),
  localparam int unsigned VcW    = noc_pkg::idx_width(V),
  localparam int unsigned FlitW  = noc_pkg::flit_width(FLIT_W),
  localparam int unsigned RouteW = noc_pkg::route_width(P, N_CLASS),
  localparam int unsigned UseW   = $clog2(DEPTH + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // the flit arriving on this VC (a flit_t) and its route (a route_t)
  input  logic              push_i,
  input  logic [FlitW-1:0]  flit_i,
  input  logic [RouteW-1:0] route_i,
  // from the allocators, this cycle
  input  logic              va_won_i,   // got an output VC ...
  input  logic [VcW-1:0]    va_ovc_i,   // ... this one
  input  logic              pop_i,      // the flit at the front crosses
  // the VC's state
  output logic              empty_o,
  output logic [UseW-1:0]   usage_o,    // flits held
  output logic [FlitW-1:0]  flit_o,     // the front flit (a flit_t)
  output logic              va_o,       // bids for an output VC
  output logic              active_o,   // holds an output VC
  output logic [PortW-1:0]  rport_o,    // its route: output port ...
  output logic [V-1:0]      rmask_o,    // ... and the output VCs of its class
  output logic [VcW-1:0]    ovc_o       // the output VC it holds
);

  localparam int unsigned ClsW = noc_pkg::idx_width(N_CLASS);

  typedef `NOC_TYPEDEF_FLIT(FLIT_W) flit_t;
  typedef `NOC_TYPEDEF_ROUTE(PortW, ClsW) route_t;
  // a FIFO entry: the flit and, for a head, its route
  typedef struct packed {
    route_t route;
    flit_t  flit;
  } entry_t;

  // States (vc_ivc_t.state, with the stage the C timed sets add): Idle
  // (empty, or a head in its route stage), Va (bidding for an output VC),
  // Active (holding one, past the VA delay: bids for the switch).
  typedef enum logic [1:0] {
    StIdle   = 2'd0,
    StVa     = 2'd1,
    StActive = 2'd2
  } state_e;

  // Registers (vc_ivc_t). The state keeps its binary encoding (yosys would
  // make it one-hot, a flip-flop more per VC, and the gate count no longer
  // that of the router's first version).
  state_e           state_d;
  (* fsm_encoding = "none" *)
  state_e           state_q;
  logic [PortW-1:0] rport_d, rport_q;
  logic [V-1:0]     rmask_d, rmask_q;   // class_mask[vc_ivc_t.rclass]
  logic [VcW-1:0]   ovc_d, ovc_q;

  entry_t in_entry, front;
  logic   full, route;
  assign in_entry.route = route_i;
  assign in_entry.flit  = flit_i;

  noc_fifo #(
    .DEPTH(DEPTH),
    .WIDTH(RouteW + FlitW)
  ) u_fifo (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .push_i (push_i),
    .data_i (in_entry),
    .full_o (full),
    .pop_i  (pop_i),
    .data_o (front),
    .empty_o(empty_o),
    .usage_o(usage_o)
  );
  assign flit_o = front.flit;

  // route stage (vc_route): the head at the front of an idle VC
  assign route = (state_q == StIdle) && !empty_o;

  // The output VCs a routed head may take: those of its class
  // (noc_vc_class_range), all for port 0 (the ejection port, class "any").
  logic [V-1:0] route_mask;
  always_comb begin
    route_mask = {V{1'b1}};
    if (front.route.port != '0) begin
      route_mask = '0;
      for (int unsigned c = 0; c < N_CLASS; c++) begin
        if (front.route.cls == ClsW'(c)) begin
          for (int unsigned v = 0; v < V; v++) begin
            route_mask[v] = (v >= c * V / N_CLASS) && (v < (c + 1) * V / N_CLASS);
          end
        end
      end
    end
  end

  // Next state: routed -> Va; granted an output VC -> Active; the tail
  // crossed -> Idle (at most one of these per cycle).
  always_comb begin
    state_d = state_q;
    rport_d = rport_q;
    rmask_d = rmask_q;
    ovc_d   = ovc_q;
    if (route) begin
      state_d = StVa;
      rport_d = front.route.port;
      rmask_d = route_mask;
    end
    if (va_won_i) begin
      state_d = StActive;
      ovc_d   = va_ovc_i;
    end
    if (pop_i && front.flit.tail) begin
      state_d = StIdle;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
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

  assign va_o     = state_q == StVa;
  assign active_o = state_q == StActive;
  assign rport_o  = rport_q;
  assign rmask_o  = rmask_q;
  assign ovc_o    = ovc_q;

`ifndef SYNTHESIS
  // Handshake misuse (checked with Verilator's --assert).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(push_i && full))
        else $error("noc_vc_router: flit into full input VC %0d of port %0d", VC, PORT);
      assert (!(route && !front.flit.head))
        else $error("noc_vc_router: body flit at the front of idle input VC %0d of port %0d", VC, PORT);
    end
  end
`else
  logic unused_input_vc;
  assign unused_input_vc = ^{full};
`endif

endmodule
