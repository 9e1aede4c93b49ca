# A TRex profile that talks on stdout (wirerate's test): at import, in register(), in
# get_streams() and below Python's print (os.write on descriptor 1), as profiles written for
# TRex's console do.  None of it may reach the stream file wirerate reads.
import os
import sys

from trex_stl_lib.api import *

print("loading prints.py")
sys.stdout.write("version: 2\nstreams: [\n")   # would be YAML, and wrong


class P:
    def __init__(self):
        print("P() made")

    def get_streams(self, direction=0, **kwargs):
        print("get_streams, direction", direction)
        os.write(1, b"written below print()\n")
        pkt = Ether() / IP(src="16.0.0.1", dst="48.0.0.1") / UDP(sport=1025, dport=12) / \
            (b"p" * 30)
        return [STLStream(packet=STLPktBuilder(pkt=pkt), mode=STLTXSingleBurst(total_pkts=5))]


def register():
    print("register()")
    return P()
