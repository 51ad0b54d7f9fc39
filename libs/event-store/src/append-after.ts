import { AppendRequest, AppendResult, WrongExpectedRevision } from './port.js';

/**
 * EventStore.appendAfter where appends cannot share a transaction: the append is given once every
 * earlier one is answered, and refused as a lost race if one of them was not written.
 */
export async function appendOnceAnswered(
  earlier: readonly Promise<AppendResult>[], requests: readonly AppendRequest[], append: (requests: readonly AppendRequest[]) => Promise<AppendResult>,
): Promise<AppendResult> {
  const answers = await Promise.allSettled(earlier);
  if (answers.some((answer) => answer.status === 'rejected')) throw restingOnRefused(requests);
  return append(requests);
}

/** How an append is refused when one it rests on was not written: a lost race, decided again by its command. */
export function restingOnRefused(requests: readonly AppendRequest[]): WrongExpectedRevision {
  return new WrongExpectedRevision(requests[0].stream, requests[0].expectedRevision);
}
