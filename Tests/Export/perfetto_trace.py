"""Reads a Perfetto export with Perfetto's own compiled protos and says what it holds.

Usage: perfetto_trace.py TRACE.pftrace CHROME.json RECORDS.jsonl

Prints one JSON object: the facts the Swift test (PerfettoExportTests) asserts. It checks
the file against the trace's records (the JSON Lines export of the same log) and against
the Chrome export of it, and lists every problem it found in "problems".
"""
import json
import sys
from collections import Counter

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as perfetto

THREAD_BASE = 1 << 32
SUBSCRIPTION_BASE = 1 << 40


def main(perfetto_path, chrome_path, records_path):
    problems = []
    trace = perfetto.Trace()
    with open(perfetto_path, "rb") as file:
        trace.ParseFromString(file.read())

    names = {}           # interned event names of the current incremental state
    annotation_names = {}
    annotation_values = {}
    tracks = {}          # uuid -> descriptor
    thread_slices = Counter()
    subscription_begins = set()
    flow_sources = Counter()
    flow_targets = Counter()
    findings = []
    strings = set()
    cleared = False
    for index, packet in enumerate(trace.packet):
        if packet.trusted_packet_sequence_id != 1:
            problems.append(f"packet {index} is not on the export's sequence")
        if packet.sequence_flags & 1:
            names = {}
            annotation_names = {}
            annotation_values = {}
            cleared = True
        if not cleared:
            problems.append(f"packet {index} comes before the sequence's state was cleared")
        for entry in packet.interned_data.event_names:
            if entry.iid == 0 or entry.iid in names:
                problems.append(f"packet {index} interns id {entry.iid} twice or as zero")
            names[entry.iid] = entry.name
            strings.add(entry.name)
        for entry in packet.interned_data.debug_annotation_names:
            if entry.iid == 0 or entry.iid in annotation_names:
                problems.append(f"packet {index} interns annotation name id {entry.iid} twice or as zero")
            annotation_names[entry.iid] = entry.name
        for entry in packet.interned_data.debug_annotation_string_values:
            if entry.iid == 0 or entry.iid in annotation_values:
                problems.append(f"packet {index} interns annotation value id {entry.iid} twice or as zero")
            annotation_values[entry.iid] = entry.str.decode("utf-8")
            strings.add(annotation_values[entry.iid])
        if packet.HasField("track_descriptor"):
            descriptor = packet.track_descriptor
            tracks[descriptor.uuid] = descriptor
            strings.add(descriptor.name)
        if not packet.HasField("track_event"):
            continue
        event = packet.track_event
        if event.track_uuid not in tracks:
            problems.append(f"packet {index} is on track {event.track_uuid}, described nowhere before it")
        name = None
        if event.HasField("name_iid"):
            name = names.get(event.name_iid)
            if name is None:
                problems.append(f"packet {index} names interned id {event.name_iid}, which is not interned")
        for annotation in event.debug_annotations:
            if annotation.name_iid not in annotation_names:
                problems.append(f"packet {index} names annotation id {annotation.name_iid}, which is not interned")
            if annotation.HasField("string_value_iid") and annotation.string_value_iid not in annotation_values:
                problems.append(f"packet {index} names annotation value id {annotation.string_value_iid}, which is not interned")
            strings.add(annotation.string_value)
        flow_sources.update(event.flow_ids)
        flow_targets.update(event.terminating_flow_ids)
        if event.track_uuid == 2:
            findings.append(name)
        elif THREAD_BASE <= event.track_uuid < SUBSCRIPTION_BASE:
            if event.type != perfetto.TrackEvent.TYPE_INSTANT:
                problems.append(f"packet {index}: a thread track holds a slice that is not an instant")
            thread_slices[(name, event.track_uuid - THREAD_BASE, packet.timestamp)] += 1
        elif event.track_uuid >= SUBSCRIPTION_BASE and event.type == perfetto.TrackEvent.TYPE_SLICE_BEGIN:
            subscription_begins.add(event.track_uuid - SUBSCRIPTION_BASE)

    # Every flow leaves one slice and ends at one other.
    for flow, count in flow_sources.items():
        if count != 1 or flow_targets.get(flow) != 1:
            problems.append(f"flow {flow} leaves {count} slices and ends at {flow_targets.get(flow, 0)}")
    for flow in flow_targets:
        if flow not in flow_sources:
            problems.append(f"flow {flow} ends without leaving a slice")

    # The trace's records: every subscription has its track, every cause its flow.
    sequences = set()
    subscriptions = set()
    causes = 0
    with open(records_path) as file:
        records = [json.loads(line) for line in file]
    for record in records:
        sequences.add(record["seq"])
        if record["event"] == "subscribe":
            subscriptions.add(int(record["subscription"][1:]))
    for record in records:
        if "cause" in record and record["cause"] in sequences:
            causes += 1
    missing = subscriptions - subscription_begins
    if missing:
        problems.append(f"subscriptions without a track and a slice: {sorted(missing)[:5]}")
    if causes != len(flow_sources):
        problems.append(f"{causes} recorded causes, {len(flow_sources)} flows")

    # The Chrome export of the same trace: the same slices on the threads, the same flows.
    with open(chrome_path) as file:
        chrome = json.load(file)["traceEvents"]
    chrome_slices = Counter(
        (event["name"], event["tid"], round(float(event["ts"]) * 1000))
        for event in chrome if event.get("ph") == "X")
    chrome_flows = sum(1 for event in chrome if event.get("ph") == "s")
    chrome_subscriptions = {int(event["id"][1:]) for event in chrome if event.get("ph") == "b"}
    if chrome_subscriptions != subscription_begins:
        problems.append(f"the subscription slices differ from the Chrome export's: {sorted(chrome_subscriptions ^ subscription_begins)[:5]}")
    if chrome_slices != thread_slices:
        difference = list((chrome_slices - thread_slices).items())[:3] + list((thread_slices - chrome_slices).items())[:3]
        problems.append(f"the thread slices differ from the Chrome export's: {difference}")
    if chrome_flows != len(flow_sources):
        problems.append(f"the Chrome export draws {chrome_flows} flows, this one {len(flow_sources)}")

    print(json.dumps({
        "packets": len(trace.packet),
        "threadSlices": sum(thread_slices.values()),
        "subscriptions": len(subscriptions),
        "causes": causes,
        "flows": len(flow_sources),
        "chromeFlows": chrome_flows,
        "findings": findings,
        "strings": sorted(strings),
        "problems": problems,
    }))


if __name__ == "__main__":
    main(*sys.argv[1:4])
