# TRex-style profile (wirerate's own test): UDP from a range of clients and ports, the
# way a test of a router's flow table does it; the NIC computes the IPv4 and UDP checksums.
from trex.stl.api import *
import argparse


class RangeClients(object):
    def get_streams(self, tunables, **kwargs):
        parser = argparse.ArgumentParser(description="range of clients")
        parser.add_argument("--size", type=int, default=64, help="frame size with FCS")
        parser.add_argument("--clients", type=int, default=255)
        args = parser.parse_args(tunables)
        base = Ether() / IP(src="16.0.0.1", dst="48.0.0.1") / UDP(dport=12, sport=1025)
        pad = max(0, args.size - 4 - len(base)) * b"x"
        vm = STLVM()
        vm.var(name="ip_src", min_value="16.0.0.1",
               max_value=str(ipaddress.IPv4Address("16.0.0.0") + args.clients),
               size=4, op="inc")
        vm.var(name="port_src", min_value=1025, max_value=65000, size=2, op="inc")
        vm.write(fv_name="ip_src", pkt_offset="IP.src")
        vm.write(fv_name="port_src", pkt_offset="UDP.sport")
        vm.fix_chksum_hw(l3_offset="IP", l4_offset="UDP",
                         l4_type=CTRexVmInsFixHwCs.L4_TYPE_UDP)
        return [STLStream(packet=STLPktBuilder(pkt=base / pad, vm=vm),
                          mode=STLTXCont(percentage=10))]


import ipaddress


def register():
    return RangeClients()
