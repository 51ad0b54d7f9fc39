import { ConsumerTypeScope, consumerTypeScope } from '#placement/usages/usage-grouping.js';
import { Version } from '../platform/microversion.js';
import { validateQueryParams } from '../platform/query-params/query-string.js';
import { GET_USAGES_V1_38, GET_USAGES_V1_9 } from './usages.schemas.js';

export interface TotalUsagesParams {
  readonly projectId: string;
  readonly userId: string | undefined;
  readonly scope: ConsumerTypeScope;
}

/** GET /usages query string -> its parameters (consumer_type from 1.38). */
export function parseTotalUsagesParams(query: URLSearchParams, version: Version): TotalUsagesParams {
  const single = validateQueryParams(query, version.matches('1.38') ? GET_USAGES_V1_38 : GET_USAGES_V1_9);
  return { projectId: single.project_id, userId: single.user_id, scope: consumerTypeScope(single.consumer_type) };
}
