// SPDX-License-Identifier: BSD-3-Clause
// The console's JSON-RPC 2.0 client over the server's WebSocket (/ws): the same methods as
// the Unix socket's (doc/api.md), one request per message, events as notifications.

export class RpcError extends Error {
  constructor(err) {
    super(err.message);
    this.code = err.code;
    this.data = err.data;
  }
}

export class Rpc {
  constructor() {
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.onEvent = () => {};
    this.onState = () => {};
    this.onClose = () => {};
  }

  // Open the WebSocket; resolves once open, rejects if it cannot.
  connect() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      let opened = false;
      ws.onopen = () => {
        opened = true;
        this.ws = ws;
        this.onState("open");
        resolve();
      };
      ws.onmessage = (m) => this.receive(m.data);
      ws.onerror = () => {
        if (!opened) reject(new Error("cannot reach the server"));
      };
      ws.onclose = (ev) => {
        this.ws = null;
        for (const [, p] of this.pending) p.reject(new Error("connection closed"));
        this.pending.clear();
        if (opened) this.onClose(ev);
        else reject(new Error("cannot reach the server"));
      };
    });
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.method === "event") {
      this.onEvent(msg.params);
      return;
    }
    const p = this.pending.get(msg.id);
    if (p === undefined) return;
    this.pending.delete(msg.id);
    if (msg.error) p.reject(new RpcError(msg.error));
    else p.resolve(msg.result);
  }

  call(method, params = {}) {
    if (!this.open) return Promise.reject(new Error("not connected"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }

  close() {
    if (this.ws) this.ws.close();
  }
}
