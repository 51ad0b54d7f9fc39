import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { cpuMeter, postmasterOf, treeCpuMs } from '../bench/versus/process-cpu.js';
import { ADMIN_URL } from '../support/database.js';

jest.setTimeout(60_000);

/** Keeps a core busy for about `ms` in a process of its own, which then exits. */
const busyChild = (ms: number) => spawnSync(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`]);

/**
 * The benches' CPU figures count a process that exits between two readings: upstream's pool
 * opens and closes PostgreSQL backends throughout a storm, and counting only the backends alive
 * at both readings missed about half of upstream's PostgreSQL.
 */
describe("the benches' CPU of a process tree", () => {
  it("counts a child that ran and exited between two readings (its CPU goes to its parent's when reaped)", () => {
    const before = treeCpuMs(process.pid)!;
    const own = process.cpuUsage();
    busyChild(400);
    const spent = process.cpuUsage(own);
    const ownMs = (spent.user + spent.system) / 1000;
    expect(treeCpuMs(process.pid)! - before - ownMs).toBeGreaterThan(250);
  });

  it('reads a short window to the millisecond, not to the 10 ms clock tick', () => {
    // Ten windows of 5 ms of work: read in ticks, each would be 0 or 10 ms.
    for (let i = 0; i < 10; i++) {
      const own = process.cpuUsage();
      const before = treeCpuMs(process.pid)!;
      const end = performance.now() + 5;
      while (performance.now() < end);
      const read = treeCpuMs(process.pid)! - before;
      const spent = process.cpuUsage(own);
      // The work, at most what this process spent from the first reading's start to the second's end.
      expect(read).toBeGreaterThan(4.5);
      expect(read).toBeLessThan((spent.user + spent.system) / 1000 + 1);
    }
  });

  it("finds PostgreSQL's postmaster, and counts a backend that worked and disconnected while measured", async () => {
    const postmaster = await postmasterOf(ADMIN_URL);
    expect(readFileSync(`/proc/${postmaster}/cmdline`, 'utf8')).toMatch(/postgres/);
    const meter = await cpuMeter(process.pid, ADMIN_URL);
    const { cpu } = await meter.around(async () => {
      const client = new Client({ connectionString: ADMIN_URL });
      await client.connect();
      const { rows: [{ pid }] } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.query('SELECT count(*) FROM generate_series(1, 5000000)');
      await client.end();
      // Once the postmaster has reaped the backend (no zombie left), its CPU is the postmaster's.
      const deadline = Date.now() + 5_000;
      while (existsSync(`/proc/${pid}`) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
      expect(existsSync(`/proc/${pid}`)).toBe(false);
    });
    expect(cpu.database).toBeGreaterThan(200);
  });
});
