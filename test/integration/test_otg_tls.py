# SPDX-License-Identifier: BSD-3-Clause
"""The OTG API's listener (`wirerate serve --otg`, doc/otg.md "TLS and tokens") against peers we
did not write: openssl s_client and x509 (the handshake, the certificate made at start and the
fingerprint the server logs, a pinned certificate), curl (verified with --cacert, Bearer, Basic
from a URL's password, client certificates, 100-continue), Python's ssl (keep-alive, pipelined
and chunked requests, refusals byte for byte: 413 from the head, 400, 501, 431), snappi from a
network namespace (a URL with the token, as a lab's script writes it); 401 off the loopback and
rate-limited; the server alive after each."""

import json
import os
import re
import select
import shutil
import socket
import ssl
import subprocess
import time
import unittest

from test_server import ServerCase, START_S
from wrtest import WIRERATE, wait_for

TOKEN = "otg-token-0123456789abcdef"
# Ports of helper 5 (tls): 18500 + ...
PORT_A, PORT_B, PORT_C = 18511, 18512, 18513
NS = f"tls5ns{os.getpid() % 100000}"
VETH, VETH_PEER = "tls5a", "tls5b"
HOST_IP, NS_IP = "10.255.5.1", "10.255.5.2"
OTG_VENV = os.environ.get("WR_OTG_VENV", os.path.join(os.path.dirname(WIRERATE), "..", "..",
                                                      "tools", "otg", ".venv"))


# A lab's script, unchanged but for the token in the location (verify=False: snappi 1.61.0
# passes it to every request whatever it is given).
SNAPPI_SCRIPT = """
import json, snappi
api = snappi.api(location="{url}", verify=False)
cfg = api.config()
cfg.ports.port(name="p1", location="0")
for i in range(200):
    f = cfg.flows.flow(name="f%d" % i)[-1]
    f.tx_rx.port.tx_name = "p1"
    f.size.fixed = 128
    f.rate.pps = 1000 + i
    f.duration.fixed_packets.packets = 10
    eth, ip, udp = f.packet.ethernet().ipv4().udp()
    eth.src.value, eth.dst.value = "02:00:00:00:00:01", "02:00:00:00:00:02"
    ip.src.value, ip.dst.value = "198.18.0.1", "198.19.0.%d" % (i + 1)
api.set_config(cfg)
got = api.get_config()
print(json.dumps(dict(version=api.get_version().api_spec_version, body=len(cfg.serialize()),
                      flows=[f.name for f in got.flows], pps=[f.rate.pps for f in got.flows])))
"""


def run(*cmd, check=True, timeout=30, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=timeout, **kw)


def tls_conn(port, host="127.0.0.1"):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    raw = socket.create_connection((host, port), timeout=5)
    return ctx.wrap_socket(raw, server_hostname=host)


def read_responses(sock, n, timeout=5.0):
    """@n responses (status, headers, body) read from @sock, and whether it was then closed."""
    buf, out, closed = b"", [], False
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        while True:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                break
            head = buf[:end].decode()
            lines = head.split("\r\n")
            status = int(lines[0].split()[1])
            hdrs = {k.strip().lower(): v.strip()
                    for k, v in (ln.split(":", 1) for ln in lines[1:])}
            if status == 100:
                buf = buf[end + 4:]
                continue
            clen = int(hdrs.get("content-length", "0"))
            if len(buf) < end + 4 + clen:
                break
            out.append((status, hdrs, buf[end + 4:end + 4 + clen]))
            buf = buf[end + 4 + clen:]
            if len(out) == n:
                break
        if len(out) == n:
            break
        try:
            chunk = sock.recv(65536)
        except (socket.timeout, ssl.SSLError, ConnectionResetError):
            chunk = b""
        if not chunk:
            closed = True
            break
        buf += chunk
    if len(out) == n and not closed:
        sock.settimeout(0.5)
        try:
            closed = sock.recv(1) == b""
        except (socket.timeout, ssl.SSLWantReadError):
            closed = False
        except (ssl.SSLError, ConnectionResetError, OSError):
            closed = True
    return out, closed


def split_responses(data):
    """The whole responses at the front of @data, and what is left."""
    out = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return out, data
        lines = data[:end].decode().split("\r\n")
        hdrs = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:])}
        clen = int(hdrs.get("content-length", "0"))
        if len(data) < end + 4 + clen:
            return out, data
        out.append((int(lines[0].split()[1]), hdrs, data[end + 4:end + 4 + clen]))
        data = data[end + 4 + clen:]


