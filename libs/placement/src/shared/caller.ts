/** Who asked, carried into every event's metadata: the audit trail. */
export interface Caller {
  readonly requestId: string;
  readonly userId: string | null;
  readonly projectId: string | null;
  readonly roles: readonly string[];
}

export function metadataOf(caller: Caller) {
  return { requestId: caller.requestId, userId: caller.userId, projectId: caller.projectId, roles: caller.roles };
}
