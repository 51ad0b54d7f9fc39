const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 time as epoch ms; undefined when it is not one (a date alone, no offset, or a
 * field out of range: JavaScript's Date would quietly roll 2026-02-30 over into March).
 * An unencoded '+' in a query string arrives as a space, so "...12:00:00 02:00" means +02:00.
 */
export function parseRfc3339(text: string): number | undefined {
  const match = RFC3339.exec(text.replace(/ (\d{2}:\d{2})$/, '+$1'));
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction = '', offset] = match;
  const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const date = new Date(utc);
  if (date.getUTCFullYear() !== +y || date.getUTCMonth() !== +mo - 1 || date.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) return undefined;
  let shift = 0;
  if (offset.length > 1) {
    const [oh, om] = [+offset.slice(1, 3), +offset.slice(4)];
    if (oh > 23 || om > 59) return undefined;
    shift = (offset[0] === '+' ? 1 : -1) * (oh * 60 + om) * 60_000;
  }
  const ms = fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0;
  return utc + ms - shift;
}

/** Epoch ms as RFC 3339 UTC, without a fraction when it is a whole second. */
export const formatRfc3339 = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
