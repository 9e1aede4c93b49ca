# TRex HLT-style profile (wirerate's own test): Ethernet / 802.1Q / IPv4 / UDP with MAC,
# VLAN, address and port ranges, as TRex's HLT API describes them.
from trex.stl.trex_stl_hltapi import STLHltStream


class P:
    def get_streams(self, direction=0, **kwargs):
        return STLHltStream(name="ranges", l3_protocol="ipv4", l4_protocol="udp",
                            frame_size=128, rate_pps=1000,
                            mac_src="00-00-c0-a8-00-03", mac_dst="0000.5e00.0101",
                            mac_src2="02:00:00:00:00:22", mac_dst2="02:00:00:00:00:33",
                            mac_src_mode="increment", mac_src_count=5, mac_src_step=2,
                            vlan_id=100, vlan_id_mode="increment", vlan_id_count=4,
                            ip_src_addr="10.0.0.1", ip_src_mode="increment", ip_src_count=10,
                            ip_dst_addr="10.9.0.200", ip_dst_mode="decrement",
                            ip_dst_count=7, ip_dst_step="0.0.0.3",
                            udp_src_port=1000, udp_src_port_mode="increment",
                            udp_src_port_count=6, udp_dst_port=53,
                            direction=direction)


def register():
    return P()
