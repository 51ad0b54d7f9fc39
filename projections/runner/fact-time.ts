/**
 * The time a read-model row takes from an event: when the fact happened. That is when it was
 * recorded, except for events an import wrote, which carry the source's own time (`occurred_at`)
 * so that Last-Modified answers what upstream answered before the switch.
 */
export function factTime(event: { readonly data: { readonly occurred_at?: unknown }; readonly recordedAt: Date }): Date {
  const occurred = event.data?.occurred_at;
  return typeof occurred === 'string' ? new Date(occurred) : event.recordedAt;
}
