/**
 * An age as an operator writes it: seconds ("3600", "90.5") or an ISO 8601 duration
 * ("PT1H", "P7D", "P1M", "P2W"). The answer is PostgreSQL interval text, so calendar units
 * (a month, a year) are counted on the calendar, as PostgreSQL subtracts them from now().
 */
const SECONDS = /^\d{1,12}(?:\.\d{1,6})?$/;
const ISO = /^P(?:(\d{1,6})Y)?(?:(\d{1,6})M)?(?:(\d{1,6})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,6})M)?(?:(\d{1,9}(?:[.,]\d{1,6})?)S)?)?$/;

export function parseAge(text: string): string | undefined {
  if (SECONDS.test(text)) return `${text} seconds`;
  const match = ISO.exec(text);
  // "P" and "PT" name no amount at all; a trailing "T" with nothing after it is malformed.
  if (!match || match.slice(1).every((part) => part === undefined) || text.endsWith('T')) return undefined;
  const [, years, months, weeks, days, hours, minutes, seconds] = match;
  const units: [string | undefined, string][] = [
    [years, 'years'], [months, 'months'], [weeks, 'weeks'], [days, 'days'], [hours, 'hours'], [minutes, 'minutes'],
    [seconds?.replace(',', '.'), 'seconds'],
  ];
  return units.filter(([amount]) => amount !== undefined).map(([amount, unit]) => `${amount} ${unit}`).join(' ');
}
