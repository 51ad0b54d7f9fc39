/**
 * The box tables upstream's commands print with Python's prettytable (oslo.upgradecheck's
 * results, placement-manage's online migrations), so scripts and eyes that know those find the
 * same shape: `+---+` rules, `| cell |` rows padded one space each side, multi-line cells.
 */
export interface TableStyle {
  /** prettytable's align: 'l' for oslo.upgradecheck, centred by default. */
  readonly align?: 'l' | 'c';
  /** hrules=ALL: a rule after every row, as oslo.upgradecheck draws it; else only around the body. */
  readonly ruleEveryRow?: boolean;
}

export function prettyTable(headers: readonly string[], rows: readonly (readonly string[])[], style: TableStyle = {}): string {
  const cells = (row: readonly string[]) => row.map((cell) => cell.split('\n'));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.flatMap((row) => row[column].split('\n').map((line) => line.length))));
  const rule = `+${widths.map((width) => '-'.repeat(width + 2)).join('+')}+`;
  const pad = (text: string, width: number) => {
    if (style.align === 'l') return text.padEnd(width);
    // prettytable puts the odd space on the right of centred text.
    const left = Math.floor((width - text.length) / 2);
    return ' '.repeat(left) + text + ' '.repeat(width - text.length - left);
  };
  const render = (row: readonly string[]) => {
    const lines = cells(row);
    const height = Math.max(...lines.map((cell) => cell.length));
    return Array.from({ length: height }, (_, i) => `|${lines.map((cell, column) => ` ${pad(cell[i] ?? '', widths[column])} `).join('|')}|`);
  };
  const out = [rule, ...render(headers), rule];
  rows.forEach((row, index) => {
    out.push(...render(row));
    if (style.ruleEveryRow && index < rows.length - 1) out.push(rule);
  });
  if (rows.length > 0) out.push(rule);
  return out.join('\n');
}
