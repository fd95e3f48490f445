// The report page's logic, under Node's own test runner (`node --test Tests/JavaScript`);
// `ReportScriptTests` runs it with the Swift suites.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const report = require('../../Sources/SignalScopeRendering/Report/Assets/report.js');

test('loading the script outside a page defines the logic and touches no document', () => {
  assert.equal(typeof document, 'undefined');
  assert.equal(typeof report.causeChain, 'function');
});

test('times read in the largest unit that fits, to two decimals', () => {
  assert.equal(report.timeText(0), '0');
  assert.equal(report.timeText(999), '999 ns');
  assert.equal(report.timeText(1500), '1.5 µs');
  assert.equal(report.timeText(2_345_678), '2.35 ms');
  assert.equal(report.timeText(3e9), '3 s');
});

test('sites and files', () => {
  assert.equal(report.siteText({path: 'Sources/App/Screen.swift', line: 12}), 'Sources/App/Screen.swift:12');
  assert.equal(report.siteText(null), '?');
  assert.equal(report.shortFile('App/Screens/Profile.swift'), 'Profile.swift');
});

// events: [subscription, kind, time, text, cause, cause kind]
const rows = [
  [0, 'n', 0, '1', null, null],   // 0: sent by the user's code
  [1, 'n', 5, '2', 0, 'd'],       // 1: while delivering 0
  [2, 'n', 9, '4', 1, 's'],       // 2: in an action scheduled while delivering 1
  [3, 'c', 9, null, 77, 'd'],     // 3: its cause is not in the trace
  [4, 'n', 9, '5', null, '?'],    // 4: its cause was left out
  [5, 'n', 9, '6', 5, 'd'],       // 5: a crafted trace that names itself
];

test('the chain of causes runs nearest first back to the event no other caused', () => {
  const events = report.indexEvents(rows);
  assert.equal(events.size, rows.length);
  assert.deepEqual(report.causeChain(events, 2).map((e) => e.seq), [2, 1, 0]);
  assert.deepEqual(report.causeChain(events, 0).map((e) => e.seq), [0]);
  assert.equal(events.get(2).causeKind, 's');
});

test('a cause the trace lacks ends the chain with a marker; a crafted loop ends too', () => {
  const events = report.indexEvents(rows);
  assert.deepEqual(report.causeChain(events, 3).slice(1), [{missing: 77}]);
  assert.deepEqual(report.causeChain(events, 4).slice(1), [{missing: true}]);
  assert.ok(report.causeChain(events, 5).length <= 10001);
  assert.deepEqual(report.causeChain(events, 99), []);
});

test('an event nothing caused is explained by the kind of node it was sent on', () => {
  const site = {path: 'App/Model.swift', line: 4};
  const subscriptions = {
    0: {title: 'subject "query"', nodeKind: 'subject', created: site},
    1: {title: 'property', nodeKind: 'property', created: site},
    2: {title: 'interval', nodeKind: 'signal', subscribedAt: {path: 'App/Clock.swift', line: 9}},
  };
  assert.match(report.rootDescription({sub: 0}, subscriptions), /your code sent it to subject "query" \(created at App\/Model.swift:4\)/);
  assert.match(report.rootDescription({sub: 1}, subscriptions), /your code set property/);
  assert.match(report.rootDescription({sub: 2}, subscriptions), /its own work .* subscribed at App\/Clock.swift:9/);
  assert.match(report.rootDescription({sub: 7}, subscriptions), /a signal sent it/);
});

test('search matches name, kind, file and function, ignoring case', () => {
  const nodes = [
    {title: 'map', kind: 'operator', site: {file: 'App/Search.swift', function: 'bind()'}},
    {title: 'subject "query"', kind: 'subject', site: null},
  ];
  assert.deepEqual(report.matchingNodes(nodes, '  QUERY ').map((n) => n.title), ['subject "query"']);
  assert.deepEqual(report.matchingNodes(nodes, 'search.swift').map((n) => n.title), ['map']);
  assert.deepEqual(report.matchingNodes(nodes, 'BIND').map((n) => n.title), ['map']);
  assert.deepEqual(report.matchingNodes(nodes, '   '), []);
});

test('axis ticks are 1, 2 or 5 times a power of ten, about eight over the span', () => {
  for (const span of [1, 7, 80, 999, 12_345, 3e9]) {
    const step = report.tickStep(span);
    const mantissa = step / Math.pow(10, Math.floor(Math.log10(step)));
    assert.ok([1, 2, 5].includes(Math.round(mantissa)), `${span}: ${step}`);
    assert.ok(span / step <= 8 || step === 1, `${span}: ${step}`);
  }
});

test('links select findings, nodes and events; a malformed escape reads as empty, not an exception', () => {
  assert.deepEqual(report.hashSelections('#finding=2&node=n%2012&event=40'), [['finding', '2'], ['node', 'n 12'], ['event', '40']]);
  assert.deepEqual(report.hashSelections(''), []);
  assert.deepEqual(report.hashSelections('#node=%E0%A4'), [['node', '']]);
});

test('findings are counted by severity', () => {
  const counts = report.severityCounts([{severity: 'error'}, {severity: 'warning'}, {severity: 'error'}]);
  assert.deepEqual(counts, {error: 2, warning: 1, note: 0});
});

// A live page's data, grown by the server's messages.
function emptyLiveData() {
  return {live: true, duration: 0, findings: [], limitations: [], warnings: [], nodes: [], edges: [], lanes: [], subscriptions: [], events: []};
}

