# SPDX-License-Identifier: BSD-3-Clause
"""Every shipped stream file, dumped by `wirerate dump`, decoded by tshark (a
decoder we did not write): every layer of every stack is recognised in order,
every IPv4, UDP, TCP, ICMP, ICMPv6, GRE and SCTP (CRC32c) checksum is good (inner ones included),
and every field the file sets or varies (IPv6 addresses included) takes
exactly the value the file describes on every frame (issue 9)."""

import glob
import ipaddress
import os
import subprocess
import tempfile
import unittest

import yaml

ROOT = os.environ['WR_SOURCE_ROOT']
WIRERATE = os.environ['WIRERATE']
COUNT = 96

# (layer, field) -> tshark field; 802.1ad tags have their own dissector.
TSHARK = {
    ('eth', 'src'): 'eth.src', ('eth', 'dst'): 'eth.dst', ('eth', 'type'): 'eth.type',
    ('vlan', 'id'): 'vlan.id', ('vlan', 'pcp'): 'vlan.priority', ('vlan', 'dei'): 'vlan.dei',
    ('qinq', 'id'): 'ieee8021ad.id', ('qinq', 'pcp'): 'ieee8021ad.priority',
    ('qinq', 'dei'): 'ieee8021ad.dei',
    ('mpls', 'label'): 'mpls.label', ('mpls', 'tc'): 'mpls.exp', ('mpls', 'ttl'): 'mpls.ttl',
    ('mpls', 's'): 'mpls.bottom',
    ('ipv4', 'src'): 'ip.src', ('ipv4', 'dst'): 'ip.dst', ('ipv4', 'id'): 'ip.id',
    ('ipv4', 'ttl'): 'ip.ttl', ('ipv4', 'dscp'): 'ip.dsfield.dscp',
    ('ipv4', 'ecn'): 'ip.dsfield.ecn', ('ipv4', 'df'): 'ip.flags.df', ('ipv4', 'proto'): 'ip.proto',
    ('ipv6', 'src'): 'ipv6.src', ('ipv6', 'dst'): 'ipv6.dst', ('ipv6', 'tc'): 'ipv6.tclass',
    ('ipv6', 'flow'): 'ipv6.flow', ('ipv6', 'hop'): 'ipv6.hlim', ('ipv6', 'next'): 'ipv6.nxt',
    ('udp', 'src'): 'udp.srcport', ('udp', 'dst'): 'udp.dstport',
    ('tcp', 'src'): 'tcp.srcport', ('tcp', 'dst'): 'tcp.dstport', ('tcp', 'seq'): 'tcp.seq_raw',
    ('tcp', 'ack'): 'tcp.ack_raw', ('tcp', 'flags'): 'tcp.flags',
    ('tcp', 'window'): 'tcp.window_size_value', ('tcp', 'urg'): 'tcp.urgent_pointer',
    ('icmp', 'type'): 'icmp.type', ('icmp', 'code'): 'icmp.code', ('icmp', 'id'): 'icmp.ident',
    ('icmp', 'seq'): 'icmp.seq',
    ('icmp6', 'type'): 'icmpv6.type', ('icmp6', 'code'): 'icmpv6.code',
    ('icmp6', 'id'): 'icmpv6.echo.identifier', ('icmp6', 'seq'): 'icmpv6.echo.sequence_number',
    ('vxlan', 'vni'): 'vxlan.vni',
    ('gre', 'proto'): 'gre.proto', ('gre', 'c'): 'gre.flags.checksum', ('gre', 'key'): 'gre.key',
    ('gre', 'seq'): 'gre.sequence_number',
    ('gre_key', 'proto'): 'gre.proto', ('gre_key', 'key'): 'gre.key',
    ('arp', 'op'): 'arp.opcode', ('arp', 'sha'): 'arp.src.hw_mac', ('arp', 'spa'): 'arp.src.proto_ipv4',
    ('arp', 'tha'): 'arp.dst.hw_mac', ('arp', 'tpa'): 'arp.dst.proto_ipv4',
    ('ipv6_hbh', 'next'): 'ipv6.hopopts.nxt', ('ipv6_dst', 'next'): 'ipv6.dstopts.nxt',
    ('srh', 'next'): 'ipv6.routing.nxt', ('srh', 'left'): 'ipv6.routing.segleft',
    ('srh', 'flags'): 'ipv6.routing.srh.flags', ('srh', 'tag'): 'ipv6.routing.srh.tag',
    ('ipv6_frag', 'next'): 'ipv6.fraghdr.nxt', ('ipv6_frag', 'offset'): 'ipv6.fraghdr.offset',
    ('ipv6_frag', 'm'): 'ipv6.fraghdr.more', ('ipv6_frag', 'id'): 'ipv6.fraghdr.ident',
    ('geneve', 'vni'): 'geneve.vni', ('geneve', 'proto'): 'geneve.proto_type',
    ('geneve', 'oam'): 'geneve.flags.oam',
    ('gtpu', 'teid'): 'gtp.teid', ('gtpu', 'type'): 'gtp.message', ('gtpu', 'seq'): 'gtp.seq_number',
    ('gtpu', 'npdu'): 'gtp.npdu_number',
    ('sctp', 'src'): 'sctp.srcport', ('sctp', 'dst'): 'sctp.dstport',
    ('sctp', 'vtag'): 'sctp.verification_tag',
    ('sctp_data', 'tsn'): 'sctp.data_tsn_raw', ('sctp_data', 'stream'): 'sctp.data_sid',
    ('sctp_data', 'ssn'): 'sctp.data_ssn', ('sctp_data', 'ppid'): 'sctp.data_payload_proto_id',
    ('sctp_init', 'tag'): 'sctp.init_initiate_tag', ('sctp_init', 'a_rwnd'): 'sctp.init_credit',
    ('sctp_init', 'os'): 'sctp.init_nr_out_streams', ('sctp_init', 'mis'): 'sctp.init_nr_in_streams',
    ('sctp_init', 'tsn'): 'sctp.init_initial_tsn',
}
# Layer -> its token in tshark's frame.protocols.
PROTO = {'eth': 'eth', 'vlan': 'vlan', 'qinq': 'ieee8021ad', 'mpls': 'mpls', 'ipv4': 'ip',
         'ipv6': 'ipv6', 'udp': 'udp', 'tcp': 'tcp', 'icmp': 'icmp', 'icmp6': 'icmpv6',
         'vxlan': 'vxlan', 'gre': 'gre', 'gre_key': 'gre', 'arp': 'arp', 'ipv6_hbh': 'ipv6.hopopts', 'ipv6_dst': 'ipv6.dstopts', 'srh': 'ipv6.routing',
         'ipv6_frag': 'ipv6.fraghdr', 'geneve': 'geneve', 'gtpu': 'gtp', 'sctp': 'sctp', 'sctp_data': 'sctp',
         'sctp_init': 'sctp'}
