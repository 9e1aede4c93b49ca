# A bad profile (wirerate's test): a syntax error.
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        return [STLStream(packet=STLPktBuilder(pkt=Ether() / IP())]


def register():
    return P()
