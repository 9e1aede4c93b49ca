# SPDX-License-Identifier: BSD-3-Clause
"""Every stream file that loaded before the layered frame model (issue 9)
still dumps byte-identical frames: the sha256 of `wirerate dump` of each
shipped example (and of test/fixtures/frames/legacy-all.yaml, which uses
every field, variation mode, size mode and payload of the old syntax) with a
fixed seed and count, recorded from the tree before the redesign."""

import hashlib
import os
import struct
import subprocess
import tempfile
import unittest

ROOT = os.environ['WR_SOURCE_ROOT']
WIRERATE = os.environ['WIRERATE']
SUMS = os.path.join(ROOT, 'test', 'fixtures', 'frames', 'legacy-sha256.txt')
SEED = '5'
COUNT = '300'


def dump_sha(path, tmp):
    out = os.path.join(tmp, os.path.basename(path) + '.pcap')
    res = subprocess.run([WIRERATE, 'dump', path, '--count', COUNT,
                          '--seed', SEED, '--pcap', out],
                         capture_output=True, text=True, timeout=60,
                         check=False)
    if res.returncode != 0:
        raise AssertionError('%s: %s' % (path, res.stderr))
    with open(out, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


class LegacySha(unittest.TestCase):

    def test_dumps_unchanged(self):
        with open(SUMS, encoding='utf-8') as f:
            want = [line.split() for line in f if line.strip()]
        self.assertGreater(len(want), 10)
        with tempfile.TemporaryDirectory() as tmp:
            for digest, rel in want:
                with self.subTest(file=rel):
                    self.assertEqual(dump_sha(os.path.join(ROOT, rel), tmp),
                                     digest)


class DumpSignatureIds(unittest.TestCase):

    def test_stream_index_lane_zero(self):
        """dump writes the signature lane 0 of stream i carries in a run
        (wr_sig.h's WR_SIG_ID(i, 0): the index in the high half), not the
        index alone, which reads as lane i of stream 0."""
        path = os.path.join(ROOT, 'test', 'fixtures', 'frames',
                            'legacy-all.yaml')
        # Streams 2 (latency: true, "WRsg") and 3 (latency: loss, "WRsl").
        for index, name, magic in ((2, 'random-size-latency', b'WRsg'),
                                  (3, 'loss-vlan', b'WRsl')):
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, 'd.pcap')
                subprocess.run([WIRERATE, 'dump', path, '--count', '20',
                                '--stream', name, '--pcap', out],
                               check=True, capture_output=True, timeout=60)
                with open(out, 'rb') as f:
                    data = f.read()
            ids = set()
            at = data.find(magic)
            while at >= 0:
                ids.add(struct.unpack('>I', data[at + 4:at + 8])[0])
                at = data.find(magic, at + 1)
            self.assertEqual(ids, {index << 16}, (index, ids))


class StackEqualsShorthand(unittest.TestCase):

    def test_same_bytes(self):
        """A shorthand stream and the stack it stands for: the same frames."""
        path = os.path.join(ROOT, 'test', 'fixtures', 'frames',
                            'stack-equals-shorthand.yaml')
        digests = []
        with tempfile.TemporaryDirectory() as tmp:
            for name in ('shorthand', 'stack'):
                out = os.path.join(tmp, name + '.pcap')
                subprocess.run([WIRERATE, 'dump', path, '--count', '500',
                                '--stream', name, '--pcap', out],
                               check=True, capture_output=True, timeout=60)
                with open(out, 'rb') as f:
                    digests.append(hashlib.sha256(f.read()).hexdigest())
        self.assertEqual(digests[0], digests[1])


if __name__ == '__main__':
    unittest.main()
