# SPDX-License-Identifier: BSD-3-Clause
"""Headless Firefox driven through its own Marionette protocol, standard library only.

Debian ships firefox-esr but no geckodriver, which Selenium needs; Marionette is the remote
protocol built into Firefox that geckodriver itself speaks.  It is a TCP stream of messages
`LENGTH:JSON`, a command `[0, id, name, params]` answered by `[1, id, error, result]`.  The
classes below offer the part of Selenium's WebDriver and WebElement API that the web console's
tests use (test_web.py), so that one set of checks drives Chromium and Firefox alike.

Errors on the page: Firefox's console service, read in its chrome context, holds the script
errors of every process (uncaught exceptions, refusals of the content security policy), and
the page's console.error() calls come as WebDriver BiDi log events (the same session's
WebSocket, tools/wrweb.py's client), subscribed to before the page is opened: no hook injected
after the page's scripts ran could see the errors of its load."""

import base64
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import wrweb  # noqa: E402  (the WebSocket client)

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"   # the W3C WebDriver element key
BINARY = "firefox-esr"

# A fresh profile that talks to nothing but the page (labs are offline; so are CI machines).
PREFS = {
    "marionette.port": 0,       # any free port, written to <profile>/MarionetteActivePort
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "extensions.update.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.captive-portal-service.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "services.settings.server": "data:,#remote-settings-off",
    "dom.disable_beforeunload": True,
}

# The page's errors, read in the chrome context: script errors (not warnings or notes) whose
# source is the page's origin, and every refusal of the content security policy.
ERRORS_JS = """
const origin = arguments[0], out = [];
for (const m of Services.console.getMessageArray() || []) {
  if (!(m instanceof Ci.nsIScriptError) || (m.flags & (Ci.nsIScriptError.warningFlag |
                                                       Ci.nsIScriptError.infoFlag)))
    continue;
  if ((m.sourceName || "").startsWith(origin) || m.category === "CSP")
    out.push(`${m.sourceName}:${m.lineNumber}:${m.columnNumber}: ${m.errorMessage}`);
}
return out;
"""

# Selenium's get_attribute: the DOM property when it is a plain value, else the attribute.
ATTRIBUTE_JS = """
const e = arguments[0], n = arguments[1], p = e[n];
if (typeof p === "boolean") return p ? "true" : null;
if (p !== undefined && p !== null && typeof p !== "object" && typeof p !== "function")
  return String(p);
return e.getAttribute(n);
"""


# The browsers die with the test that started them: a test killed from outside (a CI's
# timeout, kill -9) runs no tearDown, and a browser in a session of its own would live on
# (a headless Firefox once ran 47 minutes after its test).  prctl(PR_SET_PDEATHSIG) in the
# child, before it execs: the kernel sends the signal when the thread that forked it ends
# (browsers are started from the test's main thread).  libc resolved here, not after fork.
PR_SET_PDEATHSIG = 1
_prctl = ctypes.CDLL(None, use_errno=True).prctl


def die_with_parent(sig=signal.SIGKILL, cpus=None):
    """A preexec_fn for subprocess.Popen: the child gets @sig when its starter dies (also
    if that happened before the prctl: then its parent is no longer the starter); @cpus:
    the CPUs it may run on."""
    starter = os.getpid()

    def preexec():
        if _prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0 or os.getppid() != starter:
            os.kill(os.getpid(), signal.SIGKILL)
        if cpus:
            os.sched_setaffinity(0, cpus)
    return preexec


# chromedriver starts Chromium, whose processes stay in chromedriver's process group but
# outlive it (a parent-death signal is not inherited across fork).  So chromedriver runs
# under this reaper: the leader of a session of its own (start_new_session) that dies with
# the test (die_with_parent(SIGTERM)) and then kills its whole group, Chromium included.
# Selenium's own stop (SIGTERM, after chromedriver's shutdown) ends the group the same way.
GROUP_REAPER = """
import os, signal, subprocess, sys
signal.signal(signal.SIGTERM, lambda *_: os.killpg(0, signal.SIGKILL))
sys.exit(subprocess.Popen(sys.argv[1:]).wait())
"""


