#!/usr/bin/env python3
"""LeakSanitizer as a peer of SignalScope on the leak corpus (`make lsan-compare`).

Builds the corpus runner (`signalscope-corpus`) with AddressSanitizer, runs every scenario of
the leak corpus in a process of its own with leak detection on, and prints, per scenario,
what the scenario plants, what LeakSanitizer reported at exit and what SignalScope found.
LeakSanitizer reports memory nothing reachable points to at exit; SignalScope proves leaks
from the retain graph, including objects still reachable through a global subject or a live
subscription, which LeakSanitizer never reports. Reports that consist only of Swift's
weak-reference side tables (an object with weak references is freed, its side table stays
until the weak references go) are discounted, and so are the tracer's own allocations (the
mapped symbol tables it keeps): they are not the program's leaks.

With --stress N it also runs N recordings of the heap-walk stress under AddressSanitizer
(leak detection off there: each recording plants a leak on purpose).

Exit status: 0 when SignalScope finds every scenario LeakSanitizer finds and no clean
scenario has a finding (and the stress passed); 1 otherwise; 2 when the runner could not be
built or run.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(ROOT, ".build-asan")
RUNNER = os.path.join(SCRATCH, "debug", "signalscope-corpus")
SIDE_TABLE = re.compile(r"allocateSideTable|HeapObjectSideTableEntry|swift_weakInit|swift_weakAssign|formWeakReference")
# What the tracer allocates for itself (its symbol tables' mapped files) is not the
# program's: a report whose allocating code, past the allocator, the runtime and Foundation,
# is the tracer's.
TRACER = re.compile(r"\$s18SignalScopeTracing")
PLUMBING = re.compile(r" in (malloc|calloc|realloc|operator new|swift_slowAlloc|_?_?swift_allocObject_?|allocate_and_note|swift::|\$s20FoundationEssentials|\$s10Foundation|\$ss)")


def build():
    command = ["swift", "build", "--product", "signalscope-corpus", "--sanitize=address", "--scratch-path", SCRATCH]
    result = subprocess.run(command, cwd=ROOT, stdout=sys.stderr, stderr=sys.stderr)
    if result.returncode != 0:
        sys.exit("lsan-compare: the corpus runner did not build with AddressSanitizer")


def environment():
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:symbolize=1"
    env["LSAN_OPTIONS"] = "report_objects=0:max_leaks=0"
    symbolizer = subprocess.run(["sh", "-c", "command -v llvm-symbolizer"], capture_output=True, text=True).stdout.strip()
    if not symbolizer:
        swift = subprocess.run(["sh", "-c", "command -v swift"], capture_output=True, text=True).stdout.strip()
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), "llvm-symbolizer")
        symbolizer = candidate if os.path.exists(candidate) else ""
    if symbolizer:
        env["ASAN_SYMBOLIZER_PATH"] = symbolizer
    return env


def leak_reports(stderr):
    """The leak reports LeakSanitizer printed, as (kind, frames) pairs, side tables left out."""
    reports = []
    blocks = re.split(r"\n(?=(?:Direct|Indirect) leak of )", stderr)
    for block in blocks:
        match = re.match(r"(Direct|Indirect) leak of", block)
        if not match:
            continue
        frames = [line for line in block.splitlines()[1:] if line.strip().startswith("#")]
        if any(SIDE_TABLE.search(frame) for frame in frames) or is_tracers(frames):
            continue
        reports.append((match.group(1), frames))
    return reports


def is_tracers(frames):
    """Whether the first frame past the allocator, the runtime and Foundation is the tracer's."""
    for frame in frames:
        if PLUMBING.search(frame):
            continue
        return bool(TRACER.search(frame))
    return False


def run_scenario(name, env):
    result = subprocess.run([RUNNER, name], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    line = next((l for l in result.stdout.splitlines() if l.startswith("{")), None)
    if line is None:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit(f"lsan-compare: scenario '{name}' printed no result (status {result.returncode})")
    outcome = json.loads(line)
    outcome["lsan"] = leak_reports(result.stderr)
    return outcome


def describe(findings):
    return ", ".join(f"{f['rule']}@{f['line']}" for f in findings) or "none"


def main():
    stress = 0
    if len(sys.argv) == 3 and sys.argv[1] == "--stress":
        stress = int(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.exit("usage: lsan-compare.py [--stress N]")
    build()
    env = environment()
    names = subprocess.run([RUNNER, "--list"], cwd=ROOT, env=env, capture_output=True, text=True).stdout.splitlines()
    if not names:
        print("lsan-compare: the runner listed no scenario", file=sys.stderr)
        sys.exit(2)
    rows = []
    missed = []
    false_alarms = []
    lsan_only = 0
    both = 0
    signalscope_only = 0
    for name in names:
        outcome = run_scenario(name, env)
        lsan = len(outcome["lsan"]) > 0
        found = outcome["found"]
        if lsan and not found:
            missed.append(name)
        if not outcome["expected"] and found:
            false_alarms.append(name)
        if lsan and found:
            both += 1
        elif found:
            signalscope_only += 1
        elif lsan:
            lsan_only += 1
        direct = sum(1 for kind, _ in outcome["lsan"] if kind == "Direct")
        indirect = len(outcome["lsan"]) - direct
        lsan_text = f"leak ({direct} direct, {indirect} indirect)" if lsan else "none"
        rows.append((name, describe(outcome["expected"]), lsan_text, describe(found)))
    width = max(len(row[0]) for row in rows)
    print(f"| {'scenario'.ljust(width)} | planted | LeakSanitizer | SignalScope |")
    print(f"|{'-' * (width + 2)}|---|---|---|")
    for row in rows:
        print(f"| {row[0].ljust(width)} | {row[1]} | {row[2]} | {row[3]} |")
    print()
    print(f"{len(rows)} scenarios: both found a leak in {both}, SignalScope alone in {signalscope_only}, "
          f"LeakSanitizer alone in {lsan_only}; clean scenarios with a finding: {len(false_alarms)}")
    status = 0
    if missed:
        print("LeakSanitizer found a leak SignalScope missed in: " + "; ".join(missed))
        status = 1
    if false_alarms:
        print("SignalScope reported a finding on clean code in: " + "; ".join(false_alarms))
        status = 1
    if stress:
        # The stress plants a leak in every recording on purpose, so leak detection is off
        # there (LeakSanitizer would fail the process for them at exit); AddressSanitizer
        # still stops it at the first read of freed memory.
        stress_env = dict(env, ASAN_OPTIONS=env["ASAN_OPTIONS"].replace("detect_leaks=1", "detect_leaks=0"))
        result = subprocess.run([RUNNER, "--stress", str(stress)], cwd=ROOT, env=stress_env, capture_output=True, text=True)
        print(result.stdout.strip())
        if result.returncode != 0 or "ERROR: AddressSanitizer" in result.stderr:
            print(result.stderr[-4000:])
            status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
