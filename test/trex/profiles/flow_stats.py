# TRex-style profile (wirerate's own test): TRex's flow statistics on stack streams:
# STLFlowStats (per-stream counters), STLFlowLatencyStats (latency) and STLTaggedPktGroup.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        base = Ether() / IP(src="16.0.0.1", dst="48.0.0.1") / UDP(sport=1025, dport=12)
        pad = b"x" * (124 - len(base))
        tagged = Ether() / Dot1Q(vlan=5) / IP(src="16.0.0.2", dst="48.0.0.1") / \
            UDP(sport=1025, dport=12) / (b"t" * 60)
        return [STLStream(name="counted", packet=STLPktBuilder(pkt=base / pad),
                          mode=STLTXSingleBurst(total_pkts=10, pps=100),
                          flow_stats=STLFlowStats(pg_id=3)),
                STLStream(name="timed", packet=STLPktBuilder(pkt=base / pad),
                          mode=STLTXCont(pps=100), flow_stats=STLFlowLatencyStats(pg_id=4)),
                STLStream(name="tagged", packet=STLPktBuilder(pkt=tagged),
                          mode=STLTXCont(pps=100), flow_stats=STLTaggedPktGroup(tpgid=0))]


def register():
    return P()
