/** Routes this service adds outside upstream's URL space; no microversion applies to them. */
export interface ExtraRoute {
  readonly method: 'get' | 'patch' | 'post';
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  /** status -> [content type, description] */
  readonly responses: Readonly<Record<number, readonly [string, string]>>;
  /** Probes and scrapes need no X-Auth-Token. */
  readonly unauthenticated?: true;
  /** The body a write takes: [content type, description]. */
  readonly body?: readonly [string, string];
}
