import { prettyTable } from './pretty-table.js';

/** oslo.upgradecheck's codes, which are also the command's exit code (the worst one wins). */
export enum CheckCode { Success = 0, Warning = 1, Failure = 2 }

/** Anything that stops the checks from running at all: oslo.upgradecheck exits 255, apart from its codes. */
export const CHECK_ERROR_EXIT = 255;

export interface CheckResult {
  readonly code: CheckCode;
  /** What to do about a warning or failure; none for a success. */
  readonly details?: string;
}

const WORDS = { [CheckCode.Success]: 'Success', [CheckCode.Warning]: 'Warning', [CheckCode.Failure]: 'Failure' } as const;

/** Words wrapped at 60 columns, continuation lines indented two spaces, as oslo.upgradecheck wraps details. */
export function wrapDetails(text: string, width = 60): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const indent = lines.length > 0 ? '  ' : '';
    if (line && (indent + line + ' ' + word).length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push((lines.length > 0 ? '  ' : '') + line);
  return lines.join('\n');
}

/** The "Upgrade Check Results" box: one row per check with its name, result and details. */
export function formatCheckResults(results: readonly { readonly name: string; readonly result: CheckResult }[]): string {
  const rows = results.map(({ name, result }) => [
    `Check: ${name}\nResult: ${WORDS[result.code]}\nDetails: ${result.details ? wrapDetails(result.details) : 'None'}`,
  ]);
  return prettyTable(['Upgrade Check Results'], rows, { align: 'l', ruleEveryRow: true });
}

/** The exit code: the worst result. */
export const worstCode = (results: readonly { readonly result: CheckResult }[]): CheckCode =>
  results.reduce<CheckCode>((worst, { result }) => (result.code > worst ? result.code : worst), CheckCode.Success);
