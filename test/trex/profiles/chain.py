# TRex-style profile (wirerate's own test): a chain of streams started one after another
# by next, the first after a gap (isg), looping twice (action_count), in three rate units.
from trex_stl_lib.api import *


class Chain:
    def get_streams(self, direction=0, **kwargs):
        pkt = STLPktBuilder(pkt=Ether() / IP(src="1.2.3.4", dst="5.6.7.8") / UDP() / (b"a" * 60))
        return STLProfile([
            STLStream(name="first", isg=20.0, packet=pkt, next="second",
                      mode=STLTXSingleBurst(total_pkts=10, bps_L1=1000000000)),
            STLStream(name="second", self_start=False, packet=pkt, next="third",
                      mode=STLTXMultiBurst(pkts_per_burst=10, ibg=50.0, count=3,
                                           bps_L2=500000)),
            STLStream(name="third", self_start=False, packet=pkt, next="first",
                      action_count=2, mode=STLTXSingleBurst(total_pkts=5, percentage=25)),
        ]).get_streams()


def register():
    return Chain()
