import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The processes whose parent is `pid` (an API primary's workers). */
export function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map((s) => Number(s.trim())).filter((n) => n > 0);
  } catch {
    return [];
  }
}

/** Resident and peak resident memory of a process, in MB (Linux). */
export function rssOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(/\s(\d+) kB/.exec(status.split('\n').find((line) => line.startsWith(field)) ?? '')?.[1] ?? NaN);
  return { rssMb: kb('VmRSS:') / 1024, peakMb: kb('VmHWM:') / 1024 };
}

/**
 * Which of `pids` holds the server's side of the TCP connection from local port `clientPort`:
 * node:cluster hands each accepted connection to one worker, which then owns its socket.
 * Linux only (/proc/net/tcp and the processes' fd tables).
 */
export function ownerOfConnection(serverPort: number, clientPort: number, pids: readonly number[]): number | null {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    if (fields[1].endsWith(`:${hex(serverPort)}`) && fields[2].endsWith(`:${hex(clientPort)}`)) inodes.add(fields[9]);
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return pid;
      } catch {
        // The descriptor closed while being listed.
      }
    }
  }
  return null;
}
