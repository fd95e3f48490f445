#!/usr/bin/env python3
"""Drives `signalscope live` in the system Chromium (Playwright) while a program runs.

Usage: live_page.py SIGNALSCOPE PROGRAM [SCREENSHOT]

Starts `SIGNALSCOPE live --exit-when-done -- PROGRAM`, reads the page's address from its
standard error, opens it while the program runs and prints one JSON object with what it saw:
when events arrived in the report's panes (relative to the program's start and end), the
graph while the program ran, when the watched screen's finding appeared, which graph nodes
clicking it highlighted, an event's chain of causes, the findings of the final report
the page became, what a wrong token and a non-loopback address got, and the exit status.
The Swift test (LivePageTests) judges it.
"""
import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright


def status_of(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError as error:
        return str(error)


def bound_addresses(port):
    """The local addresses listening on `port`, from the kernel's socket tables."""
    found = []
    for table, family in (("/proc/net/tcp", 4), ("/proc/net/tcp6", 6)):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, hex_port = fields[1].split(":")
            if int(hex_port, 16) == port and fields[3] == "0A":
                found.append(socket.inet_ntoa(bytes.fromhex(address)[::-1]) if family == 4 else address)
    return found


def raw_status(port, request):
    """The status code a raw HTTP request to 127.0.0.1:port gets."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(request.encode())
        reply = connection.recv(4096).decode(errors="replace")
    return int(reply.split(" ")[1]) if reply.startswith("HTTP/") else reply


# The counts in the report's summary line ("0 errors, … · 3 graph nodes · 4 lanes · 12 events").
SUMMARY_COUNTS = "(text => ({events: Number((text.match(/(\\d+) events/) || [0, 0])[1]), lanes: Number((text.match(/(\\d+) lanes/) || [0, 0])[1])}))"


def main():
    signalscope, program = sys.argv[1], sys.argv[2]
    screenshot = sys.argv[3] if len(sys.argv) > 3 else None
    seen = {}
    started = time.monotonic()
    # The session runs ten seconds, not its default three: the page is inspected while the
    # program runs, and on a loaded two-core machine Chromium alone can take seconds to start.
    live = subprocess.Popen([signalscope, "live", "--exit-when-done", "--", program, "--seconds", "10"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    line = live.stderr.readline()
    match = re.match(r"signalscope: live at (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))$", line.strip())
    seen["announced"] = line.strip()
    if not match:
        live.kill()
        print(json.dumps(seen))
        return
    url, port, token = match.group(1), int(match.group(2)), match.group(3)
    seen["wrongToken"] = status_of(f"http://127.0.0.1:{port}/?token={'0' * 32}")
    seen["noToken"] = status_of(f"http://127.0.0.1:{port}/")
    seen["boundAddresses"] = bound_addresses(port)
    taken = subprocess.run([signalscope, "live", "--port", str(port), "--", "true"], capture_output=True, text=True, timeout=60)
    seen["portTaken"] = {"status": taken.returncode, "stderr": taken.stderr}
    seen["foreignHost"] = raw_status(port, f"GET /?token={token} HTTP/1.1\r\nHost: attacker.example:{port}\r\n\r\n")
    seen["foreignOrigin"] = raw_status(
        port,
        f"GET /live?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://attacker.example\r\n\r\n")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(url)
        page.wait_for_selector('body[data-live="connected"]', timeout=10_000)
        # The report's own panes fill as the program runs: its summary counts events, its
        # timeline draws lanes, its graph grows.
        page.wait_for_function(SUMMARY_COUNTS + "(document.getElementById('summary').textContent).events > 0", timeout=10_000)
        seen["firstEventsAt"] = time.monotonic() - started
        seen["programRunningWhenEventsShown"] = live.poll() is None
        seen["summaryAtFirstEvents"] = page.text_content("#summary")
        seen["clockAtFirstEvents"] = page.text_content("#clock")
        seen["messagesAtFirstEvents"] = page.evaluate("window.signalscopeLive.batches")
        # The timeline grows as events come: its clock moves on from where it was when the
        # first events showed, while the program (ten seconds long) still sends. Asked here,
        # not after the waits below, which on a loaded machine can outlast the program.
        # Read from here rather than waited for in the page: a page the server finds behind
        # reloads (close code 4000), which ends a wait in the page at once with an error
        # (seen: a wait that ended within a tenth of a second, the clock unchanged).
        deadline = time.monotonic() + 8
        seen["clockLater"] = seen["clockAtFirstEvents"]
        while seen["clockLater"] == seen["clockAtFirstEvents"] and time.monotonic() < deadline:
            time.sleep(0.1)
            try:
                seen["clockLater"] = page.text_content("#clock", timeout=1_000)
            except Exception as error:
                seen["clockError"] = str(error).splitlines()[0]
        # What the page had when its clock did not move, for the test's message.
        seen["clockLaterAt"] = time.monotonic() - started
        seen["liveStatusLater"] = page.text_content("#live-status")
        seen["messagesLater"] = page.evaluate("window.signalscopeLive.batches")
        seen["programRunningWhenClockRead"] = live.poll() is None
        page.wait_for_selector("#graph-view svg g.node", timeout=10_000)
        seen["graphNodesWhileRunning"] = page.locator("#graph-view svg g.node").count()
        seen["programRunningWhenGraphShown"] = live.poll() is None
        finding = page.wait_for_selector('#finding-list li[data-rule="retained-after-release"]', timeout=15_000)
        seen["findingAt"] = time.monotonic() - started
        seen["programRunningWhenFindingShown"] = live.poll() is None
        seen["findingText"] = finding.text_content()
        seen["limitationsWhileRunning"] = page.text_content("#limitations")
        # On its rule's name: the middle of the entry may be a link in its proof (to a node).
        # A locator, found again at each click: a new graph renders the list again.
        rule = page.locator('#finding-list li[data-rule="retained-after-release"] span.rule').first
        rule.click()
        seen["highlightedNodes"] = page.locator("#graph-view svg g.node.hl").count()
        seen["highlightedNodeTitles"] = page.locator("#graph-view svg g.node.hl title").all_text_contents()
        seen["detailsPath"] = page.locator("#details-body ol.proof li").all_text_contents()
        # An event's causes: the latest event, by the report's link to it.
        events = page.evaluate(SUMMARY_COUNTS + "(document.getElementById('summary').textContent).events")
        page.evaluate(f"location.hash = '#event={events - 1}'")
        page.wait_for_selector("#details-body #chain li", timeout=5_000)
        seen["causeChain"] = page.locator("#details-body #chain li").all_text_contents()
        seen["programRunningWhenInspected"] = live.poll() is None
        stats = page.evaluate("JSON.parse(JSON.stringify(window.signalscopeLive))")
        seen["frames"] = stats["frames"]
        rule.click()
        if screenshot:
            page.screenshot(path=screenshot)
        page.wait_for_url(re.compile(r"/report\?token="), timeout=30_000)
        page.wait_for_selector('[data-ready="true"]', state="attached", timeout=20_000)
        data = page.evaluate("JSON.parse(document.getElementById('signalscope-data').textContent)")
        seen["finalFindings"] = sorted(f"{f['rule']}@{f['site']['line']}" for f in data["findings"])
        browser.close()
    seen["exitStatus"] = live.wait(timeout=60)
    seen["programEndedAt"] = time.monotonic() - started
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