def version_req(host="127.0.0.1", extra=""):
    return (f"GET /capabilities/version HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n").encode()


class OtgTls(ServerCase):

    def otg_serve(self, spec, extra=(), tag="a"):
        """A server with --otg @spec: (process, Unix socket, the OTG line of its log)."""
        p, sock = self.serve(tag=tag, extra=("--otg", spec, *extra))
        buf = ""
        deadline = time.monotonic() + START_S
        while "OTG API at" not in buf and time.monotonic() < deadline:
            r, _, _ = select.select([p.stderr], [], [], 1)
            if r:
                chunk = os.read(p.stderr.fileno(), 65536).decode()
                if chunk == "":
                    self.fail(f"the server exited: {buf}")
                buf += chunk
        self.assertIn("OTG API at", buf)
        line = [ln for ln in buf.splitlines() if "OTG API at" in ln][0]
        return p, sock, line

    def alive(self, p, port, host="127.0.0.1", scheme="https"):
        self.assertIsNone(p.poll(), "the server exited")
        r = run("curl", "-sk", "-m", "5", f"{scheme}://{host}:{port}/capabilities/version")
        self.assertEqual(json.loads(r.stdout)["api_spec_version"], "1.61.0")

    def fingerprint(self, pem):
        r = run("openssl", "x509", "-noout", "-fingerprint", "-sha256", input=pem)
        return r.stdout.strip().split("=", 1)[1]

    def netns(self):
        """A namespace joined to ours by a veth pair: a peer that is not on our loopback."""
        if os.geteuid() != 0 or shutil.which("ip") is None:
            self.skipTest("needs root and iproute2 for a network namespace")
        run("ip", "link", "del", VETH, check=False)
        run("ip", "netns", "add", NS)
        self.addCleanup(run, "ip", "netns", "del", NS, check=False)
        run("ip", "link", "add", VETH, "type", "veth", "peer", "name", VETH_PEER)
        self.addCleanup(run, "ip", "link", "del", VETH, check=False)
        run("ip", "link", "set", VETH_PEER, "netns", NS)
        run("ip", "addr", "add", f"{HOST_IP}/24", "dev", VETH)
        run("ip", "link", "set", VETH, "up")
        for cmd in (("ip", "addr", "add", f"{NS_IP}/24", "dev", VETH_PEER),
                    ("ip", "link", "set", VETH_PEER, "up"), ("ip", "link", "set", "lo", "up")):
            run("ip", "netns", "exec", NS, *cmd)

    def ns_curl(self, *args):
        """curl from the namespace: (HTTP status, headers, body)."""
        r = run("ip", "netns", "exec", NS, "curl", "-s", "-m", "5", "-D", "-", *args,
                check=False)
        if r.returncode != 0:
            return r.returncode, {}, ""
        # Text mode: the CRLFs are newlines already.
        head, _, body = r.stdout.replace("\r\n", "\n").partition("\n\n")
        lines = head.split("\n")
        hdrs = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:])}
        return int(lines[0].split()[1]), hdrs, body

    def make_pki(self):
        """A server certificate (SAN: the loopback and HOST_IP) and a client CA with one
        client; another CA's client, which must not get in."""
        d = self.path("pki")
        os.makedirs(d)
        ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes")
        f = {k: os.path.join(d, k) for k in ("srv.pem", "srv.key", "ca.pem", "ca.key",
                                             "cli.pem", "cli.key", "cli.csr", "ca2.pem",
                                             "ca2.key", "bad.pem", "bad.key", "bad.csr")}
        run("openssl", "req", "-x509", *ec, "-keyout", f["srv.key"], "-out", f["srv.pem"],
            "-days", "1", "-subj", "/CN=wr-otg-test",
            "-addext", f"subjectAltName=IP:127.0.0.1,IP:{HOST_IP}")
        for ca, key in (("ca.pem", "ca.key"), ("ca2.pem", "ca2.key")):
            run("openssl", "req", "-x509", *ec, "-keyout", f[key], "-out", f[ca], "-days", "1",
                "-subj", f"/CN=wr-test-{ca}")
        for cli, ca in (("cli", "ca"), ("bad", "ca2")):
            run("openssl", "req", *ec, "-keyout", f[f"{cli}.key"], "-out", f[f"{cli}.csr"],
                "-subj", f"/CN=lab-{cli}")
            run("openssl", "x509", "-req", "-in", f[f"{cli}.csr"], "-CA", f[f"{ca}.pem"],
                "-CAkey", f[f"{ca}.key"], "-CAcreateserial", "-out", f[f"{cli}.pem"],
                "-days", "1")
        return f

    def test_options_refused_before_eal(self):
        """Each wrong option: one line, exit 2, no EAL started."""
        tok = self.write("tok", TOKEN + "\n")
        os.chmod(tok, 0o600)
        cases = [
            (("--tls-cert", tok), "--tls-cert is the OTG API's: it needs --otg"),
            (("--otg", "18519", "--tls-key", tok), "--tls-key needs --tls-cert too"),
            (("--otg", "ftp://18519"), "--otg: https:// or http:// only"),
            (("--otg", "http://18519", "--tls-client-ca", tok),
             "--tls-client-ca is for https://: --otg is http://127.0.0.1:18519"),
            (("--otg", "0.0.0.0:18519"), "--otg: 0.0.0.0 is not a loopback address: the OTG "
             "API there needs a token"),
            (("--otg", "18519", "--tls-cert", tok, "--tls-key", tok),
             f"--tls-cert: {tok}: not a PEM certificate"),
            (("--otg", "18519", "--otg-token-file", "/nonexistent"), "--otg-token-file"),
            # ixia-c's port when none is given.
            (("--otg", "http://192.0.2.77"), "--otg: cannot listen on 192.0.2.77:8443"),
            (("--otg", "https://192.0.2.77:8444"), "--otg: cannot listen on 192.0.2.77:8444"),
        ]
        for args, want in cases:
            r = run(WIRERATE, "serve", "--socket", self.path("x.sock"), *args, check=False)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertIn(want, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertNotIn("EAL", r.stderr)

    def test_https_made_certificate(self):
        """The certificate made at start: EC P-256, its SAN the address, the fingerprint logged
        equal to what openssl computes from the handshake; then HTTP on that listener."""
        p, sock, line = self.otg_serve(f"127.0.0.1:{PORT_A}")
        m = re.search(r"SHA-256 fingerprint ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})", line)
        self.assertIsNotNone(m, line)
        r = run("openssl", "s_client", "-connect", f"127.0.0.1:{PORT_A}", "-servername",
                "127.0.0.1", input="")
        pem = re.search(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----\n",
                        r.stdout, re.S).group(0)
        self.assertEqual(self.fingerprint(pem), m.group(1))
        text = run("openssl", "x509", "-noout", "-text", input=pem).stdout
        self.assertIn("ASN1 OID: prime256v1", text)
        self.assertIn("IP Address:127.0.0.1", text)
        self.assertIn("ecdsa-with-SHA256", text)
        # Pinned: curl verifies the chain against that very certificate and the address.
        pin = self.write("pin.pem", pem)
        r = run("curl", "-s", "--cacert", pin, f"https://127.0.0.1:{PORT_A}/capabilities/version")
        self.assertEqual(json.loads(r.stdout)["api_spec_version"], "1.61.0")
        r = run("curl", "-s", f"https://127.0.0.1:{PORT_A}/capabilities/version", check=False)
        self.assertEqual(r.returncode, 60)  # not trusted without the pin
        self.alive(p, PORT_A)
        self.http_cases(p, PORT_A)
        self.slow_reader(p, PORT_A)
        # The console's page on the same listener, over TLS too.
        r = run("curl", "-sk", f"https://127.0.0.1:{PORT_A}/")
        with open(os.path.join(os.path.dirname(WIRERATE), "..", "..", "web", "index.html")) as f:
            self.assertEqual(r.stdout, f.read())
        s = tls_conn(PORT_A)
        s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{PORT_A}\r\nOrigin: https://127.0.0.1:"
                   f"{PORT_A}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                   "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   "\r\n").encode())
        head = s.recv(4096).decode()
        self.assertTrue(head.startswith("HTTP/1.1 101 Switching Protocols\r\n"), head)
        self.assertIn("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n", head)
        # A JSON-RPC request in a masked text frame, its reply in a frame back, over TLS.
        msg = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "server.info"}).encode()
        mask = b"\x01\x02\x03\x04"
        s.sendall(bytes([0x81, 0x80 | len(msg)]) + mask +
                  bytes(b ^ mask[i % 4] for i, b in enumerate(msg)))
        data = b""
        while len(data) < 4 or len(data) < 4 + int.from_bytes(data[2:4], "big"):
            chunk = s.recv(65536)
            self.assertTrue(chunk, "the server closed the WebSocket")
            data += chunk
        self.assertEqual((data[0], data[1]), (0x81, 126))  # text, a 16-bit length
        reply = json.loads(data[4:4 + int.from_bytes(data[2:4], "big")])
        self.assertEqual((reply["id"], reply["result"]["name"]), (7, "wirerate"))
        s.close()
        self.alive(p, PORT_A)

    def slow_reader(self, p, port):
        """30 pipelined GET /config of 250 flows (about 1.2 MB of replies) read 8 KB at a time
        through a 4 KB receive buffer: TLS writes that cannot finish are retried from the
        moved queue, the connection is held at its high-water mark; every reply whole and
        equal, and other clients answered meanwhile."""
        cfg = {"ports": [{"name": "p1", "location": "0"}],
               "flows": [{"name": f"f{i}", "tx_rx": {"choice": "port",
                                                     "port": {"tx_name": "p1"}},
                          "packet": [{"choice": "ethernet"}, {"choice": "ipv4"},
                                     {"choice": "udp"}]} for i in range(250)]}
        body = json.dumps(cfg).encode()
        s = tls_conn(port)
        s.sendall(b"POST /config HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
                  % len(body) + body)
        (st, _, reply), = read_responses(s, 1)[0]
        self.assertEqual(st, 200, reply)
        s.close()
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.settimeout(10)
        raw.connect(("127.0.0.1", port))
        s = ctx.wrap_socket(raw)
        s.sendall(b"GET /config HTTP/1.1\r\nHost: x\r\n\r\n" * 30)
        data, bodies, probes = b"", [], 0
        while len(bodies) < 30:
            chunk = s.recv(8192)
            self.assertTrue(chunk, f"closed after {len(bodies)} replies")
            data += chunk
            time.sleep(0.002)
            got, data = split_responses(data)
            bodies += [b for _, _, b in got]
            if len(bodies) // 8 > probes:  # after 8, 16 and 24 replies
                probes = len(bodies) // 8
                r = run("curl", "-sk", "-m", "2", f"https://127.0.0.1:{port}/capabilities/version")
                self.assertIn("1.61.0", r.stdout)
        s.close()
        self.assertEqual(probes, 3)
        self.assertEqual(len(set(bodies)), 1)
        self.assertGreater(len(bodies[0]), 30000)
        self.assertEqual([f["name"] for f in json.loads(bodies[0])["flows"]],
                         [f"f{i}" for i in range(250)])
        self.assertIsNone(p.poll())

    def http_cases(self, p, port, conn=tls_conn):
        # Keep-alive: three requests on one connection, the second two pipelined in one write,
        # one of them with a chunked body; the connection stays open.
        s = conn(port)
        s.sendall(version_req())
        (st, hdrs, body), = read_responses(s, 1)[0]
        self.assertEqual((st, hdrs["connection"], hdrs["content-type"]),
                         (200, "keep-alive", "application/json"))
        self.assertEqual(json.loads(body)["api_spec_version"], "1.61.0")
        # "[1," and "2]": JSON once joined (the handler's error says it is an array, not
        # that it is not JSON).
        s.sendall(b"POST /control/action HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
                  b"\r\n\r\n3;ext=1\r\n[1,\r\n2\r\n2]\r\n0\r\n\r\n" + version_req())
        got, closed = read_responses(s, 2)
        self.assertEqual([g[0] for g in got], [400, 200])
        self.assertEqual(json.loads(got[0][2])["errors"],
                         ["expected a Control.Action object"])
        self.assertFalse(closed)
        s.sendall(version_req(extra="Connection: close\r\n"))
        got, closed = read_responses(s, 1)
        self.assertEqual((got[0][0], got[0][1]["connection"], closed), (200, "close", True))
        s.close()
        self.assertIsNone(p.poll())
        # Refusals from the head, each answered and the connection closed; the server alive.
        refusals = [
            (b"POST /config HTTP/1.1\r\nHost: x\r\nContent-Length: 40000000\r\n\r\n", 413),
            (b"POST /config HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
             b"2000001\r\n", 413),
            (b"GARBAGE\r\n\r\n", 400),
            (b"POST /config HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
             b"Transfer-Encoding: chunked\r\n\r\n", 400),
            (b"POST /config HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
            (b"POST /config HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
             b"zz\r\n", 400),
            (b"GET /config HTTP/1.1\r\nX: " + b"a" * 9000 + b"\r\n\r\n", 431),
            (b"GET /config HTTP/2.0\r\n\r\n", 505),
            (b"GET /config HTTP/1.1\r\n\r\n", 400),
        ]
        for raw, want in refusals:
            s = conn(port)
            s.sendall(raw)
            got, closed = read_responses(s, 1)
            s.close()
            self.assertEqual(len(got), 1, raw[:60])
            self.assertEqual(got[0][0], want, (raw[:60], got[0][2]))
            self.assertTrue(closed, raw[:60])
            err = json.loads(got[0][2])
            self.assertEqual(err["code"], want)
            self.assertEqual(len(err["errors"]), 1)
            self.assertIsNone(p.poll())
        # A body curl sends after "100 Continue" (it asks for bodies over 1 MiB), 1.5 MB.
        body = self.write("big.json", json.dumps({"flows": [{"name": f"f{i:07d}"}
                                                            for i in range(75000)]}))
        self.assertGreater(os.path.getsize(body), 1 << 20)
        scheme = "https" if conn is tls_conn else "http"
        r = run("curl", "-sk", "-v", "-H", "Expect: 100-continue", "--data-binary", f"@{body}",
                f"{scheme}://127.0.0.1:{port}/control/action", check=False)
        self.assertIn("HTTP/1.1 100 Continue", r.stderr)
        self.assertIn("HTTP/1.1 ", r.stderr.split("100 Continue", 1)[1])
        self.alive(p, port, scheme=scheme)

    def test_http_plain(self):
        """http://: the same framing and keep-alive without TLS."""
        p, sock, line = self.otg_serve(f"http://127.0.0.1:{PORT_C}", tag="c")
        self.assertIn(f"OTG API at http://127.0.0.1:{PORT_C}", line)
        self.http_cases(p, PORT_C,
                        conn=lambda port: socket.create_connection(("127.0.0.1", port), 5))

    def test_otg_only(self):
        """--socket none with --otg alone: a server whose only API is OTG's (a container's)."""
        prefix = f"wrtls5o{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.write("o.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}", "--vdev=net_null0", "--lcores=0@0,1@1"]
