# TRex-style profile (wirerate's own test): a random source cached: TRex sends its first
# cache_size packets again and again.
from trex_stl_lib.api import *


class Cached:
    def get_streams(self, direction=0, **kwargs):
        pkt = Ether() / IP(dst="48.0.0.1") / UDP(dport=12, sport=1025) / (b"z" * 20)
        vm = STLScVmRaw([
            STLVmFlowVar(name="src", min_value="10.0.0.1", max_value="10.0.255.254", size=4,
                         op="random"),
            STLVmWrFlowVar(fv_name="src", pkt_offset="IP.src"),
            STLVmFixIpv4(offset="IP"),
        ], cache_size=17)
        return STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm), random_seed=3,
                         mode=STLTXCont(pps=10))


def register():
    return Cached()
