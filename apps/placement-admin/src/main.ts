#!/usr/bin/env node
import 'reflect-metadata';
import { runAdmin } from './cli.js';
import { runCommand } from './run-command.js';

runCommand(runAdmin, 3);
