# A bad profile (wirerate's test): a write past the end of the packet.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        pkt = Ether() / IP() / UDP() / (b"\0" * 18)
        vm = STLScVmRaw([
            STLVmFlowVar(name="x", min_value=1, max_value=9, size=4, op="inc"),
            STLVmWrFlowVar(fv_name="x", pkt_offset="IP.src"),
            STLVmWrFlowVar(fv_name="x", pkt_offset=60),
        ])
        return [STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm))]


def register():
    return P()
