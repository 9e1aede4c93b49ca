# TRex-style profile (wirerate's own test): TCP SYNs from random sources, as a SYN flood
# test sends them: random source address and port, IPv4 checksum fixed, TCP's left stale.
from trex_stl_lib.api import *


class SynFlood:
    def get_streams(self, direction=0, **kwargs):
        base = Ether() / IP(dst="48.0.0.1") / TCP(dport=80, flags="S")
        vm = STLScVmRaw([
            STLVmFlowVar(name="ip_src", min_value="16.0.0.0", max_value="18.0.0.254",
                         size=4, op="random"),
            STLVmFlowVar(name="src_port", min_value=1025, max_value=65000, size=2,
                         op="random"),
            STLVmWrFlowVar(fv_name="ip_src", pkt_offset="IP.src"),
            STLVmFixIpv4(offset="IP"),
            STLVmWrFlowVar(fv_name="src_port", pkt_offset="TCP.sport"),
        ])
        return STLStream(packet=STLPktBuilder(pkt=base, vm=vm),
                         random_seed=0x1234, mode=STLTXCont(pps=1000))


def register():
    return SynFlood()