test('timeline messages add subscriptions, lanes and events at the end, and marks and ends to the lanes they name', () => {
  const data = emptyLiveData();
  report.addTimeline(data, {duration: 10, subscriptions: [{lane: 0, title: 'subject'}], lanes: [{title: 'subject · a.swift:1', end: null, marks: []}],
    marks: [[0, ['n', 10, 0, '1']]], ends: [], events: [[0, 'n', 10, '1', null, '']]});
  report.addTimeline(data, {duration: 7, subscriptions: [{lane: 1, title: 'map'}], lanes: [{title: 'map · a.swift:2', end: null, marks: []}],
    marks: [[1, ['n', 20, 1, '2']], [0, ['d', 25, null, 'disposed']]], ends: [[0, 25]], events: [[1, 'n', 20, '2', 0, 'd']]});
  assert.equal(data.duration, 10, 'the duration never shrinks');
  assert.equal(data.lanes.length, 2);
  assert.deepEqual(data.lanes[0].marks.map((m) => m[0]), ['n', 'd']);
  assert.equal(data.lanes[0].end, 25);
  assert.equal(data.lanes[1].end, null);
  const events = report.indexEvents(data.events);
  assert.deepEqual(report.causeChain(events, 1).map((e) => e.seq), [1, 0], 'a cause from an earlier message');
});

test('a late live page starts from the state: lanes so far, and its events numbered on from there', () => {
  const data = {duration: 0, subscriptions: [], lanes: [], events: []};
  report.addTimeline(data, {state: true, firstEvent: 500, duration: 40, subscriptions: [{lane: 0, title: 'subject'}],
    lanes: [{title: 'subject · a.swift:1', end: null, marks: []}], marks: [], ends: [[0, 30]], events: []});
  report.addTimeline(data, {duration: 45, subscriptions: [], lanes: [], marks: [[0, ['n', 45, 500, 'x']]], ends: [],
    events: [[0, 'n', 45, 'x', 499, '?']]});
  assert.equal(data.events.length, 501, 'the next event keeps its number');
  assert.equal(data.lanes[0].end, 30, 'an ended lane is drawn ended');
  const events = report.indexEvents(data.events);
  assert.equal(events.size, 1, 'only events the page has are indexed');
  assert.deepEqual(report.causeChain(events, 500).map((e) => e.missing === undefined ? e.seq : 'missing'), [500, 'missing']);
});

test('an index of events grows from where it stopped', () => {
  const rows = [[0, 'n', 0, 'a', null, ''], [0, 'n', 1, 'b', 0, 'd']];
  const events = report.indexEvents(rows.slice(0, 1));
  report.indexEvents(rows, events, 1);
  assert.equal(events.size, 2);
  assert.equal(events.get(1).cause, 0);
});

test('a graph message replaces the graph and the findings, and puts each subscription and its lane in the node that lists it', () => {
  const data = emptyLiveData();
  report.addTimeline(data, {duration: 1, subscriptions: [{lane: 0}, {lane: 1}], lanes: [{marks: []}, {marks: []}], marks: [], ends: [], events: []});
  report.replaceGraph(data, {nodes: [{id: 'n1', subscriptions: [0]}, {id: 'n2', subscriptions: [1]}], edges: [{id: 'e1', from: 'n1', to: 'n2'}],
    findings: [{rule: 'retained-after-release'}], limitations: ['while the program runs']});
  assert.deepEqual(data.subscriptions.map((s) => s.node), ['n1', 'n2']);
  assert.deepEqual(data.lanes.map((l) => l.node), ['n1', 'n2']);
  assert.equal(data.findings.length, 1);
  // A later graph may number its nodes anew: the subscriptions follow it.
  report.replaceGraph(data, {nodes: [{id: 'n1', subscriptions: [1]}, {id: 'n2', subscriptions: [0]}], edges: [], findings: [], limitations: []});
  assert.deepEqual(data.subscriptions.map((s) => s.node), ['n2', 'n1']);
  assert.equal(data.findings.length, 0, 'a released object clears its finding');
  // A subscription that came after the latest graph is in no node until the next.
  report.addTimeline(data, {duration: 2, subscriptions: [{lane: 2}], lanes: [{marks: []}], marks: [], ends: [], events: []});
  assert.equal(data.subscriptions[2].node, null);
});

test('a cause that comes after its event is given to it, and the chain follows it', () => {
  const data = emptyLiveData();
  report.addTimeline(data, {duration: 5, subscriptions: [{lane: 0}], lanes: [{marks: []}], marks: [], ends: [], events: [[0, 'n', 5, 'b', null, '?']]});
  assert.deepEqual(report.addTimeline(data, {duration: 5, subscriptions: [], lanes: [], marks: [], ends: [], events: [[0, 'n', 4, 'a', null, '']],
    causes: [[0, 1, 'd']]}), [0]);
  const events = report.indexEvents(data.events);
  assert.deepEqual(report.causeChain(events, 0).map((e) => e.text), ['b', 'a']);
});

test('a live page links to every traced process page, marking the one it shows; none for one process', () => {
  assert.deepEqual(report.processLinks(['41'], null, 't'), []);
  const links = report.processLinks(['41', '57'], '57', 'a&b');
  assert.deepEqual(links.map((link) => [link.process, link.current]), [['41', false], ['57', true]]);
  assert.equal(links[0].href, '/?token=a%26b&process=41');
  assert.deepEqual(report.processLinks(['41', '57'], null, 't').map((link) => link.current), [true, false]);
  assert.deepEqual(report.processLinks(['41', '57'], '99', 't').map((link) => link.current), [true, false]);
});
