/** One HTTP reply of a placement server, as the migration proof reads it. */
export interface PlacementReply {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON, or undefined when empty. */
  readonly body: any;
}

/**
 * A placement server spoken to as a client does: noauth2's `admin` token (project `admin`,
 * role admin), a microversion per call, JSON bodies. Works against upstream and ours alike.
 */
export class PlacementClient {
  constructor(readonly baseUrl: string, private readonly token = 'admin', private readonly timeoutMs = 15_000) {}

  async call(method: string, path: string, version: string, body?: unknown): Promise<PlacementReply> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-auth-token': this.token,
      'openstack-api-version': `placement ${version}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // A hung server must fail the comparison, not stall it for undici's 300 s.
    const response = await fetch(`${this.baseUrl}${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text) {
      try { parsed = JSON.parse(text); } catch { parsed = text; }
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get(path: string, version: string): Promise<PlacementReply> {
    return this.call('GET', path, version);
  }

  /** A write the fixture needs to succeed: any status outside 2xx throws with the answer. */
  async must(method: string, path: string, version: string, body?: unknown): Promise<any> {
    const reply = await this.call(method, path, version, body);
    if (reply.status >= 300) {
      throw new Error(`${method} ${path} @${version} on ${this.baseUrl}: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
    return reply.body;
  }
}
