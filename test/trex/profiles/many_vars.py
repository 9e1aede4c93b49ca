# TRex-style profile (wirerate's own test): 20 flow variables in one program (TRex's own
# tests/multi_core_test.py has 20), each written after the UDP header.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        pkt = Ether() / IP(src="16.0.0.1", dst="48.0.0.1") / UDP(sport=1500, dport=1500) / \
            (b"\xff" * 80)
        vm = STLVM()
        off = 42
        for i in range(20):
            size = (1, 2, 4)[i % 3]
            vm.var(name=f"v{i}", min_value=i, max_value=i * 7 + 5, size=size,
                   op="inc" if i % 2 else "dec", step=1 + i % 4)
            vm.write(fv_name=f"v{i}", pkt_offset=off)
            off += size
        return [STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm), mode=STLTXCont(pps=1))]


def register():
    return P()
