import type { ProjectionStatus, Status } from '#admin/rebuild/status.js';
import { CheckCode } from './upgrade-check-result.js';
import { keystoneCheck, policyFormatCheck, readModelsCheck, schemaCheck } from './upgrade-checks.js';

const projection = (name: string, lag: number): ProjectionStatus => ({
  name, mode: 'inline', checkpoint: null, lag, updatedAt: null, rebuiltAt: null, rebuiltEvents: null, rebuildSeconds: null,
});

const current: Status = {
  log: { events: 3, head: { commit: '10', position: '3' } },
  projections: [projection('providers', 0), projection('allocations', 0)],
  schemaReady: true, pendingMigrations: [], rebuildRunning: false, leftovers: [],
};

describe('upgrade checks', () => {
  it('Database Schema: success when every migration is applied; failure naming the missing ones, or an empty database', () => {
    expect(schemaCheck(current, true)).toEqual({ code: CheckCode.Success });
    const pending = schemaCheck({ ...current, pendingMigrations: ['UsageKeysBytewise1700000000022'] }, true);
    expect(pending).toEqual({ code: CheckCode.Failure, details: expect.stringContaining('UsageKeysBytewise1700000000022') });
    expect(pending.details).toContain('placement-manage db sync');
    expect(schemaCheck({ ...current, schemaReady: false }, false).code).toBe(CheckCode.Failure);
    expect(schemaCheck(current, false).code).toBe(CheckCode.Failure);
  });

  it('Read Models: success at the log\'s head; a warning for lag, a running rebuild or a leftover schema', () => {
    expect(readModelsCheck(current)).toEqual({ code: CheckCode.Success });
    const lagging = readModelsCheck({ ...current, projections: [projection('providers', 0), projection('allocations', 7)] });
    expect(lagging.code).toBe(CheckCode.Warning);
    expect(lagging.details).toContain('allocations is 7 events behind the log');
    expect(readModelsCheck({ ...current, rebuildRunning: true }).code).toBe(CheckCode.Warning);
    expect(readModelsCheck({ ...current, leftovers: ['read_models_123'] }).details).toContain('read_models_123');
    expect(readModelsCheck({ ...current, schemaReady: false }).code).toBe(CheckCode.Failure);
  });

  it('Policy File JSON to YAML Migration: a JSON file is a warning, by name or by content; an unusable one a failure', () => {
    expect(policyFormatCheck(undefined, undefined, undefined)).toEqual({ code: CheckCode.Success });
    expect(policyFormatCheck('/etc/placement/policy.yaml', '"placement:traits:list": "role:admin"\n', undefined)).toEqual({ code: CheckCode.Success });
    expect(policyFormatCheck('/etc/placement/policy.json', '{}', undefined).code).toBe(CheckCode.Warning);
    expect(policyFormatCheck('/etc/placement/rules', '{"placement:traits:list": "role:admin"}', undefined).code).toBe(CheckCode.Warning);
    expect(policyFormatCheck('/etc/placement/policy.yaml', undefined, 'cannot read /etc/placement/policy.yaml: ENOENT'))
      .toEqual({ code: CheckCode.Failure, details: 'The policy file cannot be used: cannot read /etc/placement/policy.yaml: ENOENT' });
  });

  it('Keystone: success when the service user gets a token; failure with Keystone\'s reason otherwise', async () => {
    expect(await keystoneCheck(async () => ({ token: 't' }))).toEqual({ code: CheckCode.Success });
    expect(await keystoneCheck(async () => { throw new Error('Keystone at http://k:5000 is unreachable: ECONNREFUSED'); })).toEqual({
      code: CheckCode.Failure, details: 'Keystone did not issue the service user a token: Keystone at http://k:5000 is unreachable: ECONNREFUSED',
    });
  });
});
