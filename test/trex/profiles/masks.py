# TRex-style profile (wirerate's own test): masked writes into an 802.1Q tag and the IPv4
# TOS: the VLAN id (12 bits), the priority (3 bits, shifted), one bit of a byte, add_value.
from trex_stl_lib.api import *


class Masks:
    def get_streams(self, direction=0, **kwargs):
        pkt = Ether() / Dot1Q(vlan=1, prio=0) / IP(src="1.1.1.1", dst="2.2.2.2", tos=0x3) / \
            UDP(sport=1000, dport=2000) / (b"\0" * 18)
        vm = STLScVmRaw([
            STLVmFlowVar(name="vid", min_value=100, max_value=110, size=2, op="inc"),
            STLVmFlowVar(name="prio", min_value=0, max_value=7, size=1, op="dec"),
            STLVmFlowVar(name="w", min_value=0, max_value=0xfffff, size=4, op="inc", step=3333),
            STLVmWrMaskFlowVar(fv_name="vid", pkt_offset="Dot1Q.vlan", pkt_cast_size=2,
                               mask=0x0fff),
            STLVmWrMaskFlowVar(fv_name="prio", pkt_offset="Dot1Q.prio", pkt_cast_size=2,
                               mask=0xe000, shift=13, add_value=1),
            STLVmWrMaskFlowVar(fv_name="w", pkt_offset="IP.tos", pkt_cast_size=1, mask=0xf0,
                               shift=-4),
            STLVmWrMaskFlowVar(fv_name="w", pkt_offset="IP.id", pkt_cast_size=2, mask=0x00ff,
                               add_value=-5),
            STLVmFixIpv4(offset="IP"),
        ])
        return STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm),
                         mode=STLTXCont(bps_L1=1000000))


def register():
    return Masks()
