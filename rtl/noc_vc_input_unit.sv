// noc_vc_input_unit: one input port of the router core: the flit arriving
// on the port goes into the input VC it names, a noc_vc_input_vc per VC
// (FIFO, route stage, registers); routers/vc's vc_input.h; docs/rtl.md,
// "The router core".
//
// A flit given on in_*_i in cycle t is at the front of its VC's FIFO from
// t+1, with the route it carries (in_port_i, in_class_i: the C side's
// lookahead; read on heads). Vectors are per VC v of this port, flat; flit_o
// holds V flit_t (noc_pkg's NOC_TYPEDEF_FLIT).
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
  localparam int unsigned FlitW = noc_pkg::flit_width(FLIT_W),
  localparam int unsigned UseW  = $clog2(DEPTH + 1)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // the flit arriving on this port
  input  logic               in_valid_i,
  input  logic [FLIT_W-1:0]  in_data_i,
  input  logic               in_head_i,
  input  logic               in_tail_i,
  input  logic [VcW-1:0]     in_vc_i,
  input  logic [PortW-1:0]   in_port_i,   // heads: the output port (the route)
  input  logic [ClsW-1:0]    in_class_i,  // heads: the VC class on it
  // from the allocators, this cycle
  input  logic [V-1:0]       va_won_i,    // VC v got an output VC ...
  input  logic [V*VcW-1:0]   va_ovc_i,    // ... this one
  input  logic [V-1:0]       pop_i,       // the flit at the front of VC v crosses
  // the VCs' state
  output logic [V-1:0]       empty_o,
  output logic [V*UseW-1:0]  usage_o,     // flits held
  output logic [V*FlitW-1:0] flit_o,      // the front flits
  output logic [V-1:0]       va_o,        // bids for an output VC
  output logic [V-1:0]       active_o,    // holds an output VC
  output logic [V*PortW-1:0] rport_o,     // its route: output port ...
  output logic [V*V-1:0]     rmask_o,     // ... and the output VCs of its class
  output logic [V*VcW-1:0]   ovc_o        // the output VC it holds
);

  typedef `NOC_TYPEDEF_FLIT(FLIT_W) flit_t;
  typedef `NOC_TYPEDEF_ROUTE(PortW, ClsW) route_t;

  // the arriving flit and its route
  flit_t  in_flit;
  route_t in_route;
  assign in_flit.head  = in_head_i;
  assign in_flit.tail  = in_tail_i;
  assign in_flit.data  = in_data_i;
  assign in_route.port = in_port_i;
  assign in_route.cls  = in_class_i;

  for (genvar v = 0; v < V; v++) begin : gen_vc
    noc_vc_input_vc #(
      .P      (P),
      .V      (V),
      .DEPTH  (DEPTH),
      .FLIT_W (FLIT_W),
      .N_CLASS(N_CLASS),
      .PORT   (PORT),
      .VC     (v)
    ) u_vc (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .push_i  (in_valid_i && (in_vc_i == VcW'(v))),
      .flit_i  (in_flit),
      .route_i (in_route),
      .va_won_i(va_won_i[v]),
      .va_ovc_i(va_ovc_i[v*VcW +: VcW]),
      .pop_i   (pop_i[v]),
      .empty_o (empty_o[v]),
      .usage_o (usage_o[v*UseW +: UseW]),
      .flit_o  (flit_o[v*FlitW +: FlitW]),
      .va_o    (va_o[v]),
      .active_o(active_o[v]),
      .rport_o (rport_o[v*PortW +: PortW]),
      .rmask_o (rmask_o[v*V +: V]),
      .ovc_o   (ovc_o[v*VcW +: VcW])
    );
  end

`ifndef SYNTHESIS
  // Handshake misuse (checked with Verilator's --assert).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!in_valid_i || (32'(in_vc_i) < V))
        else $error("noc_vc_router: flit on port %0d names VC %0d", PORT, in_vc_i);
      assert (!(in_valid_i && in_head_i) || (32'(in_port_i) < P))
        else $error("noc_vc_router: head on port %0d routed to port %0d", PORT, in_port_i);
      assert (!(in_valid_i && in_head_i) || (32'(in_class_i) < N_CLASS))
        else $error("noc_vc_router: head on port %0d names VC class %0d", PORT, in_class_i);
    end
  end
`endif

endmodule
