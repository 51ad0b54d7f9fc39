import cluster from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';

/**
 * Set in the environment of the workers runWorkers forks, whose primary serves scrapes. Another
 * cluster manager's workers (pm2's) have no such primary: they answer for themselves.
 */
export const SCRAPED_THROUGH_PRIMARY = 'PLACEMENT_SCRAPED_THROUGH_PRIMARY';

const ASK = 'placement:scrape';
const ANSWER = 'placement:scrape-answer';
/** prom-client gives every worker 5 s to answer the primary; past this the scrape fails. */
const WAIT_MS = 8000;

interface Answer { readonly type: typeof ANSWER; readonly id: number; readonly text?: string; readonly error?: string }

/** A scrape that could not gather every worker's metrics: answered 503, so Prometheus records a failed scrape, not a counter reset. */
export class ScrapeUnavailable extends Error {}

/**
 * PLACEMENT_WORKERS: node:cluster hands each connection to any worker, so without this a scrape
 * would see one worker's counters, then another's, and Prometheus would read every change of
 * worker as a counter reset. In the primary, answers a worker's request for every worker's
 * metrics, aggregated by prom-client (counters and histograms summed, gauges as each declares).
 */
export function serveClusterScrapes(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return;
    const answer = (fields: { text: string } | { error: string }) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...fields });
    };
    aggregator.clusterMetrics().then((text) => answer({ text }), (error: Error) => answer({ error: error.message }));
  });
}

/**
 * What GET /metrics answers: in a worker, every worker's metrics as the primary aggregates them;
 * in a single process, its own registry. Built once per application, at start, so that a worker
 * answers the primary's requests before it is ever scraped itself.
 */
export class ClusterScrape {
  private next = 0;
  private readonly waiting = new Map<number, (answer: Answer) => void>();

  private readonly throughPrimary = cluster.isWorker && process.env[SCRAPED_THROUGH_PRIMARY] === '1';

  constructor(private readonly registry: Registry) {
    if (!this.throughPrimary) return;
    // prom-client's own listener answers the primary with the registries set here.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
    process.on('message', (message: Partial<Answer>) => {
      if (message?.type === ANSWER && message.id !== undefined) this.waiting.get(message.id)?.(message as Answer);
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async text(): Promise<string> {
    if (!this.throughPrimary || !process.send) return this.registry.metrics();
    const id = this.next++;
    const answer = await new Promise<Answer | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), WAIT_MS);
      this.waiting.set(id, (received) => {
        clearTimeout(timer);
        resolve(received);
      });
      process.send!({ type: ASK, id });
    }).finally(() => this.waiting.delete(id));
    if (!answer) throw new ScrapeUnavailable(`the primary did not gather the workers' metrics within ${WAIT_MS / 1000} s`);
    if (answer.text === undefined) throw new ScrapeUnavailable(`the workers' metrics could not be gathered: ${answer.error}`);
    return answer.text;
  }
}
