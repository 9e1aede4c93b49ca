# A bad profile for wirerate (wirerate's test): an HLT stream whose l3_protocol TRex's HLT
# API does not have; refused in one line naming the call.
from trex.stl.trex_stl_hltapi import STLHltStream


class P:
    def get_streams(self, direction=0, **kwargs):
        return [STLHltStream(l3_protocol="ipx", rate_pps=10)]


def register():
    return P()
