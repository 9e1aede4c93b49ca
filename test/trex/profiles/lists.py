# TRex-style profile (wirerate's own test): dec with a step that does not divide the range,
# value lists (inc, dec and random), 1- and 8-byte variables, a little-endian write, add_val
# and offset_fixup.
from trex_stl_lib.api import *


def register():
    class P:
        def get_streams(self, direction=0, **kw):
            pkt = Ether() / IP(src="10.0.0.1", dst="10.0.0.2", ttl=7) / UDP(sport=1, dport=2) / (b"\xab" * 40)
            vm = STLScVmRaw([
                STLVmFlowVar(name="ttl", min_value=3, max_value=250, size=1, op="dec", step=7,
                             init_value=9),
                STLVmFlowVar(name="dport", value_list=[53, 80, 443, 8080, 9999], size=2,
                             op="inc", step=2),
                STLVmFlowVar(name="sport", value_list=[7, 5, 3], size=2, op="dec"),
                STLVmFlowVar(name="tos", value_list=[0, 4, 8, 16], size=1, op="random"),
                STLVmFlowVar(name="big", min_value=0, max_value=0xFFFFFFFFFFFFFFFF, size=8,
                             op="random"),
                STLVmFlowVar(name="cnt", min_value=0xFFFFFFFFFFFFFF00,
                             max_value=0xFFFFFFFFFFFFFFFF, size=8, op="inc", step=100),
                STLVmWrFlowVar(fv_name="ttl", pkt_offset="IP.ttl"),
                STLVmWrFlowVar(fv_name="dport", pkt_offset="UDP.dport"),
                STLVmWrFlowVar(fv_name="sport", pkt_offset="UDP.sport", add_val=-3),
                STLVmWrFlowVar(fv_name="tos", pkt_offset="IP.tos"),
                STLVmFixIpv4(offset="IP"),
                STLVmWrFlowVar(fv_name="big", pkt_offset=42),
                STLVmWrFlowVar(fv_name="cnt", pkt_offset="UDP.sport", offset_fixup=16,
                               is_big=False),
            ])
            return [STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm), random_seed=77,
                              mode=STLTXSingleBurst(total_pkts=500, pps=100))]
    return P()
