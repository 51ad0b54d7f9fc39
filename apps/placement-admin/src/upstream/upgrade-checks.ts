import type { Status } from '#admin/rebuild/status.js';
import { CheckCode, CheckResult } from './upgrade-check-result.js';

/**
 * The judgements of `placement-status upgrade check`, pure over what was read, so each verdict
 * is a unit test. Upstream checks its own data migrations (root provider ids, incomplete
 * consumers), which our log cannot lack; ours check what an upgrade of Placement Ledger needs.
 */

const SYNC = 'Run "placement-manage db sync".';

/** Every migration applied and the log's tables present: a server of this version can start without changing the schema. */
export function schemaCheck(status: Status, logPresent: boolean): CheckResult {
  if (!logPresent || !status.schemaReady) {
    return { code: CheckCode.Failure, details: `The database has no Placement Ledger schema yet. ${SYNC}` };
  }
  if (status.pendingMigrations.length > 0) {
    return {
      code: CheckCode.Failure,
      details: `${status.pendingMigrations.length} schema migrations are not applied: ${status.pendingMigrations.join(', ')}. ${SYNC}`,
    };
  }
  return { code: CheckCode.Success };
}

/** Every projection's checkpoint at the log's head, and no rebuild running or half done. */
export function readModelsCheck(status: Status): CheckResult {
  if (!status.schemaReady) return { code: CheckCode.Failure, details: `There are no read models yet. ${SYNC}` };
  const behind = status.projections.filter((projection) => projection.lag > 0);
  const problems: string[] = [];
  if (behind.length > 0) {
    problems.push(`${behind.map((p) => `${p.name} is ${p.lag} events behind the log`).join('; ')}.`
      + ' With asynchronous projections this passes once the projector catches up; otherwise run "placement-admin verify" and "placement-admin rebuild".');
  }
  if (status.rebuildRunning) problems.push('A rebuild of the read models is running; check again when it has finished.');
  if (status.leftovers.length > 0) {
    problems.push(`An interrupted rebuild or verify left the schemas ${status.leftovers.join(', ')}; the next "placement-admin rebuild" drops them.`);
  }
  return problems.length > 0 ? { code: CheckCode.Warning, details: problems.join(' ') } : { code: CheckCode.Success };
}

/**
 * oslo.upgradecheck's "Policy File JSON to YAML Migration": a JSON policy file still works, but
 * oslo.policy deprecated the format; a file that cannot be used at all stops the server, a failure.
 */
export function policyFormatCheck(path: string | undefined, text: string | undefined, problem: string | undefined): CheckResult {
  if (!path) return { code: CheckCode.Success };
  if (problem) return { code: CheckCode.Failure, details: `The policy file cannot be used: ${problem}` };
  if (path.toLowerCase().endsWith('.json') || isJsonDocument(text ?? '')) {
    return {
      code: CheckCode.Warning,
      details: `The policy file ${path} is in JSON, a format oslo.policy has deprecated. Convert it to YAML`
        + ' (oslopolicy-convert-json-to-yaml does so) and point [oslo_policy] policy_file at the new file.',
    };
  }
  return { code: CheckCode.Success };
}

function isJsonDocument(text: string): boolean {
  try {
    const document = JSON.parse(text);
    return typeof document === 'object' && document !== null && !Array.isArray(document);
  } catch {
    return false;
  }
}

/** With keystone, the service user can get a token: the server could validate its callers' tokens. */
export async function keystoneCheck(issueServiceToken: () => Promise<unknown>): Promise<CheckResult> {
  try {
    await issueServiceToken();
    return { code: CheckCode.Success };
  } catch (error) {
    return { code: CheckCode.Failure, details: `Keystone did not issue the service user a token: ${error instanceof Error ? error.message : String(error)}` };
  }
}
