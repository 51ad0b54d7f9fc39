import { ACCESS_MATRIX, MatrixRow, Mode, OPENED_POLICY, Principal, PRINCIPALS, Verdict } from './access-matrix.js';

const MARK: Record<Verdict, string> = { allowed: 'yes', denied: 'no', filtered: 'own project' };
const HEADINGS: Record<Principal, string> = {
  admin: 'admin', service: 'service', a_member: "A's member", a_reader: "A's reader", b_member: "B's member", system_admin: 'system admin', no_token: 'no token',
};

const routeCell = (row: MatrixRow, about?: string) => `\`${row.route}\`${about ? ` (${about})` : ''}`;

function cell(row: MatrixRow, index: number, principal: Principal, modes: readonly Mode[]): string {
  const marks = modes.map((mode) => MARK[row.cases[index].verdicts[mode][principal]]);
  return marks.every((mark) => mark === marks[0]) ? marks[0] : marks.join(' / ');
}

function table(rows: readonly MatrixRow[], modes: readonly Mode[], keep: (row: MatrixRow, index: number) => boolean): string {
  const lines = [
    `| route | rule | ${PRINCIPALS.map((p) => HEADINGS[p]).join(' | ')} |`,
    `| --- | --- | ${PRINCIPALS.map(() => '---').join(' | ')} |`,
  ];
  for (const row of rows) {
    row.cases.forEach((matrixCase, index) => {
      if (!keep(row, index)) return;
      const cells = PRINCIPALS.map((principal) => cell(row, index, principal, modes));
      lines.push(`| ${routeCell(row, matrixCase.about)} | ${row.rule ? `\`${row.rule}\`` : 'none'} | ${cells.join(' | ')} |`);
    });
  }
  return lines.join('\n');
}

/** The rows the opened file changes, and those of the rules it names even where they still refuse. */
const shownOpened = (row: MatrixRow, index: number) => (row.rule !== null && row.rule in OPENED_POLICY)
  || PRINCIPALS.some((principal) => row.cases[index].verdicts.opened[principal] !== row.cases[index].verdicts.scope_on[principal]);

/** The matrix as docs/authorization.md shows it, between its two markers. */
export function renderMatrix(rows: readonly MatrixRow[] = ACCESS_MATRIX): string {
  return [
    '<!-- access matrix: generated from test/authorization/access-matrix.ts by test/authorization/matrix-table.ts -->',
    'The default policy. Where two answers are given they are with `PLACEMENT_POLICY_ENFORCE_SCOPE=true` (the default) / `false`.',
    '',
    table(rows, ['scope_on', 'scope_off'], () => true),
    '',
    'With the routes judged against their data opened by this policy file, the reads to project readers and the consumer writes',
    'to project members (the rows of the rules it names):',
    '',
    '```yaml',
    ...Object.entries(OPENED_POLICY).map(([rule, check]) => `"${rule}": "${check}"`),
    '```',
    '',
    table(rows, ['opened'], shownOpened),
    '<!-- end of access matrix -->',
  ].join('\n');
}
