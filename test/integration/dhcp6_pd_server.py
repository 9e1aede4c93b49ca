# SPDX-License-Identifier: BSD-3-Clause
"""A DHCPv6 server for prefix delegation, written with Scapy's DHCPv6 layers
(dnsmasq has no IA_PD): it answers SOLICIT, REQUEST, RENEW, REBIND and RELEASE
for IA_PD, delegating 2001:db8:KK00::/56 to the client whose IAID ends in KK,
and writes what each client did to a JSON file (test_dhcp6.PrefixDelegation).

Usage (in the namespace): dhcp6_pd_server.py IFACE OUT.json READY_FILE T1 T2 VALID
"""

import json
import os
import sys

from scapy.all import AsyncSniffer, conf, get_if_hwaddr  # noqa: E402
from scapy.layers.dhcp6 import (DHCP6_Advertise, DHCP6_Rebind, DHCP6_Release, DHCP6_Renew,
                                DHCP6_Reply, DHCP6_Request, DHCP6_Solicit, DHCP6OptClientId,
                                DHCP6OptIA_PD, DHCP6OptIAPrefix, DHCP6OptServerId,
                                DHCP6OptStatusCode, DUID_LL)
from scapy.layers.inet import UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether

iface, out, ready = sys.argv[1], sys.argv[2], sys.argv[3]
t1, t2, valid = (int(x) for x in sys.argv[4:7])
conf.verb = 0
mac = get_if_hwaddr(iface)
b = bytes(int(x, 16) for x in mac.split(":"))
my_ll = "fe80::%02x%02x:%02xff:fe%02x:%02x%02x" % (b[0] ^ 2, b[1], b[2], b[3], b[4], b[5])
server_id = DHCP6OptServerId(duid=DUID_LL(lladdr=mac))
# One socket for every answer: sendp() opens one a frame (26 ms each here, 200
# answers a test; the hosts' 50 RELEASEs at the end waited seconds for them).
tx = conf.L2socket(iface=iface)
clients = {}


def prefix_of(iaid):
    return "2001:db8:%x00::" % (iaid & 0xff)


def answer(p, kind, with_lease=True):
    ia = p[DHCP6OptIA_PD]
    opts = []
    if with_lease:
        opts = [DHCP6OptIAPrefix(prefix=prefix_of(ia.iaid), plen=56, preflft=valid * 2 // 3,
                                 validlft=valid)]
    else:
        opts = [DHCP6OptStatusCode(statuscode=0, statusmsg="released")]
    msg = (kind(trid=p[UDP].payload.trid) / DHCP6OptClientId(duid=p[DHCP6OptClientId].duid) /
           server_id / DHCP6OptIA_PD(iaid=ia.iaid, T1=t1, T2=t2, iapdopt=opts))
    tx.send(Ether(src=mac, dst=p[Ether].src) / IPv6(src=my_ll, dst=p[IPv6].src, hlim=255) /
            UDP(sport=547, dport=546) / msg)


def handle(p):
    if DHCP6OptClientId not in p or DHCP6OptIA_PD not in p:
        return
    duid = bytes(p[DHCP6OptClientId].duid).hex()
    c = clients.setdefault(duid, {"mac": p[Ether].src, "iaid": p[DHCP6OptIA_PD].iaid,
                                  "events": []})
    hint = p[DHCP6OptIAPrefix] if DHCP6OptIAPrefix in p else None
    ev = {"prefix": hint.prefix if hint else None, "plen": hint.plen if hint else None}
    ours = DHCP6OptServerId in p and bytes(p[DHCP6OptServerId].duid) == bytes(server_id.duid)
    if DHCP6_Solicit in p:
        ev["type"] = "solicit"
        answer(p, DHCP6_Advertise)
    elif DHCP6_Request in p and ours:
        ev["type"] = "request"
        answer(p, DHCP6_Reply)
    elif DHCP6_Renew in p and ours:
        ev["type"] = "renew"
        answer(p, DHCP6_Reply)
    elif DHCP6_Rebind in p:
        ev["type"] = "rebind"
        answer(p, DHCP6_Reply)
    elif DHCP6_Release in p and ours:
        ev["type"] = "release"
        answer(p, DHCP6_Reply, with_lease=False)
    else:
        return
    c["events"].append(ev)
    with open(out + ".tmp", "w") as f:
        json.dump(clients, f)
    os.replace(out + ".tmp", out)


sniffer = AsyncSniffer(iface=iface, filter="udp and dst port 547", prn=handle, store=False)
sniffer.start()
open(ready, "w").close()
sniffer.join()
