# SPDX-License-Identifier: BSD-3-Clause
"""A raw HTTP and WebSocket (RFC 6455) client of the web console, standard library only: what a
browser sends, and what one must not, byte for byte (test/integration/test_web.py), and the
page's own requests, emulated (tools/wr-web-bench)."""

import base64
import hashlib
import json
import os
import socket
import struct

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def http(port, raw, timeout=5.0):
    """Send raw bytes, return (status, headers dict, body) of the answer (status 0: reset)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        try:
            s.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    return parse_response(data)


def parse_response(data):
    if b"\r\n\r\n" not in data:
        return 0, {}, data
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, v = line.split(":", 1)
        headers[k.strip().lower()] = v.strip()
    return status, headers, body


def get(port, path, host=None, extra=""):
    host = host or f"127.0.0.1:{port}"
    return http(port, f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n".encode())


class WebSocket:
    """A console client: the upgrade of /ws with a browser's headers, masked text frames."""

    def __init__(self, port, origin=None, host=None, timeout=10.0, path="/ws"):
        host = host or f"127.0.0.1:{port}"
        origin = f"http://{host}" if origin is None else origin
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        req = (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Version: 13\r\n")
        if origin:
            req += f"Origin: {origin}\r\n"
        self.sock.sendall((req + "\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            data += chunk
        head, self.buf = data.split(b"\r\n\r\n", 1) if b"\r\n\r\n" in data else (data, b"")
        self.status, self.headers, _ = parse_response(head + b"\r\n\r\n")
        want = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
        self.ok = self.status == 101 and self.headers.get("sec-websocket-accept") == want
        self.next_id = 0

    def send_frame(self, opcode, payload, fin=True, mask=True, length=None):
        n = len(payload) if length is None else length
        head = bytes([(0x80 if fin else 0) | opcode])
        mbit = 0x80 if mask else 0
        if n < 126:
            head += bytes([mbit | n])
        elif n < 65536:
            head += bytes([mbit | 126]) + struct.pack(">H", n)
        else:
            head += bytes([mbit | 127]) + struct.pack(">Q", n)
        if mask:
            key = os.urandom(4)
            head += key
            payload = bytes(b ^ key[i & 3] for i, b in enumerate(payload))
        self.sock.sendall(head + payload)

    def send_text(self, text):
        self.send_frame(0x1, text.encode())

    def recv_frame(self):
        """(opcode, payload), or (None, b'') when the connection ended."""
        def need(n):
            while len(self.buf) < n:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise EOFError
                self.buf += chunk
        try:
            need(2)
            op, n = self.buf[0] & 0x0f, self.buf[1] & 0x7f
            off = 2
            if n == 126:
                need(4)
                n, off = struct.unpack(">H", self.buf[2:4])[0], 4
            elif n == 127:
                need(10)
                n, off = struct.unpack(">Q", self.buf[2:10])[0], 10
            need(off + n)
        except (EOFError, ConnectionResetError):
            return None, b""
        payload, self.buf = self.buf[off:off + n], self.buf[off + n:]
        return op, payload

    def call(self, method, **params):
        """One JSON-RPC call; returns the reply (a dict with result or error)."""
        self.next_id += 1
        self.send_text(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                   "params": params}))
        while True:
            op, payload = self.recv_frame()
            if op is None:
                raise ConnectionError("the server closed the WebSocket")
            if op == 0x8:
                raise ConnectionError(f"closed: {struct.unpack('>H', payload[:2])[0]}")
            if op != 0x1:
                continue
            msg = json.loads(payload)
            if msg.get("id") == self.next_id:
                return msg

    def close(self):
        self.sock.close()
