#!/usr/bin/env python3
"""Measures the live page: how long a record takes from being written to being on the page,
and what handling the pushed batches costs the page's main thread.

Usage: scripts/live-latency.py SIGNALSCOPE PROGRAM [ARGS...]

Runs `SIGNALSCOPE live --exit-when-done -- PROGRAM ARGS`, opens the page in the system
Chromium (Playwright) at once, and when the program ends prints, for the batches the page
received while it ran: the latency from each batch's last record's timestamp (the trace's
monotonic clock, which is Python's time.monotonic) to its arrival on the page (the browser's
wall clock, mapped to the monotonic clock by sampling both), counting only records written
after the page connected; the time the page spent handling each message, and drawing each
frame of its timeline (the page's own measures, `window.signalscopeLive`).
"""
import re
import statistics
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright


def main():
    signalscope, program = sys.argv[1], sys.argv[2:]
    wall_minus_monotonic = time.time() - time.monotonic()
    live = subprocess.Popen([signalscope, "live", "--exit-when-done", "--", *program],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    url = re.search(r"(http://\S+)", live.stderr.readline()).group(1)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(url)
        stats = None
        last = None
        while live.poll() is None:
            try:
                stats = page.evaluate("window.signalscopeLive && JSON.parse(JSON.stringify(window.signalscopeLive))") or stats
                last = page.text_content("#summary")
            except Exception:
                break  # the page went on to the final report
            time.sleep(0.05)
        browser.close()
    # Only records written after the page connected: earlier ones wait for the page, not the server.
    written = [(ts / 1e6 + wall_minus_monotonic * 1000, arrived) for ts, arrived in stats["arrivals"]]
    latencies = [arrived - at for at, arrived in written if at > stats["connectedAt"]]
    print(f"batches {stats['batches']}, of records written after the page connected {len(latencies)}")
    if latencies:
        print(f"latency ms: median {statistics.median(latencies):.0f}, p90 {sorted(latencies)[int(len(latencies) * 0.9)]:.0f}, max {max(latencies):.0f}")
    else:
        print("latency: no record was written after the page connected (the program had ended)")
    print(f"handling ms per message: mean {stats['handledMs'] / max(stats['batches'], 1):.2f}, longest {stats['longestMs']:.2f}")
    print(f"frames {stats['frames']}: ms per frame (timeline drawn) mean {stats['frameMs'] / max(stats['frames'], 1):.2f}, longest {stats['longestFrameMs']:.2f}")
    if last:
        print(f"at the end: {last}")


if __name__ == "__main__":
    main()
