// The report page's script. The logic that needs no page (wording, indexes, the chain of
// causes, search, time steps, links) is `SignalScopeReport`, which Tests/JavaScript tests
// under Node (`node --test`); the rest draws the page from the data section and runs only in
// a browser. Every string from the data goes on the page with `textContent`, never as markup.
var SignalScopeReport = (function () {
  'use strict';
  var kindWords = {n: 'value', e: 'error', c: 'completed', d: 'disposed'};
  function shortFile(file) { return file.split('/').pop(); }
  function siteText(site) { return site ? site.path + ':' + site.line : '?'; }
  function timeText(ns) {
    if (ns === 0) return '0';
    var units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs']];
    for (var i = 0; i < units.length; i++) if (ns >= units[i][0]) return (Math.round(ns / units[i][0] * 100) / 100) + ' ' + units[i][1];
    return ns + ' ns';
  }
  // The data's events, [subscription, kind, time, text, cause, cause kind], by sequence;
  // with `events`, those from `first` on are added to it.
  function indexEvents(rows, events, first) {
    events = events || new Map();
    // (A late live page's data has no rows for the events before its state.)
    for (var index = first || 0; index < rows.length; index++) if (rows[index]) events.set(index, eventOf(rows[index], index));
    return events;
  }
  function eventOf(e, index) { return {seq: index, sub: e[0], kind: e[1], time: e[2], text: e[3], cause: e[4], causeKind: e[5]}; }
  // A live page's timeline message added to the data: new subscriptions, lanes and events
  // at the end (their numbers are their places), marks and ends on the lanes they name, and
  // causes that came after their events. Returns the numbers of the events it gave causes.
  // (Appended one by one: a spread of a large batch overflows the call stack.)
  function addTimeline(data, message) {
    data.duration = Math.max(data.duration, message.duration);
    // The state a late page starts from: the events before it are the final report's.
    if (message.firstEvent > data.events.length) data.events.length = message.firstEvent;
    var firstSubscription = data.subscriptions.length;
    message.subscriptions.forEach(function (s) { data.subscriptions.push(s); });
    message.lanes.forEach(function (l) { data.lanes.push(l); });
    message.events.forEach(function (e) { data.events.push(e); });
    message.marks.forEach(function (pair) { var lane = data.lanes[pair[0]]; if (lane) lane.marks.push(pair[1]); });
    message.ends.forEach(function (pair) { var lane = data.lanes[pair[0]]; if (lane) lane.end = pair[1]; });
    var caused = [];
    (message.causes || []).forEach(function (patch) {
      var e = data.events[patch[0]];
      if (!e) return;
      e[4] = patch[1]; e[5] = patch[2]; caused.push(patch[0]);
    });
    assignGraphNodes(data, firstSubscription);
    return caused;
  }
  // A live page's graph message: the graph and the findings replace the data's, and each
  // subscription and lane is drawn in the graph node that now lists it.
  function replaceGraph(data, message) {
    data.nodes = message.nodes; data.edges = message.edges;
    data.findings = message.findings; data.limitations = message.limitations;
    data.graphNodeOf = {};
    data.nodes.forEach(function (n) { n.subscriptions.forEach(function (s) { data.graphNodeOf[s] = n.id; }); });
    assignGraphNodes(data, 0);
  }
  function assignGraphNodes(data, first) {
    if (!data.graphNodeOf) return;
    for (var i = first; i < data.subscriptions.length; i++) {
      var node = data.graphNodeOf[i] || null;
      data.subscriptions[i].node = node;
      var lane = data.lanes[data.subscriptions[i].lane];
      if (lane) lane.node = node;
    }
  }
  // The chain of events that led to `seq`, nearest first; `{missing}` where the trace lacks
  // a cause (left out, or cut off).
  function causeChain(events, seq) {
    var chain = [], current = events.get(seq), guard = 0;
    while (current && guard++ < 10000) {
      chain.push(current);
      if (current.causeKind === '?') { chain.push({missing: true}); break; }
      if (current.cause == null) break;
      var next = events.get(current.cause);
      if (!next) { chain.push({missing: current.cause}); break; }
      current = next;
    }
    return chain;
  }
  // What an event no earlier event caused came from, by the kind of node it was sent on.
  function rootDescription(event, subscriptions) {
    var sub = subscriptions[event.sub] || {};
    var what = sub.title || 'a signal';
    switch (sub.nodeKind) {
      case 'subject': case 'replaySubject': case 'behaviorSubject':
        return 'No earlier event caused it: your code sent it to ' + what + ' (created at ' + siteText(sub.created) + ').';
      case 'property': return 'No earlier event caused it: your code set ' + what + ' (created at ' + siteText(sub.created) + ').';
      case 'command': return 'No earlier event caused it: ' + what + ' sent it as it executed (created at ' + siteText(sub.created) + ').';
      default: return 'No earlier event caused it: ' + what + ' sent it from its own work (its creation block, a timer) when subscribed at ' + siteText(sub.subscribedAt) + '.';
    }
  }
  function severityCounts(findings) {
    var counts = {error: 0, warning: 0, note: 0};
    findings.forEach(function (f) { counts[f.severity] = (counts[f.severity] || 0) + 1; });
    return counts;
  }
  // The nodes whose name, kind, file or function contains `query`, ignoring case.
  function matchingNodes(nodes, query) {
    query = query.trim().toLowerCase();
    if (!query) return [];
    return nodes.filter(function (n) {
      return (n.title + ' ' + n.kind + ' ' + (n.site ? n.site.file + ' ' + n.site.function : '')).toLowerCase().indexOf(query) >= 0;
    });
  }
  // A round step (1, 2 or 5 times a power of ten) giving about eight ticks over `span`.
  function tickStep(span) {
    var rough = span / 8, power = Math.pow(10, Math.floor(Math.log10(Math.max(rough, 1))));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (power * steps[i] >= rough) return power * steps[i];
    return power * 10;
  }
  // `#finding=N&node=ID&event=SEQ` as [key, value] pairs, values decoded.
  function hashSelections(hash) {
    return hash.replace(/^#/, '').split('&').filter(Boolean).map(function (part) {
      var pair = part.split('=');
      var value;
      try { value = decodeURIComponent(pair[1] || ''); } catch (error) { value = ''; }
      return [pair[0], value];
    });
  }
  // A live page's links to each traced process's page (`processes`, the first first), the
  // one it shows (`current`, its `process` query, else the first) marked; none for one.
  function processLinks(processes, current, token) {
    if (processes.length < 2) return [];
    var shown = current && processes.indexOf(current) >= 0 ? current : processes[0];
    return processes.map(function (process) {
      return {process: process, current: process === shown,
        href: '/?token=' + encodeURIComponent(token) + '&process=' + encodeURIComponent(process)};
    });
  }
  return {
    kindWords: kindWords, shortFile: shortFile, siteText: siteText, timeText: timeText, indexEvents: indexEvents, eventOf: eventOf,
    addTimeline: addTimeline, replaceGraph: replaceGraph,
    causeChain: causeChain, rootDescription: rootDescription, severityCounts: severityCounts,
    matchingNodes: matchingNodes, tickStep: tickStep, hashSelections: hashSelections, processLinks: processLinks,
  };
})();
if (typeof module === 'object' && module.exports) module.exports = SignalScopeReport;

