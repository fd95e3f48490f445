#!/usr/bin/env python3
"""Probes `signalscope live` as a hostile or careless neighbour would, on 127.0.0.1 only.

Usage: live_server.py SIGNALSCOPE PROGRAM

Starts `SIGNALSCOPE live --exit-when-done -- PROGRAM --seconds 12 --updates 100000` (about
200,000 events) with at most 128 open files, then, while the program runs:
  - floods the server with 48 KiB header lines and 48 KiB URLs from several connections at
    once, and times the page meanwhile;
  - opens more idle connections than the process may hold files, then times the page;
  - sends HEAD, two Host headers, a localhost Host, a POST, a folded header, a bad request
    line, and a WebSocket handshake with RFC 6455's sample key;
  - opens WebSocket clients that never read a byte, and samples signalscope's memory;
  - connects a page late, which must start from the state (every lane, the events numbered on
    from there) and read on to the end;
  - asks for the project's source files the pages link to, and for what else it must refuse.
Prints one JSON object with what it saw; the Swift test (LiveServerTests) judges it.
"""
import json
import os
import re
import resource
import socket
import subprocess
import sys
import threading
import time

from live_client import frames, open_page, send_text

FILE_LIMIT = 128


def request(port, raw, timeout=5.0, head_only=False):
    """The answer to `raw` (bytes), read until the server closes, goes quiet, or (with
    `head_only`) has sent the answer's head."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        try:
            connection.sendall(raw)
        except OSError:
            pass
        chunks = []
        try:
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if head_only and b"\r\n\r\n" in b"".join(chunks):
                    break
        except OSError:
            pass
    return b"".join(chunks)


def status_of(answer):
    match = re.match(rb"HTTP/1\.1 (\d{3}) ", answer)
    return int(match.group(1)) if match else None


def timed_page(port, token):
    """Seconds until the page's whole answer came, and its status."""
    started = time.monotonic()
    raw = f"GET /?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    try:
        answer = request(port, raw, timeout=30)
    except OSError as error:
        return {"seconds": time.monotonic() - started, "status": str(error)}
    return {"seconds": round(time.monotonic() - started, 3), "status": status_of(answer), "bytes": len(answer)}


def flood(port, results, index, line):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            try:
                connection.sendall(line)
            except OSError:
                pass
            answer = b""
            try:
                answer = connection.recv(4096)
            except OSError:
                pass
        results[index] = status_of(answer)
    except OSError as error:
        results[index] = str(error)


