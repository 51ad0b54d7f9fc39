import { AppendRequest, AppendResult, WrongExpectedRevision } from './port.js';

/**
 * EventStore.appendAfter where appends cannot share a transaction: the append is given once every
 * earlier one is answered, and refused as a lost race if one of them was not written.
 */
export async function appendOnceAnswered(
  earlier: readonly Promise<AppendResult>[], requests: readonly AppendRequest[], append: (requests: readonly AppendRequest[]) => Promise<AppendResult>,
): Promise<AppendResult> {
  const answers = await Promise.allSettled(earlier);
  if (answers.some((answer) => answer.status === 'rejected')) throw new WrongExpectedRevision(requests[0].stream, requests[0].expectedRevision);
  return append(requests);
}
