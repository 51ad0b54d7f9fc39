/**
 * Upstream stores naive UTC times (oslo.db's TimestampMixin with utcnow): MySQL's DATETIME and
 * PostgreSQL's timestamp without time zone. Both drivers are asked for the text, so no local
 * time zone can shift it, and it becomes ISO 8601 in UTC here.
 */
export function utcText(value: string | Date | null): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  const iso = value.includes('T') ? value : value.replace(' ', 'T');
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`unreadable time in the source: ${value}`);
  return date.toISOString();
}

/** Upstream's Last-Modified of a row: updated_at, else created_at. */
export const modifiedAt = (row: { created_at: string | Date | null; updated_at: string | Date | null }) =>
  utcText(row.updated_at) ?? utcText(row.created_at) ?? new Date(0).toISOString();

/** The later of two ISO times (either may be null). */
export const later = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a > b ? a : b);
