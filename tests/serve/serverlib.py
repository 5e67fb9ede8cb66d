"""A faultline server on loopback for tests: started on port 0, its address read from its
first line on stderr, stopped with SIGTERM. Standard library only."""
import http.client
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time


class Server:
    def __init__(self, faultline, *args, workdir=None):
        # a folder made here is removed by stop() (or remove()); a caller's own is left alone
        self.owned = workdir is None
        self.dir = workdir or tempfile.mkdtemp(prefix="fl-serve-")
        self.db = os.path.join(self.dir, "serve.db")
        self.log = os.path.join(self.dir, "server.log")
        self.errf = open(self.log, "wb")
        self.faultline = faultline
        self.proc = subprocess.Popen(
            [faultline, "serve", "--listen", "127.0.0.1:0", "--db", self.db, *args],
            stdout=subprocess.DEVNULL, stderr=self.errf)
        self.port = None
        deadline = time.time() + 30
        while time.time() < deadline and self.port is None:
            with open(self.log, "rb") as f:
                m = re.search(rb"serving on http://127\.0\.0\.1:(\d+)/", f.read())
            if m:
                self.port = int(m.group(1))
            elif self.proc.poll() is not None:
                raise RuntimeError("server exited: " + open(self.log).read())
            else:
                time.sleep(0.05)
        if self.port is None:
            raise RuntimeError("server did not start")

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def request(self, method, path, body=None, headers=None, timeout=60):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), data

    def token(self, name, per_day=100):
        out = subprocess.run([self.faultline, "serve", "token", "add", name, "--per-day", str(per_day),
                              "--db", self.db], capture_output=True, check=True)
        return out.stdout.decode().strip()

    def rss_peak_kb(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return -1

    def stop(self, keep_files=False):
        """Stops the server; its folder goes too unless keep_files (then call remove())."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.errf.close()
        if not keep_files:
            self.remove()
        return self.proc.returncode

    def remove(self):
        if self.owned:
            shutil.rmtree(self.dir, ignore_errors=True)


def multipart(fields, boundary="fl-test-boundary-7d2c"):
    """fields: (name, filename or None, bytes) -> (body, content type)."""
    out = []
    for name, filename, data in fields:
        out.append(b"--" + boundary.encode() + b"\r\n")
        disp = 'form-data; name="%s"' % name
        if filename is not None:
            disp += '; filename="%s"' % filename
        out.append(("Content-Disposition: %s\r\n" % disp).encode())
        if filename is not None:
            out.append(b"Content-Type: application/octet-stream\r\n")
        out.append(b"\r\n" + data + b"\r\n")
    out.append(b"--" + boundary.encode() + b"--\r\n")
    return b"".join(out), "multipart/form-data; boundary=" + boundary
