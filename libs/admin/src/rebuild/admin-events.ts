import type { ReplayProgress } from './progress.js';

/** What rebuild and verify tell their caller as they go; the CLI prints them. */
export type AdminEvent =
  | { readonly kind: 'step'; readonly message: string }
  | { readonly kind: 'replay'; readonly progress: ReplayProgress; readonly final: boolean }
  | { readonly kind: 'written'; readonly table: string; readonly rows: number; readonly seconds: number }
  | { readonly kind: 'caught-up'; readonly events: number; readonly locked: boolean; readonly seconds: number };

/** Awaited: a caller may pause the work at a step (the tests write through the API there). */
export type Reporter = (event: AdminEvent) => void | Promise<void>;

export const silent: Reporter = () => undefined;
