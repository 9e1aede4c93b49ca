# A bad profile (wirerate's test): a variable written before it is declared.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        pkt = Ether() / IP(src="16.0.0.1") / UDP()
        vm = STLScVmRaw([
            STLVmFixIpv4(offset="IP"),
            STLVmWrFlowVar(fv_name="t.ip", pkt_offset="IP.src"),
            STLVmFlowVar(name="x", min_value=1, max_value=9, size=1, op="inc"),
            STLVmTupleGen(name="t", ip_min="16.0.0.1", ip_max="16.0.0.9"),
        ])
        return [STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm))]


def register():
    return P()
