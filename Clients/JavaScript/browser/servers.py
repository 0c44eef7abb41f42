"""What the browser test and benchmark share: the executables, a tessera-server
process, and the static server of pages (Python's, for the benchmark)."""
import functools
import http.server
import os
import select
import signal
import subprocess
import threading
import time
from pathlib import Path

repository = Path(__file__).resolve().parents[3]


def executable(variable, name):
    """TESSERA_SERVER / TESSERA_CLI, else the debug build of the repository."""
    return os.environ.get(variable) or str(repository / ".build" / "debug" / name)


class TesseraServer:
    """tessera-server on DB (port 0) with EXTRA arguments; `url` once it listens."""

    def __init__(self, db, extra, start_timeout=30):
        server = executable("TESSERA_SERVER", "tessera-server")
        self.process = subprocess.Popen([server, "--db", str(db), "--port", "0", "--log-level", "warning", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        line = b""
        deadline = time.monotonic() + start_timeout
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(0, left))
            chunk = os.read(self.process.stdout.fileno(), 1) if ready else b""
            if not chunk:
                self.stop()
                raise OSError(f"{server} {' '.join(extra)} did not print its address in {start_timeout} s (exit {self.process.returncode})")
            line += chunk
        self.url = line.decode().strip().removeprefix("listening on ")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class StaticServer:
    """Files of ROOT on a free loopback port, from a thread (JavaScript modules as text/javascript)."""

    def __init__(self, root):
        handler = functools.partial(_QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript"}

    def log_message(self, *_):
        pass
