// The index page: lists experiments and sweeps with live progress (experiments through their
// server-sent-events stream, sweeps by polling GET /api/v1/sweeps/{id}), and a submit form.
(function () {
  'use strict';
  var MAX_STREAMS = 8;          // stay well under schedlab.limits.max-event-streams
  var SWEEP_POLL_MS = 1000;
  var LIST_REFRESH_MS = 5000;
  var streams = {};
  var sweepPolls = {};
  var sweepDone = {};           // most children seen done per sweep: a list fetched earlier never moves a bar back
  var EXAMPLE = {
    name: 'two loops on two pCPUs', durationSeconds: 2, stopWhen: 'duration',
    host: {sockets: 1, coresPerSocket: 2}, scheduler: {policy: 'credit'},
    vms: [{name: 'vm1', vcpus: 2, workload: {type: 'cpu-loop'}}, {name: 'vm2', vcpus: 1, workload: {type: 'cpu-loop'}}]
  };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { e.append(c instanceof Node ? c : document.createTextNode(String(c))); });
    return e;
  }
  function link(href, text) { return el('a', {href: href}, [text]); }
  function finished(status) { return status === 'SUCCEEDED' || status === 'FAILED' || status === 'CANCELLED'; }
  function when(t) { return t ? new Date(t).toLocaleString() : ''; }

  function getJson(url) {
    return fetch(url, {headers: {Accept: 'application/json'}}).then(function (r) {
      if (!r.ok) { throw new Error(url + ': HTTP ' + r.status); }
      return r.json();
    });
  }

  function experimentRow(e) {
    var bar = el('progress', {max: '1', value: String(e.progress), 'data-experiment': e.id});
    return el('tr', {id: 'experiment-' + e.id}, [
      el('td', {'class': 'name', title: e.name || e.id}, [e.name || e.id]), el('td', {}, [e.policy]),
      el('td', {'class': 'status'}, [e.status]), el('td', {}, [bar]), el('td', {}, [when(e.createdAt)]),
      el('td', {}, [link('/api/v1/experiments/' + e.id + '/report', 'report'), ' ',
        link('/api/v1/experiments/' + e.id + '/results', 'results')])]);
  }

  function sweepRow(s) {
    s = Object.assign({}, s, {done: Math.max(s.done, sweepDone[s.id] || 0)});
    sweepDone[s.id] = s.done;
    var bar = el('progress', {max: String(s.total), value: String(s.done), 'data-sweep': s.id});
    return el('tr', {id: 'sweep-' + s.id}, [
      el('td', {'class': 'name', title: s.name || s.id}, [s.name || s.id]), el('td', {'class': 'status'}, [s.status]), el('td', {}, [bar]),
      el('td', {'class': 'count'}, [s.done + ' / ' + s.total]), el('td', {}, [when(s.createdAt)]),
      el('td', {}, [link('/api/v1/sweeps/' + s.id + '/report', 'report'), ' ',
        link('/api/v1/sweeps/' + s.id + '/table.csv', 'csv')])]);
  }

  function updateExperiment(e) {
    var row = document.getElementById('experiment-' + e.id);
    if (!row) { return; }
    row.querySelector('.status').textContent = e.status;
    row.querySelector('progress').value = e.progress;
  }

  function updateSweep(s) {
    var row = document.getElementById('sweep-' + s.id);
    s = Object.assign({}, s, {done: Math.max(s.done, sweepDone[s.id] || 0)});
    sweepDone[s.id] = s.done;
    if (!row) { return; }
    row.querySelector('.status').textContent = s.status;
    row.querySelector('progress').value = s.done;
    row.querySelector('.count').textContent = s.done + ' / ' + s.total;
  }

  function follow(e) {
    if (finished(e.status) || streams[e.id] || Object.keys(streams).length >= MAX_STREAMS) { return; }
    var source = new EventSource('/api/v1/experiments/' + e.id + '/events');
    streams[e.id] = source;
    source.addEventListener('status', function (msg) {
      var now = JSON.parse(msg.data);
      updateExperiment(now);
      if (finished(now.status)) { source.close(); delete streams[e.id]; }
    });
    source.onerror = function () { source.close(); delete streams[e.id]; };
  }

  function poll(s) {
    if (finished(s.status) || sweepPolls[s.id]) { return; }
    sweepPolls[s.id] = setInterval(function () {
      getJson('/api/v1/sweeps/' + s.id).then(function (now) {
        updateSweep(now);
        if (finished(now.status)) { clearInterval(sweepPolls[s.id]); delete sweepPolls[s.id]; }
      }).catch(function () { clearInterval(sweepPolls[s.id]); delete sweepPolls[s.id]; });
    }, SWEEP_POLL_MS);
  }

  function refresh() {
    getJson('/api/v1/sweeps?size=20').then(function (page) {
      var body = document.querySelector('#sweeps tbody');
      body.replaceChildren.apply(body, page.items.map(sweepRow));
      page.items.forEach(poll);
    }).catch(show);
    getJson('/api/v1/experiments?size=20').then(function (page) {
      var body = document.querySelector('#experiments tbody');
      body.replaceChildren.apply(body, page.items.map(experimentRow));
      page.items.forEach(follow);
    }).catch(show);
  }

  function show(x) { document.getElementById('answer').textContent = x instanceof Error ? x.message : x; }

  document.getElementById('body').value = JSON.stringify(EXAMPLE, null, 2);
  document.getElementById('submit').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var kind = document.querySelector('input[name=kind]:checked').value;
    fetch('/api/v1/' + kind, {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: document.getElementById('body').value})
      .then(function (r) { return r.text().then(function (t) { show('HTTP ' + r.status + '\n' + t); refresh(); }); })
      .catch(show);
  });
  getJson('/api/v1/scenarios').then(function (all) {
    var select = document.getElementById('scenario-name');
    all.forEach(function (s) { select.append(el('option', {value: s.name}, [s.name + ': ' + s.title])); });
  }).catch(show);
  document.getElementById('scenario').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var reps = document.getElementById('scenario-repetitions').value;
    fetch('/api/v1/scenarios/' + encodeURIComponent(document.getElementById('scenario-name').value) + '/runs', {
      method: 'POST', headers: {'Content-Type': 'application/json'},
      body: reps ? JSON.stringify({repetitions: parseInt(reps, 10)}) : '{}'})
      .then(function (r) { return r.text().then(function (t) { show('HTTP ' + r.status + '\n' + t); refresh(); }); })
      .catch(show);
  });
  refresh();
  setInterval(refresh, LIST_REFRESH_MS);
})();
