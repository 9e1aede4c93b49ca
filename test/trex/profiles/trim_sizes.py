# TRex-style profile (wirerate's own test): sizes from 60 to the packet's by trimming, the
# IPv4 and UDP lengths written from the size, IPv4 checksum fixed by software and UDP's by
# the NIC; a second stream draws its sizes at random.
from trex_stl_lib.api import *


class TrimSizes:
    def stream(self, op, size):
        l2 = Ether()
        l3 = IP(src="16.0.0.1", dst="48.0.0.1")
        l4 = UDP(dport=12, sport=1025)
        base = l2 / l3 / l4 / (b"\x55" * (size - len(l2 / l3 / l4)))
        vm = STLScVmRaw([
            STLVmFlowVar(name="fv", min_value=60, max_value=len(base), size=2, op=op),
            STLVmTrimPktSize("fv"),
            STLVmWrFlowVar(fv_name="fv", pkt_offset="IP.len", add_val=-len(l2)),
            STLVmFixIpv4(offset="IP"),
            STLVmWrFlowVar(fv_name="fv", pkt_offset="UDP.len", add_val=-len(l2 / l3)),
            STLVmFixChecksumHw(l3_offset="IP", l4_offset="UDP",
                               l4_type=CTRexVmInsFixHwCs.L4_TYPE_UDP),
        ])
        return STLStream(name="trim-" + op, packet=STLPktBuilder(pkt=base, vm=vm),
                         random_seed=5, mode=STLTXCont(bps_L2=100000000))

    def get_streams(self, direction=0, size=300, **kwargs):
        return [self.stream("inc", size), self.stream("random", size)]


def register():
    return TrimSizes()
