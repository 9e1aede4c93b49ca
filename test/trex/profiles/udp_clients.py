# A TRex-style profile (wirerate's own, for its tests): UDP from a range of clients,
# the source address and port walking up, IPv4 checksum fixed, UDP checksum left.
from trex_stl_lib.api import *


class UdpClients(object):

    def create_stream(self, size):
        base = Ether() / IP(src="16.0.0.1", dst="48.0.0.1") / UDP(dport=12, sport=1025)
        pad = max(0, size - len(base)) * b"x"
        vm = STLScVmRaw([
            STLVmFlowVar(name="src", min_value="16.0.0.1", max_value="16.0.0.254",
                         size=4, op="inc"),
            STLVmFlowVar(name="sport", min_value=1025, max_value=1124, size=2, op="inc",
                         step=3, init_value=1100),
            STLVmWrFlowVar(fv_name="src", pkt_offset="IP.src"),
            STLVmFixIpv4(offset="IP"),
            STLVmWrFlowVar(fv_name="sport", pkt_offset="UDP.sport"),
        ])
        return STLStream(packet=STLPktBuilder(pkt=base / pad, vm=vm),
                         mode=STLTXCont(pps=10))

    def get_streams(self, direction=0, size=64, **kwargs):
        return [self.create_stream(size - 4)]


def register():
    return UdpClients()
