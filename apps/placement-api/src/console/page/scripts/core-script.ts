/**
 * What every view of the console shares: the token (kept for the tab's session only), one call
 * to the service's JSON endpoints, DOM and SVG builders that only ever set text (nothing the
 * service answers is parsed as HTML), and the tabs. Plain browser JavaScript, shipped as it is;
 * the views' scripts follow it inside the same function (console-script.ts).
 */
export const CORE_SCRIPT = String.raw`
  var SVG = 'http://www.w3.org/2000/svg';
  var UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
  var tokenField = document.getElementById('token');
  var saved = sessionStorage.getItem('placement-token');
  if (saved) tokenField.value = saved;
  var views = {};

  function token() {
    var value = tokenField.value.trim();
    sessionStorage.setItem('placement-token', value);
    return value;
  }
  // Every call carries the token as X-Auth-Token, as noauth2 and Keystone both read it; without a
  // token nothing is asked at all (the service would only refuse it).
  // A body makes it a POST of that JSON (the undo's plan and apply); every other call is a GET.
  function api(path, version, body) {
    var value = token();
    if (!value) return Promise.reject(new Error('Enter a token first: nothing is asked of the service without one.'));
    var headers = { 'X-Auth-Token': value, Accept: 'application/json', 'OpenStack-API-Version': 'placement ' + (version || 'latest') };
    if (body) headers['Content-Type'] = 'application/json';
    return fetch(path, body ? { method: 'POST', headers: headers, body: JSON.stringify(body) } : { headers: headers })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          if (response.ok) return body;
          var detail = body.errors && body.errors[0] ? body.errors[0].detail : body.error && body.error.message ? body.error.message : response.statusText;
          var error = new Error(response.status + ' ' + String(detail).replace(/\s+/g, ' ').trim() + refusal(response.status));
          error.status = response.status;
          throw error;
        });
      });
  }
  function refusal(status) {
    if (status === 401) return ' The token is missing, expired or revoked: enter another.';
    if (status === 403) return ' This token\'s roles do not allow this view: it needs a token with the admin or service role, or a policy file that opens the rule named.';
    return '';
  }
  function h(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (child) { node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child); });
    return node;
  }
  function svg(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function setStatus(node, text, isError) {
    node.textContent = text;
    node.className = 'status' + (isError ? ' error' : '');
  }
  function failInto(node, clear) {
    return function (error) {
      if (clear) clear.replaceChildren();
      setStatus(node, String(error.message || error), true);
    };
  }
  // An undo's plan as the API answers it (POST /ledger/revert or /ledger/restore): per stream the
  // events to append and what refuses it, the later writes in the way; Apply sends the plan's hash,
  // then reopen() shows the view again and the request the apply was.
  function undoPlan(container, statusNode, kind, body, title, reopen) {
    container.replaceChildren(h('p', { class: 'status', text: 'Planning…' }));
    api('/ledger/' + kind, null, body).then(function (answer) {
      var block = h('section', { class: 'undo-plan', 'aria-label': 'Plan', 'data-status': answer.status }, [
        h('h3', { text: 'Plan: ' + title, tabindex: '-1' }),
        h('p', { class: 'meta', text: answer.status + ' · plan hash ' + answer.plan_hash }),
        h('ul', { class: 'plan-streams' }, answer.streams.map(function (stream) {
          var lines = stream.events.map(function (e) { return '+ ' + e.type; }).concat(stream.problems.map(function (p) { return 'refused: ' + p; }));
          return h('li', { 'data-stream': stream.stream, text: stream.stream + ': ' + (lines.join(', ') || 'as it was') });
        })),
        h('ul', { class: 'plan-conflicts' }, answer.conflicts.map(function (c) {
          return h('li', { text: 'changed since by request ' + c.request_id + ' of user ' + c.user_id + ' at ' + c.time + ' (' + c.stream + ')' });
        })),
      ]);
      if (answer.status === 'ready') {
        var apply = h('button', { type: 'button', class: 'apply-plan', text: 'Apply this plan' });
        apply.addEventListener('click', function () {
          api('/ledger/' + kind, null, Object.assign({}, body, { apply: true, plan_hash: answer.plan_hash })).then(function (done) {
            return reopen().then(function () { container.replaceChildren(h('p', { class: 'status applied', text: 'Applied as request ' + done.request_id + '.' })); });
          }, failInto(statusNode, null));
        });
        block.appendChild(apply);
      }
      container.replaceChildren(block);
      block.querySelector('h3').focus();
    }, failInto(statusNode, container));
  }
  // A timeline entry's two undo buttons: the plan to restore to its point, and to revert its request.
  function undoButtons(event, restoreBody, plan) {
    var restoreHere = h('button', { type: 'button', class: 'restore-here', text: 'Restore to here', 'aria-label': 'Plan restoring to ' + event.time });
    restoreHere.addEventListener('click', function () { plan('restore', restoreBody, 'restore to ' + event.time); });
    var revertThis = h('button', { type: 'button', class: 'revert-request', text: 'Revert this request', 'aria-label': 'Plan reverting request ' + event.request_id });
    revertThis.addEventListener('click', function () { plan('revert', { request_id: event.request_id }, 'revert of request ' + event.request_id); });
    return [restoreHere, revertThis];
  }
  function round(n) { return Math.round(n * 1000) / 1000; }
  function resourcesText(resources) {
    return Object.keys(resources).sort().map(function (rc) { return rc + ' ' + resources[rc]; }).join(', ');
  }
  function fieldOf(form, name) { return form.elements[name]; }

  // A bar of used, reserved and free in allocatable units; its widths are what the tests read.
  function capacityBar(label, used, reservedUnits, free, width) {
    var whole = Math.max(1, used + reservedUnits + Math.max(0, free));
    var scale = function (units) { return round((units / whole) * width); };
    var bar = svg('svg', { class: 'bar', width: width, height: 14, viewBox: '0 0 ' + width + ' 14', role: 'img',
      'aria-label': label + ': ' + used + ' used, ' + reservedUnits + ' reserved, ' + free + ' free' });
    var x = 0;
    [['used', used, '#d9622b'], ['reserved', reservedUnits, '#9aa3ad'], ['free', Math.max(0, free), '#7cc47f']].forEach(function (part) {
      var w = scale(part[1]);
      svg('rect', { class: part[0], x: x, y: 0, width: w, height: 14, fill: part[2], 'data-units': part[1] }, bar);
      x += w;
    });
    return bar;
  }

  var tabs = Array.prototype.slice.call(document.querySelectorAll('[role=tab]'));
  function show(name, focusPanel) {
    tabs.forEach(function (tab) {
      var on = tab.getAttribute('data-view') === name;
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      document.getElementById(tab.getAttribute('aria-controls')).hidden = !on;
    });
    if (location.hash !== '#' + name) history.replaceState(null, '', '#' + name);
    if (focusPanel) {
      var first = document.querySelector('#view-' + name + ' input, #view-' + name + ' textarea, #view-' + name + ' button');
      if (first) first.focus();
    }
    if (views[name] && views[name].shown) views[name].shown();
  }
  tabs.forEach(function (tab, i) {
    tab.addEventListener('click', function () { show(tab.getAttribute('data-view'), false); });
    // Arrows move along the tabs, as in any tab list; Tab and Enter work as on any button.
    tab.addEventListener('keydown', function (event) {
      var step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      var next = tabs[(i + step + tabs.length) % tabs.length];
      next.focus();
      show(next.getAttribute('data-view'), false);
    });
  });
  document.getElementById('auth').addEventListener('submit', function (event) {
    event.preventDefault();
    token();
    setStatus(document.getElementById('auth-status'), tokenField.value ? 'Token set for this tab.' : 'No token: calls will be refused.', !tokenField.value);
    var current = tabs.filter(function (tab) { return tab.getAttribute('aria-selected') === 'true'; })[0];
    show(current.getAttribute('data-view'), true);
  });
`;
