import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sharedTransactions } from '#event-store/index.js';
import { LOOP_TURNS } from '#placement/candidates/search/loop-turns.js';
import type { AppendObserver, AppendOutcome } from '#event-store/instrumented-event-store.js';
import { ClusterScrape } from './cluster-scrape.js';
import { sentStatements } from './counted-client.js';

/** Requests no route matched (unknown paths, 404s): one label value, so a scan cannot explode the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Every metric the service exposes at /metrics, in one registry per application (so two apps
 * in one test process never share counters). Inject it anywhere: OperationsModule is global.
 *
 * Recording an allocation candidates query (the candidates controller or handler):
 *   const done = metrics.startCandidatesQuery();
 *   ... run the query ...
 *   done(result.allocation_requests.length);
 */
export class PlacementMetrics implements AppendObserver {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'placement_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'placement_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its reply, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly appendDuration = new Histogram({
    name: 'placement_event_store_append_duration_seconds',
    help: 'Event store appends (one atomic write over every touched stream), by outcome: ok, conflict, error',
    labelNames: ['outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly appendConflicts = new Counter({
    name: 'placement_event_store_append_conflicts_total',
    help: 'Appends refused because a stream had moved past the expected revision (WrongExpectedRevision); the writer retries',
    registers: [this.registry],
  });

  readonly appendedEvents = new Counter({
    name: 'placement_event_store_appended_events_total',
    help: 'Events written to the log',
    registers: [this.registry],
  });

  readonly projectionLag = new Gauge({
    name: 'placement_projection_lag_events',
    help: 'Events in the log a projection has not applied yet, counted up to 1000 (always 0 for inline projections)',
    labelNames: ['projection'] as const,
    // Several workers see the same log: the one furthest behind says how far behind it is.
    aggregator: 'max',
    registers: [this.registry],
  });

  readonly candidatesDuration = new Histogram({
    name: 'placement_allocation_candidates_query_duration_seconds',
    help: 'Time to compute the answer of one GET /allocation_candidates',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly candidatesResultSize = new Histogram({
    name: 'placement_allocation_candidates_result_size',
    help: 'Allocation requests returned by one GET /allocation_candidates',
    buckets: [0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 5000],
    registers: [this.registry],
  });

  readonly databaseStatements = new Counter({
    name: 'placement_database_statements_total',
    help: 'Round trips to PostgreSQL by this process: messages sent, each one or more statements (BEGIN and COMMIT included) and its answer',
    registers: [this.registry],
    collect() {
      this.reset();
      this.inc(sentStatements.count);
    },
  });

  readonly sharedTransactions = new Counter({
    name: 'placement_event_store_shared_transactions_total',
    help: 'Transactions several appends of this process shared (group commit), by outcome: together (each append answered by it), fell_back (failed as a whole; each append written again alone)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
    collect() {
      this.reset();
      this.inc({ outcome: 'together' }, sharedTransactions.together);
      this.inc({ outcome: 'fell_back' }, sharedTransactions.fellBack);
    },
  });

  readonly sharedAppends = new Counter({
    name: 'placement_event_store_shared_appends_total',
    help: 'Appends written in a transaction shared with others (group commit): divided by the shared transactions, how many share one',
    registers: [this.registry],
    collect() {
      this.reset();
      this.inc(sharedTransactions.appendsWritten);
    },
  });

  readonly requestsInProgress = new Gauge({
    name: 'placement_http_requests_in_progress',
    help: 'Requests received and not yet answered, the long answers among them aside',
    registers: [this.registry],
    collect() {
      this.set(LOOP_TURNS.answeringNow);
    },
  });

  readonly longAnswers = new Gauge({
    name: 'placement_long_answers_in_progress',
    help: 'Candidate answers past 10 ms of work, which let the requests in progress go first',
    registers: [this.registry],
    collect() {
      this.set(LOOP_TURNS.longNow);
    },
  });

  private readonly lagByProjection = new Map<string, number>();
  /** What GET /metrics answers: with PLACEMENT_WORKERS, every worker's metrics together. */
  readonly scrape = new ClusterScrape(this.registry);

  constructor(projections: readonly string[]) {
    collectDefaultMetrics({ register: this.registry });
    for (const name of projections) this.setProjectionLag(name, 0);
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  appended(outcome: AppendOutcome, seconds: number, events: number): void {
    this.appendDuration.observe({ outcome }, seconds);
    if (outcome === 'conflict') this.appendConflicts.inc();
    if (outcome === 'ok') this.appendedEvents.inc(events);
  }

  /** For asynchronous projection runners: how far behind the log a projection is after each batch. */
  setProjectionLag(projection: string, events: number): void {
    this.lagByProjection.set(projection, events);
    this.projectionLag.set({ projection }, events);
  }

  /** The projection furthest behind, or undefined when every read model is current. */
  laggingProjection(): { projection: string; events: number } | undefined {
    let worst: { projection: string; events: number } | undefined;
    for (const [projection, events] of this.lagByProjection) {
      if (events > 0 && (!worst || events > worst.events)) worst = { projection, events };
    }
    return worst;
  }

  /** Starts the clock of one candidates query; call the result with the number of allocation requests returned. */
  startCandidatesQuery(): (resultSize: number) => void {
    const started = performance.now();
    return (resultSize) => {
      this.candidatesDuration.observe((performance.now() - started) / 1000);
      this.candidatesResultSize.observe(resultSize);
    };
  }
}