STATUS = ['ip.checksum.status', 'udp.checksum.status', 'tcp.checksum.status',
          'icmp.checksum.status', 'icmpv6.checksum.status', 'sctp.checksum.status',
          'gre.checksum.status']


def number(text, kind):
    """A value as the file or tshark writes it, as an integer."""
    text = str(text)
    if kind == 'mac':
        return int(text.replace(':', ''), 16)
    if kind == 'ip':
        return int(ipaddress.ip_address(text))
    if text in ('True', 'False'):
        return int(text == 'True')
    try:
        return int(text, 0)
    except ValueError:   # hex without 0x, as tshark shows an SRH's tag
        return int(text, 16)


def kind_of(layer, field):
    if (layer, field) in (('eth', 'src'), ('eth', 'dst'), ('arp', 'sha'), ('arp', 'tha')):
        return 'mac'
    if (field in ('src', 'dst') and layer in ('ipv4', 'ipv6')) or field in ('spa', 'tpa'):
        return 'ip'
    return 'int'


def expect(spec, kind, k):
    """(exact value or None, (lo, hi)) of frame k for a field spec (vary: together)."""
    if not isinstance(spec, dict):
        v = number(spec, kind)
        return v, (v, v)
    mode, body = next(iter(spec.items()))
    if mode in ('inc', 'dec'):
        lo, hi = number(body['from'], kind), number(body['to'], kind)
        step = int(body.get('step', 1))
        period = abs(hi - lo) // step + 1
        d = (k % period) * step
        return (lo + d if mode == 'inc' else lo - d), None
    if mode == 'list':
        vals = [number(x, kind) for x in body]
        return vals[k % len(vals)], None
    if 'prefix' in body:
        net = ipaddress.ip_network(body['prefix'], strict=False)
        return None, (int(net.network_address), int(net.broadcast_address))
    return None, (number(body['min'], kind), number(body['max'], kind))


def layers_of(stream):
    """[(name, fields)] with 802.1ad tags named qinq (tshark's split)."""
    out = []
    for item in stream['stack']:
        if isinstance(item, str):
            name, fields = item, {}
        else:
            (name, fields), = item.items()
            fields = fields or {}
        if name == 'vlan' and int(str(fields.get('tpid', '0x8100')), 0) == 0x88a8:
            name = 'qinq'
        out.append((name, {k: v for k, v in fields.items() if k != 'tpid'}))
    return out


