import { CAPACITY_SCRIPT } from './scripts/capacity-script.js';
import { CONSUMER_SCRIPT } from './scripts/consumer-script.js';
import { CORE_SCRIPT } from './scripts/core-script.js';
import { EXPLAIN_SCRIPT } from './scripts/explain-script.js';
import { PROVIDERS_SCRIPT } from './scripts/providers-script.js';
import { USAGE_SCRIPT } from './scripts/usage-script.js';

/**
 * The console's one script: the shared helpers, then each view, in one function so nothing
 * leaks into the page's globals, allowed by its hash. The view comes from the address' fragment
 * (#providers, #consumer, #explain, #capacity, #usage); the old dashboard's address opens usage.
 */
export const CONSOLE_SCRIPT = `
(function () {
  'use strict';
${CORE_SCRIPT}
${PROVIDERS_SCRIPT}
${CONSUMER_SCRIPT}
${EXPLAIN_SCRIPT}
${CAPACITY_SCRIPT}
${USAGE_SCRIPT}
  var initial = location.hash.slice(1);
  if (!/^[a-z]+$/.test(initial) || !document.getElementById('view-' + initial)) {
    initial = location.pathname.replace(/\\/+$/, '') === '/ledger/dashboard' ? 'usage' : 'providers';
  }
  show(initial, false);
})();
`;
