// Report pages, drawn with Apache ECharts from the JSON island #report-data that the service
// put in the page: "experiment" (summary, latency CDFs, per-VM bars, per-pCPU utilization,
// pCPU timeline from the trace) or "sweep" (metric-vs-parameter curves with error bars, table;
// for a sweep with a published table, e.g. a scenario run, the published values beside the simulated).
// Field names of the result document are read tolerantly (seconds or nanoseconds, number or
// {value, unit}) so the page follows the document as it evolves.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var main = document.getElementById('report');
  var kind = document.body.getAttribute('data-report');

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) { e.append(c instanceof Node ? c : document.createTextNode(String(c))); }
    });
    return e;
  }
  function section(title, note) {
    var s = el('section', {}, [el('h2', {}, [title])]);
    if (note) { s.append(el('p', {'class': 'note'}, [note])); }
    main.append(s);
    return s;
  }
  // ---------- axes: the one place that names, scales and lays out every chart's axes ----------
  // An axis in a chart option may carry `unit` (the base unit of its values: 'ns', 's', '%', 'count', ...)
  // and `label` (what it measures); layout() turns them into the ECharts axis name "label (unit)", a readable
  // scale, integer ticks for integer levels, bars from zero, and grid margins from the measured label widths
  // (ECharts 5's containLabel leaves axis names out, so they are placed here).
  var FONT_PX = 12;
  var ruler = document.createElement('canvas').getContext('2d');
  function textWidth(text) { ruler.font = FONT_PX + 'px sans-serif'; return ruler.measureText(String(text)).width; }
  function scaleFor(unit, magnitude) {   // [unit shown, divisor] so that labels stay short
    if (unit === 'ns') {
      return magnitude >= 1e9 ? ['s', 1e9] : magnitude >= 1e6 ? ['ms', 1e6] : magnitude >= 1e3 ? ['\u00b5s', 1e3] : ['ns', 1];
    }
    if (unit === 's' && magnitude > 0 && magnitude < 1) { return magnitude >= 1e-3 ? ['ms', 1e-3] : ['\u00b5s', 1e-6]; }
    return [unit, 1];
  }
  function unitOf(pointer) {   // the unit a result-document field states in its name (see docs/results.md)
    var leaf = String(pointer || '').split('/').pop();
    if (/Nanos$/.test(leaf)) { return 'ns'; }
    if (/Seconds$/.test(leaf)) { return 's'; }
    if (/PerSecond$/.test(leaf)) { return '1/s'; }
    if (/Percent$/.test(leaf)) { return '%'; }
    if (/(Index|Ratio|Fraction|Share)$/.test(leaf)) { return 'ratio'; }
    if (/(Switches|Count|Migrations|Wakeups|Events|Decisions)$/.test(leaf)) { return 'count'; }
    return '';
  }
  // A sweep metric's unit: its field's unit, times the metric's scale (e.g. 1e-3 turns ns into us).
  var SCALED = {ns: {'1e-3': '\u00b5s', '1e-6': 'ms', '1e-9': 's'}, s: {'1e3': 'ms', '1e6': '\u00b5s'}};
  function metricUnit(name, pointer) {
    var m = (data.metrics || []).filter(function (x) { return x.name === name; })[0] || {pointer: pointer};
    if (m.computed === 'overheadPercent') { return '%'; }
    var unit = unitOf(m.pointer || (m.meanOf || [])[0]);
    if (typeof m.scale !== 'number' || m.scale === 1) { return unit; }
    return (SCALED[unit] || {})[m.scale.toExponential().replace('+', '')] || '';
  }
  function axisValues(option, dim, index, axis) {
    var out = [axis.min, axis.max].filter(function (v) { return typeof v === 'number'; });
    (option.series || []).forEach(function (s) {
      if ((s[dim + 'AxisIndex'] || 0) !== index) { return; }
      var cols = s.encode && s.encode[dim] !== undefined ? [].concat(s.encode[dim]) : [dim === 'x' ? 0 : 1];
      (s.data || []).forEach(function (p) {
        var v = p !== null && typeof p === 'object' && !Array.isArray(p) ? p.value : p;
        if (typeof v === 'number' && dim === 'y') { out.push(v); }
        if (Array.isArray(v)) { cols.forEach(function (c) { if (typeof v[c] === 'number') { out.push(v[c]); } }); }
      });
    });
    return out;
  }
  // Names, scales and formats one axis; returns the width of its widest label in px.
  function dressAxis(option, dim, index, axis) {
    var labelStyle = Object.assign({fontSize: FONT_PX, hideOverlap: true}, axis.axisLabel);
    if (axis.type === 'category') {
      axis.name = axis.label || axis.name || '';
      axis.axisLabel = labelStyle;
      return Math.max.apply(null, [0].concat((axis.data || []).map(textWidth)));
    }
    var values = axisValues(option, dim, index, axis);
    var positive = values.filter(function (v) { return v > 0; });
    var maxAbs = Math.max.apply(null, [0].concat(values.map(Math.abs)));
    var magnitude = axis.type === 'log' && positive.length
      ? Math.sqrt(Math.min.apply(null, positive) * Math.max.apply(null, positive)) : maxAbs;
    var scale = scaleFor(axis.unit || '', magnitude), divisor = scale[1];
    var integer = axis.integer || (values.length > 0 && divisor === 1 && values.every(Number.isInteger) && axis.unit !== 'ratio');
    if (integer) { axis.minInterval = 1; }
    var bars = (option.series || []).some(function (s) { return s.type === 'bar' && (s[dim + 'AxisIndex'] || 0) === index; });
    if (bars) { axis.scale = false; if (values.every(function (v) { return v >= 0; })) { axis.min = 0; } }
    var shown = scale[0] && scale[0] !== 'count' && scale[0] !== 'ratio' ? ' (' + scale[0] + ')' : '';
    axis.name = (axis.label || (scale[0] === 'count' ? 'count' : scale[0] === 'ratio' ? 'ratio' : 'value')) + shown;
    var format = new Intl.NumberFormat('en', {maximumSignificantDigits: 4, notation: maxAbs / divisor >= 1e5 ? 'compact' : 'standard'});
    labelStyle.formatter = function (v) { return format.format(v / divisor); };
    axis.axisLabel = labelStyle;
    var extremes = values.concat([0]).map(function (v) { return labelStyle.formatter(v); });
    return Math.max.apply(null, extremes.map(textWidth)) + textWidth('0.00');
  }
  function layout(option) {
    var grid = {left: 12, right: 16, top: option.title || option.legend ? 48 : 20, bottom: 12};
    var xs = [].concat(option.xAxis), ys = [].concat(option.yAxis);
    ys.forEach(function (axis, i) {
      var w = dressAxis(option, 'y', i, axis);
      var side = i === 0 ? 'left' : 'right';
      Object.assign(axis, {position: side, nameLocation: 'middle', nameGap: w + 10, nameTextStyle: {fontSize: FONT_PX}});
      grid[side] += w + 10 + FONT_PX + 8;
    });
    xs.forEach(function (axis, i) {
      var w = dressAxis(option, 'x', i, axis);
      var rotate = (axis.axisLabel && axis.axisLabel.rotate) || 0;
      var height = rotate ? w * Math.sin(rotate * Math.PI / 180) + FONT_PX : FONT_PX;
      Object.assign(axis, {nameLocation: 'middle', nameGap: height + 14, nameTextStyle: {fontSize: FONT_PX}});
      grid.bottom += height + 14 + FONT_PX + 6;
      if (!rotate) { grid.right = Math.max(grid.right, w / 2 + 8); }
    });
    if ([].concat(option.dataZoom || []).some(function (z) { return z.type === 'slider'; })) { grid.bottom += 44; }
    option.grid = grid;
    return option;
  }
  // Every chart is drawn here, with the SVG renderer (its labels are elements of the page).
  function chart(parent, id, option, tall) {
    var div = el('div', {'class': tall ? 'chart tall' : 'chart', id: id});
    parent.append(div);
    var c = echarts.init(div, null, {renderer: 'svg'});
    c.setOption(layout(Object.assign({animation: false}, option)));
    window.addEventListener('resize', function () { c.resize(); });
    return c;
  }
  function num(x, digits) {
    if (x === null || x === undefined || x === '') { return ''; }
    if (typeof x !== 'number') { return String(x); }
    if (Number.isInteger(x) && digits === undefined) { return String(x); }
    var a = Math.abs(x);
    return a !== 0 && (a >= 1e6 || a < 1e-3) ? x.toExponential(3) : x.toFixed(digits === undefined ? 3 : digits);
  }
  function seconds(obj, base) {   // base + "Seconds" or base + "Nanos"
    if (!obj) { return null; }
    if (typeof obj[base + 'Seconds'] === 'number') { return obj[base + 'Seconds']; }
    if (typeof obj[base + 'Nanos'] === 'number') { return obj[base + 'Nanos'] / 1e9; }
    return null;
  }
  function keyValueTable(rows) {
    return el('table', {}, rows.map(function (r) {
      return el('tr', {}, [el('th', {}, [r[0]]), el('td', {'class': 'num'}, [typeof r[1] === 'number' ? num(r[1]) : r[1]])]);
    }));
  }

  // ---------- experiment ----------
  function experimentReport() {
    var e = data.experiment, r = data.result;
    var rows = [['status', e.status], ['policy', e.policy], ['engine', e.engineVersion], ['wall seconds', seconds(e, 'wall')]];
    if (r) {
      Object.keys(r.summary || {}).forEach(function (k) {
        if (typeof r.summary[k] !== 'object') { rows.push([k, r.summary[k]]); }
      });
      rows.push(['stop reason', r.stopReason], ['seed', r.seed]);
    }
    var s = section('Summary');
    s.append(keyValueTable(rows));
    s.append(el('p', {'class': 'note'}, [el('a', {href: data.links.results}, ['result document (JSON)'])]));
    if (data.links.perfetto) {   // the trace as Chrome trace-event JSON, for ui.perfetto.dev
      s.append(el('p', {'class': 'note'}, [el('a', {href: data.links.trace}, ['event trace (CSV)']), ' | ',
        el('a', {href: data.links.perfetto}, ['event trace for Perfetto (JSON)']),
        ' (open the file in ui.perfetto.dev: a track per pCPU, migrations as arrows, run queues as counters)']));
    }
    if (!r) {
      s.append(el('p', {'class': 'note'}, ['The experiment is ' + e.status + '; charts appear once it has SUCCEEDED.']));
      return;
    }
    cdfs(r);
    vmBars(r);
    pcpuUtilization(r);
    timeline(data.timeline, r);
  }

  function cdfPoints(d, logX) {
    return (d.cdf || []).map(function (p) {
      var v = typeof p.valueNanos === 'number' ? p.valueNanos : p.value;
      return [v, p.fraction];
    }).filter(function (p) { return !logX || p[0] > 0; });
  }

  function cdfs(r) {
    var dists = r.distributions || {};
    var names = Object.keys(dists).filter(function (k) { return dists[k] && (dists[k].cdf || []).length > 0; });
    var s = section('Latency distributions (CDF)', 'decision, context switch, context_saved, wake-up and run-queue wait'
      + ' times as the result has them; the x axis is logarithmic when the values span more than 100x.');
    if (names.length === 0) { s.append(el('p', {'class': 'note'}, ['The result has no distributions.'])); return; }
    var positive = [].concat.apply([], names.map(function (n) { return cdfPoints(dists[n], true); }))
      .map(function (p) { return p[0]; });
    var span = positive.length ? Math.max.apply(null, positive) / Math.min.apply(null, positive) : 1;
    var box = el('input', {type: 'checkbox', id: 'cdf-log'});
    box.checked = span > 100;
    s.append(el('div', {'class': 'controls'}, [el('label', {}, [box, ' log x'])]));
    function option(logX) {
      return {
        legend: {top: 0}, tooltip: {trigger: 'axis'},
        xAxis: {type: logX ? 'log' : 'value', label: 'latency', unit: 'ns'},
        yAxis: {type: 'value', min: 0, max: 1, label: 'fraction of samples', unit: 'ratio'},
        series: names.map(function (n) {
          return {name: n, type: 'line', step: 'end', showSymbol: false, data: cdfPoints(dists[n], logX)};
        })
      };
    }
    var c = chart(s, 'chart-cdf', option(box.checked));
    box.addEventListener('change', function () {
      c.setOption(layout(option(box.checked)), {replaceMerge: ['series', 'xAxis', 'yAxis', 'grid']});
    });
  }

  function headline(vm, r) {
    var h = vm.headline || vm.workload || (r.summary && r.summary.vmHeadline ? r.summary.vmHeadline[vm.name] : null);
    if (h === null || h === undefined) { return null; }
    if (typeof h === 'number') { return {value: h, unit: ''}; }
    return {value: h.value, unit: h.unit || '', meaning: h.meaning || h.metric || ''};
  }

  function vmBars(r) {
    var vms = r.vms || [];
    var completion = vms.map(function (vm) { return seconds(vm, 'completion'); });
    var s = section('Per VM');
    if (completion.some(function (c) { return c !== null; })) {
      chart(s, 'chart-vm-completion', {
        title: {text: 'completion time (s)', textStyle: {fontSize: 13}}, tooltip: {},
        xAxis: {type: 'category', label: 'VM', data: vms.map(function (v) { return v.name; })},
        yAxis: {type: 'value', label: 'completion time', unit: 's'},
        series: [{type: 'bar', data: completion.map(function (c) { return c === null ? '-' : c; })}]
      });
    }
    // one chart per unit: a headline in bursts/s never shares an axis with one in seconds
    var heads = vms.map(function (vm) { return headline(vm, r); });
    var units = [];
    heads.forEach(function (h) { if (h && typeof h.value === 'number' && units.indexOf(h.unit) < 0) { units.push(h.unit); } });
    units.forEach(function (unit, u) {
      var mine = vms.map(function (v, i) { return i; }).filter(function (i) {
        return heads[i] && typeof heads[i].value === 'number' && heads[i].unit === unit; });
      var meanings = mine.map(function (i) { return heads[i].meaning; }).filter(function (m, k, all) { return m && all.indexOf(m) === k; });
      chart(s, 'chart-vm-headline-' + u, {
        title: {text: 'headline per VM: ' + (meanings.join(', ') || 'workload headline') + (unit ? ' (' + unit + ')' : ''),
          textStyle: {fontSize: 13}}, tooltip: {},
        xAxis: {type: 'category', label: 'VM', data: mine.map(function (i) { return vms[i].name; })},
        yAxis: {type: 'value', label: meanings.length === 1 ? meanings[0] : 'headline', unit: unit},
        series: [{type: 'bar', data: mine.map(function (i) { return heads[i].value; })}]
      });
    });
  }

  function pcpuUtilization(r) {
    var pcpus = r.pcpus || [];
    var s = section('Per-pCPU utilization', 'share of simulated time busy running vCPUs, in scheduler overhead, and idle');
    var parts = ['busy', 'overhead', 'idle'];
    var shares = pcpus.map(function (p) {
      var v = parts.map(function (k) { return seconds(p, k) || 0; });
      var total = v.reduce(function (a, b) { return a + b; }, 0) || 1;
      return v.map(function (x) { return 100 * x / total; });
    });
    chart(s, 'chart-pcpu-util', {
      legend: {top: 0}, tooltip: {trigger: 'axis'},
      xAxis: {type: 'category', label: 'pCPU', data: pcpus.map(function (p) { return 'p' + p.pcpu; })},
      yAxis: {type: 'value', max: 100, label: 'share of simulated time', unit: '%'},
      series: parts.map(function (k, i) {
        return {name: k, type: 'bar', stack: 'time', data: shares.map(function (sh) { return sh[i]; })};
      })
    });
  }

  function timeline(t, r) {
    var s = section('pCPU timeline', 'which vCPU ran on which pCPU, coloured by VM; triangles mark migrations.');
    var params = new URLSearchParams(window.location.search);
    var from = el('input', {type: 'number', step: 'any', min: '0', id: 'window-from', value: t ? String(t.fromNanos / 1e9) : (params.get('from') || '0')});
    var to = el('input', {type: 'number', step: 'any', min: '0', id: 'window-to', value: t ? String(t.toNanos / 1e9) : (params.get('to') || '1')});
    var go = el('button', {type: 'button'}, ['show window']);
    go.addEventListener('click', function () {
      window.location.search = '?from=' + encodeURIComponent(from.value) + '&to=' + encodeURIComponent(to.value);
    });
    s.append(el('div', {'class': 'controls'}, [el('label', {}, ['from (s) ', from]), el('label', {}, ['to (s) ', to]), go]));
    if (!t) {
      s.append(el('p', {'class': 'note'}, ['No trace: submit the experiment with "trace": {"enabled": true} to see its timeline.']));
      return;
    }
    if (t.truncated) {
      s.append(el('p', {'class': 'note'}, ['Only the first segments of this window are shown (schedlab.reports.max-timeline-segments); choose a shorter window.']));
    }
    var vmNames = (r.vms || []).map(function (v) { return v.name; });
    var palette = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc'];
    var pcpuCount = Math.max((r.pcpus || []).length, 1);
    var rows = t.segments.map(function (g) {
      var i = vmNames.indexOf(g.vm);
      return {value: [g.pcpu, g.startNanos / 1e9, g.endNanos / 1e9, g.vm, g.vcpu],
              itemStyle: {color: palette[(i < 0 ? 0 : i) % palette.length]}};
    });
    function renderItem(params, api) {   // the ECharts custom-series Gantt pattern: one rectangle per segment
      var start = api.coord([api.value(1), api.value(0)]);
      var end = api.coord([api.value(2), api.value(0)]);
      var h = api.size([0, 1])[1] * 0.7;
      var rect = echarts.graphic.clipRectByRect({x: start[0], y: start[1] - h / 2, width: Math.max(end[0] - start[0], 0.5), height: h},
        {x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height});
      return rect && {type: 'rect', shape: rect, style: api.style()};
    }
    chart(s, 'chart-timeline', {
      tooltip: {formatter: function (p) {
        var v = p.value; return v.length === 5 ? 'p' + v[0] + ': ' + v[3] + '.' + v[4] + ' ' + num(v[1], 6) + '-' + num(v[2], 6) + ' s'
          : 'migration of ' + v[2] + ' to p' + v[1] + ' at ' + num(v[0], 6) + ' s';
      }},
      dataZoom: [{type: 'inside', xAxisIndex: 0, filterMode: 'weakFilter'}, {type: 'slider', xAxisIndex: 0, filterMode: 'weakFilter'}],
      xAxis: {type: 'value', min: t.fromNanos / 1e9, max: t.toNanos / 1e9, label: 'simulated time', unit: 's', scale: true},
      yAxis: {type: 'category', label: 'pCPU', data: Array.from({length: pcpuCount}, function (x, i) { return 'p' + i; })},
      series: [
        {name: 'runs', type: 'custom', renderItem: renderItem, encode: {x: [1, 2], y: 0}, data: rows},
        {name: 'migrations', type: 'scatter', symbol: 'triangle', symbolSize: 7, itemStyle: {color: '#1d2330'},
         data: t.migrations.map(function (m) { return [m.timeNanos / 1e9, 'p' + m.pcpu, m.vm + '.' + m.vcpu]; })}
      ]
    }, true);
    s.append(el('p', {'class': 'note'}, vmNames.map(function (n, i) {
      return el('span', {style: 'color:' + palette[i % palette.length]}, ['\u25a0 ' + n + '  ']);
    })));
  }

  // ---------- sweep ----------
  function sweepReport() {
    var sw = data.sweep, table = data.table;
    var s = section('Summary');
    s.append(keyValueTable([['status', sw.status], ['children done', sw.done + ' / ' + sw.total],
      ['baseline', table.baselineKey || '(none)'], ['table', table.complete ? 'complete' : 'so far (not every child has finished)']]));
    s.append(el('p', {'class': 'note'}, [table.signConvention]));
    s.append(el('p', {'class': 'note'}, [el('a', {href: data.links.csv}, ['table as CSV'])]));
    var metrics = [];
    table.rows.forEach(function (row) { if (metrics.indexOf(row.metric) < 0) { metrics.push(row.metric); } });
    var axes = table.axes;
    var numeric = function (a) { return table.rows.every(function (row) { return !isNaN(parseFloat(row.levels[a])) && isFinite(row.levels[a]); }); };
    var xAxisName = axes.slice().reverse().filter(numeric)[0] || axes[axes.length - 1] || null;
    var others = axes.filter(function (a) { return a !== xAxisName; });
    if (table.published) { publishedReport(table.published, table.rows); }
    var curves = section('Metrics vs ' + (xAxisName || 'cell'), 'mean per cell; error bars are the 95% confidence interval of the mean'
      + ' (Student t); one curve per combination of the other axes.');
    metrics.forEach(function (m, i) { curve(curves, 'chart-metric-' + i, m, table, xAxisName, others, xAxisName && numeric(xAxisName)); });
    sweepTable(table);
  }

  // The published table in its own shape: simulated (mean +- sd) beside published, ratios' effects when it has a reference.
  function publishedReport(p, tableRows) {
    var units = [];
    tableRows.forEach(function (row) { var u = metricUnit(row.metric, row.pointer); if (units.indexOf(u) < 0) { units.push(u); } });
    var ref = p.reference ? (p.reference.column ? p.reference.column + ' (same row)' : p.reference.row + ' (same column)') : null;
    var s = section('Published beside simulated', p.caption + (ref ? '; effect = value / ' + ref + ' - 1. '
      + p.effectConvention : '.'));
    var cells = p.cells;
    var label = function (c) { return c.row + ' / ' + c.column; };
    chart(s, 'chart-published', {
      title: {text: 'simulated mean and published value per cell', textStyle: {fontSize: 13}},
      legend: {top: 0, right: 0}, tooltip: {trigger: 'axis'},
      xAxis: {type: 'category', label: p.rowHeader + ' / column', data: cells.map(label), axisLabel: {rotate: 30, interval: 0, fontSize: 10}},
      yAxis: {type: 'value', label: units.length === 1 ? 'value' : 'value (each metric in its own unit)',
        unit: units.length === 1 ? units[0] : ''},
      series: [
        {name: 'simulated', type: 'bar', data: cells.map(function (c) { return c.mean === null ? '-' : c.mean; })},
        {name: 'published', type: 'scatter', symbol: 'diamond', symbolSize: 12,
          data: cells.map(function (c) { return c.published === null ? '-' : c.published; })}]
    }, true);
    var at = {};
    cells.forEach(function (c) { at[c.row + '\u0000' + c.column] = c; });
    var sub = ref ? ['sim', 'pub', 'effect sim', 'effect pub'] : ['sim', 'pub'];
    var group = el('tr', {}, [el('th', {}, [''])].concat(p.columns.map(function (col) {
      return el('th', {colspan: String(sub.length)}, [col]); })));
    var head = el('tr', {}, [el('th', {}, [p.rowHeader])].concat([].concat.apply([], p.columns.map(function () {
      return sub.map(function (h) { return el('th', {}, [h]); }); }))));
    function signed(x) { return x === null || x === undefined ? '-' : (x >= 0 ? '+' : '') + x.toFixed(2); }
    var body = p.rows.map(function (row) {
      var tds = [el('td', {}, [row])];
      p.columns.forEach(function (col) {
        var c = at[row + '\u0000' + col];
        var sim = !c || c.mean === null ? 'n/a' : num(c.mean) + (c.sd === null ? '' : ' +- ' + num(c.sd));
        tds.push(el('td', {'class': 'num'}, [sim]));
        tds.push(el('td', {'class': 'num published'}, [!c || c.published === null ? '-' : num(c.published)]));
        if (ref) {
          tds.push(el('td', {'class': 'num'}, [signed(c && c.effect)]));
          tds.push(el('td', {'class': 'num published'}, [signed(c && c.publishedEffect)]));
        }
      });
      return el('tr', {}, tds);
    });
    s.append(el('div', {'class': 'scroll'}, [el('table', {id: 'published-table'},
      [el('thead', {}, [group, head]), el('tbody', {}, body)])]));
    var notes = [];
    cells.forEach(function (c) { if (c.note && notes.indexOf(c.note) < 0) { notes.push(c.note); } });
    notes.forEach(function (n) { s.append(el('p', {'class': 'note'}, ['note: ' + n])); });
  }

  function curve(parent, id, metric, table, xName, others, numericX) {
    var rows = table.rows.filter(function (r) { return r.metric === metric; });
    var groups = {};
    rows.forEach(function (r) {
      var g = others.map(function (a) { return a + '=' + r.levels[a]; }).join(', ') || metric;
      (groups[g] = groups[g] || []).push(r);
    });
    var categories = [];
    rows.forEach(function (r) { var x = xName ? r.levels[xName] : r.cellKey; if (categories.indexOf(x) < 0) { categories.push(x); } });
    function xOf(r) { var x = xName ? r.levels[xName] : r.cellKey; return numericX ? parseFloat(x) : x; }
    // a numeric level gets a curve; categorical variants get bars side by side, never joined by lines
    var series = [], names = Object.keys(groups);
    names.forEach(function (g, gi) {
      var pts = groups[g].filter(function (r) { return r.mean !== null; });
      series.push({name: g, type: numericX ? 'line' : 'bar', symbolSize: 7, data: pts.map(function (r) { return [xOf(r), r.mean]; })});
      series.push({name: g, type: 'custom', renderItem: errorBar, encode: {x: 0, y: [1, 2]}, z: 3,
        data: pts.filter(function (r) { return r.ci95Low !== null; }).map(function (r) { return [xOf(r), r.ci95Low, r.ci95High, gi]; })});
    });
    function errorBar(params, api) {   // the ECharts custom-series error-bar pattern: a vertical line with caps
      // over bars, the centre of group gi's bar: with ECharts' defaults (src/layout/barGrid.ts: barCategoryGap 20%,
      // barGap 30%) n bars of width b fill 80% of the band, n b + 0.3 (n - 1) b = 0.8 band
      var n = names.length, band = api.size([1, 0])[0], b = 0.8 * band / (1.3 * n - 0.3);
      var shift = numericX ? 0 : -0.4 * band + b / 2 + api.value(3) * 1.3 * b;
      var x = api.value(0), lo = api.coord([x, api.value(1)]), hi = api.coord([x, api.value(2)]);
      lo[0] += shift; hi[0] += shift;
      var w = 5, style = api.style({stroke: api.visual('color'), fill: null});
      return {type: 'group', children: [
        {type: 'line', shape: {x1: hi[0] - w, y1: hi[1], x2: hi[0] + w, y2: hi[1]}, style: style},
        {type: 'line', shape: {x1: hi[0], y1: hi[1], x2: lo[0], y2: lo[1]}, style: style},
        {type: 'line', shape: {x1: lo[0] - w, y1: lo[1], x2: lo[0] + w, y2: lo[1]}, style: style}]};
    }
    var better = rows.length ? rows[0].better : '';
    chart(parent, id, {
      title: {text: metric + ' (' + better + ' is better)', textStyle: {fontSize: 13}},
      legend: {top: 0, right: 0}, tooltip: {trigger: 'item'},
      xAxis: numericX ? {type: 'value', label: xName, scale: true} : {type: 'category', label: xName || 'cell', data: categories},
      yAxis: {type: 'value', label: metric, unit: rows.length ? metricUnit(metric, rows[0].pointer) : '', scale: numericX},
      series: series
    });
  }

  function sweepTable(table) {
    var s = section('Table', 'mean +- sample standard deviation over the SUCCEEDED children of each cell.');
    var published = !!table.published;
    var head = el('tr', {}, ['cell', 'metric', 'n', 'mean +- sd', '95% CI', 'min', 'max', 'vs baseline', 'improvement']
      .concat(published ? ['published', 'effect', 'published effect'] : [])
      .map(function (h) { return el('th', {}, [h]); }));
    var body = table.rows.map(function (r) {
      var imp = r.improvementPercent;
      return el('tr', {}, [el('td', {}, [r.cellKey]), el('td', {}, [r.metric]), el('td', {'class': 'num'}, [r.n]),
        el('td', {'class': 'num'}, [r.mean === null ? '' : num(r.mean) + (r.sd === null ? '' : ' +- ' + num(r.sd))]),
        el('td', {'class': 'num'}, [r.ci95Low === null ? '' : num(r.ci95Low) + ' .. ' + num(r.ci95High)]),
        el('td', {'class': 'num'}, [num(r.min)]), el('td', {'class': 'num'}, [num(r.max)]),
        el('td', {'class': 'num'}, [r.deltaPercent === null ? '' : num(r.deltaPercent, 1) + ' %']),
        el('td', {'class': 'num ' + (imp > 0 ? 'better' : imp < 0 ? 'worse' : '')}, [imp === null ? '' : num(imp, 1) + ' %'])]
        .concat(published ? [el('td', {'class': 'num published'}, [num(r.published)]), el('td', {'class': 'num'}, [num(r.effect, 2)]),
          el('td', {'class': 'num published'}, [num(r.publishedEffect, 2)])] : []));
    });
    s.append(el('div', {'class': 'scroll'}, [el('table', {id: 'sweep-table'}, [el('thead', {}, [head]), el('tbody', {}, body)])]));
  }

  if (kind === 'experiment') { experimentReport(); } else { sweepReport(); }
})();
