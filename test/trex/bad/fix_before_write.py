# A bad profile for wirerate (wirerate's test): the IPv4 checksum is fixed before a write
# into the header it covers, so TRex sends a checksum that does not cover the write.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        pkt = Ether() / IP(src="16.0.0.1") / UDP()
        vm = STLScVmRaw([
            STLVmFlowVar(name="x", min_value=1, max_value=9, size=1, op="inc"),
            STLVmWrFlowVar(fv_name="x", pkt_offset="IP.tos"),
            STLVmFixIpv4(offset="IP"),
            STLVmWrFlowVar(fv_name="x", pkt_offset="IP.ttl"),
        ])
        return [STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm))]


def register():
    return P()