ports:
  - device: net_null0
    tx_lcores: [1]
""")
        p = subprocess.Popen([WIRERATE, "serve", "--config", prof, "--socket", "none", "--otg",
                              "http://127.0.0.1:18518"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        self.procs.append(p)
        self.assertTrue(wait_for(lambda: run("curl", "-s", "-m", "1",
                                             "http://127.0.0.1:18518/capabilities/version",
                                             check=False).returncode == 0 or
                                 p.poll() is not None, START_S))
        self.alive(p, 18518, scheme="http")

    def test_who_may(self):
        """Off the loopback (a namespace): 401 without a token, Bearer and Basic (snappi's URL)
        let in, wrong tokens rate-limited; a client certificate the CA signed lets in, another
        CA's does not get through the handshake; a pinned --tls-cert."""
        self.netns()
        f = self.make_pki()
        tok = self.write("tok", TOKEN + "\n")
        os.chmod(tok, 0o600)
        p, sock, line = self.otg_serve(
            f"https://0.0.0.0:{PORT_B}", tag="b",
            extra=("--otg-token-file", tok, "--tls-cert", f["srv.pem"], "--tls-key",
                   f["srv.key"], "--tls-client-ca", f["ca.pem"]))
        with open(f["srv.pem"]) as fp:
            pem = fp.read()
        self.assertIn(f"({f['srv.pem']} certificate, SHA-256 fingerprint "
                      f"{self.fingerprint(pem)})", line)
        url = f"https://{HOST_IP}:{PORT_B}/capabilities/version"
        # Our own loopback (the server's uid): nothing needed, the pinned certificate verifies.
        r = run("curl", "-s", "--cacert", f["srv.pem"],
                f"https://127.0.0.1:{PORT_B}/capabilities/version")
        self.assertEqual(json.loads(r.stdout)["api_spec_version"], "1.61.0")
        st, hdrs, body = self.ns_curl("--cacert", f["srv.pem"], url)
        self.assertEqual(st, 401)
        self.assertIn("www-authenticate", hdrs, (hdrs, body))
        self.assertIn('Bearer realm="wirerate"', hdrs["www-authenticate"])
        self.assertIn("a token is needed", json.loads(body)["errors"][0])
        # The console's page is anyone's where there is a token (it logs in over /ws).
        st, hdrs, _ = self.ns_curl("--cacert", f["srv.pem"], f"https://{HOST_IP}:{PORT_B}/")
        self.assertEqual((st, hdrs["content-type"]), (200, "text/html; charset=utf-8"))
        st, _, body = self.ns_curl("--cacert", f["srv.pem"], "-H", f"Authorization: Bearer {TOKEN}",
                                   url)
        self.assertEqual((st, json.loads(body)["api_spec_version"]), (200, "1.61.0"))
        st, _, body = self.ns_curl("--cacert", f["srv.pem"],
                                   f"https://otg:{TOKEN}@{HOST_IP}:{PORT_B}/capabilities/version")
        self.assertEqual(st, 200)
        # snappi as a lab's script: the token in the location's URL, verify=False.
        py = os.path.join(OTG_VENV, "bin", "python")
        snappi_ok = os.path.exists(py)
        if snappi_ok:
            # A config of 200 flows (about 250 KB as snappi writes it) set and read back.
            script = SNAPPI_SCRIPT.format(url=f"https://otg:{TOKEN}@{HOST_IP}:{PORT_B}")
            r = run("ip", "netns", "exec", NS, py, "-c", script, timeout=120)
            out = json.loads(r.stdout.strip().splitlines()[-1])
            self.assertEqual(out["version"], "1.61.0")
            self.assertGreater(out["body"], 200 * 1000)
            self.assertEqual(out["flows"], [f"f{i}" for i in range(200)])
            self.assertEqual(out["pps"], [1000 + i for i in range(200)])
        # The client certificate: in without a token; another CA's: no handshake.
        st, _, body = self.ns_curl("--cacert", f["srv.pem"], "--cert", f["cli.pem"], "--key",
                                   f["cli.key"], url)
        self.assertEqual(st, 200)
        st, _, _ = self.ns_curl("--cacert", f["srv.pem"], "--cert", f["bad.pem"], "--key",
                                f["bad.key"], url)
        # curl: the handshake failed, or (TLS 1.3: the client's certificate is judged after
        # the client's Finished) sending or reading failed on the server's alert.
        self.assertIn(st, (35, 55, 56))
        self.alive(p, PORT_B)
        # Wrong tokens: 3 free, then the address waits; meanwhile even the right one is
        # refused unchecked, with Retry-After; after it, the right one gets in.
        seen = []
        for i in range(5):
            st, hdrs, body = self.ns_curl("-k", "-H", "Authorization: Bearer wrong-token-xxxxxxx",
                                          url)
            seen.append((st, json.loads(body)["errors"][0]))
        self.assertEqual([s for s, _ in seen], [401] * 5)
        self.assertEqual([w for _, w in seen[:3]], ["wrong token"] * 3)
        self.assertTrue(seen[4][1].startswith("too many failed logins: retry in"), seen)
        st, hdrs, body = self.ns_curl("-k", "-H", f"Authorization: Bearer {TOKEN}", url)
        self.assertEqual(st, 401)
        wait_s = int(hdrs["retry-after"])
        self.assertGreaterEqual(wait_s, 1)
        # A client certificate is not a guess: it still gets in meanwhile.
        st, _, _ = self.ns_curl("-k", "--cert", f["cli.pem"], "--key", f["cli.key"], url)
        self.assertEqual(st, 200)
        time.sleep(wait_s + 0.2)
        self.assertTrue(wait_for(lambda: self.ns_curl("-k", "-u", f"otg:{TOKEN}", url)[0] == 200,
                                 10))
        self.alive(p, PORT_B)
        if not snappi_ok:
            self.skipTest(f"the rest passed; snappi's part needs {py} (tools/lib/common.sh's "
                          "wr_otg_venv, or WR_OTG_VENV)")


if __name__ == "__main__":
    unittest.main()
