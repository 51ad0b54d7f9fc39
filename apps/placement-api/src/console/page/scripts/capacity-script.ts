/**
 * The capacity view: GET /ledger/capacity drawn as one row per resource class (total, reserved,
 * used, free, a bar, the projects using most: each opens that project's usage over time), then
 * the same per aggregate, with the projects using most of that aggregate.
 */
export const CAPACITY_SCRIPT = String.raw`
  (function () {
    var form = document.getElementById('capacity-form');
    var status = document.getElementById('capacity-status');
    var result = document.getElementById('capacity-result');
    var HEAD = ['Class', 'Total', 'Reserved', 'Capacity', 'Used', 'Free', ''];

    function row(figures, extra) {
      // Sums carry no single ratio: the effective one (capacity per unreserved unit) puts reserved in allocatable units.
      var ratio = figures.total > figures.reserved ? figures.capacity / (figures.total - figures.reserved) : 1;
      var reservedUnits = figures.reserved * ratio;
      var cells = [h('th', { scope: 'row', text: figures.resource_class })];
      ['total', 'reserved', 'capacity', 'used', 'free'].forEach(function (key) { cells.push(h('td', { class: 'number ' + key, text: String(figures[key]) })); });
      cells.push(h('td', {}, [capacityBar(figures.resource_class, figures.used, round(reservedUnits), figures.free, 200)]));
      cells.push(extra);
      return h('tr', { 'data-resource-class': figures.resource_class, 'data-used': figures.used, 'data-free': figures.free }, cells);
    }
    function table(className, head, rows) {
      return h('table', { class: className }, [h('tr', {}, head.map(function (title) { return h('th', { scope: 'col', text: title }); }))].concat(rows));
    }
    function topProjects(list) {
      return h('td', { class: 'top-projects' }, list.map(function (entry) {
        var button = h('button', { type: 'button', class: 'open-usage', 'data-project': entry.project_id, text: entry.project_id + ' (' + entry.used + ')',
          'aria-label': 'Usage over time of project ' + entry.project_id });
        button.addEventListener('click', function () { views.usage.open(entry.project_id); });
        return button;
      }));
    }
    function render(view) {
      result.replaceChildren();
      result.appendChild(h('h2', { text: 'Per resource class' }));
      result.appendChild(table('capacity-classes', HEAD.concat(['Projects using most']), view.resource_classes.map(function (figures) {
        return row(figures, topProjects(figures.top_projects));
      })));
      result.appendChild(h('p', { class: 'legend', text: 'Bars: used (orange), reserved (grey), free (green), in allocatable units. '
        + 'A provider in several aggregates counts in each below.' }));
      view.aggregates.forEach(function (aggregate) {
        var name = aggregate.aggregate === null ? 'In no aggregate' : 'Aggregate ' + aggregate.aggregate;
        result.appendChild(h('section', { class: 'aggregate', 'data-aggregate': aggregate.aggregate === null ? '' : aggregate.aggregate, 'aria-label': name }, [
          h('h3', { text: name }),
          table('capacity-aggregate', HEAD.concat(['Projects using most']), aggregate.resource_classes.map(function (figures) {
            return row(figures, topProjects(figures.top_projects));
          })),
        ]));
      });
      setStatus(status, view.resource_classes.length === 0 ? 'No inventory anywhere.'
        : view.resource_classes.length + ' resource classes, ' + view.aggregates.length + ' aggregate groups.');
    }
    function load() {
      setStatus(status, 'Loading…');
      return api('/ledger/capacity?top=' + encodeURIComponent(fieldOf(form, 'top').value || '5')).then(render, failInto(status, result));
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      load();
    });
    views.capacity = {};
  })();
`;
