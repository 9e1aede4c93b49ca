# TRex-style profile (wirerate's own test): IPv6/UDP with the low bytes of the source
# varying (offset_fixup into IPv6.src), the NIC fixing the UDP checksum; and an ICMPv6
# echo whose identifier varies with the ICMPv6 checksum fixed.
from trex_stl_lib.api import *


class V6:
    def get_streams(self, direction=0, **kwargs):
        udp = Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP(sport=1, dport=2) / (b"q" * 10)
        vm = STLScVmRaw([
            STLVmFlowVar(name="lo", min_value=1, max_value=1000, size=4, op="inc", step=7),
            STLVmWrFlowVar(fv_name="lo", pkt_offset="IPv6.src", offset_fixup=12),
            STLVmFixChecksumHw(l3_offset="IPv6", l4_offset="UDP",
                               l4_type=CTRexVmInsFixHwCs.L4_TYPE_UDP),
        ])
        icmp = Ether() / IPv6(src="2001:db8::1", dst="2001:db8::3") / ICMPv6EchoRequest(id=1, seq=1)
        vm2 = STLScVmRaw([
            STLVmFlowVar(name="id", min_value=1, max_value=60000, size=2, op="random"),
            STLVmWrFlowVar(fv_name="id", pkt_offset="ICMPv6EchoRequest.id"),
            STLVmFixIcmpv6(l3_offset="IPv6", l4_offset="ICMPv6EchoRequest"),
        ])
        return [STLStream(name="udp6", packet=STLPktBuilder(pkt=udp, vm=vm)),
                STLStream(name="icmp6", packet=STLPktBuilder(pkt=icmp, vm=vm2), random_seed=9)]


def register():
    return V6()
