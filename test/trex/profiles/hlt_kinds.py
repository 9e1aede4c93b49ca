# TRex HLT-style profile (wirerate's own test): the common kinds of HLT stream, one a call:
# an imix by packet rate, sizes that grow and shrink (L2 sizes), TCP over IPv6 with address
# and port ranges, and a burst of TCP over IPv4 with its TOS and flags.
from trex.stl.trex_stl_hltapi import STLHltStream


class P:
    def get_streams(self, direction=0, **kwargs):
        imix = STLHltStream(length_mode="imix", rate_pps=120, l3_protocol="ipv4",
                            l4_protocol="udp", l3_imix1_size=64, l3_imix1_ratio=7,
                            l3_imix2_size=570, l3_imix2_ratio=4, l3_imix3_size=1518,
                            l3_imix3_ratio=1, ip_src_addr="16.0.0.1", ip_dst_addr="48.0.0.1")
        grow = STLHltStream(length_mode="increment", frame_size_min=70, frame_size_max=300,
                            frame_size_step=7, l3_protocol="ipv4", l4_protocol="udp",
                            rate_bps=1000000)
        shrink = STLHltStream(length_mode="decrement", frame_size_min=64, frame_size_max=200,
                              l3_protocol="ipv4", l4_protocol="udp", rate_pps=50)
        v6 = STLHltStream(l3_protocol="ipv6", l4_protocol="tcp", frame_size=100,
                          ipv6_src_addr="2001:db8::10", ipv6_src_mode="increment",
                          ipv6_src_count=9, ipv6_dst_addr="2001:db8:1::ffff:fffe",
                          ipv6_dst_mode="increment", ipv6_dst_count=4,
                          tcp_src_port=4000, tcp_dst_port=443, tcp_dst_port_mode="decrement",
                          tcp_dst_port_count=3, tcp_dst_port_step=10, rate_pps=10)
        burst = STLHltStream(l3_protocol="ipv4", l4_protocol="tcp", frame_size=80,
                             ip_dscp=46, ip_ttl=9, tcp_syn_flag=1, tcp_ack_flag=1,
                             transmit_mode="multi_burst", pkts_per_burst=5,
                             burst_loop_count=3, inter_burst_gap=100, rate_pps=1000)
        return imix + [grow, shrink, v6, burst]


def register():
    return P()
