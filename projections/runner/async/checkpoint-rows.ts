import type { LogPosition, SqlClient } from '#event-store/index.js';

/** Channel on which a committed batch announces the position every checkpoint reached. */
export const PROJECTED_CHANNEL = 'placement_projected';

export const encodePosition = (p: LogPosition) => `${p.commit}:${p.prepare}`;

export function decodePosition(text: string): LogPosition | undefined {
  const match = /^(\d+):(\d+)$/.exec(text);
  return match ? { commit: BigInt(match[1]), prepare: BigInt(match[2]) } : undefined;
}

/** The checkpoints of `names`; `lock` takes their rows for the rest of the transaction. */
export async function readCheckpoints(db: SqlClient, names: readonly string[], lock = false): Promise<Map<string, LogPosition>> {
  const { rows } = await db.query<{ projection: string; commit: string; position: string }>(
    `SELECT projection, commit_xid::text AS commit, position::text AS position
     FROM rm_projection_checkpoints WHERE projection = ANY($1::text[]) ORDER BY projection${lock ? ' FOR UPDATE' : ''}`,
    [names]);
  return new Map(rows.map((row) => [row.projection, { commit: BigInt(row.commit), prepare: BigInt(row.position) }]));
}
