# A bad profile for wirerate (wirerate's test): TRex's latency statistics, which wirerate
# does not have (it has its own signature); refused, naming the line.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        return [STLStream(packet=STLPktBuilder(pkt=Ether() / IP() / UDP() / (b"\0" * 40)),
                          mode=STLTXCont(pps=1000),
                          flow_stats=STLFlowLatencyStats(pg_id=7))]


def register():
    return P()
