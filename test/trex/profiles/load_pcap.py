# TRex-style profile (wirerate's own test): a capture played as TRex plays it
# (STLProfile.load_pcap): -t pcap=FILE names it, ipg and loops as TRex's pcap.py takes them.
import argparse

from trex_stl_lib.api import *


class P:
    def get_streams(self, tunables, **kwargs):
        parser = argparse.ArgumentParser()
        parser.add_argument("--pcap", required=True)
        parser.add_argument("--ipg_usec", type=float, default=None)
        parser.add_argument("--loop_count", type=int, default=1)
        args = parser.parse_args(tunables)
        profile = STLProfile.load_pcap(args.pcap, ipg_usec=args.ipg_usec,
                                       loop_count=args.loop_count)
        return profile.get_streams()


def register():
    return P()
