# TRex-style profile (wirerate's own test): a tuple generator of clients and ports with a
# flow limit, both written, the NIC fixing IPv4 and UDP.
from trex_stl_lib.api import *


class TupleGen:
    def get_streams(self, direction=0, **kwargs):
        pkt = Ether() / IP(src="16.0.0.1", dst="48.0.0.1") / UDP(dport=12, sport=1025) / (b"x" * 22)
        vm = STLScVmRaw([
            STLVmTupleGen(ip_min="16.0.0.1", ip_max="16.0.0.3", port_min=1025, port_max=1027,
                          limit_flows=7, name="tuple"),
            STLVmWrFlowVar(fv_name="tuple.ip", pkt_offset="IP.src"),
            STLVmWrFlowVar(fv_name="tuple.port", pkt_offset="UDP.sport"),
            STLVmFixChecksumHw(l3_offset="IP", l4_offset="UDP",
                               l4_type=CTRexVmInsFixHwCs.L4_TYPE_UDP),
        ])
        return STLStream(packet=STLPktBuilder(pkt=pkt, vm=vm), mode=STLTXCont())


def register():
    return TupleGen()
