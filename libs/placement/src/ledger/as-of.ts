import type { LogPoint, LogPosition } from '#event-store/index.js';
import { parsePositionToken, positionToken } from './position-token.js';

/** A point of the log: after the event at a position, or at a moment of the clock. */
export type AsOf =
  | { readonly kind: 'position'; readonly position: LogPosition }
  /** RFC 3339 with at most microseconds (PostgreSQL's precision), for PostgreSQL to read. */
  | { readonly kind: 'time'; readonly time: string };

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * A position token or an RFC 3339 time; undefined when it is neither. Fractions beyond
 * microseconds are cut, not rounded: an event recorded at t is included exactly when t <= as_of.
 */
export function parseAsOf(text: string): AsOf | undefined {
  const position = parsePositionToken(text);
  if (position) return { kind: 'position', position };
  // An unencoded '+' in a query string arrives as a space: "12:00:00 02:00" meant "+02:00".
  const match = RFC3339.exec(text.replace(/ (\d{2}:\d{2})$/, '+$1'));
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', offset] = match;
  if (!validDate(+year, +month, +day) || +hour > 23 || +minute > 59 || +second > 59) return undefined;
  if (offset.length > 1 && (+offset.slice(1, 3) > 23 || +offset.slice(4) > 59)) return undefined;
  const micros = fraction ? `.${fraction.slice(0, 6)}` : '';
  const zone = offset.toUpperCase() === 'Z' ? '+00:00' : offset;
  const time = `${year}-${month}-${day}T${hour}:${minute}:${second}${micros}${zone}`;
  return { kind: 'time', time: withinPostgresOffsets(time, zone) };
}

/**
 * PostgreSQL reads UTC offsets up to ±15:59 only; RFC 3339 allows up to ±23:59. Such a time is
 * handed over as the same instant in UTC (the fraction kept as written), never refused.
 */
function withinPostgresOffsets(time: string, zone: string): string {
  const hours = +zone.slice(1, 3);
  if (hours <= 15) return time;
  const [, date, clock, fraction = ''] = /^(.*)T(\d{2}:\d{2}:\d{2})(\.\d+)?/.exec(time)!;
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second] = clock.split(':').map(Number);
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, 0);
  const sign = zone[0] === '-' ? -1 : 1;
  utc.setTime(utc.getTime() - sign * (hours * 60 + +zone.slice(4)) * 60_000);
  const y = utc.getUTCFullYear();
  // Before year 1 nothing was recorded; PostgreSQL reads years from 4713 BC, but not written like this.
  if (y < 1) return '0001-01-01T00:00:00+00:00';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(y).padStart(4, '0')}-${two(utc.getUTCMonth() + 1)}-${two(utc.getUTCDate())}`
    + `T${two(utc.getUTCHours())}:${two(utc.getUTCMinutes())}:${two(utc.getUTCSeconds())}${fraction}+00:00`;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= DAYS[month - 1] + (month === 2 && leap ? 1 : 0);
}

const NORMALIZED = /^(\d{4,5})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?([+-])(\d{2}):(\d{2})$/;

/** A time as parseAsOf writes it, in microseconds since the epoch. */
export function timeToMicros(time: string): bigint {
  const match = NORMALIZED.exec(time);
  if (!match) throw new Error(`not a time parseAsOf wrote: ${time}`);
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours, offsetMinutes] = match;
  const utc = new Date(0);
  utc.setUTCFullYear(+year, +month - 1, +day); // Date.UTC would read years below 100 as 19xx
  utc.setUTCHours(+hour, +minute, +second, 0);
  const offset = BigInt((+offsetHours * 60 + +offsetMinutes) * 60) * 1_000_000n;
  return BigInt(utc.getTime()) * 1000n + BigInt(fraction.padEnd(6, '0')) - (sign === '-' ? -offset : offset);
}

/** The point as the event store's reads take it. */
export function asOfPoint(asOf: AsOf): LogPoint {
  return asOf.kind === 'position' ? { position: asOf.position } : { time: timeToMicros(asOf.time) };
}

/** The point as a client can quote it back: the token, or the time as read. */
export const describeAsOf = (asOf: AsOf): string => (asOf.kind === 'time' ? asOf.time : positionToken(asOf.position));
