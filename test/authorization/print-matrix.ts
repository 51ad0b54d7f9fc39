#!/usr/bin/env node
import { renderMatrix } from './matrix-table.js';

// The access matrix as docs/authorization.md holds it, between its markers.
process.stdout.write(`${renderMatrix()}\n`);
