import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RULES } from '#platform/policy/defaults.js';
import { parsePolicyDocument } from '#platform/policy/policy-file.js';
import { ROUTE_POLICIES } from './route-policies.js';
import { samplePolicy } from './sample-policy.js';

const uncommented = (text: string) => text.split('\n').filter((line) => line.startsWith('#"')).map((line) => line.slice(1)).join('\n');

describe('the sample policy file', () => {
  it('is what docs/policy.sample.yaml holds (npm run policy:sample > docs/policy.sample.yaml)', () => {
    expect(readFileSync(join(__dirname, '../../../../../docs/policy.sample.yaml'), 'utf8')).toBe(samplePolicy());
  });

  it('lists every registered rule with its default, readable as a policy file once uncommented', () => {
    const rules = parsePolicyDocument(uncommented(samplePolicy()));
    expect([...rules.keys()]).toEqual(DEFAULT_RULES.map((rule) => rule.name));
  });

  it('names every route a rule guards, the ledger\'s included', () => {
    const text = samplePolicy();
    for (const [route, policy] of Object.entries(ROUTE_POLICIES)) {
      if (policy) expect(text).toContain(`# ${route.replace(/:([^/]+)/g, '{$1}')}\n`);
    }
    expect(text).toContain('# GET /ledger/events\n# Intended scope(s): project\n#"placement:ledger:events": "rule:admin_or_service_api"');
  });
});
