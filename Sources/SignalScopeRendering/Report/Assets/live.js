// The live page: the report's layout and style, filled while the program runs from a
// WebSocket that pushes the records as the program writes them and the findings as they
// are proven; when the program ends, the page becomes the final report. Every string from
// the trace goes on the page with textContent, never as markup.
(function () {
  'use strict';
  var token = new URLSearchParams(location.search).get('token') || '';
  var maxEvents = 2000;
  var nodes = {};
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

  function status(text) {
    byId('live-status').textContent = text;
    byId('summary').textContent = eventCount + ' events · ' + Object.keys(nodes).length + ' nodes · ' + findingCount + ' findings';
  }

  function addNode(record) {
    var item = el('li', {id: 'node-' + record.node, 'data-node': record.node}, [
      el('span', {class: 'name', text: record.name}), el('span', {class: 'site', text: ' · ' + site(record.site)})
    ]);
    nodes[record.node] = item;
    byId('live-nodes').appendChild(item);
  }

  function addEvent(record) {
    eventCount += 1;
    var text = record.seq + ' ' + record.event + ' ' + (record.subscription || record.node || '') +
      (record.value !== undefined ? ' ' + record.value : '') + (record.error !== undefined ? ' ' + record.error : '');
    var list = byId('live-events');
    list.appendChild(el('li', {class: 'ev-' + record.event, text: text}));
    while (list.childNodes.length > maxEvents) list.removeChild(list.firstChild);
    list.parentNode.scrollTop = list.parentNode.scrollHeight;
  }

  function addRecord(record) {
    if (record.event === 'node') addNode(record);
    else if (record.event === 'node-named' && nodes[record.node]) nodes[record.node].firstChild.textContent += ' "' + record.name + '"';
    else if (['subscribe', 'next', 'error', 'completed', 'disposed', 'violation'].indexOf(record.event) >= 0) addEvent(record);
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

  var socket = new WebSocket('ws://' + location.host + '/live?token=' + encodeURIComponent(token));
  socket.onopen = function () { document.body.setAttribute('data-live', 'connected'); status('running'); };
  socket.onmessage = function (message) {
    var data = JSON.parse(message.data);
    if (data.kind === 'records') data.records.forEach(addRecord);
    else if (data.kind === 'finding') addFinding(data.finding);
    else if (data.kind === 'end') {
      status('ended: ' + data.status);
      socket.send('received end');
      document.body.setAttribute('data-live', 'ended');
      location.replace('/report?token=' + encodeURIComponent(token));
      return;
    }
    status('running');
  };
  socket.onclose = function () { if (document.body.getAttribute('data-live') !== 'ended') status('disconnected'); };
})();
