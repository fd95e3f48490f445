#!/usr/bin/env python3
"""`signalscope live` over a command that starts two traced processes, and over one that
traces nothing.

Usage: live_processes.py SIGNALSCOPE PROGRAM

Runs `SIGNALSCOPE live -- sh -c "PROGRAM & PROGRAM --fixed; wait"`, follows its push
channel as a page would (a WebSocket client written here, reading every message), waits
for the end, then reads /report and each process's report, and stops the server with
SIGINT. Then runs `SIGNALSCOPE live --exit-when-done -- true`. Prints one JSON object; the
Swift test (LiveServerTests) judges it.
"""
import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request


def frames(connection):
    """The text of each frame the server sends, as it comes."""
    buffer = b""
    while True:
        while len(buffer) < 2 or len(buffer) < header_length(buffer) + payload_length(buffer):
            chunk = connection.recv(65536)
            if not chunk:
                return
            buffer += chunk
        start, length = header_length(buffer), payload_length(buffer)
        opcode = buffer[0] & 0x0F
        payload, buffer = buffer[start:start + length], buffer[start + length:]
        if opcode == 1:
            yield payload.decode()
        elif opcode == 8:
            return


def header_length(buffer):
    if len(buffer) < 2:
        return 2
    size = buffer[1] & 0x7F
    return 2 if size < 126 else 4 if size == 126 else 10


def payload_length(buffer):
    if len(buffer) < header_length(buffer):
        return 1 << 30
    size = buffer[1] & 0x7F
    if size == 126:
        return int.from_bytes(buffer[2:4], "big")
    if size == 127:
        return int.from_bytes(buffer[2:10], "big")
    return size


def send_text(connection, text):
    data = text.encode()
    mask = os.urandom(4)
    connection.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def main():
    signalscope, program = sys.argv[1], sys.argv[2]
    seen = {}
    live = subprocess.Popen([signalscope, "live", "--", "sh", "-c", f'"{program}" --seconds 2 & "{program}" --seconds 2 --fixed; wait'],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    match = re.match(r"signalscope: live at (http://127\.0\.0\.1:(\d+))/\?token=([0-9a-f]{32})$", live.stderr.readline().strip())
    base, port, token = match.group(1), int(match.group(2)), match.group(3)
    connection = socket.create_connection(("127.0.0.1", port), timeout=60)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall((f"GET /live?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(1)
    kinds, notes = [], []
    for text in frames(connection):
        message = json.loads(text)
        kinds.append(message["kind"])
        if message["kind"] == "note":
            notes.append(message["text"])
        if message["kind"] == "end":
            send_text(connection, "received end")
            break
    seen["kinds"] = sorted(set(kinds))
    seen["endedBeforeEnd"] = "ended" in kinds and kinds.index("ended") < kinds.index("end")
    seen["notes"] = notes
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
