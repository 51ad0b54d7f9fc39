import { readFileSync } from 'node:fs';
import { Pool } from 'pg';
import { hasEventLog, PostgresEventStore } from '#event-store/index.js';
import { redactUrl } from '#config-file/redact-url.js';
import { AdminLog, openAdminLog } from '../admin-log.js';
import { debugRequested, errorText } from '../error-text.js';
import { ConfigError, loadConfig } from '#platform/config.js';
import { KeystoneClient } from '#platform/auth/keystone-client.js';
import { PolicyFileError, readPolicyFile } from '#platform/policy/policy-file.js';
import { READ_MODELS_SCHEMA, searchPathOption } from '#placement/persistence/read-model-schema.js';
import { readStatus, Status } from '#admin/rebuild/status.js';
import { CommandIo, commandConfig } from './command-config.js';
import { CHECK_ERROR_EXIT, CheckCode, CheckResult, formatCheckResults, worstCode } from './upgrade-check-result.js';
import { keystoneCheck, policyFormatCheck, readModelsCheck, schemaCheck } from './upgrade-checks.js';

const USAGE = `usage: placement-status [--config-file PATH]... [--config-dir DIR]... [--debug] upgrade check

Checks that this deployment is ready to run this version of Placement Ledger, as upstream's
placement-status does: prints oslo.upgradecheck's results table and exits with the worst result
(0 success, 1 warning, 2 failure; 255 when the checks could not run, with the error's message,
and its stack trace with --debug or LOG_LEVEL=debug).`;

type Named = { readonly name: string; readonly result: CheckResult };

/** `placement-status upgrade check`; returns the exit code. */
export async function runStatus(allArgs: readonly string[], env: NodeJS.ProcessEnv, io: CommandIo): Promise<number> {
  if (allArgs.includes('--help') || allArgs.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  const argv = allArgs.filter((arg) => arg !== '--debug');
  const config = commandConfig(argv, env, io);
  if (!config.ok) return CHECK_ERROR_EXIT;
  if (config.rest.join(' ') !== 'upgrade check') {
    io.err(`placement-status: expected "upgrade check", not "${config.rest.join(' ')}"`);
    io.err(USAGE);
    return 2;
  }
  try {
    const results = await runChecks(config.env);
    io.out(formatCheckResults(results));
    return worstCode(results);
  } catch (error) {
    // Upstream prints the traceback; an operator gets the message, a developer asks with --debug.
    io.out(`Error:\n${errorText(error, debugRequested(allArgs, config.env))}`);
    return CHECK_ERROR_EXIT;
  }
}

async function runChecks(env: NodeJS.ProcessEnv): Promise<Named[]> {
  const results: Named[] = [];
  let settings;
  try {
    settings = loadConfig(env);
    results.push({ name: 'Configuration', result: { code: CheckCode.Success } });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    results.push({ name: 'Configuration', result: { code: CheckCode.Failure, details: `The server would not start: ${error.message}` } });
  }
  if (env.DATABASE_URL) {
    const url = env.DATABASE_URL;
    const { status, logPresent } = await readDatabase(url, env).catch((error: unknown) => {
      throw new Error(`cannot read the database at ${redactUrl(url)}`, { cause: error });
    });
    results.push({ name: 'Database Schema', result: schemaCheck(status, logPresent) });
    results.push({ name: 'Read Models', result: readModelsCheck(status) });
  } else {
    const details = 'No database is configured: set [placement_database] connection or DATABASE_URL.';
    results.push({ name: 'Database Schema', result: { code: CheckCode.Failure, details } });
  }
  results.push({ name: 'Policy File JSON to YAML Migration', result: policyCheck(env.PLACEMENT_POLICY_FILE) });
  if (settings?.keystone) {
    const client = new KeystoneClient(settings.keystone);
    results.push({ name: 'Keystone', result: await keystoneCheck(() => client.issueServiceToken()) });
  }
  return results;
}

async function readDatabase(url: string, env: NodeJS.ProcessEnv): Promise<{ status: Status; logPresent: boolean }> {
  const pool = new Pool({ connectionString: url, max: 2, options: searchPathOption(READ_MODELS_SCHEMA) });
  // A configuration the server would refuse is reported by the Configuration check; the database is still described.
  const fallback: AdminLog = { kind: 'postgres', store: new PostgresEventStore(pool), mode: 'inline', close: async () => undefined };
  const log = await openAdminLog(env, pool).catch((error) => (error instanceof ConfigError ? fallback : Promise.reject(error)));
  try {
    // A log kept in KurrentDB has no tables here to look for.
    const logPresent = log.kind === 'postgres' ? await hasEventLog(pool) : true;
    return { status: await readStatus(pool, log.store, log.mode), logPresent };
  } finally {
    await log.close();
    await pool.end();
  }
}

function policyCheck(path: string | undefined): CheckResult {
  if (!path) return policyFormatCheck(undefined, undefined, undefined);
  try {
    readPolicyFile(path);
    return policyFormatCheck(path, readFileSync(path, 'utf8'), undefined);
  } catch (error) {
    if (error instanceof PolicyFileError) return policyFormatCheck(path, undefined, error.message);
    throw error;
  }
}