def reaped_service(service_class, chromedriver):
    """A Selenium chromedriver Service (@service_class) whose chromedriver and Chromium die
    with this process (GROUP_REAPER): Selenium 4.8's Service takes popen_kw, no preexec."""

    class Reaped(service_class):
        def command_line_args(self):
            return ["-c", GROUP_REAPER, chromedriver, *super().command_line_args()]

    return Reaped(sys.executable, popen_kw={"start_new_session": True,
                                            "preexec_fn": die_with_parent(signal.SIGTERM)})


class By:
    """Selenium's names of the locator strategies that Marionette takes too."""
    CSS_SELECTOR = "css selector"
    NAME = "name"
    TAG_NAME = "tag name"
    XPATH = "xpath"


class MarionetteError(Exception):
    def __init__(self, error, message):
        super().__init__(f"{error}: {message}")
        self.error = error


class StaleElementReferenceException(MarionetteError):
    """The element left the document (a view that redraws itself replaced it)."""


class NoSuchElementException(MarionetteError):
    """Nothing matches (not drawn yet)."""


class Element:
    """A Selenium WebElement's calls on a Marionette element reference."""

    def __init__(self, driver, ref):
        self.driver, self.ref = driver, ref

    def _call(self, name, **params):
        return self.driver.call(name, id=self.ref, **params)

    @property
    def text(self):
        return self._call("WebDriver:GetElementText")

    def get_attribute(self, name):
        return self.driver.execute_script(ATTRIBUTE_JS, self, name)

    def is_enabled(self):
        return self._call("WebDriver:IsElementEnabled")

    def is_displayed(self):
        return self._call("WebDriver:IsElementDisplayed")

    def click(self):
        self._call("WebDriver:ElementClick")

    def clear(self):
        self._call("WebDriver:ElementClear")

    def send_keys(self, text):
        # Selenium's Keys.ENTER is U+E007; a newline types Enter as well.
        self._call("WebDriver:ElementSendKeys", text=text.replace("\n", "\ue007"))

    def find_element(self, by, value):
        return self.driver.find_element(by, value, self)

    def find_elements(self, by, value):
        return self.driver.find_elements(by, value, self)


