// The live page: the report's layout and style, filled while the program runs from a
// WebSocket that pushes the records as the program writes them and the findings as they
// are proven; when the program ends, the page becomes the final report. Every string from
// the trace goes on the page with textContent, never as markup.
(function () {
  'use strict';
  var token = new URLSearchParams(location.search).get('token') || '';
  var maxEvents = 2000;
  var nodes = {};
  var names = {};
  // The latest events by sequence number, to follow an event's causes back.
  var bySequence = {};
  var remembered = [];
  var rememberLimit = 20000;
  var eventCount = 0;
  var findingCount = 0;
  var byId = function (id) { return document.getElementById(id); };

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) {
      if (key === 'text') node.textContent = attributes[key]; else node.setAttribute(key, attributes[key]);
    });
    (children || []).forEach(function (child) { node.appendChild(child); });
    return node;
  }

  function site(s) { return s ? s.file + ':' + s.line : ''; }

  // Set when the server can no longer read the trace: the page says so instead of "running".
  var stale = null;

  function status(text) {
    byId('live-status').textContent = stale ? text + ' (not updating: ' + stale + ')' : text;
    byId('summary').textContent = eventCount + ' events · ' + Object.keys(nodes).length + ' nodes · ' + findingCount + ' findings';
  }

  function addNode(record) {
    names[record.node] = record.name;
    var parents = (record.parents || []).map(function (parent) { return names[parent.node] || parent.node; });
    var item = el('li', {id: 'node-' + record.node, 'data-node': record.node}, [
      el('span', {class: 'name', text: record.name}), el('span', {class: 'site', text: ' · ' + site(record.site)}),
      el('span', {class: 'parents', text: parents.length ? ' ← ' + parents.join(', ') : ''})
    ]);
    nodes[record.node] = item;
    byId('live-nodes').appendChild(item);
  }

  function eventText(record) {
    return record.seq + ' ' + record.event + ' ' + (record.subscription || record.node || '') +
      (record.value !== undefined ? ' ' + record.value : '') + (record.error !== undefined ? ' ' + record.error : '');
  }

  var shownEvents = ['subscribe', 'next', 'error', 'completed', 'disposed', 'violation'];

  // One batch at a time: nodes as they come, and of the events only the latest the list
  // keeps, added together and scrolled to once (one layout a batch, whatever its size).
  function addRecords(records) {
    var events = [];
    records.forEach(function (record) {
      if (record.event === 'node') addNode(record);
      else if (record.event === 'node-named' && nodes[record.node]) nodes[record.node].firstChild.textContent += ' "' + record.name + '"';
      else if (shownEvents.indexOf(record.event) >= 0) events.push(record);
    });
    eventCount += events.length;
    var list = byId('live-events');
    var fragment = document.createDocumentFragment();
    events.forEach(function (record) {
      bySequence[record.seq] = record;
      remembered.push(record.seq);
    });
    while (remembered.length > rememberLimit) delete bySequence[remembered.shift()];
    events.slice(-maxEvents).forEach(function (record) {
      var item = el('li', {class: 'ev-' + record.event, 'data-seq': String(record.seq), text: eventText(record)});
      item.addEventListener('click', function () { inspect(record, item); });
      fragment.appendChild(item);
    });
    list.appendChild(fragment);
    while (list.childNodes.length > maxEvents) list.removeChild(list.firstChild);
    if (events.length) list.parentNode.scrollTop = list.parentNode.scrollHeight;
  }

  // An event and the chain of events that caused it, as far back as the page remembers.
  function inspect(record, item) {
    Array.prototype.forEach.call(document.querySelectorAll('.hl'), function (node) { node.classList.remove('hl'); });
    item.classList.add('hl');
    byId('details-title').textContent = record.event + ' ' + (record.subscription || '');
    var chain = [];
    for (var current = record; current && chain.length < 100; current = current.cause !== undefined ? bySequence[current.cause] : undefined) {
      chain.push(el('li', {text: eventText(current) + (current.causeKind ? ' (' + current.causeKind + ')' : '')}));
    }
    var body = byId('details-body');
    body.textContent = '';
    body.appendChild(el('ol', {id: 'chain'}, chain));
    if (chain.length === 1) body.appendChild(el('p', {class: 'hint', text: 'No earlier event caused it.'}));
  }

  function select(finding, item) {
    Array.prototype.forEach.call(document.querySelectorAll('.hl'), function (node) { node.classList.remove('hl'); });
    item.classList.add('hl');
    finding.nodes.forEach(function (id) { if (nodes[id]) nodes[id].classList.add('hl'); });
    byId('details-title').textContent = finding.rule;
    var body = byId('details-body');
    body.textContent = '';
    body.appendChild(el('p', {text: finding.message}));
    body.appendChild(el('p', {class: 'site', text: site(finding.site)}));
    body.appendChild(el('ol', {class: 'proof'}, finding.path.map(function (step) { return el('li', {text: step}); })));
    body.appendChild(el('p', {text: 'fix: ' + finding.hint}));
  }

  function addFinding(finding) {
    findingCount += 1;
    var item = el('li', {class: 'finding ' + finding.severity, 'data-rule': finding.rule}, [
      el('strong', {text: finding.rule}), el('span', {text: ' ' + finding.message}), el('div', {class: 'site', text: site(finding.site)})
    ]);
    item.addEventListener('click', function () { select(finding, item); });
    byId('finding-list').appendChild(item);
  }

  // What the page costs, for scripts/live-latency.py: when each batch arrived (wall clock,
  // milliseconds) with its last record's monotonic timestamp, and how long handling took.
  var stats = window.signalscopeLive = {arrivals: [], batches: 0, handledMs: 0, longestMs: 0};

  var socket = new WebSocket('ws://' + location.host + '/live?token=' + encodeURIComponent(token));
  socket.onopen = function () {
    stats.connectedAt = performance.timeOrigin + performance.now();
    document.body.setAttribute('data-live', 'connected');
    status('running');
  };
  socket.onmessage = function (message) {
    var started = performance.now();
    var data = JSON.parse(message.data);
    if (data.kind === 'records') {
      addRecords(data.records);
      stats.records = (stats.records || 0) + data.records.length;
      if (data.records.length && stats.arrivals.length < 10000) {
        stats.arrivals.push([data.records[data.records.length - 1].ts, performance.timeOrigin + started]);
      }
    }
    else if (data.kind === 'finding') addFinding(data.finding);
    else if (data.kind === 'warning') { stale = data.text; }
    else if (data.kind === 'end') {
      status('ended: ' + data.status);
      socket.send('received end');
      document.body.setAttribute('data-live', 'ended');
      location.replace('/report?token=' + encodeURIComponent(token));
      return;
    }
    status('running');
    var took = performance.now() - started;
    stats.batches += 1;
    stats.handledMs += took;
    stats.longestMs = Math.max(stats.longestMs, took);
  };
  socket.onclose = function () { if (document.body.getAttribute('data-live') !== 'ended') status('disconnected'); };
})();