def memory_kib(pid, field):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def main():
    signalscope, program = sys.argv[1], sys.argv[2]
    seen = {}

    def limit_files():
        resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))

    # Run in the repository, as a user runs in their project: the reports link to its files.
    repository = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    live = subprocess.Popen(
        [signalscope, "live", "--exit-when-done", "--", program, "--seconds", "12", "--updates", "100000"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, preexec_fn=limit_files, cwd=repository)
    line = live.stderr.readline()
    match = re.match(r"signalscope: live at http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})$", line.strip())
    if not match:
        live.kill()
        seen["announced"] = line.strip()
        print(json.dumps(seen))
        return
    port, token = int(match.group(1)), match.group(2)
    errors = []
    threading.Thread(target=lambda: errors.extend(live.stderr.read().splitlines()), daemon=True).start()
    host = f"Host: 127.0.0.1:{port}\r\n"

    # 1. Floods: header lines and URLs of 48 KiB from eight connections at once.
    big = "a" * (48 * 1024)
    lines = [f"GET /?token={token} HTTP/1.1\r\n{host}X-Flood: {big}\r\n\r\n".encode()] * 4 + \
            [f"GET /{big}?token={token} HTTP/1.1\r\n{host}\r\n".encode()] * 4
    results = [None] * len(lines)
    threads = [threading.Thread(target=flood, args=(port, results, i, line)) for i, line in enumerate(lines)]
    for thread in threads:
        thread.start()
    seen["pageDuringFlood"] = timed_page(port, token)
    for thread in threads:
        thread.join(30)
    seen["floodStatuses"] = results

    # 2. A storm of idle connections, more than the process may hold files.
    idle = []
    for _ in range(3 * FILE_LIMIT):
        try:
            connection = socket.socket()
            connection.settimeout(0.5)
            connection.connect(("127.0.0.1", port))
            idle.append(connection)
        except OSError:
            connection.close()
    seen["idleConnections"] = len(idle)
    time.sleep(0.5)
    seen["pageDuringStorm"] = timed_page(port, token)
    for connection in idle:
        connection.close()
    time.sleep(0.3)
    seen["pageAfterStorm"] = timed_page(port, token)

    # 3. Small items.
    head = request(port, f"HEAD /?token={token} HTTP/1.1\r\n{host}Connection: close\r\n\r\n".encode())
    header_part, _, body = head.partition(b"\r\n\r\n")
    seen["head"] = {"status": status_of(head), "bodyBytes": len(body),
                    "contentLength": int((re.search(rb"Content-Length: (\d+)", header_part) or [0, b"-1"])[1])}
    seen["twoHosts"] = status_of(request(port, f"GET /?token={token} HTTP/1.1\r\n{host}Host: evil.example\r\n\r\n".encode()))
    localhost = request(port, f"GET /?token={token} HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n".encode())
    seen["localhost"] = {"status": status_of(localhost), "body": localhost.partition(b"\r\n\r\n")[2].decode(errors="replace")}
    seen["post"] = status_of(request(port, f"POST /?token={token} HTTP/1.1\r\n{host}Content-Length: 0\r\n\r\n".encode()))
    seen["folded"] = status_of(request(port, f"GET /?token={token} HTTP/1.1\r\n{host}X-A: 1\r\n  folded\r\n\r\n".encode()))
    seen["badLine"] = status_of(request(port, b"HELLO\r\n\r\n"))
    handshake = request(port, (f"GET /live?token={token} HTTP/1.1\r\n{host}Upgrade: websocket\r\nConnection: Upgrade\r\n"
                               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode(), head_only=True)
    accept = re.search(rb"Sec-WebSocket-Accept: (\S+)", handshake)
    seen["handshake"] = {"status": status_of(handshake), "accept": accept.group(1).decode() if accept else None}

    # Source links: the project's Swift files, with the token, and nothing else.
    def source(path, with_token=True):
        query = f"?token={token}" if with_token else ""
        answer = request(port, f"GET {path}{query} HTTP/1.1\r\n{host}Connection: close\r\n\r\n".encode())
        return {"status": status_of(answer), "mentionsScreen": b"ProfileScreen" in answer,
                "plainText": b"Content-Type: text/plain" in answer}
    seen["sources"] = {
        "projectFile": source("/Examples/LiveSession/main.swift"),
        "withoutToken": source("/Examples/LiveSession/main.swift", with_token=False),
        "notSwift": source("/Makefile"),
        "outside": source("/..%2F..%2Fetc%2Fhostname.swift"),
        "dotDot": source("/Examples/../Examples/LiveSession/main.swift"),
        "nulByte": source("/Makefile%00.swift"),
    }

    # 4. WebSocket clients that never read, while the program streams.
    stalled = []
    for _ in range(20):
        connection = socket.create_connection(("127.0.0.1", port), timeout=5)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        connection.sendall((f"GET /live?token={token} HTTP/1.1\r\n{host}Upgrade: websocket\r\nConnection: Upgrade\r\n"
                            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        stalled.append(connection)
    time.sleep(1)
    seen["pageWhileStalledClients"] = timed_page(port, token)
    peak = [0]

    def sample():
        while live.poll() is None:
            peak[0] = max(peak[0], memory_kib(live.pid, "VmHWM") or 0)
            time.sleep(0.1)
    sampler = threading.Thread(target=sample)
    sampler.start()

    # 5. A page that connects late, once the program has streamed for a while.
    time.sleep(3)
    late = open_page(port, token)
    first, events, kinds, links = None, 0, set(), set()
    for text in frames(late):
        links.update(re.findall(r'"href":"([^"]*)"', text))
        message = json.loads(text)
        kinds.add(message["kind"])
        first = first or message
        events += len(message.get("events", []))
        if message["kind"] == "end":
            send_text(late, "received end")
            break
    seen["latePage"] = {"startsFromState": first.get("state") is True, "firstEvent": first.get("firstEvent", 0),
                        "lanes": len(first.get("lanes", [])), "eventsRead": events, "kinds": sorted(kinds),
                        "links": sorted(links)}
    sampler.join()
    seen["peakRSSMiB"] = round(peak[0] / 1024, 1)
    for connection in stalled:
        connection.close()
    seen["exitStatus"] = live.returncode
    seen["stderr"] = errors
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