class LayersTshark(unittest.TestCase):

    def decode(self, pcap, fields):
        res = subprocess.run(
            ['tshark', '-r', pcap, '-o', 'ip.check_checksum:TRUE',
             '-o', 'udp.check_checksum:TRUE', '-o', 'tcp.check_checksum:TRUE',
             '-o', 'sctp.checksum:CRC-32C', '-T', 'fields', '-E', 'separator=/t', '-E', 'occurrence=a',
             '-e', 'frame.protocols', '-e', 'frame.len', '-e', '_ws.malformed']
            + [a for f in STATUS + fields for a in ('-e', f)],
            capture_output=True, text=True, timeout=60, check=True)
        rows = [line.split('\t') for line in res.stdout.splitlines()]
        cols = ['frame.protocols', 'frame.len', '_ws.malformed'] + STATUS + fields
        return [dict(zip(cols, r)) for r in rows]

    def check_tcp_file(self, path, doc, tmp):
        """A file of tcp classes alone: dump --pcap writes one connection of
        its first class, wirerate's client and server engines back to back;
        with a real peer it says it cannot."""
        pcap = os.path.join(tmp, os.path.basename(path) + '.pcap')
        res = subprocess.run([WIRERATE, 'dump', path, '--count', str(COUNT),
                              '--pcap', pcap], capture_output=True, text=True,
                             timeout=60, check=False)
        cls = doc['tcp'][0]
        if 'hosts' not in cls.get('client', {}) or 'hosts' not in cls.get('server', {}):
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("--pcap shows a connection between wirerate's own client "
                          "and server", res.stderr)
            return
        self.assertEqual(res.returncode, 0, res.stderr)
        fields = ['tcp.flags.str', 'tcp.len', 'tcp.checksum.status', 'ip.checksum.status',
                  'tcp.options.mss_val', 'tcp.options.wscale.shift', 'tcp.options.sack_perm',
                  'tcp.options.timestamp.tsval', 'http.request.method', 'http.request.uri',
                  'http.response.code', 'http.content_length', 'tcp.analysis.flags',
                  '_ws.malformed', 'tcp.srcport', 'tcp.dstport']
        cmd = ['tshark', '-r', pcap, '-o', 'tcp.check_checksum:TRUE',
               '-o', 'ip.check_checksum:TRUE', '-T', 'fields', '-E', 'occurrence=f']
        for f in fields:
            cmd += ['-e', f]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=True)
        rows = [dict(zip(fields, line.split('\t'))) for line in out.stdout.splitlines()]
        http = cls['http']
        # SYN, SYN-ACK, the request, the response with the server's FIN
        # (HTTP's server closes first), the client's FIN, its ACK.
        self.assertEqual([r['tcp.flags.str'].replace('\u00b7', '').strip() for r in rows],
                         ['S', 'AS', 'AP', 'APF', 'AF', 'A'], out.stdout)
        for r in rows:
            self.assertEqual((r['tcp.checksum.status'], r['ip.checksum.status']), ('1', '1'))
            self.assertEqual((r['tcp.analysis.flags'], r['_ws.malformed']), ('', ''), r)
        for r in rows[:2]:
            self.assertEqual((r['tcp.options.mss_val'], r['tcp.options.wscale.shift']),
                             ('1460', '7'))
            self.assertNotEqual(r['tcp.options.sack_perm'], '')
            self.assertNotEqual(r['tcp.options.timestamp.tsval'], '')
        self.assertEqual(rows[0]['tcp.dstport'], str(cls['server']['port']))
        self.assertEqual((rows[2]['http.request.method'], rows[2]['http.request.uri']),
                         (http['method'], http['path']))
        self.assertEqual((rows[3]['http.response.code'], rows[3]['http.content_length']),
                         (str(http['status']), str(http['body'])))

    def check_file(self, path, tmp):
        with open(path, encoding='utf-8') as f:
            doc = yaml.safe_load(f)
        if 'streams' not in doc:
            self.check_tcp_file(path, doc, tmp)
            return
        pcap = os.path.join(tmp, os.path.basename(path) + '.pcap')
        res = subprocess.run([WIRERATE, 'dump', path, '--count', str(COUNT),
                              '--pcap', pcap], capture_output=True, text=True,
                             timeout=60, check=False)
        self.assertEqual(res.returncode, 0, res.stderr)
        fields = sorted(set(TSHARK.values()))
        rows = self.decode(pcap, fields)
        self.assertEqual(len(rows), COUNT * len(doc['streams']))
        for si, stream in enumerate(doc['streams']):
            layers = layers_of(stream) if 'stack' in stream else None
            for k in range(COUNT):
                row = rows[si * COUNT + k]
                where = '%s %s frame %d' % (path, stream['name'], k)
                # (A shorthand stream's payload is no protocol: tshark may
                # call its zeros to UDP 4789 a malformed VXLAN.)
                if layers is not None:
                    self.assertEqual(row['_ws.malformed'], '', where)
                for st in STATUS:
                    for v in filter(None, row[st].split(',')):
                        # 3: no checksum, only VXLAN's outer UDP over IPv4.
                        ok = v == '1' or (v == '3' and st == 'udp.checksum.status'
                                          and 'vxlan' in row['frame.protocols'])
                        self.assertTrue(ok, '%s: %s = %s' % (where, st, row[st]))
                if layers is None:
                    continue
                self.check_stack(layers, row, where)

    def check_stack(self, layers, row, where):
        def runs(seq):   # an MPLS stack is one "mpls" to tshark
            return [t for i, t in enumerate(seq) if i == 0 or seq[i - 1] != t]
        toks = runs([t for t in row['frame.protocols'].split(':') if t != 'ethertype'])
        want = runs([PROTO[n] for n, _ in layers if n in PROTO])
        pos = 0
        for w in want:   # every layer, in order
            self.assertIn(w, toks[pos:], '%s: %s in %s' % (where, w, toks))
            pos = toks.index(w, pos) + 1
        seen = {}   # occurrences of each layer (an inner ipv4 is the second)
        for name, fields in layers:
            occ = seen.get(name, 0)
            seen[name] = occ + 1
            for field, spec in fields.items():
                if (name, field) not in TSHARK or field == 'hex':
                    continue
                kind = kind_of(name, field)
                got = row[TSHARK[(name, field)]].split(',')
                self.assertGreater(len(got), occ, '%s: %s.%s' % (where, name, field))
                v = number(got[occ], kind)
                exact, rng = expect(spec, kind, int(where.rsplit(' ', 1)[1]))
                if exact is not None:
                    self.assertEqual(v, exact, '%s: %s.%s' % (where, name, field))
                else:
                    self.assertTrue(rng[0] <= v <= rng[1],
                                    '%s: %s.%s = %s' % (where, name, field, got[occ]))

    def test_every_shipped_stream(self):
        files = sorted(glob.glob(os.path.join(ROOT, 'streams', '*.yaml')))
        self.assertGreater(len(files), 15)
        with tempfile.TemporaryDirectory() as tmp:
            for path in files:
                with self.subTest(file=os.path.basename(path)):
                    self.check_file(path, tmp)

    def test_tpid_varies(self):
        """A tag's TPID varies like any field: written as the EtherType below it."""
        with tempfile.TemporaryDirectory() as tmp:
            sf = os.path.join(tmp, 'tp.yaml')
            with open(sf, 'w', encoding='utf-8') as f:
                f.write('version: 1\nstreams:\n  - name: tp\n    size: 100\n    stack:\n'
                        '      - eth\n      - vlan: {tpid: {list: [0x8100, 0x88a8, 0x9100]}, id: 5}\n'
                        '      - ipv4\n      - udp\n')
            pcap = os.path.join(tmp, 'tp.pcap')
            subprocess.run([WIRERATE, 'dump', sf, '--count', '6', '--pcap', pcap], check=True,
                           capture_output=True, timeout=60)
            rows = self.decode(pcap, ['eth.type'])
            self.assertEqual([int(r['eth.type'], 16) for r in rows],
                             [0x8100, 0x88a8, 0x9100] * 2)
            for r in rows:
                self.assertEqual((r['ip.checksum.status'], r['udp.checksum.status']), ('1', '1'))

    def test_raw_l2_payload(self):
        """raw L2: the EtherType, then the raw header's bytes and the payload."""
        path = os.path.join(ROOT, 'streams', 'raw-l2.yaml')
        with tempfile.TemporaryDirectory() as tmp:
            pcap = os.path.join(tmp, 'raw.pcap')
            subprocess.run([WIRERATE, 'dump', path, '--count', '2', '--stream',
                            'raw-header', '--pcap', pcap], check=True,
                           capture_output=True, timeout=60)
            res = subprocess.run(['tshark', '-r', pcap, '-T', 'fields', '-e', 'eth.type',
                                  '-e', 'data.data'], capture_output=True, text=True,
                                 timeout=60, check=True)
            for line in res.stdout.splitlines():
                etype, data = line.split('\t')
                self.assertEqual(int(etype, 16), 0x88b6)
                self.assertTrue(data.startswith('0001020304050607c0ffeec0ffee'), data)
                self.assertEqual(len(data) // 2, 128 - 4 - 14)


if __name__ == '__main__':
    unittest.main()
