import { ConfigError } from './config-error.js';

/** Upstream's [placement] incomplete_consumer_project_id / _user_id default. */
export const INCOMPLETE_CONSUMER_ID = '00000000-0000-0000-0000-000000000000';

/** Upstream's [placement] allocation_conflict_retry_count default: attempts of one claim against racing writers. */
const DEFAULT_CLAIM_ATTEMPTS = 10;

/** The [placement] options that shape claims. */
export interface AllocationSettings {
  /** Owners given to a consumer written below microversion 1.8, which had no project and user. */
  readonly incompleteConsumerProjectId: string;
  readonly incompleteConsumerUserId: string;
  /** How many times a claim is decided again after losing a race to another writer before a 409. */
  readonly conflictRetryCount: number;
}

function externalId(env: NodeJS.ProcessEnv, name: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return INCOMPLETE_CONSUMER_ID;
  // Upstream keeps project and user ids in 255-character columns.
  if (raw.length > 255 || /\s/.test(raw)) throw new ConfigError(`${name} must be an identifier of at most 255 characters without spaces, not "${raw}"`);
  return raw;
}

export function allocationSettings(env: NodeJS.ProcessEnv): AllocationSettings {
  const raw = env.PLACEMENT_ALLOCATION_CONFLICT_RETRY_COUNT;
  let conflictRetryCount = DEFAULT_CLAIM_ATTEMPTS;
  if (raw !== undefined && raw !== '') {
    conflictRetryCount = Number(raw);
    // 0 would make upstream's loop skip the write altogether; we ask for at least one attempt.
    if (!Number.isInteger(conflictRetryCount) || conflictRetryCount < 1 || conflictRetryCount > 1000) {
      throw new ConfigError(`PLACEMENT_ALLOCATION_CONFLICT_RETRY_COUNT must be an integer from 1 to 1000, not "${raw}"`);
    }
  }
  return {
    incompleteConsumerProjectId: externalId(env, 'PLACEMENT_INCOMPLETE_CONSUMER_PROJECT_ID'),
    incompleteConsumerUserId: externalId(env, 'PLACEMENT_INCOMPLETE_CONSUMER_USER_ID'),
    conflictRetryCount,
  };
}