if (typeof document === 'object') (function (R) {
  'use strict';
  var data = JSON.parse(document.getElementById('signalscope-data').textContent);
  function $(id) { return document.getElementById(id); }
  // Builds an element; strings become text nodes, never markup.
  function el(tag, attributes) {
    var node = document.createElement(tag);
    for (var key in attributes || {}) {
      if (key === 'text') node.textContent = attributes[key];
      else if (key === 'class') node.className = attributes[key];
      else if (key.slice(0, 2) === 'on') node.addEventListener(key.slice(2), attributes[key]);
      else node.setAttribute(key, attributes[key]);
    }
    for (var i = 2; i < arguments.length; i++) if (arguments[i] != null) node.appendChild(typeof arguments[i] === 'string' ? document.createTextNode(arguments[i]) : arguments[i]);
    return node;
  }
  var shortFile = R.shortFile, siteText = R.siteText, timeText = R.timeText, kindWords = R.kindWords;
  function siteLink(site) {
    if (!site) return el('span', {text: '?'});
    // Only the tool makes links, to files the project holds (SourceLinks): a path
    // from the trace is text, whatever it looks like.
    var attributes = {class: 'site', title: site.function + ' in ' + site.file, text: siteText(site)};
    if (!site.href) return el('span', attributes);
    attributes.href = site.href;
    // A page signalscope live serves: its server wants the token with every request,
    // a link to a project file too.
    var token = new URLSearchParams(location.search).get('token');
    if (token && site.href.slice(0, 2) === './') attributes.href += '?token=' + encodeURIComponent(token);
    return el('a', attributes);
  }

  // ---- Indexes ----
  var nodesById = {};
  function indexNodes() { nodesById = {}; data.nodes.forEach(function (n) { nodesById[n.id] = n; }); }
  indexNodes();
  var events = R.indexEvents(data.events);

  // ---- Header and findings ----
  $('title').textContent = data.title;
  function renderSummary() {
    var counts = R.severityCounts(data.findings);
    $('summary').textContent = counts.error + ' errors, ' + counts.warning + ' warnings, ' + counts.note + ' notes · ' +
      data.nodes.length + ' graph nodes · ' + data.lanes.length + ' lanes · ' + data.events.length + ' events';
  }
  // A finding's proof, its suspect link (the reference to cut) marked as such; each name of
  // a node, subscription or object the graph draws links to its node.
  function proofList(f) {
    var proof = el('ol', {class: 'proof'});
    f.path.forEach(function (step, index) {
      var suspect = (f.suspect || []).indexOf(index) >= 0;
      var item = el('li', suspect ? {class: 'suspect', title: 'the reference to cut'} : null);
      var segments = f.steps ? f.steps[index] : [[step, null]];
      segments.forEach(function (segment) {
        var node = segment[1];
        if (node === null || !nodesById[node]) { item.appendChild(document.createTextNode(segment[0])); return; }
        item.appendChild(el('a', {href: '#', class: 'entity', 'data-node': node, text: segment[0], onclick: function (e) {
          e.preventDefault(); e.stopPropagation(); selectNode(node, true);
        }}));
      });
      proof.appendChild(item);
    });
    return proof;
  }
  function renderFindings() {
    $('limitations').textContent = ''; $('finding-list').textContent = '';
    data.limitations.concat(data.warnings).forEach(function (text) { $('limitations').appendChild(el('p', {text: text})); });
    if (data.findings.length === 0) $('finding-list').appendChild(el('li', {class: 'none', text: data.live ? 'No findings so far.' : 'No findings.'}));
    data.findings.forEach(function (f, index) {
      var proof = proofList(f);
      var item = el('li', {'data-index': String(index), 'data-rule': f.rule, onclick: function () { selectFinding(index); }},
        el('div', null, el('span', {class: 'sev ' + f.severity, text: f.severity}), el('span', {class: 'rule', text: f.rule}),
          f.baseline ? el('span', {class: 'baseline', text: 'baseline'}) : null),
        el('div', {text: f.message}), siteLink(f.site), proof, el('div', {class: 'fix', text: 'fix: ' + f.hint}));
      $('finding-list').appendChild(item);
    });
    renderSummary();
  }
  renderFindings();

  // ---- Graph ----
  // A live page's graph is replaced as the program makes nodes: the view the user moved
  // to stays where it is; one never moved follows the whole graph.
  var svg = null, viewBox = null, fullBox = null, graphMoved = false;
  function installGraph(picture) {
    var view = $('graph-view');
    view.textContent = '';
    svg = picture;
    if (!svg) {
      view.appendChild(el('p', {class: 'hint', text: data.live ? 'The graph appears as the program makes signals.' : data.graphNote || 'No graph picture: Graphviz could not draw this graph.'}));
      return;
    }
    view.appendChild(svg);
    svg.removeAttribute('width'); svg.removeAttribute('height');
    var box = svg.getAttribute('viewBox').split(/[ ,]+/).map(Number);
    fullBox = {x: box[0], y: box[1], w: box[2], h: box[3]};
    if (!viewBox || !graphMoved) viewBox = Object.assign({}, fullBox);
    applyViewBox();
    svg.querySelectorAll('g.node').forEach(function (g) {
      if (!nodesById[g.id]) return;
      g.addEventListener('click', function (event) { event.stopPropagation(); selectNode(g.id, false); });
    });
  }
  var holder = $('graph-svg');
  installGraph(holder && holder.querySelector('svg'));
  function applyViewBox() { if (svg) svg.setAttribute('viewBox', [viewBox.x, viewBox.y, viewBox.w, viewBox.h].join(' ')); }
  function zoomGraph(factor, cx, cy) {
    if (!svg) return;
    cx = cx == null ? viewBox.x + viewBox.w / 2 : cx; cy = cy == null ? viewBox.y + viewBox.h / 2 : cy;
    viewBox.x = cx - (cx - viewBox.x) * factor; viewBox.y = cy - (cy - viewBox.y) * factor;
    viewBox.w *= factor; viewBox.h *= factor; applyViewBox();
  }
  function svgPoint(clientX, clientY) {
    var point = svg.createSVGPoint(); point.x = clientX; point.y = clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  }
  (function () {
    var view = $('graph-view'), dragging = null;
    view.addEventListener('wheel', function (event) {
      if (!svg) return;
      event.preventDefault();
      var p = svgPoint(event.clientX, event.clientY);
      graphMoved = true; zoomGraph(event.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
    }, {passive: false});
    view.addEventListener('mousedown', function (event) { if (svg) dragging = {x: event.clientX, y: event.clientY, box: Object.assign({}, viewBox)}; });
    window.addEventListener('mouseup', function () { dragging = null; });
    window.addEventListener('mousemove', function (event) {
      if (!dragging || !svg) return;
      var scale = viewBox.w / view.clientWidth;
      graphMoved = true;
      viewBox.x = dragging.box.x - (event.clientX - dragging.x) * scale;
      viewBox.y = dragging.box.y - (event.clientY - dragging.y) * scale; applyViewBox();
    });
    $('graph-fit').onclick = function () { if (!svg) return; graphMoved = false; viewBox = Object.assign({}, fullBox); applyViewBox(); };
    $('graph-in').onclick = function () { graphMoved = true; zoomGraph(1 / 1.4); };
    $('graph-out').onclick = function () { graphMoved = true; zoomGraph(1.4); };
  })();
  function graphElement(id) { return svg ? svg.getElementById(id) : null; }
  function focusGraph(ids) {
    if (!svg || ids.length === 0) return;
    var box = null;
    ids.forEach(function (id) {
      var g = graphElement(id); if (!g) return;
      var r = g.getBoundingClientRect();
      var a = svgPoint(r.left, r.top), b = svgPoint(r.right, r.bottom);
      box = box ? {x1: Math.min(box.x1, a.x), y1: Math.min(box.y1, a.y), x2: Math.max(box.x2, b.x), y2: Math.max(box.y2, b.y)} : {x1: a.x, y1: a.y, x2: b.x, y2: b.y};
    });
    if (!box) return;
    var margin = 60, w = Math.max(box.x2 - box.x1 + 2 * margin, 900), h = Math.max(box.y2 - box.y1 + 2 * margin, 500);
    var aspect = $('graph-view').clientWidth / Math.max($('graph-view').clientHeight, 1);
    if (w / h < aspect) w = h * aspect; else h = w / aspect;
    graphMoved = true;
    viewBox = {x: (box.x1 + box.x2) / 2 - w / 2, y: (box.y1 + box.y2) / 2 - h / 2, w: w, h: h}; applyViewBox();
  }
  function clearGraphMarks(className) {
    if (svg) svg.querySelectorAll('.' + className).forEach(function (g) { g.classList.remove(className); });
  }

  // ---- Selection ----
  var highlightedLanes = new Set(), chainSeqs = new Set(), selectedFinding = null;
  function findingKey(f) { return f.rule + ' ' + f.message + ' ' + siteText(f.site); }
  // Marks finding `index` in the list and its nodes and edges in the graph.
  function markFinding(index) {
    var f = data.findings[index];
    selectedFinding = findingKey(f);
    document.querySelectorAll('#finding-list li').forEach(function (li) { li.classList.toggle('selected', li.getAttribute('data-index') === String(index)); });
    clearGraphMarks('hl'); clearGraphMarks('sel');
    f.nodes.concat(f.edges).forEach(function (id) { var g = graphElement(id); if (g) g.classList.add('hl'); });
    if (svg) svg.classList.toggle('dimmed', f.nodes.length > 0);
  }
  function selectFinding(index) {
    var f = data.findings[index];
    markFinding(index);
    focusGraph(f.nodes);
    highlightedLanes = new Set(f.lanes);
    if (f.lanes.length) { scrollToLane(f.lanes[0]); fitLaneTimes(f.lanes); }
    drawLanes();
    showFinding(f);
    setHash('finding=' + index);
  }
  function showFinding(f) {
    var body = el('div');
    body.appendChild(el('p', null, el('span', {class: 'sev ' + f.severity, text: f.severity}), el('span', {class: 'rule', text: f.rule})));
    body.appendChild(el('p', {text: f.message}));
    body.appendChild(siteLink(f.site));
    body.appendChild(proofList(f));
    body.appendChild(el('p', {class: 'fix', text: 'fix: ' + f.hint}));
    var nodes = el('ul'); f.nodes.forEach(function (id) {
      var n = nodesById[id]; if (n) nodes.appendChild(el('li', null, el('a', {href: '#', text: n.title, onclick: function (e) { e.preventDefault(); selectNode(id, true); }})));
    });
    if (f.nodes.length) { body.appendChild(el('h3', {text: 'On its path'})); body.appendChild(nodes); }
    showDetails('Finding', body);
  }
  var selectedNode = null;
  function selectNode(id, focus) {
    var n = nodesById[id]; if (!n) return;
    selectedNode = id;
    clearGraphMarks('sel');
    var g = graphElement(id); if (g) g.classList.add('sel');
    if (focus) focusGraph([id]);
    var dl = el('dl');
    function row(term, value) { dl.appendChild(el('dt', {text: term})); dl.appendChild(typeof value === 'string' ? el('dd', {text: value}) : el('dd', null, value)); }
    row('kind', n.kind); if (n.library) row('type', n.library.name + ' (' + n.library.role + ')'); row('name', n.title); row('state', n.state);
    if (n.count > 1) row('stands for', n.count + ' identical nodes');
    row('created at', n.site ? siteLink(n.site) : 'not in your code');
    if (n.site) row('in', n.site.function);
    row('retain count', n.retainCount == null ? 'gone by the end (or not walked)' : String(n.retainCount));
    row('subscriptions', String(n.subscriptions.length));
    row('events', String(n.eventCount));
    if (n.rule) row('finding', n.rule);
    var body = el('div', null, dl);
    if (n.holders.length) {
      var holders = el('ul'); n.holders.forEach(function (h) { holders.appendChild(el('li', {text: h})); });
      body.appendChild(el('h3', {text: 'Held by'})); body.appendChild(holders);
    }
    if (n.values.length) {
      var values = el('ul'); n.values.forEach(function (v) { values.appendChild(el('li', null, el('code', {text: v}))); });
      body.appendChild(el('h3', {text: 'Values'})); body.appendChild(values);
    }
    if (n.lanes.length) {
      body.appendChild(el('button', {type: 'button', text: 'Show its lanes in the timeline', onclick: function () {
        highlightedLanes = new Set(n.lanes); scrollToLane(n.lanes[0]); fitLaneTimes(n.lanes); drawLanes();
      }}));
    }
    showDetails(n.title, body);
    setHash('node=' + id);
  }
  function selectEvent(seq) {
    var event = events.get(seq); if (!event) return;
    var chain = R.causeChain(events, seq);
    // The selected event and its causes stay in view while new events come.
    following = false;
    chainSeqs = new Set(chain.map(function (e) { return e.seq; }));
    var list = el('ol', {id: 'chain'});
    chain.forEach(function (e, index) {
      if (e.missing != null) {
        list.appendChild(el('li', {class: 'missing', text: data.live
          ? 'What caused the event above is not on the page yet (records another thread wrote may still be on their way), or not in the trace.'
          : 'What caused the event above is not in this trace (it was left out or cut off).'}));
        return;
      }
      var sub = data.subscriptions[e.sub] || {};
      var words = kindWords[e.kind] + (e.text != null ? ' ' + e.text : '');
      var item = el('li', {'data-seq': String(e.seq), onclick: function () { revealEvent(e.seq); }},
        el('div', null, el('strong', {text: words}), ' → ', el('span', {text: sub.title || ('subscription ' + e.sub)})),
        el('div', {class: 'site', text: 'made at ' + siteText(sub.created) + ' · subscribed at ' + siteText(sub.subscribedAt) + (e.time != null ? ' · ' + timeText(e.time) : '')}));
      var next = chain[index + 1];
      if (next && next.missing == null) item.appendChild(el('span', {class: 'rel', text: e.causeKind === 's' ? '↓ ran in an action a scheduler ran, scheduled while delivering' : '↓ happened while delivering'}));
      if (e.cause == null && e.causeKind !== '?') { item.classList.add('root'); item.appendChild(el('span', {class: 'rel', text: R.rootDescription(e, data.subscriptions)})); }
      list.appendChild(item);
    });
    var body = el('div', null, el('p', {class: 'hint', text: 'What caused this event, nearest first, back to your code:'}), list);
    showDetails('Why did this happen?', body);
    revealEvent(seq);
    setHash('event=' + seq);
  }
  function revealEvent(seq) {
    var event = events.get(seq); if (!event) return;
    var sub = data.subscriptions[event.sub];
    if (sub && sub.lane != null) { scrollToLane(sub.lane); if (event.time != null) ensureTimeVisible(event.time); }
    if (sub && sub.node) { clearGraphMarks('sel'); var g = graphElement(sub.node); if (g) g.classList.add('sel'); }
    drawLanes();
  }
  function showDetails(title, body) {
    $('details-title').textContent = title;
    var target = $('details-body'); target.textContent = ''; target.appendChild(body);
  }
  function setHash(value) { if (history.replaceState) history.replaceState(null, '', '#' + value); }

  // ---- Search ----
  $('search').addEventListener('input', function () {
    var results = $('search-results');
    results.textContent = ''; clearGraphMarks('match');
    if (!this.value.trim()) { results.hidden = true; return; }
    var matches = R.matchingNodes(data.nodes, this.value);
    matches.forEach(function (n) { var g = graphElement(n.id); if (g) g.classList.add('match'); });
    matches.slice(0, 50).forEach(function (n) {
      results.appendChild(el('li', {onclick: function () { results.hidden = true; selectNode(n.id, true); }},
        el('strong', {text: n.title}), ' ', el('span', {class: 'hint', text: n.kind + (n.site ? ' · ' + shortFile(n.site.file) + ':' + n.site.line : '')})));
    });
    if (matches.length > 50) results.appendChild(el('li', {class: 'hint', text: (matches.length - 50) + ' more: refine the search'}));
    if (matches.length === 0) results.appendChild(el('li', {class: 'hint', text: 'no node matches'}));
    results.hidden = false;
  });

  // ---- Timeline ----
  var ROW = 30, AXIS = 22, LABEL = 300, PAD = 14;
  var canvas = $('lanes'), scroller = $('lanes-scroll'), context = canvas.getContext('2d');
  var t0 = 0, t1 = Math.max(data.duration, 1);
  // A live page follows the latest events, showing the last `followSpan` nanoseconds (all
  // of them until the run is longer), until the user pans the timeline; "All" follows again.
  var following = !!data.live, followSpan = Infinity;
  function showClock() {
    $('clock').textContent = (data.clock === 'virtual' ? 'virtual time (TestScheduler)' : 'wall clock') + ' · ' + timeText(data.duration);
  }
  showClock();
  function follow() {
    if (!following) return;
    t1 = Math.max(data.duration, 1); t0 = Math.max(0, t1 - followSpan);
  }
  // The canvas stays at the top of the scrolling area, as high as it; the space after
  // it makes the area scroll as far as every lane needs.
  function lanesHeight() { return AXIS + data.lanes.length * ROW + 10; }
  function plotWidth() { return Math.max(canvas.width / (window.devicePixelRatio || 1) - LABEL - PAD - 30, 50); }
  function x(time) { return LABEL + PAD + (time - t0) / (t1 - t0) * plotWidth(); }
  var tickStep = R.tickStep;
  function resize() {
    var ratio = window.devicePixelRatio || 1;
    canvas.width = scroller.clientWidth * ratio; canvas.height = scroller.clientHeight * ratio;
    canvas.style.width = scroller.clientWidth + 'px'; canvas.style.height = scroller.clientHeight + 'px';
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    updateLanesSpace();
    drawLanes();
  }
  function updateLanesSpace() { $('lanes-space').style.height = Math.max(0, lanesHeight() - scroller.clientHeight) + 'px'; }
  function laneTop(index) { return AXIS + index * ROW - scroller.scrollTop; }
  function drawLanes() {
    var began = performance.now();
    var width = canvas.width / (window.devicePixelRatio || 1), height = canvas.height / (window.devicePixelRatio || 1);
    context.clearRect(0, 0, width, height);
    context.font = '11px -apple-system, Helvetica, Arial, sans-serif';
    var first = Math.max(0, Math.floor((scroller.scrollTop) / ROW) - 1), last = Math.min(data.lanes.length, first + Math.ceil(height / ROW) + 2);
    for (var i = first; i < last; i++) drawLane(i, laneTop(i), width);
    // The axis on top of the lanes, with its ticks.
    context.fillStyle = '#fbfbfc'; context.fillRect(0, 0, width, AXIS);
    context.strokeStyle = '#ddd'; context.beginPath(); context.moveTo(0, AXIS - 0.5); context.lineTo(width, AXIS - 0.5); context.stroke();
    var step = tickStep(t1 - t0);
    context.fillStyle = '#666'; context.textAlign = 'center';
    for (var tick = Math.ceil(t0 / step) * step; tick <= t1; tick += step) {
      var px = x(tick); context.fillText(timeText(Math.round(tick)), px, 14);
      context.strokeStyle = '#eee'; context.beginPath(); context.moveTo(px + 0.5, AXIS); context.lineTo(px + 0.5, height); context.stroke();
    }
    context.textAlign = 'left';
    if (data.lanes.length === 0) { context.fillStyle = '#888'; context.fillText('No subscriptions to draw.', 10, AXIS + 16); }
    // How long a redraw takes, for anyone measuring the page at scale (docs/performance.md).
    document.body.setAttribute('data-draw-ms', (performance.now() - began).toFixed(1));
  }
  function drawLane(index, top, width) {
    var lane = data.lanes[index], middle = top + ROW / 2;
    if (highlightedLanes.has(index) || lane.highlighted) {
      context.fillStyle = highlightedLanes.has(index) ? '#fde0e0' : '#fdf1f1'; context.fillRect(0, top + 1, width, ROW - 2);
    }
    context.fillStyle = '#222';
    var label = (lane.count > 1 ? '×' + lane.count + ' ' : '') + lane.title;
    context.save(); context.beginPath(); context.rect(0, top, LABEL - 6, ROW); context.clip();
    context.fillText(label, 6 + Math.min(lane.depth, 8) * 10, middle + 4); context.restore();
    context.save(); context.beginPath(); context.rect(LABEL - 4, top, width - LABEL + 4, ROW); context.clip();
    var from = x(lane.start), to = lane.end == null ? width - 8 : x(lane.end);
    context.strokeStyle = '#555'; context.lineWidth = 1.2; context.beginPath(); context.moveTo(from, middle); context.lineTo(to, middle); context.stroke();
    if (lane.end == null) { context.beginPath(); context.moveTo(to - 7, middle - 5); context.lineTo(to, middle); context.lineTo(to - 7, middle + 5); context.stroke(); }
    // A mark as far from the last one drawn as a pixel, of the same kind, would cover it:
    // it is not drawn again, so a lane of 100,000 events costs what its width does.
    var labelEnd = -Infinity, drawnAt = -Infinity, drawnKind = null;
    lane.marks.forEach(function (mark) {
      var px = x(mark[1]); if (px < LABEL - 10 || px > width + 10) return;
      var selected = mark[2] != null && chainSeqs.has(mark[2]);
      if (!selected && mark[0] === drawnKind && Math.abs(px - drawnAt) < 1) return;
      drawnAt = px; drawnKind = mark[0];
      switch (mark[0]) {
        case 'n':
          context.fillStyle = '#4a90d9'; context.beginPath(); context.arc(px, middle, 4.5, 0, 2 * Math.PI); context.fill();
          if (mark[3] != null && px > labelEnd + 4) {
            var text = mark[3].length > 14 ? mark[3].slice(0, 13) + '…' : mark[3], half = context.measureText(text).width / 2;
            if (px - half > labelEnd + 4) { context.fillStyle = '#333'; context.textAlign = 'center'; context.fillText(text, px, middle - 8); context.textAlign = 'left'; labelEnd = px + half; }
          }
          break;
        case 'c': context.fillStyle = '#222'; context.fillRect(px - 1.5, middle - 8, 3, 16); break;
        case 'e': context.strokeStyle = '#c62828'; context.lineWidth = 3; context.beginPath(); context.moveTo(px - 5, middle - 5); context.lineTo(px + 5, middle + 5); context.moveTo(px - 5, middle + 5); context.lineTo(px + 5, middle - 5); context.stroke(); context.lineWidth = 1.2; break;
        case 'd': context.fillStyle = '#f4c542'; context.fillRect(px - 4.5, middle - 4.5, 9, 9); context.strokeStyle = '#b8860b'; context.strokeRect(px - 4.5, middle - 4.5, 9, 9); break;
      }
      if (selected) { context.strokeStyle = '#ff8c00'; context.lineWidth = 2.5; context.beginPath(); context.arc(px, middle, 8, 0, 2 * Math.PI); context.stroke(); context.lineWidth = 1.2; }
    });
    context.restore();
  }
  function markAt(clientX, clientY) {
    var rect = canvas.getBoundingClientRect(), px = clientX - rect.left, py = clientY - rect.top;
    if (py < AXIS || px < LABEL - 8) return null;
    var index = Math.floor((py - AXIS + scroller.scrollTop) / ROW), lane = data.lanes[index];
    if (!lane) return null;
    var best = null, distance = 7;
    lane.marks.forEach(function (mark) { var d = Math.abs(x(mark[1]) - px); if (d < distance) { distance = d; best = mark; } });
    return best ? {lane: lane, mark: best, px: px, py: py} : null;
  }
  canvas.addEventListener('mousemove', function (event) {
    if (panning) {
      var span = t1 - t0, shift = (event.clientX - panning.x) / plotWidth() * span;
      following = false; t0 = panning.t0 - shift; t1 = t0 + span; drawLanes(); return;
    }
    var hit = markAt(event.clientX, event.clientY), tip = $('tip');
    if (!hit) { tip.hidden = true; return; }
    var mark = hit.mark;
    tip.textContent = kindWords[mark[0]] + (mark[3] != null ? ': ' + mark[3] : '') + '\n' + timeText(mark[1]) + ' · ' + hit.lane.title + (hit.lane.count > 1 ? ' (first of ' + hit.lane.count + ' identical lanes)' : '');
    tip.style.left = Math.min(hit.px + 12, canvas.clientWidth - 200) + 'px'; tip.style.top = (hit.py + 40) + 'px'; tip.hidden = false;
  });
  var panning = null;
  canvas.addEventListener('mousedown', function (event) { if (!markAt(event.clientX, event.clientY)) panning = {x: event.clientX, t0: t0}; });
  window.addEventListener('mouseup', function () { panning = null; });
  canvas.addEventListener('mouseleave', function () { $('tip').hidden = true; });
  canvas.addEventListener('click', function (event) {
    var hit = markAt(event.clientX, event.clientY);
    if (hit && hit.mark[2] != null) selectEvent(hit.mark[2]);
  });
  canvas.addEventListener('wheel', function (event) {
    if (!event.ctrlKey && !event.altKey) return;
    event.preventDefault();
    var rect = canvas.getBoundingClientRect(), at = t0 + (event.clientX - rect.left - LABEL - PAD) / plotWidth() * (t1 - t0);
    zoomTime(event.deltaY > 0 ? 1.25 : 0.8, at);
  }, {passive: false});
  function zoomTime(factor, at) {
    var span = Math.max((t1 - t0) * factor, 10);
    // Following, the latest time stays at the right edge.
    if (following) { followSpan = span; follow(); drawLanes(); return; }
    at = at == null ? (t0 + t1) / 2 : at;
    t0 = at - (at - t0) * factor; t1 = t0 + span; drawLanes();
  }
  $('time-in').onclick = function () { zoomTime(0.5); };
  $('time-out').onclick = function () { zoomTime(2); };
  $('time-reset').onclick = function () { t0 = 0; t1 = Math.max(data.duration, 1); following = !!data.live; followSpan = Infinity; drawLanes(); };
  function scrollToLane(index) { scroller.scrollTop = Math.max(0, index * ROW - ROW * 2); }
  function ensureTimeVisible(time) {
    if (time < t0 || time > t1) { following = false; var span = t1 - t0; t0 = Math.max(0, time - span / 2); t1 = t0 + span; }
  }
  function fitLaneTimes(lanes) {
    var low = Infinity, high = -Infinity;
    lanes.forEach(function (i) { var lane = data.lanes[i]; if (!lane) return; low = Math.min(low, lane.start); high = Math.max(high, lane.end == null ? data.duration : lane.end); lane.marks.forEach(function (m) { high = Math.max(high, m[1]); }); });
    if (isFinite(low) && high > low) { following = false; var pad = (high - low) * 0.05; t0 = Math.max(0, low - pad); t1 = high + pad; }
  }
  scroller.addEventListener('scroll', drawLanes);
  window.addEventListener('resize', resize);
  resize();

  // ---- Links: #finding=N, #node=ID, #event=SEQ (several joined with &) ----
  function followHash() {
    R.hashSelections(location.hash).forEach(function (pair) {
      var key = pair[0], value = pair[1];
      if (key === 'finding' && data.findings[Number(value)]) selectFinding(Number(value));
      if (key === 'node') selectNode(value, true);
      if (key === 'event') selectEvent(Number(value));
    });
  }
  followHash();
  // A link followed within the page (setHash replaces the address, which fires nothing).
  window.addEventListener('hashchange', followHash);

  // ---- Live: the data grows from the server's messages while the program runs ----
  if (data.live) {
    // What the page costs, for scripts/live-latency.py and docs/performance.md: when each
    // timeline message arrived (wall clock, milliseconds) with its last record's monotonic
    // timestamp, how long handling each took, and how long each drawing of the lanes took.
    var stats = window.signalscopeLive = {arrivals: [], batches: 0, handledMs: 0, longestMs: 0, frames: 0, frameMs: 0, longestFrameMs: 0};
    var stale = null, drawPending = false, phase = 'running';
    var status = $('live-status');
    status.hidden = false;
    var setStatus = function (text) {
      status.textContent = text + (stale ? ' (not updating: ' + stale + ')' : '');
    };
    // One drawing per frame, however many messages came in it.
    var scheduleDraw = function () {
      if (drawPending) return;
      drawPending = true;
      requestAnimationFrame(function () {
        drawPending = false;
        var began = performance.now();
        follow(); showClock(); updateLanesSpace(); drawLanes();
        var took = performance.now() - began;
        stats.frames += 1; stats.frameMs += took; stats.longestFrameMs = Math.max(stats.longestFrameMs, took);
      });
    };
    var hashFollowed = false;
    var addTimeline = function (message) {
      var atBottom = scroller.scrollTop + scroller.clientHeight >= lanesHeight() - ROW;
      var first = data.events.length;
      R.addTimeline(data, message).forEach(function (index) { events.set(index, R.eventOf(data.events[index], index)); });
      R.indexEvents(data.events, events, first);
      // New lanes come at the bottom: a view at the bottom stays there.
      updateLanesSpace();
      if (following && atBottom) scroller.scrollTop = lanesHeight();
      renderSummary();
      scheduleDraw();
      // A link to an event (#event=N) can be followed once there are events.
      if (!hashFollowed && data.events.length) { hashFollowed = true; followHash(); }
    };
    var replaceGraph = function (message) {
      R.replaceGraph(data, message);
      indexNodes();
      var picture = null;
      if (message.svg) {
        var parsed = new DOMParser().parseFromString(message.svg, 'image/svg+xml').documentElement;
        if (parsed && parsed.nodeName === 'svg') picture = document.importNode(parsed, true);
      }
      installGraph(picture);
      renderFindings();
      // What was selected or searched stays so on the new graph (its ids are the trace's).
      var index = data.findings.findIndex(function (f) { return findingKey(f) === selectedFinding; });
      if (index >= 0) markFinding(index); else selectedFinding = null;
      if (selectedNode) { var g = graphElement(selectedNode); if (g) g.classList.add('sel'); }
      if ($('search').value.trim()) $('search').dispatchEvent(new Event('input'));
      scheduleDraw();
    };
    var token = new URLSearchParams(location.search).get('token') || '';
    // The traced process this page follows: its query's, else the first (told by the server
    // once there are several).
    var process = new URLSearchParams(location.search).get('process');
    var showProcesses = function (processes) {
      var links = R.processLinks(processes, process, token);
      var nav = $('processes');
      nav.textContent = '';
      nav.hidden = links.length === 0;
      if (links.length) nav.appendChild(el('span', {text: links.length + ' traced processes:'}));
      links.forEach(function (link) {
        if (link.current) process = link.process;
        var a = el('a', {href: link.href, text: 'process ' + link.process});
        if (link.current) a.setAttribute('aria-current', 'page');
        nav.appendChild(a);
      });
    };
    var socket = new WebSocket('ws://' + location.host + '/live?token=' + encodeURIComponent(token)
      + (process ? '&process=' + encodeURIComponent(process) : ''));
    socket.onopen = function () {
      stats.connectedAt = performance.timeOrigin + performance.now();
      document.body.setAttribute('data-live', 'connected');
      setStatus(phase);
    };
    socket.onmessage = function (event) {
      var started = performance.now();
      var message = JSON.parse(event.data);
      if (message.kind === 'timeline') {
        addTimeline(message);
        // (A late page's state carries no record's timestamp.)
        if (!message.state && stats.arrivals.length < 10000) stats.arrivals.push([message.ts, performance.timeOrigin + started]);
      } else if (message.kind === 'graph') {
        replaceGraph(message);
      } else if (message.kind === 'warning') {
        stale = message.text;
      } else if (message.kind === 'processes') {
        showProcesses(message.processes);
      } else if (message.kind === 'ended') {
        phase = 'program ended: status ' + message.status + ' · preparing the final report';
        document.body.setAttribute('data-live', 'ending');
      } else if (message.kind === 'end') {
        setStatus('ended: status ' + message.status + ' · opening the final report');
        socket.send('received end');
        document.body.setAttribute('data-live', 'ended');
        location.replace('/report?token=' + encodeURIComponent(token) + (process ? '&process=' + encodeURIComponent(process) : ''));
        return;
      }
      setStatus(phase);
      var took = performance.now() - started;
      stats.batches += 1; stats.handledMs += took; stats.longestMs = Math.max(stats.longestMs, took);
    };
    socket.onclose = function (event) {
      if (document.body.getAttribute('data-live') === 'ended') return;
      // 4000: the page fell too far behind to be caught up; it starts again from the state.
      if (event.code === 4000) { setStatus('fell behind; reloading'); location.reload(); return; }
      setStatus('disconnected (' + phase + ')');
    };
  }
  document.body.setAttribute('data-ready', 'true');
  // From navigation to ready: parsing the page and its data, and the first drawing.
  document.body.setAttribute('data-load-ms', String(Math.round(performance.now())));
})(SignalScopeReport);
