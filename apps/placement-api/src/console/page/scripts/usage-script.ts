/**
 * The usage view (formerly the whole of /ledger/dashboard): GET /ledger/usage for a project over
 * a range, one SVG chart per resource class: each bucket's average level (integral / bucket
 * length) as a bar, the bucket's peak as a step line, both in units.
 */
export const USAGE_SCRIPT = String.raw`
  (function () {
    var W = 760, H = 220, LEFT = 56, RIGHT = 12, TOP = 12, BOTTOM = 34;
    var form = document.getElementById('query');
    var status = document.getElementById('status');
    var charts = document.getElementById('charts');
    var field = function (name) { return fieldOf(form, name); };

    function iso(ms) { return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'); }
    function text(parent, x, y, content, anchor) {
      var t = svg('text', { x: x, y: y, 'text-anchor': anchor || 'start', 'font-size': 11, fill: '#444' }, parent);
      t.textContent = content;
      return t;
    }
    function label(start) { return start.slice(0, 16).replace('T', ' '); }
    if (!field('start').value) field('start').value = iso(Date.now() - 24 * 3600e3);

    document.querySelectorAll('[data-range]').forEach(function (button) {
      button.addEventListener('click', function () {
        field('start').value = iso(Date.now() - Number(button.getAttribute('data-range')) * 3600e3);
        field('end').value = '';
        field('bucket').value = Number(button.getAttribute('data-range')) > 72 ? 'day' : 'hour';
      });
    });

    function load() {
      var params = new URLSearchParams();
      ['project_id', 'start', 'end', 'bucket', 'user_id', 'consumer_type'].forEach(function (name) {
        var value = field(name).value.trim();
        if (value) params.set(name, value);
      });
      setStatus(status, 'Loading…');
      return api('/ledger/usage?' + params.toString()).then(render, failInto(status, charts));
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      load();
    });

    function render(usage) {
      charts.replaceChildren();
      var classes = Object.keys(usage.resource_classes);
      setStatus(status, classes.length === 0
        ? 'No usage for project ' + usage.project_id + ' between ' + usage.start + ' and ' + usage.end + '.'
        : 'Project ' + usage.project_id + ', ' + usage.start + ' to ' + usage.end + ' (' + (usage.bucket === 'day' ? 'daily' : 'hourly') + ', read at ' + usage.now + ')');
      var bucketHours = usage.bucket === 'day' ? 24 : 1;
      classes.forEach(function (rc) { charts.appendChild(chart(rc, usage.resource_classes[rc], bucketHours)); });
    }

    function chart(rc, series, bucketHours) {
      var section = h('section', { class: 'chart', 'data-resource-class': rc, 'data-peak': series.peak, 'data-integral': series.integral }, [
        h('h2', { text: rc }), h('p', { class: 'summary', text: 'peak ' + series.peak + ' · ' + round(series.integral) + ' ' + rc + '-hours' }),
      ]);
      var buckets = series.buckets;
      var plot = svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': rc + ' usage' });
      var max = Math.max(1, series.peak);
      var plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
      var step = plotW / Math.max(1, buckets.length);
      var y = function (units) { return TOP + plotH - (units / max) * plotH; };
      svg('rect', { x: LEFT, y: TOP, width: plotW, height: plotH, fill: '#fafafa', stroke: '#ccc' }, plot);
      [0, max / 2, max].forEach(function (v) {
        svg('line', { x1: LEFT, x2: LEFT + plotW, y1: y(v), y2: y(v), stroke: '#e3e3e3' }, plot);
        text(plot, LEFT - 6, y(v) + 4, String(round(v)), 'end');
      });
      var peakPath = '';
      buckets.forEach(function (b, i) {
        var average = b.integral / bucketHours;
        var bar = svg('rect', {
          class: 'bucket', x: LEFT + i * step + 0.5, y: y(average), width: Math.max(1, step - 1), height: Math.max(0, TOP + plotH - y(average)),
          fill: '#6aa5d8', 'data-start': b.start, 'data-peak': b.peak, 'data-integral': b.integral,
        }, plot);
        svg('title', {}, bar).textContent = label(b.start) + ': peak ' + b.peak + ', ' + round(b.integral) + ' ' + rc + '-hours';
        peakPath += (i === 0 ? 'M' : 'L') + (LEFT + i * step) + ' ' + y(b.peak) + 'L' + (LEFT + (i + 1) * step) + ' ' + y(b.peak);
      });
      if (peakPath) svg('path', { class: 'peak', d: peakPath, fill: 'none', stroke: '#d9622b', 'stroke-width': 2 }, plot);
      if (buckets.length > 0) {
        text(plot, LEFT, H - 12, label(buckets[0].start));
        text(plot, LEFT + plotW, H - 12, label(buckets[buckets.length - 1].start), 'end');
      }
      text(plot, LEFT + plotW / 2, H - 12, 'bars: average units per ' + (bucketHours === 24 ? 'day' : 'hour') + ' · line: peak', 'middle');
      section.appendChild(plot);
      return section;
    }

    // From the capacity view: one project's last 7 days, charted at once.
    function open(project) {
      show('usage', false);
      field('project_id').value = project;
      field('start').value = iso(Date.now() - 168 * 3600e3);
      field('end').value = '';
      field('bucket').value = 'day';
      return load().then(function () { status.setAttribute('tabindex', '-1'); status.focus(); });
    }
    views.usage = { open: open };
  })();
`;
