# TRex-style profile (wirerate's own test): TRex's older program class CTRexScRaw, and
# binascii and struct as TRex's API module exports them (the profile imports neither).
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        head = binascii.unhexlify("0200000000020200000000010800")
        ip = IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=7, dport=9) / (b"o" * 20)
        vm = CTRexScRaw([STLVmFlowVar(name="id", min_value=1, max_value=30, size=2, op="inc",
                                      step=4),
                         STLVmWrFlowVar(fv_name="id", pkt_offset=18),
                         STLVmFixIpv4(offset=14)])
        return [STLStream(packet=STLPktBuilder(pkt_buffer=head + bytes(ip) + struct.pack("!H", 7),
                                               vm=vm),
                          mode=STLTXCont(pps=10))]


def register():
    return P()
