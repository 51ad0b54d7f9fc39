/** The filters of GET /resource_providers, already parsed and validated by the HTTP layer. */
export interface ProviderFilters {
  readonly name?: string;
  readonly uuid?: string;
  readonly inTree?: string;
  /** Each inner list is one member_of: the provider must be in at least one of its aggregates. */
  readonly memberOf?: readonly (readonly string[])[];
  /** The provider must be in none of these aggregates. */
  readonly forbiddenAggregates?: readonly string[];
  /** Each inner list is one any-of group of traits: the provider must have at least one of it. */
  readonly requiredTraits?: readonly (readonly string[])[];
  readonly forbiddenTraits?: readonly string[];
  /** [class, amount] pairs, in the order asked: each amount must still fit. */
  readonly resources?: readonly (readonly [string, number])[];
}

/**
 * Room for `amount` more of a class, as upstream's _capacity_check_clause: used + amount fits
 * (total - reserved) * allocation_ratio, and min_unit, max_unit and step_size allow the amount.
 */
const FITS = (rc: string, amount: string) => `EXISTS (SELECT 1 FROM rm_inventories i
  WHERE i.provider_uuid = p.uuid AND i.resource_class = ${rc}
    AND COALESCE((SELECT SUM(a.used) FROM rm_allocations a WHERE a.provider_uuid = p.uuid AND a.resource_class = ${rc}), 0) + ${amount}
        <= (i.total - i.reserved) * i.allocation_ratio
    AND i.min_unit <= ${amount} AND i.max_unit >= ${amount} AND mod(${amount}, i.step_size) = 0)`;

/** SQL conditions over `rm_resource_providers p` for each filter. */
export function providerFilterSql(filters: ProviderFilters): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filters.name !== undefined) where.push(`p.name = ${param(filters.name)}`);
  if (filters.uuid !== undefined) where.push(`p.uuid = ${param(filters.uuid)}`);
  if (filters.inTree !== undefined) {
    where.push(`p.root_provider_uuid = (SELECT root_provider_uuid FROM rm_resource_providers WHERE uuid = ${param(filters.inTree)})`);
  }
  for (const anyOf of filters.memberOf ?? []) {
    where.push(`EXISTS (SELECT 1 FROM rm_provider_aggregates a WHERE a.provider_uuid = p.uuid AND a.aggregate_uuid = ANY(${param(anyOf)}::text[]))`);
  }
  if (filters.forbiddenAggregates?.length) {
    where.push(`NOT EXISTS (SELECT 1 FROM rm_provider_aggregates a WHERE a.provider_uuid = p.uuid AND a.aggregate_uuid = ANY(${param(filters.forbiddenAggregates)}::text[]))`);
  }
  for (const anyOf of filters.requiredTraits ?? []) {
    where.push(`EXISTS (SELECT 1 FROM rm_provider_traits t WHERE t.provider_uuid = p.uuid AND t.trait = ANY(${param(anyOf)}::text[]))`);
  }
  if (filters.forbiddenTraits?.length) {
    where.push(`NOT EXISTS (SELECT 1 FROM rm_provider_traits t WHERE t.provider_uuid = p.uuid AND t.trait = ANY(${param(filters.forbiddenTraits)}::text[]))`);
  }
  for (const [rc, amount] of filters.resources ?? []) {
    where.push(FITS(`${param(rc)}::text`, `${param(String(amount))}::numeric`));
  }
  return { where, params };
}
