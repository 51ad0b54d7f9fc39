import { KeptBytes } from './kept-bytes.js';
import { KeptResults } from './kept-results.js';
import { ReplyBuffers } from './reply-buffers.js';
import { ReuseBudget } from './reuse-budget.js';
import { TreeAnswers } from './tree-answers.js';

/** The bytes kept pieces and idle reply buffers hold together at most. */
const REUSE_BYTES = 64 * 1024 * 1024;

/**
 * Everything GET /allocation_candidates reuses from one answer to the next, in one place, under
 * one rule and one budget.
 *
 * The rule: a kept thing is as good as new while the index's clock for what it covers has not
 * moved since it was kept, and the name catalog's version is the same. The index stamps itself,
 * each tree and each provider from one clock that only goes forward (provider-index.ts), so:
 * - a whole answer (`results`) is kept per request while the index's clock and the catalog's
 *   version are the ones it was found at: the same question before any write costs nothing;
 *   after writes, a streamed answer is patched with the providers they changed, where the
 *   index's journal tells them (change-journal.ts), and its body copied where it still holds;
 * - one tree's part of an answer (`trees`) while that tree's stamp and the catalog's version are
 *   unchanged: between two claims only the trees written to are searched again;
 * - bytes (`bytes`): a provider's summary while its own stamp is unchanged, a tree's part or a
 *   whole answer while that part or answer is (each is found anew when the rule above says so).
 *
 * The budget: kept bytes and idle reply buffers (`buffers`) hold at most REUSE_BYTES together;
 * past it buffers go first, then the oldest bytes. Results and parts are bounded by their
 * number (kept-results.ts, tree-answers.ts): sixteen requests, sixteen parts per tree (one per request).
 */
export class AnswerReuse {
  readonly budget = new ReuseBudget(REUSE_BYTES);
  // Idle buffers are given back first: registered before the bytes.
  readonly buffers = new ReplyBuffers(this.budget);
  // A kept body written into a reply buffer holds it until let go.
  readonly bytes = new KeptBytes(this.budget, (bytes) => this.buffers.giveBack(bytes));
  // What was made of a result or a part goes with it.
  readonly results = new KeptResults((result) => this.bytes.forget(result));
  readonly trees = new TreeAnswers((part) => this.bytes.forget(part));
}
