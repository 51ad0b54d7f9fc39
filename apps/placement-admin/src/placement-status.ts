#!/usr/bin/env node
import 'reflect-metadata';
import { runStatus } from './upstream/status-cli.js';

// Upstream's `placement-status upgrade check`, with oslo.upgradecheck's table and exit codes.
runStatus(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => { process.exitCode = code; },
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 255;
  },
);