class Firefox:
    """One headless firefox-esr with a fresh profile, its Marionette session open.
    @cpus: the CPUs it may run on (inherited by its content processes)."""

    def __init__(self, width=1366, height=900, cpus=None, timeout=60.0):
        self.profile = tempfile.mkdtemp(prefix="wrfirefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for k, v in PREFS.items():
                f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
        self.console, self.next_id, self.sock, self.bidi = [], 0, None, None
        self.log = tempfile.TemporaryFile()   # what Firefox says, for an error that stops it
        # --remote-debugging-port: BiDi's WebSocket beside Marionette (0: any free port);
        # --remote-allow-system-access: Marionette's chrome context (the console service).
        self.proc = subprocess.Popen(
            [BINARY, "--headless", "--marionette", "--remote-debugging-port=0",
             "--remote-allow-system-access", "--no-remote", "--profile", self.profile,
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=die_with_parent(cpus=cpus))
        try:
            self._connect(timeout)
            # Marionette takes the capabilities themselves, not WebDriver's alwaysMatch.
            caps = self.call("WebDriver:NewSession", webSocketUrl=True)
            self._subscribe(caps["capabilities"]["webSocketUrl"])
            self.call("WebDriver:SetWindowRect", width=width, height=height)
        except BaseException:
            self.quit()
            raise

    def _subscribe(self, url):
        """The session's BiDi WebSocket: its console errors collected by a thread."""
        hostport, path = url.removeprefix("ws://").split("/", 1)
        self.bidi = wrweb.WebSocket(int(hostport.rsplit(":", 1)[1]), origin="", host=hostport,
                                    path="/" + path)
        if not self.bidi.ok:
            raise ConnectionError(f"BiDi WebSocket {url}: HTTP {self.bidi.status}")
        self.bidi.send_text(json.dumps({"id": 1, "method": "session.subscribe",
                                        "params": {"events": ["log.entryAdded"]}}))
        while True:   # the subscription holds from its answer on
            op, payload = self.bidi.recv_frame()
            if op is None:
                raise ConnectionError("BiDi WebSocket closed")
            if op == 0x1 and json.loads(payload).get("id") == 1:
                break
        self.bidi.sock.settimeout(None)
        threading.Thread(target=self._read_bidi, daemon=True).start()

    def _read_bidi(self):
        while True:
            try:
                op, payload = self.bidi.recv_frame()
            except OSError:
                return   # closed by quit()
            if op in (None, 0x8):
                return
            msg = json.loads(payload) if op == 0x1 else {}
            e = msg.get("params", {})
            if msg.get("method") == "log.entryAdded" and e.get("level") == "error":
                kind = e.get("type", "") + ("." + e["method"] if e.get("method") else "")
                self.console.append(f"{kind}: {e.get('text')}")

    def _connect(self, timeout):
        portfile = os.path.join(self.profile, "MarionetteActivePort")
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"{BINARY} exited with {self.proc.returncode}: "
                                   f"{self.log.read()[-2000:].decode(errors='replace')}")
            try:
                with open(portfile) as f:
                    port = int(f.read())
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
                break
            except (OSError, ValueError):
                if time.monotonic() > end:
                    raise TimeoutError(f"{BINARY}: no Marionette port after {timeout} s")
                time.sleep(0.1)
        self.buf = b""
        hello = self._recv()
        if hello.get("marionetteProtocol") != 3:
            raise RuntimeError(f"unexpected Marionette greeting {hello}")

    def _recv(self):
        while b":" not in self.buf:
            self._fill()
        n, _, self.buf = self.buf.partition(b":")
        n = int(n)
        while len(self.buf) < n:
            self._fill()
        msg, self.buf = self.buf[:n], self.buf[n:]
        return json.loads(msg)

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("Marionette closed the connection")
        self.buf += chunk

    def call(self, name, **params):
        """One command; its result's "value" when it has only that (as WebDriver answers)."""
        self.next_id += 1
        msg = json.dumps([0, self.next_id, name, params], default=self._ref).encode()
        self.sock.sendall(b"%d:%s" % (len(msg), msg))
        while True:
            kind, mid, err, res = self._recv()
            if kind == 1 and mid == self.next_id:
                break
        if err:
            cls = {"stale element reference": StaleElementReferenceException,
                   "no such element": NoSuchElementException}.get(err["error"], MarionetteError)
            raise cls(err["error"], err.get("message", ""))
        return self._wrap(res["value"] if isinstance(res, dict) and list(res) == ["value"]
                          else res)

    @staticmethod
    def _ref(o):
        if isinstance(o, Element):
            return {ELEMENT: o.ref}
        raise TypeError(type(o))

    def _wrap(self, v):
        if isinstance(v, dict) and ELEMENT in v:
            return Element(self, v[ELEMENT])
        if isinstance(v, list):
            return [self._wrap(x) for x in v]
        return v

    # Selenium's WebDriver calls.
    def get(self, url):
        self.call("WebDriver:Navigate", url=url)

    def find_element(self, by, value, root=None):
        return self.call("WebDriver:FindElement", using=by, value=value,
                         **({"element": root.ref} if root else {}))

    def find_elements(self, by, value, root=None):
        return self.call("WebDriver:FindElements", using=by, value=value,
                         **({"element": root.ref} if root else {}))

    def execute_script(self, script, *args):
        return self.call("WebDriver:ExecuteScript", script=script, args=list(args))

    def close(self):
        """The current window closed (Selenium's close())."""
        self.call("WebDriver:CloseWindow")

    def set_script_timeout(self, s):
        self.call("WebDriver:SetTimeouts", script=int(s * 1000))

    def save_screenshot(self, path):
        png = base64.b64decode(self.call("WebDriver:TakeScreenshot", full=False, hash=False))
        with open(path, "wb") as f:
            f.write(png)

    def errors(self, origin):
        """The errors of pages from @origin: script errors, then console.error() calls and
        uncaught exceptions as BiDi saw them."""
        self.call("Marionette:SetContext", value="chrome")
        try:
            found = self.execute_script(ERRORS_JS, origin)
        finally:
            self.call("Marionette:SetContext", value="content")
        return found + list(self.console)

    def quit(self):
        try:
            if self.sock:
                self.call("Marionette:Quit", flags=["eForceQuit"])
        except (OSError, MarionetteError, ValueError):
            pass  # already gone
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
        for s in (self.sock, self.bidi, self.log):
            if s:
                s.close()
        shutil.rmtree(self.profile, True)

