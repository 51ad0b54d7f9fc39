/** Every (path pattern, method) Fastify registered: what tells a 405 from a 404. */
export class RouteTable {
  private readonly routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(url: string, method: string | string[]): void {
    if (url === '*' || url.includes('*')) return;
    const entry = this.routes.get(url) ?? { pattern: compile(url), methods: new Set<string>() };
    for (const m of Array.isArray(method) ? method : [method]) if (m !== 'HEAD') entry.methods.add(m);
    this.routes.set(url, entry);
  }

  /** The methods a path supports, or null when no route has that path. */
  methodsFor(path: string): string[] | null {
    for (const { pattern, methods } of this.routes.values()) if (pattern.test(path)) return [...methods];
    return null;
  }
}

function compile(url: string): RegExp {
  const escaped = url.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${escaped.join('/')}$`);
}
