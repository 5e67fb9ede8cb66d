#!/usr/bin/python3
"""End-to-end tests of `faultline watch` against live writers.

usage: watch_test.py CASE FAULTLINE SOURCE_DIR

Each case starts the watcher on a fresh folder, writes rank logs into it line by line from
threads (the live job), and checks what the watcher wrote: its --events JSON Lines, its stderr,
its final report, its metrics, what a webhook receiver got. Waits are bounded generously and no
timing is asserted: a slow machine makes a case slower, never wrong.
"""
import http.server
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
import urllib.request

CASE, FAULTLINE, SOURCE_DIR = sys.argv[1], sys.argv[2], sys.argv[3]
WAIT = 60.0  # seconds: the most any condition is waited for

OOM = [
    "Traceback (most recent call last):",
    '  File "/workspace/train.py", line 211, in <module>',
    "    main()",
    '  File "/workspace/train.py", line 187, in main',
    "    loss = model(**batch).loss",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total "
    "capacity of 79.15 GiB of which 2.31 GiB is free. Including non-PyTorch memory, this process "
    "has 76.82 GiB memory in use.",
]
WATCHDOG = ("[E501 12:10:16.118633 ProcessGroupNCCL.cpp:632] [Rank {r}] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=1040, OpType=ALLREDUCE, NumelIn=26214400, "
            "NumelOut=26214400, Timeout(ms)=600000) ran for 600094 milliseconds before timing out.")


def step(rank, i):
    return ("[rank%d]: [2026-05-01 12:00:%02d] iteration %8d/   10000 | consumed samples: %d | "
            "elapsed time per iteration (ms): 101.2 | lm loss: 2.31E+00 |" % (rank, i % 60, i, i * 64))


def fail(msg):
    print("FAIL: " + msg)
    raise SystemExit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def append(path, lines, pause=0.0):
    with open(path, "a") as f:
        for line in lines:
            f.write(line + "\n")
            f.flush()
            if pause:
                time.sleep(pause)


def wait_for(cond, what):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    fail("timed out waiting for " + what)


