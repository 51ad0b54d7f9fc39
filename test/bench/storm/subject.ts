import { databaseStatements } from '../claims-snapshot.js';
import { BenchClient } from '../http.js';
import type { Contender } from '../versus/contenders.js';
import { cpuMeter, type CpuSplit } from '../versus/process-cpu.js';
import { checkStorm } from './check.js';
import type { ServerStorm } from './figures.js';
import type { StormOptions } from './options.js';
import type { Instance, StormResult } from './scheduler.js';
import { transactionsOf } from './statistics.js';
import type { Watched } from './watch.js';
import { WarmUp, WarmUpRound } from './warm-up.js';
import type { WideAsked } from './wide.js';

/** What a storm of a server measured besides its counters, which the subject reads itself. */
export interface Stormed {
  readonly result: StormResult;
  readonly cpu: CpuSplit;
  readonly loadGeneratorCpu: number;
  readonly watched: Watched;
  readonly wide: WideAsked[];
}

/**
 * A server a storm is measured on, in the order a storm of one server (storm.ts) and of two
 * builds in turns (against.ts) take alike: warmed up, its counters read once the host has
 * settled (`begin`), read again after the storm (`end`), and, after another settling (PostgreSQL
 * reports a backend's transactions late), the report with the consistency check (`report`).
 */
export class StormSubject {
  private statementsBefore: number | null = null;
  private statementsAfter: number | null = null;
  private transactionsBefore = 0;

  private constructor(
    readonly contender: Contender,
    /** The server's name in the report: the contender's, unless another build of ours. */
    private readonly name: ServerStorm['server'],
    /** The schedulers' client. */
    readonly client: BenchClient,
    /** Everything beside the schedulers: GET / meanwhile, the wide tree's questions, the check's reads. */
    readonly side: BenchClient,
    private readonly warmed: WarmUp,
  ) {}

  /** A server not warmed up yet: `warmRound` warms it, a round at a time. */
  static open(contender: Contender, options: StormOptions, name: ServerStorm['server'] = contender.name): StormSubject {
    const client = new BenchClient(contender.url, '1.36', false, true);
    const side = new BenchClient(contender.url, '1.39', false, true);
    return new StormSubject(contender, name, client, side, new WarmUp(client, options.schedulers, options.seed + 3));
  }

  /** A server warmed up with `warmup`, in rounds of at most `asked` (the storm's own size). */
  static async warm(contender: Contender, warmup: readonly Instance[], asked: number, options: StormOptions): Promise<StormSubject> {
    const subject = StormSubject.open(contender, options);
    try {
      await subject.warmed.rounds(warmup, asked);
      return subject;
    } catch (error) {
      subject.close();
      throw error;
    }
  }

  warmRound(round: WarmUpRound): Promise<void> {
    return this.warmed.round(round);
  }

  /** Its counters before the storm, and the meter of its server's and PostgreSQL's CPU. */
  async begin(): Promise<Awaited<ReturnType<typeof cpuMeter>>> {
    this.statementsBefore = await databaseStatements(this.side);
    this.transactionsBefore = await transactionsOf(this.contender.databaseUrl);
    return cpuMeter(this.contender.pid, this.contender.databaseUrl);
  }

  async end(): Promise<void> {
    this.statementsAfter = await databaseStatements(this.side);
  }

  /** The storm's figures and problems; the transactions are read before the check, whose reads are not the storm's. */
  async report(asked: number, stormed: Stormed): Promise<ServerStorm> {
    const transactions = (await transactionsOf(this.contender.databaseUrl)) - this.transactionsBefore;
    const problems = await checkStorm(this.side, stormed.result.acknowledged, this.warmed.released);
    if (this.warmed.failed > 0) problems.push(`${this.warmed.failed} instances of the warm-up given up on an error: ${this.warmed.failures.join(' | ')}`);
    const statements = this.statementsBefore === null || this.statementsAfter === null ? null : this.statementsAfter - this.statementsBefore;
    return {
      server: this.name, asked, warmedBy: this.warmed.released.length, ...stormed, statements, transactions, problems,
    };
  }

  close(): void {
    this.client.close();
    this.side.close();
  }
}
