# A bad profile (wirerate's test): no register().
from trex_stl_lib.api import *


class P:
    def get_streams(self, direction=0, **kwargs):
        return [STLStream(packet=STLPktBuilder(pkt=Ether() / IP()))]


def registered():
    return P()
