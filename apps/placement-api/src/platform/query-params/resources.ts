import { httpBadRequest } from '../placement-error.js';

const FORM = 'Badly formed resources parameter. Expected resources query string parameter in form: ?resources=VCPU:2,MEMORY_MB:1024.';

/**
 * Python's int(text): surrounding whitespace, a sign, and single underscores between digits
 * are accepted. Returns null where int() raises ValueError.
 */
export function pythonInt(text: string): number | null {
  const match = /^\s*([+-]?)(\d+(?:_\d+)*)\s*$/.exec(text);
  if (!match) return null;
  const value = Number(match[2].replace(/_/g, ''));
  return match[1] === '-' ? -value : value;
}

/**
 * util.normalize_resources_qs_param: `CLASS:AMOUNT,CLASS:AMOUNT` -> amounts by class.
 * A class named twice keeps its first position and its last amount, as a Python dict does.
 */
export function parseResources(value: string): Map<string, number> {
  if (value.trim() === '') throw httpBadRequest(`${FORM} Got: empty string.`);
  const amounts = new Map<string, number>();
  for (const part of value.split(',')) {
    const pieces = part.split(':');
    if (pieces.length !== 2) throw httpBadRequest(`${FORM} Got: ${part}.`);
    const [rc, text] = pieces;
    const amount = pythonInt(text);
    if (amount === null) throw httpBadRequest(`Requested resource ${rc} expected positive integer amount. Got: ${text}.`);
    if (amount < 1) throw httpBadRequest(`Requested resource ${rc} requires amount >= 1. Got: ${amount}.`);
    amounts.set(rc, amount);
  }
  return amounts;
}
