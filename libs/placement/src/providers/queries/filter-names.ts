import { badRequest } from '#domain/index.js';
import { ProviderLookups } from '../../read-models/provider-lookups.js';
import { ReadDb } from '../../shared/read-db.js';
import { ProviderFilters, providerFilterSql } from './provider-filters.js';
import { unique } from '#domain/shared/unique.js';

async function anyProvider(db: ReadDb, filters: ProviderFilters): Promise<boolean> {
  const { where, params } = providerFilterSql(filters);
  const { rows } = await db.query(`SELECT 1 FROM rm_resource_providers p WHERE ${where.join(' AND ')} LIMIT 1`, params);
  return rows.length > 0;
}

/**
 * An unknown trait or class in the filters is a 400 — but upstream (get_all_by_filters) looks the
 * names up one filter at a time, after short-cuts that answer an empty list: a missing in_tree
 * provider, required traits no provider has, member_of aggregates no provider is in. Walks those
 * steps in upstream's order; answers false where upstream answers an empty list. With every name
 * known the short-cuts cannot change the answer, so only then are they skipped.
 */
export async function checkFilterNames(db: ReadDb, lookups: ProviderLookups, filters: ProviderFilters): Promise<boolean> {
  const required = unique((filters.requiredTraits ?? []).flat());
  const unknownRequired = await lookups.unknownTraits(required);
  const unknownForbidden = await lookups.unknownTraits(filters.forbiddenTraits ?? []);
  const unknownClasses = await lookups.unknownResourceClasses((filters.resources ?? []).map(([rc]) => rc));
  if (unknownRequired.length + unknownForbidden.length + unknownClasses.length === 0) return true;

  if (filters.inTree !== undefined && !(await lookups.exists(filters.inTree))) return false;
  if (required.length > 0) {
    if (unknownRequired.length > 0) throw unknownTrait(unknownRequired[0]);
    if (!(await anyProvider(db, { requiredTraits: filters.requiredTraits }))) return false;
  }
  if (unknownForbidden.length > 0) throw unknownTrait(unknownForbidden[0]);
  if (filters.memberOf?.length && !(await anyProvider(db, { memberOf: filters.memberOf }))) return false;
  throw badRequest(`Invalid resource class in resources parameter: No such resource class ${unknownClasses[0]}.`);
}

const unknownTrait = (name: string) => badRequest(`Invalid trait(s) in "required" parameter: No such trait(s): ${name}.`);
