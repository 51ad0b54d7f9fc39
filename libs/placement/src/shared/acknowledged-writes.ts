import { Injectable } from '@nestjs/common';

/** Enough for the requests in flight many times over; older ids are forgotten first. */
const REMEMBERED = 10_000;

/**
 * The requests whose write this process saw committed, for a while. A request can still fail
 * after its write: reading the result back for its answer when the database goes away. Its answer
 * must then say the write stands, not that the database refused it (a client would repeat it).
 */
@Injectable()
export class AcknowledgedWrites {
  private readonly ids = new Set<string>();

  record(requestId: string | undefined): void {
    if (!requestId) return;
    this.ids.delete(requestId);
    this.ids.add(requestId);
    if (this.ids.size > REMEMBERED) this.ids.delete(this.ids.values().next().value as string);
  }

  has(requestId: string): boolean {
    return this.ids.has(requestId);
  }
}