def events(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


RUNNING = []


class Watch:
    def __init__(self, folder, *args):
        self.events_path = os.path.join(os.path.dirname(folder), "events.jsonl")
        cmd = [FAULTLINE, "watch", "--events", self.events_path] + list(args) + [folder]
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        RUNNING.append(self.p)
        time.sleep(0.3)  # started; writes before this are read as existing content anyway

    def events(self, kind=None):
        return [e for e in events(self.events_path) if kind is None or e["event"] == kind]

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            out, err = self.p.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.p.kill()
            fail("the watcher did not stop on SIGTERM")
        return self.p.returncode, out, err


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def live_failure(tmp):
    """4 ranks train; rank 2 runs out of memory, but rank 0's watchdog timeout reaches the disk
    first. After the drain window the alert names cuda-oom on rank 2, once; the timeout is its
    collateral and never alerted."""
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    w = Watch(logs, "--drain", "3", "--format", "json")
    for i in range(1, 21):
        for r in range(4):
            append(os.path.join(logs, "rank_%d.log" % r), [step(r, i)])
        time.sleep(0.02)
    append(os.path.join(logs, "rank_0.log"), ["[rank0]:" + WATCHDOG.format(r=0)])
    time.sleep(1.0)
    append(os.path.join(logs, "rank_2.log"), ["[rank2]: " + l for l in OOM], 0.01)
    for r in (1, 3):
        append(os.path.join(logs, "rank_%d.log" % r), ["[rank%d]:" % r + WATCHDOG.format(r=r)])
    wait_for(lambda: w.events("diagnosis"), "the diagnosis event")
    # more of the same failure must not alert again
    append(os.path.join(logs, "rank_2.log"), ["[rank2]: " + OOM[-1]])
    time.sleep(4.0)  # past another drain window
    rc, out, err = w.stop()
    ev = w.events("diagnosis")
    check(len(ev) == 1, "expected exactly one diagnosis event, got %s" % [e["id"] for e in ev])
    e = ev[0]
    check(e["id"] == "cuda-oom", "alerted %s, not cuda-oom" % e["id"])
    check(e["initiating_rank"] == 2, "alert names rank %s, not 2" % e["initiating_rank"])
    check(any(c["id"] == "nccl-watchdog-timeout" for c in e["collateral"]),
          "the watchdog timeout is not the alert's collateral: %s" % e["collateral"])
    check("time" in e and e["event"] == "diagnosis", "event or time missing")
    for key in ("title", "category", "severity", "confidence", "evidence", "root_cause", "fix"):
        check(key in e, "the event lacks the diagnosis field " + key)
    check(err.count("faultline: cuda-oom") == 1, "stderr alert lines: %r" % err)
    check(rc == 1, "exit status %d, expected 1" % rc)
    report = json.loads(out)
    check(report["diagnoses"][0]["id"] == "cuda-oom", "final report: %s" % report["diagnoses"][0]["id"])


def differential(tmp):
    """A save fails with EIO and nothing else: the report lists disk-full after storage-io-error
    as its differential (not matched), and only storage-io-error is alerted, however long the
    watcher waits. When the retry then fails with ENOSPC, disk-full has lines of its own and is
    alerted like any diagnosis."""
    src = os.path.join(SOURCE_DIR, "tests/fixtures/differential/eio-then-enospc.log")
    lines = open(src).read().splitlines()
    retry = next(i for i, l in enumerate(lines) if "retrying the save" in l) + 1
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    log = os.path.join(logs, "rank_0.log")
    w = Watch(logs, "--drain", "0.5", "--format", "json")
    append(log, lines[:retry])
    wait_for(lambda: w.events("diagnosis"), "the storage-io-error event")
    time.sleep(3.0)  # past several drain windows: a differential would have been alerted by now
    ids = [e["id"] for e in w.events("diagnosis")]
    check(ids == ["storage-io-error"], "alerted %s before the ENOSPC line, not storage-io-error alone" % ids)
    check(not any(e.get("differential_of") for e in w.events()), "an event for a differential")
    append(log, lines[retry:])
    wait_for(lambda: len(w.events("diagnosis")) == 2, "the disk-full event")
    rc, out, err = w.stop()
    ev = w.events("diagnosis")
    check([e["id"] for e in ev] == ["storage-io-error", "disk-full"], "alerted %s" % [e["id"] for e in ev])
    check(ev[1]["differential_of"] is None and ev[1]["evidence"], "disk-full alerted without its own lines")
    check(rc == 1, "exit status %d, expected 1" % rc)


def same_as_diagnose(tmp):
    """A pipeline job's 8 rank logs, each written line by line (one file after the other, the
    order diagnose reads them in: with lines of equal time, arrival order breaks ties): the
    report at exit is the one diagnose prints for the finished files, byte for byte, although
    the watcher took a snapshot after nearly every line."""
    src = os.path.join(SOURCE_DIR, "tests/fixtures/kb/varlen-p2p-shape-deadlock/pos-pp4-hang")
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    w = Watch(logs, "--format", "json", "--drain", "0.2", "--hang-after", "600")
    for f in sorted(os.listdir(src)):
        append(os.path.join(logs, f), open(os.path.join(src, f)).read().splitlines(), 0.003)
    time.sleep(1.5)
    rc, out, err = w.stop()
    want = subprocess.run([FAULTLINE, "diagnose", "--format", "json", logs], capture_output=True,
                          text=True)
    check(out == want.stdout, "watch's final report differs from diagnose's:\n--- watch\n%s\n"
          "--- diagnose\n%s" % (out, want.stdout))
    check(rc == want.returncode, "exit status %d, diagnose's %d" % (rc, want.returncode))
    check("varlen-p2p-shape-deadlock" in out, "not the pipeline deadlock")


def hang(tmp):
    """4 ranks train at ~10 steps/s; rank 1 stops at step 30, the others block two steps later.
    The hang alert names rank 1 and its last step, with the py-spy command for its pid (from its
    NCCL prefix); --on-hang runs; the metrics say stalled. Then rank 1 moves: recovered."""
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    hook_out = os.path.join(tmp, "hook.out")
    port = free_port()
    textfile = os.path.join(tmp, "faultline.prom")
    w = Watch(logs, "--hang-after", "2", "--no-mask", "--on-hang",
              'printf "%s\\n" "$FAULTLINE_PY_SPY" > ' + hook_out + "; cat >> " + hook_out,
              "--metrics-listen", "127.0.0.1:%d" % port, "--metrics-textfile", textfile)
    for r in range(4):
        append(os.path.join(logs, "rank_%d.log" % r),
               ["[rank%d]:node-7:%d:%d [%d] NCCL INFO NCCL version 2.21.5+cuda12.4" % (r, 4240 + r, 4300 + r, r)])
    for i in range(1, 33):
        for r in range(4):
            if r == 1 and i > 30:
                continue
            append(os.path.join(logs, "rank_%d.log" % r), [step(r, i)])
        time.sleep(0.1)
    ev = wait_for(lambda: w.events("hang"), "the hang event")[0]
    check(ev["initiating_rank"] == 1, "hang names rank %s, not 1" % ev["initiating_rank"])
    check(ev["stopped_ranks"] == [1], "stopped first: %s, not [1]" % ev["stopped_ranks"])
    check(ev["last_steps"]["1"] == 30, "rank 1's last step: %s" % ev["last_steps"]["1"])
    check(ev["last_steps"]["0"] == 32, "rank 0's last step: %s" % ev["last_steps"]["0"])
    check(any("py-spy dump --pid 4241" in c for c in ev["py_spy"]), "py-spy command: %s" % ev["py_spy"])
    check(any(s["rank"] == 1 for s in ev["suspects"]), "suspects: %s" % ev["suspects"])
    hook = wait_for(lambda: os.path.exists(hook_out) and open(hook_out).read().count("\n") >= 2
                    and open(hook_out).read(), "the --on-hang hook")
    check("py-spy dump --pid 4241" in hook, "the hook's FAULTLINE_PY_SPY: %r" % hook)
    check('"event":"hang"' in hook, "the hook's stdin lacks the event: %r" % hook)

    def scrape():
        try:
            return urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=5).read().decode()
        except OSError:
            return None
    m = wait_for(lambda: (lambda t: t if t and 'faultline_state{state="stalled"} 1' in t else None)(scrape()),
                 "stalled in the metrics")
    check('faultline_rank_last_step{rank="1"} 30' in m, "metrics:\n" + m)
    check('faultline_hang_total 1' in m, "metrics:\n" + m)
    check("faultline_rank_last_progress_age_seconds{rank=\"1\"}" in m, "metrics:\n" + m)
    wait_for(lambda: 'faultline_state{state="stalled"} 1' in open(textfile).read(), "the textfile")
    time.sleep(1.0)
    check(len(w.events("hang")) == 1, "the hang was alerted %d times" % len(w.events("hang")))
    append(os.path.join(logs, "rank_1.log"), [step(1, 31)])
    rec = wait_for(lambda: w.events("recovered"), "the recovered event")[0]
    check(rec["initiating_rank"] == 1, "recovered: %s" % rec)
    w.stop()


