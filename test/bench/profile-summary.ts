/** The parts of a V8 .cpuprofile (node --cpu-prof) a summary reads. */
export interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number } }[];
  /** Microseconds on the monotonic clock (process.hrtime's), when sampling began. */
  readonly startTime: number;
  readonly samples: readonly number[];
  /** Microseconds since the previous sample (the first: since startTime). */
  readonly timeDeltas: readonly number[];
}

export interface FunctionTime {
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

export interface WindowSummary {
  /** Time sampled in the window, idle included. */
  readonly sampledMs: number;
  readonly idleMs: number;
  /** Most self time first. */
  readonly functions: readonly FunctionTime[];
}

/**
 * Where the process spent a window of its run, from its CPU profile: self time per function
 * (the function the sample found running), in ms and as a share of the busy (not idle) time.
 * Frames are named function@file:line, files from the build's root or the package's name; V8's
 * pseudo-frames ((garbage collector), (program)) as they are.
 */
export function summarizeWindow(profile: CpuProfile, fromUs: number, toUs: number, top: number): WindowSummary {
  const names = new Map(profile.nodes.map((node) => [node.id, frameName(node.callFrame)]));
  const self = new Map<string, number>();
  let at = profile.startTime;
  let sampled = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) continue;
    const name = names.get(profile.samples[i]) ?? '?';
    self.set(name, (self.get(name) ?? 0) + delta);
    sampled += delta;
  }
  const idle = self.get('(idle)') ?? 0;
  self.delete('(idle)');
  const busy = sampled - idle;
  const functions = [...self].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([name, us]) => ({ name, ms: us / 1000, share: busy > 0 ? us / busy : 0 }));
  return { sampledMs: sampled / 1000, idleMs: idle / 1000, functions };
}

function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const file = frame.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\/((@[^/]+\/)?[^/]+)\/.*$/, '$1')
    .replace(/^.*\/dist\//, '');
  if (!file) return frame.functionName.startsWith('(') ? frame.functionName : `${frame.functionName || '(anonymous)'} (native)`;
  return `${frame.functionName || '(anonymous)'}@${file}:${frame.lineNumber + 1}`;
}

/**
 * Writes to sockets and files, as a profile sees them: a write that wakes a peer (PostgreSQL's
 * backend, the client, libuv's pool thread behind a file write) on a busy small machine often
 * hands it the core at once, and the sampler counts the time the process then waits preempted
 * as the write's own.
 */
const WAKING_WRITES = new Set(['writeBuffer (native)', 'writev (native)', 'writeString (native)', 'writeLatin1String (native)', 'writeUtf8String (native)']);

/** The summary as bench output lines, indented under a heading. */
export function profileLines(label: string, summary: WindowSummary): string {
  const busy = summary.sampledMs - summary.idleMs;
  const lines = [`  profile, ${label}: ${busy.toFixed(0)} ms busy of ${summary.sampledMs.toFixed(0)} ms sampled; most self time:`];
  for (const fn of summary.functions) {
    const note = WAKING_WRITES.has(fn.name) ? '  (a write; includes time preempted by whom it woke)' : '';
    lines.push(`    ${(fn.share * 100).toFixed(1).padStart(5)}% ${fn.ms.toFixed(0).padStart(6)} ms  ${fn.name}${note}`);
  }
  return `${lines.join('\n')}\n`;
}
