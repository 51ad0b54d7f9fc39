/**
 * The dashboard's script, plain browser JavaScript shipped as it is (no build step, nothing
 * fetched from elsewhere). It reads only GET /ledger/usage, with the token the page asks for,
 * and draws one SVG chart per resource class: each bucket's average level (integral / bucket
 * length) as a bar, the bucket's peak as a step line, both in units.
 */
export const DASHBOARD_SCRIPT = String.raw`
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var W = 760, H = 220, LEFT = 56, RIGHT = 12, TOP = 12, BOTTOM = 34;
  var form = document.getElementById('query');
  var status = document.getElementById('status');
  var charts = document.getElementById('charts');
  var field = function (name) { return form.elements[name]; };

  var saved = sessionStorage.getItem('placement-token');
  if (saved) field('token').value = saved;
  if (!field('start').value) field('start').value = iso(Date.now() - 24 * 3600e3);

  function iso(ms) { return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'); }
  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function text(parent, x, y, content, anchor) {
    var t = el('text', { x: x, y: y, 'text-anchor': anchor || 'start', 'font-size': 11, fill: '#444' }, parent);
    t.textContent = content;
    return t;
  }
  function round(n) { return Math.round(n * 1000) / 1000; }
  function label(start) { return start.slice(0, 16).replace('T', ' '); }

  document.querySelectorAll('[data-range]').forEach(function (button) {
    button.addEventListener('click', function () {
      field('start').value = iso(Date.now() - Number(button.getAttribute('data-range')) * 3600e3);
      field('end').value = '';
      field('bucket').value = Number(button.getAttribute('data-range')) > 72 ? 'day' : 'hour';
    });
  });

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var params = new URLSearchParams();
    ['project_id', 'start', 'end', 'bucket', 'user_id', 'consumer_type'].forEach(function (name) {
      var value = field(name).value.trim();
      if (value) params.set(name, value);
    });
    var token = field('token').value.trim();
    sessionStorage.setItem('placement-token', token);
    status.textContent = 'Loading…';
    status.className = '';
    fetch('/ledger/usage?' + params.toString(), { headers: { 'X-Auth-Token': token, Accept: 'application/json' } })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (body) { return { ok: response.ok, status: response.status, body: body }; });
      })
      .then(function (reply) {
        if (!reply.ok) {
          var detail = reply.body.errors && reply.body.errors[0] ? reply.body.errors[0].detail : '';
          throw new Error(reply.status + ' ' + detail);
        }
        render(reply.body);
      })
      .catch(function (error) {
        charts.replaceChildren();
        status.textContent = String(error.message || error);
        status.className = 'error';
      });
  });

  function render(usage) {
    charts.replaceChildren();
    var classes = Object.keys(usage.resource_classes);
    status.textContent = classes.length === 0
      ? 'No usage for project ' + usage.project_id + ' between ' + usage.start + ' and ' + usage.end + '.'
      : 'Project ' + usage.project_id + ', ' + usage.start + ' to ' + usage.end + ' (' + usage.bucket + 'ly, read at ' + usage.now + ')';
    var bucketHours = usage.bucket === 'day' ? 24 : 1;
    classes.forEach(function (rc) { charts.appendChild(chart(rc, usage.resource_classes[rc], bucketHours)); });
  }

  function chart(rc, series, bucketHours) {
    var section = document.createElement('section');
    section.className = 'chart';
    section.setAttribute('data-resource-class', rc);
    section.setAttribute('data-peak', series.peak);
    section.setAttribute('data-integral', series.integral);
    var title = document.createElement('h2');
    title.textContent = rc;
    var summary = document.createElement('p');
    summary.className = 'summary';
    summary.textContent = 'peak ' + series.peak + ' · ' + round(series.integral) + ' ' + rc + '-hours';
    section.appendChild(title);
    section.appendChild(summary);

    var buckets = series.buckets;
    var svg = el('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': rc + ' usage' });
    var max = Math.max(1, series.peak);
    var plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
    var step = plotW / Math.max(1, buckets.length);
    var y = function (units) { return TOP + plotH - (units / max) * plotH; };
    el('rect', { x: LEFT, y: TOP, width: plotW, height: plotH, fill: '#fafafa', stroke: '#ccc' }, svg);
    [0, max / 2, max].forEach(function (v) {
      el('line', { x1: LEFT, x2: LEFT + plotW, y1: y(v), y2: y(v), stroke: '#e3e3e3' }, svg);
      text(svg, LEFT - 6, y(v) + 4, String(round(v)), 'end');
    });
    var peakPath = '';
    buckets.forEach(function (b, i) {
      var average = b.integral / bucketHours;
      var bar = el('rect', {
        class: 'bucket', x: LEFT + i * step + 0.5, y: y(average), width: Math.max(1, step - 1), height: Math.max(0, TOP + plotH - y(average)),
        fill: '#6aa5d8', 'data-start': b.start, 'data-peak': b.peak, 'data-integral': b.integral,
      }, svg);
      el('title', {}, bar).textContent = label(b.start) + ': peak ' + b.peak + ', ' + round(b.integral) + ' ' + rc + '-hours';
      peakPath += (i === 0 ? 'M' : 'L') + (LEFT + i * step) + ' ' + y(b.peak) + 'L' + (LEFT + (i + 1) * step) + ' ' + y(b.peak);
    });
    if (peakPath) el('path', { class: 'peak', d: peakPath, fill: 'none', stroke: '#d9622b', 'stroke-width': 2 }, svg);
    if (buckets.length > 0) {
      text(svg, LEFT, H - 12, label(buckets[0].start));
      text(svg, LEFT + plotW, H - 12, label(buckets[buckets.length - 1].start), 'end');
    }
    text(svg, LEFT + plotW / 2, H - 12, 'bars: average units per ' + (bucketHours === 24 ? 'day' : 'hour') + ' · line: peak', 'middle');
    section.appendChild(svg);
    return section;
  }
})();
`;