def rotation(tmp):
    """rank_0.log is rotated (renamed, recreated), then copytruncated (copied to a .gz name
    that is not followed, cut to 0), then the rotated file is deleted; rank_1.log appears late
    with the failure. Every line is read once: the report counts exactly the lines written."""
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    r0 = os.path.join(logs, "rank_0.log")
    append(r0, [step(0, i) for i in range(1, 6)])
    w = Watch(logs, "--format", "json", "--drain", "0.5", "--poll", "0.2", "--hang-after", "600")
    append(r0, [step(0, i) for i in range(6, 11)], 0.01)
    time.sleep(0.5)
    os.rename(r0, r0 + ".1")                     # rotation: rename, then a new file
    append(r0 + ".1", [step(0, 11)])             # a last line into the old file
    append(r0, [step(0, i) for i in range(12, 16)], 0.01)
    time.sleep(0.8)
    shutil.copy(r0, r0 + ".2.gz")                # copytruncate
    with open(r0, "r+") as f:
        f.truncate(0)
    time.sleep(0.8)
    append(r0, [step(0, i) for i in range(16, 19)], 0.01)
    time.sleep(0.8)
    os.unlink(r0 + ".1")                         # deletion
    time.sleep(0.5)
    append(os.path.join(logs, "rank_1.log"), [step(1, 18)] + ["[rank1]: " + l for l in OOM], 0.01)
    wait_for(lambda: w.events("diagnosis"), "the diagnosis from the late file")
    rc, out, err = w.stop()
    report = json.loads(out)
    written = 18 + 1 + len(OOM)
    check(report["input"]["lines"] == written,
          "read %d lines, %d were written (rotation or truncation lost or doubled some)\n%s"
          % (report["input"]["lines"], written, err))
    ev = w.events("diagnosis")[0]
    check(ev["id"] == "cuda-oom" and ev["initiating_rank"] == 1, "alert: %s rank %s" % (ev["id"], ev["initiating_rank"]))
    check(rc == 1, "exit status %d" % rc)


