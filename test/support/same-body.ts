/**
 * Two large answers the same, byte for byte: where they first differ is what a failure shows,
 * instead of megabytes of both.
 */
export function expectSameBody(body: string, expected: string): void {
  let at = 0;
  while (at < Math.min(body.length, expected.length) && body[at] === expected[at]) at++;
  expect({ length: body.length, differsAt: at === body.length && at === expected.length ? null : body.slice(at, at + 80) })
    .toEqual({ length: expected.length, differsAt: null });
}
