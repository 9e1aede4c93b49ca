# A bad profile for wirerate (wirerate's test): TRex's latency statistics on a stream with a
# field-engine program, which wirerate sends as bytes (frame:) and cannot sign; refused,
# naming the line.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        vm = STLScVmRaw([STLVmFlowVar(name="s", min_value=1, max_value=9, size=1, op="inc"),
                         STLVmWrFlowVar(fv_name="s", pkt_offset="IP.ttl")])
        return [STLStream(packet=STLPktBuilder(pkt=Ether() / IP() / UDP() / (b"\0" * 40), vm=vm),
                          mode=STLTXCont(pps=1000),
                          flow_stats=STLFlowLatencyStats(pg_id=7))]


def register():
    return P()
