# A bad profile (wirerate's test): an instruction neither TRex nor wirerate has.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        vm = STLScVmRaw([
            STLVmFlowVar(name="a", min_value=1, max_value=9, size=1, op="inc"),
            STLVmFlowVarNotAThing(name="b"),
            STLVmWrFlowVar(fv_name="a", pkt_offset="IP.ttl"),
        ])
        return [STLStream(packet=STLPktBuilder(pkt=Ether() / IP(), vm=vm))]


def register():
    return P()
