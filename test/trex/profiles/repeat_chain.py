# TRex-style profile (wirerate's own test): repeatable random variables (seeded, split to
# cores or not) and a next_var chain: an inc variable whose wraps move a dec variable whose
# wraps move a repeatable random one.
from trex_stl_lib.api import *


class RepeatChain:
    def get_streams(self, direction=0, **kwargs):
        pkt = Ether() / IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1, dport=2) / (b"y" * 30)
        vm = STLScVmRaw([
            STLVmFlowVarRepeatableRandom(name="r2", size=2, limit=5, seed=7,
                                         min_value=100, max_value=60000),
            STLVmFlowVarRepeatableRandom(name="r4", size=4, limit=13, seed=99,
                                         min_value=0, max_value=0x7fffffff,
                                         split_to_cores=False),
            STLVmFlowVar(name="a", min_value=0, max_value=4, size=1, op="inc", step=3,
                         init_value=2, next_var="b"),
            STLVmFlowVar(name="b", min_value=10, max_value=12, size=1, op="dec",
                         next_var="c"),
            STLVmFlowVarRepeatableRandom(name="c", size=1, limit=2, seed=3, min_value=0,
                                         max_value=200),
            STLVmWrFlowVar(fv_name="r2", pkt_offset="UDP.sport"),
            STLVmWrFlowVar(fv_name="r4", pkt_offset=46),
            STLVmWrFlowVar(fv_name="a", pkt_offset=50),
            STLVmWrFlowVar(fv_name="b", pkt_offset=51),
            STLVmWrFlowVar(fv_name="c", pkt_offset=52),
            STLVmFixChecksumHw(l3_offset="IP", l4_offset="UDP",
                               l4_type=CTRexVmInsFixHwCs.L4_TYPE_UDP),
        ])
        return STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm),
                         mode=STLTXMultiBurst(pkts_per_burst=20, ibg=100.0, count=5, pps=2000))


def register():
    return RepeatChain()
