# TRex-style profile (wirerate's own test): packets without a field-engine program, one a
# stack wirerate builds (VLAN, IPv4, TCP, payload) with explicit MACs, one it cannot (IPv4
# options) sent as bytes, one below 60 bytes.
from trex_stl_lib.api import *


class Static:
    def get_streams(self, direction=0, **kwargs):
        a = Ether(src="00:11:22:33:44:55", dst="66:77:88:99:aa:bb") / Dot1Q(vlan=7, prio=5) / \
            IP(src="10.1.1.1", dst="10.2.2.2", ttl=33, tos=0xb8, flags="DF") / \
            TCP(sport=1234, dport=80, flags="PA", seq=1000, ack=2000, window=512) / \
            (b"hello" * 20)
        b = Ether() / IP(src="10.1.1.1", dst="10.2.2.2", options=IPOption_NOP()) / UDP() / (b"\x01" * 30)
        c = Ether() / IP() / UDP()
        return [STLStream(name="stack", packet=STLPktBuilder(pkt=a), mode=STLTXCont(pps=5)),
                STLStream(name="options", packet=STLPktBuilder(pkt=b), mode=STLTXCont(pps=5)),
                STLStream(name="short", packet=STLPktBuilder(pkt=c), mode=STLTXCont(pps=5))]


def register():
    return Static()
