/**
 * The providers view: a name or uuid, then the whole tree holding it from one call to
 * GET /ledger/resource_providers/{uuid}/tree; each provider with a bar per class, its traits,
 * aggregates and the consumers holding allocations on it (each opens the consumer view). Each
 * provider's timeline (GET /ledger/resource_providers/{uuid}/history) offers, per entry, the plan to
 * restore the provider to that point or to revert the request that wrote it.
 */
export const PROVIDERS_SCRIPT = String.raw`
  (function () {
    var form = document.getElementById('provider-form');
    var status = document.getElementById('provider-status');
    var tree = document.getElementById('provider-tree');
    var undo = document.getElementById('provider-undo');
    var timeline = document.getElementById('provider-timeline');

    function chips(className, items, none) {
      if (items.length === 0) return h('p', { class: 'meta', text: none });
      return h('ul', { class: 'chips ' + className }, items.map(function (item) { return h('li', { text: item }); }));
    }
    function inventoryTable(provider) {
      var classes = Object.keys(provider.inventories);
      if (classes.length === 0) return h('p', { class: 'meta', text: 'No inventory.' });
      return h('table', { class: 'inventories' }, classes.map(function (rc) {
        var inv = provider.inventories[rc];
        var reservedUnits = Math.trunc(inv.reserved * inv.allocation_ratio);
        return h('tr', { 'data-resource-class': rc, 'data-used': inv.used, 'data-capacity': inv.capacity, 'data-free': inv.free }, [
          h('th', { scope: 'row', text: rc }),
          h('td', {}, [capacityBar(rc, inv.used, reservedUnits, inv.free, 240)]),
          h('td', { class: 'figures', text: inv.used + ' used of ' + inv.capacity + ' (total ' + inv.total + ', reserved ' + inv.reserved
            + ', ratio ' + inv.allocation_ratio + ', free ' + inv.free + ')' }),
        ]);
      }));
    }
    function consumerTable(provider) {
      if (provider.consumers.length === 0) return h('p', { class: 'meta', text: 'No consumer holds allocations here.' });
      return h('table', { class: 'consumers' }, provider.consumers.map(function (held) {
        var open = h('button', { type: 'button', class: 'open-consumer', 'data-consumer': held.consumer_uuid, text: held.consumer_uuid,
          'aria-label': 'Open consumer ' + held.consumer_uuid });
        open.addEventListener('click', function () { views.consumer.open(held.consumer_uuid, ''); });
        return h('tr', { 'data-consumer': held.consumer_uuid }, [h('td', {}, [open]), h('td', { text: resourcesText(held.resources) })]);
      }));
    }
    function providerSection(provider, asked) {
      var section = h('section', { class: 'provider depth-' + Math.min(provider.depth, 6) + (asked ? ' asked' : ''),
        'data-uuid': provider.uuid, 'data-depth': provider.depth, 'aria-label': 'Provider ' + provider.name });
      section.appendChild(h('h2', { text: provider.name }));
      var history = h('button', { type: 'button', class: 'open-timeline', text: 'Timeline', 'aria-label': 'Timeline of ' + provider.name });
      history.addEventListener('click', function () { openTimeline(provider.uuid, provider.name); });
      section.appendChild(history);
      section.appendChild(h('p', { class: 'meta', text: provider.uuid + ' · generation ' + provider.generation
        + (provider.parent_provider_uuid ? ' · child of ' + provider.parent_provider_uuid : ' · root') }));
      section.appendChild(inventoryTable(provider));
      section.appendChild(h('h3', { text: 'Traits' }));
      section.appendChild(chips('traits', provider.traits, 'No traits.'));
      section.appendChild(h('h3', { text: 'Aggregates' }));
      section.appendChild(chips('aggregates', provider.aggregates, 'In no aggregate.'));
      section.appendChild(h('h3', { text: 'Consumers' }));
      section.appendChild(consumerTable(provider));
      return section;
    }
    function openTimeline(uuid, name) {
      var id = encodeURIComponent(uuid);
      return api('/ledger/resource_providers/' + id + '/history?order=asc&limit=1000').then(function (page) {
        timeline.replaceChildren();
        page.events.forEach(function (event) {
          var undoing = undoButtons(event, { as_of: event.position, providers: [uuid] }, function (kind, body, title) {
            undoPlan(undo, status, kind, body, title, function () { return find(uuid).then(function () { return openTimeline(uuid, name); }); });
          });
          timeline.appendChild(h('li', { class: 'event', 'data-type': event.type, 'data-position': event.position }, [
            h('div', { class: 'when', text: event.time + ' · ' + event.type + (event.operation ? ' (' + event.operation + ')' : '') }),
            h('div', { class: 'who', text: 'by user ' + event.user_id + ' · request ' + event.request_id + ' · generation ' + event.generation }),
            undoing[0], undoing[1],
          ]));
        });
        setStatus(status, 'Timeline of ' + name + ': ' + page.events.length + ' event' + (page.events.length === 1 ? '' : 's') + '.');
      }, failInto(status, timeline));
    }
    function render(view) {
      tree.replaceChildren();
      var root = view.providers[0];
      view.providers.forEach(function (provider) { tree.appendChild(providerSection(provider, provider.uuid === view.provider_uuid)); });
      setStatus(status, 'Tree of ' + root.name + ': ' + view.providers.length + ' provider' + (view.providers.length === 1 ? '' : 's') + '.');
    }
    // A name is resolved by upstream's own filter; a uuid goes straight to the tree.
    function find(text) {
      setStatus(status, 'Loading…');
      undo.replaceChildren();
      timeline.replaceChildren();
      var uuid = UUID.test(text) ? Promise.resolve(text) : api('/resource_providers?name=' + encodeURIComponent(text)).then(function (body) {
        if (body.resource_providers.length === 0) throw new Error('No provider named ' + text + '.');
        return body.resource_providers[0].uuid;
      });
      return uuid.then(function (found) { return api('/ledger/resource_providers/' + encodeURIComponent(found) + '/tree'); })
        .then(render, failInto(status, tree));
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      find(fieldOf(form, 'provider').value.trim());
    });
    // From a consumer's allocations: that provider's tree.
    views.providers = {
      open: function (uuid) {
        show('providers', false);
        fieldOf(form, 'provider').value = uuid;
        return find(uuid).then(function () {
          var asked = tree.querySelector('section.asked h2');
          if (asked) { asked.setAttribute('tabindex', '-1'); asked.focus(); }
        });
      },
    };
  })();
`;
