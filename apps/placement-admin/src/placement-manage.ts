#!/usr/bin/env node
import 'reflect-metadata';
import { runCommand } from './run-command.js';
import { runManage } from './upstream/manage-cli.js';

// Upstream's `placement-manage` (db sync, db version, db online_data_migrations), for deployment tools.
runCommand(runManage, 1);
