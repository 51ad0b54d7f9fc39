/**
 * The consumer view: its allocations now (GET /allocations/{uuid}), its history as a timeline
 * (GET /ledger/consumers/{uuid}/history: who, when, request id, and what changed from the
 * previous set), and its allocations as of any past time or position (GET /ledger/as-of/...),
 * which each timeline entry offers at its own position. Each entry also plans, for an admin, the
 * restore of the consumer to that point and the revert of the request that wrote it
 * (POST /ledger/restore, /ledger/revert): the plan is shown, and applied only with its hash.
 */
export const CONSUMER_SCRIPT = String.raw`
  (function () {
    var form = document.getElementById('consumer-form');
    var status = document.getElementById('consumer-status');
    var now = document.getElementById('consumer-now');
    var past = document.getElementById('consumer-as-of');
    var timeline = document.getElementById('consumer-timeline');
    var undo = document.getElementById('consumer-undo');

    function allocationsBlock(title, body, className) {
      var providers = Object.keys(body.allocations || {});
      var block = h('section', { class: className, 'aria-label': title }, [h('h3', { text: title })]);
      if (providers.length === 0) {
        block.appendChild(h('p', { class: 'meta empty', text: 'No allocations.' }));
        return block;
      }
      block.appendChild(h('p', { class: 'meta', text: 'project ' + body.project_id + ' · user ' + body.user_id + ' · type '
        + body.consumer_type + ' · generation ' + body.consumer_generation }));
      block.appendChild(h('table', { class: 'allocations' }, providers.map(function (rp) {
        var open = h('button', { type: 'button', class: 'open-provider', 'data-provider': rp, text: rp, 'aria-label': 'Open provider ' + rp });
        open.addEventListener('click', function () { views.providers.open(rp); });
        return h('tr', { 'data-provider': rp }, [h('td', {}, [open]), h('td', { class: 'resources', text: resourcesText(body.allocations[rp].resources) })]);
      })));
      return block;
    }
    // What one event changed, against the set the previous event left.
    function changes(before, event) {
      if (event.type === 'ConsumerRemoved') return { set: {}, lines: ['removed every allocation'] };
      if (event.type !== 'ConsumerAllocationsReplaced') return { set: before.set, lines: [event.type] };
      var after = event.data.allocations, lines = [];
      if (before.project !== undefined && before.project !== event.data.project_id) lines.push('project ' + before.project + ' → ' + event.data.project_id);
      Object.keys(Object.assign({}, before.set, after)).sort().forEach(function (rp) {
        var was = before.set[rp] || {}, is = after[rp] || {};
        Object.keys(Object.assign({}, was, is)).sort().forEach(function (rc) {
          if (was[rc] === is[rc]) return;
          if (was[rc] === undefined) lines.push('+' + rc + ' ' + is[rc] + ' on ' + rp);
          else if (is[rc] === undefined) lines.push('−' + rc + ' ' + was[rc] + ' on ' + rp);
          else lines.push(rc + ' ' + was[rc] + ' → ' + is[rc] + ' on ' + rp);
        });
      });
      if (lines.length === 0) lines.push('same allocations rewritten');
      return { set: after, project: event.data.project_id, lines: lines };
    }
    function renderTimeline(events, consumer) {
      timeline.replaceChildren();
      var state = { set: {} };
      events.forEach(function (event) {
        state = changes(state, event);
        var atThisPoint = h('button', { type: 'button', class: 'as-of-here', text: 'Allocations as of this point',
          'aria-label': 'Allocations as of ' + event.time });
        atThisPoint.addEventListener('click', function () { open(consumer, event.position); });
        var undoing = undoButtons(event, { as_of: event.position, consumers: [consumer] }, function (kind, body, title) { plan(consumer, kind, body, title); });
        timeline.appendChild(h('li', { class: 'event', 'data-type': event.type, 'data-generation': event.generation, 'data-position': event.position }, [
          h('div', { class: 'when', text: event.time + ' · ' + event.type + (event.operation ? ' (' + event.operation + ')' : '') }),
          h('div', { class: 'who', text: 'by user ' + event.user_id + ', project ' + event.project_id + ' · request ' + event.request_id
            + ' · generation ' + event.generation }),
          h('ul', { class: 'changes' }, state.lines.map(function (line) { return h('li', { text: line }); })),
          atThisPoint, undoing[0], undoing[1],
        ]));
      });
    }
    function plan(consumer, kind, body, title) {
      undoPlan(undo, status, kind, body, title, function () { return open(consumer); });
    }
    function open(consumer, asOf) {
      show('consumer', false);
      fieldOf(form, 'consumer').value = consumer;
      fieldOf(form, 'as_of').value = asOf || '';
      setStatus(status, 'Loading…');
      var id = encodeURIComponent(consumer);
      var history = api('/ledger/consumers/' + id + '/history?order=asc&limit=1000')
        .catch(function (error) { if (error.status === 404) return { events: [] }; throw error; });
      var then = asOf ? api('/ledger/as-of/allocations/' + id + '?as_of=' + encodeURIComponent(asOf)) : Promise.resolve(null);
      return Promise.all([api('/allocations/' + id, '1.38'), history, then]).then(function (answers) {
        now.replaceChildren(allocationsBlock('Allocations now', answers[0], 'now'));
        past.replaceChildren();
        undo.replaceChildren();
        if (answers[2]) past.appendChild(allocationsBlock('Allocations as of ' + asOf, answers[2], 'as-of'));
        renderTimeline(answers[1].events, consumer);
        setStatus(status, 'Consumer ' + consumer + ': ' + answers[1].events.length + ' event' + (answers[1].events.length === 1 ? '' : 's')
          + (answers[1].next_marker ? ' (the first 1000 shown)' : '') + '.');
        (answers[2] ? past : now).querySelector('h3').setAttribute('tabindex', '-1');
        (answers[2] ? past : now).querySelector('h3').focus();
      }, function (error) {
        [now, past, timeline, undo].forEach(function (node) { node.replaceChildren(); });
        failInto(status, null)(error);
      });
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      open(fieldOf(form, 'consumer').value.trim(), fieldOf(form, 'as_of').value.trim());
    });
    views.consumer = { open: open };
  })();
`;
