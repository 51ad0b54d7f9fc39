#!/usr/bin/env node
import 'reflect-metadata';
import { runCommand } from './run-command.js';
import { runStatus } from './upstream/status-cli.js';

// Upstream's `placement-status upgrade check`, with oslo.upgradecheck's table and exit codes (255: it could not run).
runCommand(runStatus, 255);
