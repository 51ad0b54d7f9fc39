import { expectedOf, pairKey, pairsIn, parsePage, stepsOf } from './doc-blocks.js';

const page = (...lines: string[]) => lines.join('\n');

describe('the manual\'s code blocks', () => {
  it('tells commands from data, and keeps a not-run marker\'s reason with its block', () => {
    const { blocks, problems } = parsePage(page(
      'Text.',
      '```sh',
      'curl -s $P/',
      '```',
      '<!-- not run: needs Docker -->',
      '```bash',
      'docker compose up',
      '```',
      '```json',
      '{"a": 1}',
      '```',
      '1. A step:',
      '   ```shell',
      '   echo indented',
      '   ```',
    ), 'x.md');
    expect(problems).toEqual([]);
    expect(blocks.map(({ line, info, command, notRun, text }) => ({ line, info, command, notRun, text }))).toEqual([
      { line: 2, info: 'sh', command: true, notRun: undefined, text: 'curl -s $P/' },
      { line: 6, info: 'bash', command: true, notRun: 'needs Docker', text: 'docker compose up' },
      { line: 9, info: 'json', command: false, notRun: undefined, text: '{"a": 1}' },
      { line: 13, info: 'shell', command: true, notRun: undefined, text: 'echo indented' },
    ]);
  });

  it('names a marker without a reason, a stray marker, a marker before data and a block without an info string', () => {
    const { blocks, problems } = parsePage(page(
      '<!-- not run: -->',
      '```sh',
      'true',
      '```',
      '<!-- not run: nothing follows -->',
      'Text.',
      '<!-- not run: it is data -->',
      '```yaml',
      'a: 1',
      '```',
      '```',
      'what is this',
      '```',
    ), 'x.md');
    expect(blocks[0].notRun).toBe('');
    expect(problems.map((p) => [p.line, p.problem.split(' (')[0].split(':')[0]])).toEqual([
      [1, 'a not-run marker without a reason'],
      [7, 'a not-run marker before a yaml block, which is not run anyway'],
      [11, 'a code block without an info string'],
      [5, 'a not-run marker that is not right before a code block'],
    ]);
  });

  it('splits a block into commands, keeping continuations, open quotes and here-documents together', () => {
    const steps = stepsOf({ info: 'sh', text: page(
      'export A=1   # a comment',
      'curl -s -X PUT $P/x \\',
      '     -d \'{"a": 1,',
      '          "b": 2}\'',
      '# 204',
      '',
      '# a plain comment',
      'cat > f <<\'EOF\'',
      'not a command',
      'EOF',
      'echo a |',
      '  grep a',
    ) });
    expect(steps.map((s) => [s.start, s.command.split('\n').length, s.expected])).toEqual([
      [0, 1, undefined],
      [1, 3, { status: 204, pairs: [] }],
      [7, 3, undefined],
      [10, 2, undefined],
    ]);
  });

  it('reads a status and the shown JSON\'s pairs, leaving out what is elided', () => {
    expect(expectedOf('403 {"errors": [{"status": 403, "title": "Forbidden", ...}]}')).toEqual({
      status: 403, pairs: [['status', 403], ['title', 'Forbidden']],
    });
    expect(expectedOf('{"stream": "provider-4e8e…", "generation": 1, "ratio": 4.0, "user_id": null}')).toEqual({
      pairs: [['generation', 1], ['ratio', 4], ['user_id', null]],
    });
    expect(expectedOf('204: the server keeps its VCPU')).toEqual({ status: 204, pairs: [] });
    expect(expectedOf('one line per projection')).toBeUndefined();
  });

  it('finds every scalar pair of an output, at any depth', () => {
    const found = pairsIn('{"a": {"b": [{"c": 4}]}, "d": null}');
    expect([...found]).toEqual([pairKey('c', 4), pairKey('d', null)]);
  });

  it('takes the prompts of a console block as its commands and the rest as their output', () => {
    const steps = stepsOf({ info: 'console', text: page('$ curl -s $P/healthz', '{"status": "ok"}') });
    expect(steps).toEqual([{ start: 0, command: 'curl -s $P/healthz', expected: { pairs: [['status', 'ok']] } }]);
  });
});