def many_files(tmp):
    """512 rank files followed at once; rank 417 fails; the alert names it."""
    logs = os.path.join(tmp, "logs")
    os.makedirs(os.path.join(logs, "node-0"))
    for r in range(512):
        append(os.path.join(logs, "node-0", "rank_%d.log" % r), [step(r, 1)])
    w = Watch(logs, "--format", "json", "--drain", "1", "--hang-after", "600")
    for r in range(512):
        append(os.path.join(logs, "node-0", "rank_%d.log" % r), [step(r, 2)])
    append(os.path.join(logs, "node-0", "rank_417.log"), ["[rank417]: " + l for l in OOM], 0.01)
    ev = wait_for(lambda: w.events("diagnosis"), "the diagnosis")[0]
    rc, out, err = w.stop()
    check(ev["id"] == "cuda-oom" and ev["initiating_rank"] == 417,
          "alert: %s rank %s" % (ev["id"], ev["initiating_rank"]))
    report = json.loads(out)
    check(report["input"]["sources"] == 512, "sources: %d" % report["input"]["sources"])
    check(report["input"]["lines"] == 1024 + len(OOM), "lines: %d" % report["input"]["lines"])


class Receiver(http.server.BaseHTTPRequestHandler):
    got = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Receiver.got.append((self.headers.get("Content-Type"), json.loads(body)))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


def webhook(tmp):
    """One receiver on 127.0.0.1 records what it gets; another URL has nobody listening. The
    alert reaches the first once; for the second it is retried, then given up with a message;
    the watcher goes on reading all along."""
    server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    up = "http://127.0.0.1:%d/hook" % server.server_address[1]
    down = "http://127.0.0.1:%d/hook" % free_port()
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    w = Watch(logs, "--drain", "0.5", "--webhook", down, "--webhook", up, "--webhook-retries", "2",
              "--webhook-backoff", "200", "--hang-after", "600", "--no-report")
    append(os.path.join(logs, "rank_3.log"), [step(3, 1)] + ["[rank3]: " + l for l in OOM])
    wait_for(lambda: Receiver.got, "the webhook POST")
    # the reader is not blocked by the dead URL: a new file is still read and counted
    append(os.path.join(logs, "rank_4.log"), [step(4, 1)])
    wait_for(lambda: w.p.poll() is None and w.events("diagnosis"), "the events file")
    time.sleep(2.0)  # 3 attempts with 200 + 400 ms backoff
    rc, out, err = w.stop()
    server.shutdown()
    check(len(Receiver.got) == 1, "the receiver got %d POSTs" % len(Receiver.got))
    ctype, body = Receiver.got[0]
    check(ctype == "application/json", "Content-Type " + str(ctype))
    check("cuda-oom" in body["text"] and "rank 3" in body["text"], "Slack text: %r" % body["text"])
    check(body["faultline"]["id"] == "cuda-oom" and body["faultline"]["event"] == "diagnosis",
          "generic body: %s" % body["faultline"])
    check(err.count("retrying") == 2, "expected 2 retries on stderr:\n" + err)
    check("given up after 3 attempt(s)" in err, "no give-up message:\n" + err)
    check(rc == 1, "exit status %d" % rc)


CASES = {"live_failure": live_failure, "same_as_diagnose": same_as_diagnose, "hang": hang,
         "rotation": rotation, "many_files": many_files, "webhook": webhook, "differential": differential}

if __name__ == "__main__":
    tmp = tempfile.mkdtemp(prefix="faultline-watch-")
    try:
        CASES[CASE](tmp)
        print("ok: " + CASE)
    finally:
        for p in RUNNING:  # a failed case leaves no watcher behind
            if p.poll() is None:
                p.kill()
                p.wait()
        shutil.rmtree(tmp, ignore_errors=True)
