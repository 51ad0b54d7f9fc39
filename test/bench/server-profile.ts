import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CpuProfile, profileLines, summarizeWindow } from './profile-summary.js';

/** Microseconds on the monotonic clock, the one V8's profiles are stamped with. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * A bench's `--profile`: our server runs under V8's sampling profiler (`nodeArgs`), the bench
 * marks the windows of its run each phase took, and once the server has exited (it writes its
 * profile then) `report` says where each phase spent the server's time.
 */
export class ServerProfile {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pl-bench-profile-'));
  private readonly windows: { label: string; fromUs: number; toUs: number }[] = [];
  readonly nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${this.dir}`];

  /** The flag asked for, or none. */
  static ifAsked(argv: readonly string[]): ServerProfile | null {
    return argv.includes('--profile') ? new ServerProfile() : null;
  }

  /** `work`, as the window `label` of the profile when there is one; else just `work`. */
  static within<T>(profile: ServerProfile | null, label: string, work: () => Promise<T>): Promise<T> {
    return profile ? profile.window(label, work) : work();
  }

  async window<T>(label: string, work: () => Promise<T>): Promise<T> {
    const fromUs = nowUs();
    try {
      return await work();
    } finally {
      this.windows.push({ label, fromUs, toUs: nowUs() });
    }
  }

  /** The phases' summaries (one per process that wrote a profile), then the files go. */
  report(top = 12): string {
    const files = readdirSync(this.dir).filter((name) => name.endsWith('.cpuprofile'));
    let out = files.length === 0 ? '  profile: the server wrote none (it did not exit by itself)\n' : '';
    for (const [i, file] of files.entries()) {
      const profile = JSON.parse(readFileSync(join(this.dir, file), 'utf8')) as CpuProfile;
      const who = files.length > 1 ? ` (process ${i + 1} of ${files.length})` : '';
      for (const w of this.windows) out += profileLines(`${w.label}${who}`, summarizeWindow(profile, w.fromUs, w.toUs, top));
    }
    rmSync(this.dir, { recursive: true, force: true });
    return out;
  }
}
