#!/usr/bin/env python3
"""`signalscope live` over a command that starts two traced processes, and over one that
traces nothing.

Usage: live_processes.py SIGNALSCOPE PROGRAM

Runs `SIGNALSCOPE live -- sh -c "PROGRAM & PROGRAM --fixed; wait"`, follows its push
channel as a page would (live_client.py, reading every message); once told of both
processes, opens the other process's page too and follows it to its end, then the first
page to its end; then reads /report and each process's report, and stops the server with
SIGINT. Then runs `SIGNALSCOPE live --exit-when-done -- true`. Prints one JSON object; the
Swift test (LiveServerTests) judges it.
"""
import json
import re
import signal
import subprocess
import sys
import urllib.request

from live_client import frames, open_page, send_text


def main():
    signalscope, program = sys.argv[1], sys.argv[2]
    seen = {}
    live = subprocess.Popen([signalscope, "live", "--", "sh", "-c", f'"{program}" --seconds 2 & "{program}" --seconds 2 --fixed; wait'],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    match = re.match(r"signalscope: live at (http://127\.0\.0\.1:(\d+))/\?token=([0-9a-f]{32})$", live.stderr.readline().strip())
    base, port, token = match.group(1), int(match.group(2)), match.group(3)
    def follow(connection, until_processes=False):
        """The page's messages' kinds, its last list of processes and how many events its
        timeline got, to the end (or until it is told of two processes)."""
        kinds, processes, events = [], [], 0
        for text in frames(connection):
            message = json.loads(text)
            kinds.append(message["kind"])
            if message["kind"] == "processes":
                processes = message["processes"]
                if until_processes and len(processes) == 2:
                    break
            if message["kind"] == "timeline":
                events += len(message.get("events", []))
            if message["kind"] == "end":
                send_text(connection, "received end")
                break
        return kinds, processes, events

    first = open_page(port, token)
    kinds, processes, events = follow(first, until_processes=True)
    other = open_page(port, token, process=processes[1]) if len(processes) == 2 else None
    other_kinds, other_processes, other_events = follow(other) if other else ([], [], 0)
    more_kinds, _, more_events = follow(first)
    kinds += more_kinds
    seen["kinds"] = sorted(set(kinds))
    seen["endedBeforeEnd"] = "ended" in kinds and kinds.index("ended") < kinds.index("end")
    seen["processes"] = processes
    seen["pages"] = [{"events": events + more_events, "ended": "end" in kinds},
                     {"events": other_events, "ended": "end" in other_kinds, "processes": other_processes}]
    listing = urllib.request.urlopen(f"{base}/report?token={token}", timeout=30).read().decode()
    processes = re.findall(r"process=(\d+)", listing)
    seen["listedProcesses"] = len(processes)
    titles = []
    for process in processes:
        page = urllib.request.urlopen(f"{base}/report?token={token}&process={process}", timeout=30).read().decode()
        titles.append((re.search(r"<title>([^<]*)</title>", page) or [None, ""])[1])
    seen["reportTitles"] = titles
    live.send_signal(signal.SIGINT)
    live.wait(timeout=30)
    seen["exitStatus"] = live.returncode
    seen["stderr"] = live.stderr.read().splitlines()

    nothing = subprocess.run([signalscope, "live", "--exit-when-done", "--", "true"], capture_output=True, text=True, timeout=60)
    seen["untraced"] = {"status": nothing.returncode, "stderr": nothing.stderr.splitlines()}
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
