/**
 * "Why no host?": an allocation_candidates query pasted or built from a flavor-like form, sent
 * to GET /ledger/explain/allocation_candidates; the answer drawn as a funnel per request group
 * (providers left after each filter), the search's own counts, and for a named provider the
 * first filter that left it out of each group.
 */
export const EXPLAIN_SCRIPT = String.raw`
  (function () {
    var form = document.getElementById('explain-form');
    var status = document.getElementById('explain-status');
    var result = document.getElementById('explain-result');

    // Build the query the way a flavor asks: resources, required traits, member_of.
    document.getElementById('explain-build').addEventListener('click', function () {
      var resources = [['VCPU', 'vcpus'], ['MEMORY_MB', 'memory_mb'], ['DISK_GB', 'disk_gb']].filter(function (pair) {
        return Number(fieldOf(form, pair[1]).value) > 0;
      }).map(function (pair) { return pair[0] + ':' + Number(fieldOf(form, pair[1]).value); });
      var params = new URLSearchParams();
      if (resources.length) params.set('resources', resources.join(','));
      var required = fieldOf(form, 'required').value.split(',').map(function (t) { return t.trim(); }).filter(Boolean);
      if (required.length) params.set('required', required.join(','));
      var member = fieldOf(form, 'member_of').value.trim();
      if (member) params.set('member_of', member);
      fieldOf(form, 'query').value = decodeURIComponent(params.toString());
      fieldOf(form, 'query').focus();
    });

    function funnel(group) {
      var first = Math.max(1, group.steps.length ? group.steps[0].remaining : 1);
      var section = h('section', { class: 'group', 'data-suffix': group.suffix, 'aria-label': 'Request group ' + (group.suffix || '(unsuffixed)') },
        [h('h3', { text: 'Group ' + (group.suffix ? '"' + group.suffix + '"' : '(unsuffixed)') })]);
      section.appendChild(h('ol', { class: 'funnel' }, group.steps.map(function (step) {
        var bar = svg('svg', { class: 'bar', width: 240, height: 12, role: 'img', 'aria-label': step.remaining + ' providers left' });
        svg('rect', { x: 0, y: 0, width: round((step.remaining / first) * 240), height: 12, fill: step.remaining ? '#6aa5d8' : '#b00020' }, bar);
        return h('li', { class: 'step', 'data-step': step.step, 'data-remaining': step.remaining }, [bar, ' ' + step.step + ': ' + step.remaining + ' left']);
      })));
      return section;
    }
    function verdicts(provider) {
      var section = h('section', { class: 'provider-verdict', 'aria-label': 'Why provider ' + provider.uuid },
        [h('h3', { text: 'Provider ' + provider.uuid })]);
      if (!provider.exists) {
        section.appendChild(h('p', { class: 'verdict out', text: 'No such provider.' }));
        return section;
      }
      section.appendChild(h('ul', {}, provider.groups.map(function (verdict) {
        var group = verdict.suffix ? 'group "' + verdict.suffix + '"' : 'the unsuffixed group';
        var text = verdict.in_candidates ? 'In candidates for ' + group + '.'
          : verdict.excluded_by ? 'Left out of ' + group + ' by ' + verdict.excluded_by.step + ': ' + verdict.excluded_by.reason
          : 'Passed every filter of ' + group + ', but no combination of the groups used it.';
        return h('li', { class: 'verdict ' + (verdict.in_candidates ? 'in' : 'out'), 'data-suffix': verdict.suffix,
          'data-excluded-by': verdict.excluded_by ? verdict.excluded_by.step : '', text: text });
      })));
      return section;
    }
    function render(answer) {
      result.replaceChildren();
      result.appendChild(h('p', { class: 'candidates', 'data-candidates': answer.candidates,
        text: answer.candidates + ' allocation candidate' + (answer.candidates === 1 ? '' : 's') + (answer.as_of ? ' as of ' + answer.as_of : '') + '.' }));
      if (answer.provider) result.appendChild(verdicts(answer.provider));
      answer.groups.forEach(function (group) { result.appendChild(funnel(group)); });
      result.appendChild(h('h3', { text: 'The search\'s own counts' }));
      result.appendChild(h('table', { class: 'search' }, answer.search.map(function (step) {
        return h('tr', { 'data-step': step.step, 'data-group': step.group === null ? '*' : step.group }, [
          h('td', { text: step.group === null ? 'request' : step.group || '(unsuffixed)' }), h('td', { text: step.step }),
          h('td', { class: 'number', text: String(step.count) }), h('td', { class: 'meta', text: step.detail }),
        ]);
      })));
      setStatus(status, 'Explained.');
      result.querySelector('p').setAttribute('tabindex', '-1');
      result.querySelector('p').focus();
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      // A pasted URL or query string alike: only what follows "?" counts.
      var text = fieldOf(form, 'query').value.trim();
      var params = new URLSearchParams(text.indexOf('?') >= 0 ? text.slice(text.indexOf('?') + 1) : text);
      params.delete('provider');
      params.delete('as_of');
      var asOf = fieldOf(form, 'as_of').value.trim();
      if (asOf) params.set('as_of', asOf);
      var named = fieldOf(form, 'provider').value.trim();
      setStatus(status, 'Loading…');
      var provider = !named || UUID.test(named) ? Promise.resolve(named) : api('/resource_providers?name=' + encodeURIComponent(named)).then(function (body) {
        if (body.resource_providers.length === 0) throw new Error('No provider named ' + named + '.');
        return body.resource_providers[0].uuid;
      });
      provider.then(function (uuid) {
        if (uuid) params.set('provider', uuid);
        return api('/ledger/explain/allocation_candidates?' + params.toString());
      }).then(render, failInto(status, result));
    });
    views.explain = {};
  })();
`;
