# SPDX-License-Identifier: BSD-3-Clause
"""wirerate: a client for the wirerate traffic generator's server (``wirerate serve``).

The habits of TRex's STL client::

    import wirerate
    c = wirerate.connect()                      # Unix socket, ports acquired
    c.load(open("streams/udp-64.yaml").read())
    c.start(rate="1 Mpps", duration=2)
    c.wait()
    print(wirerate.summary(c.stats()))

Every method maps onto one JSON-RPC method (doc/api.md); results are plain
dicts with the fields of ``wirerate run --json``.
"""

from .client import (DEFAULT_SOCKET, Client, RpcError, connect, default_socket, merge_results,
                     rate_shortfall, runtime_dir, stream_row, port_row, summary)

__all__ = ["DEFAULT_SOCKET", "Client", "RpcError", "connect", "default_socket", "merge_results",
           "rate_shortfall", "runtime_dir", "stream_row", "port_row", "summary"]
__version__ = "0.1.0"
