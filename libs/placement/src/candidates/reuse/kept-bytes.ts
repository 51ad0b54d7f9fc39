import { ReuseBudget } from './reuse-budget.js';

/** What a piece of bytes renders: a provider's summary, a tree's part, a whole answer. */
export type PieceKind = 'summary' | 'part-requests' | 'part-summaries' | 'body';

interface Piece {
  readonly shape: string;
  readonly stamp: number;
  readonly bytes: Buffer;
}

/** What is known of a piece not kept (the API keeps a body only from its second presentation on). */
interface Note {
  readonly kind: PieceKind;
  readonly shape: string;
  readonly stamp: number;
  readonly note: string;
}

/**
 * The bytes the API made of things the search found, kept per thing (its owner: a provider's
 * node, a tree's part, a whole result), one piece of each kind per owner, for one shape of answer
 * (a cloud's schedulers ask at one microversion). A piece is as good as new while its owner's
 * stamp is the one it was made at (answer-reuse.ts). The oldest owners' pieces go first once the
 * budget is over; a piece is made once and read many times, so reading it moves nothing.
 */
export class KeptBytes {
  private readonly pieces = new Map<object, Partial<Record<PieceKind, Piece>>>();
  /** Held weakly: a note costs nothing to lose, and must not keep its owner (a whole result) alive. */
  private readonly notes = new WeakMap<object, Note>();

  /** `released`: told of every piece's bytes once they are kept no more (their memory may be lent: reply-buffers.ts). */
  constructor(private readonly budget: ReuseBudget, private readonly released?: (bytes: Buffer) => void) {
    budget.reclaimWith(() => this.dropOldest());
  }

  get(owner: object, kind: PieceKind, shape: string, stamp: number): Buffer | undefined {
    const piece = this.pieces.get(owner)?.[kind];
    return piece && piece.shape === shape && piece.stamp === stamp ? piece.bytes : undefined;
  }

  /** The note of an owner's piece that is not kept, while the piece would be current. */
  noted(owner: object, kind: PieceKind, shape: string, stamp: number): string | undefined {
    const note = this.notes.get(owner);
    return note && note.kind === kind && note.shape === shape && note.stamp === stamp ? note.note : undefined;
  }

  note(owner: object, kind: PieceKind, shape: string, stamp: number, note: string): void {
    this.notes.set(owner, { kind, shape, stamp, note });
  }

  keep(owner: object, kind: PieceKind, shape: string, stamp: number, bytes: Buffer): void {
    const held = this.pieces.get(owner) ?? {};
    const before = held[kind];
    if (before) this.let(before);
    held[kind] = { shape, stamp, bytes };
    // Kept anew: the owner is the newest, so the last of them to go.
    this.pieces.delete(owner);
    this.pieces.set(owner, held);
    this.budget.add(bytes.length);
  }

  /** Every piece of an owner that is kept no more (a result or a tree's part replaced). */
  forget(owner: object): void {
    const held = this.pieces.get(owner);
    if (!held) return;
    for (const piece of Object.values(held)) if (piece) this.let(piece);
    this.pieces.delete(owner);
  }

  private let(piece: Piece): void {
    this.budget.release(piece.bytes.length);
    this.released?.(piece.bytes);
  }

  get size(): number {
    return this.pieces.size;
  }

  private dropOldest(): boolean {
    const oldest = this.pieces.keys().next();
    if (oldest.done) return false;
    this.forget(oldest.value);
    return true;
  }
}
