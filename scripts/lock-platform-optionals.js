#!/usr/bin/env node
// The registry mirror reachable here serves only this platform's native builds, so `npm install`
// leaves other platforms' optional packages (@swc/core-darwin-arm64, ...) out of the lock, and
// `npm ci` then refuses the lock as out of sync. This adds each missing optional package with the
// os/cpu its name declares, so npm ci skips it on a mismatch instead of fetching it.
// Run after any `npm install` that changes package-lock.json: node scripts/lock-platform-optionals.js
const fs = require('node:fs');

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;
const PLATFORM = /-(darwin|win32|linux|freebsd|android|openharmony|sunos|aix|netbsd|openbsd|wasm32)(?:-([a-z0-9]+))?/;
const NOT_CPU = new Set(['msvc', 'gnu', 'musl', 'wasi']);
let added = 0;

for (const meta of Object.values(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const match = PLATFORM.exec(name);
    if (!match) continue;
    const entry = { version, optional: true };
    if (meta.dev) entry.dev = true;
    if (match[1] === 'wasm32') entry.cpu = ['wasm32'];
    else {
      entry.os = [match[1]];
      const cpu = match[2];
      if (cpu && !NOT_CPU.has(cpu)) entry.cpu = [cpu.replace(/eabihf$/, '')];
    }
    packages[key] = entry;
    added++;
  }
}

fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platform-optionals: added ${added} entries to ${file}`);
