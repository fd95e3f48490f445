#!/usr/bin/env python3
"""Measures `signalscope live`'s memory as a new user would meet it: one page connected from
the start, reading every message, while the LiveSession example streams.

Usage: scripts/live-memory.py SIGNALSCOPE LIVESESSION UPDATES...

For each UPDATES (each update is two events: the subject's and the map's), runs
`SIGNALSCOPE live --exit-when-done -- LIVESESSION --updates UPDATES --seconds 3`, follows
its push channel (Tests/Probes/live_client.py), and prints one line:
the events the page received, the bytes pushed, signalscope's own peak resident memory
(VmHWM, sampled every 50 ms; the final report is made by a `signalscope report` process of
its own, measured apart by `report`'s figures), and when the page heard the program ended
and when it had its report. `make bench-live-memory` runs it at 50,000 and 500,000 updates.
"""
import json
import os
import re
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "Probes"))
from live_client import frames, open_page, send_text  # noqa: E402


def measure(signalscope, program, updates):
    live = subprocess.Popen([signalscope, "live", "--exit-when-done", "--", program, "--updates", updates, "--seconds", "3"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    match = re.match(r"signalscope: live at http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})$", live.stderr.readline().strip())
    port, token = int(match.group(1)), match.group(2)
    peak = [0]

    def sample():
        while live.poll() is None:
            try:
                for line in open(f"/proc/{live.pid}/status"):
                    if line.startswith("VmHWM:"):
                        peak[0] = max(peak[0], int(line.split()[1]))
            except OSError:
                pass
            time.sleep(0.05)
    threading.Thread(target=sample, daemon=True).start()
    connection = open_page(port, token, timeout=600)
    started, events, pushed, ended = time.time(), 0, 0, None
    for text in frames(connection):
        pushed += len(text)
        message = json.loads(text)
        events += len(message.get("events", []))
        if message["kind"] == "ended":
            ended = time.time() - started
        if message["kind"] == "end":
            send_text(connection, "received end")
            break
    report = time.time() - started
    live.wait()
    print(f"updates {int(updates):>9,}  events {events:>9,}  pushed {pushed / 1e6:6.1f} MB  "
          f"peak {peak[0] / 1024:6.1f} MiB  ended at {ended or 0:5.1f} s  report at {report:5.1f} s")


if __name__ == "__main__":
    for count in sys.argv[3:]:
        measure(sys.argv[1], sys.argv[2], count)
