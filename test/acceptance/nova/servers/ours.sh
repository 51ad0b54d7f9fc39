#!/bin/bash
# Placement Ledger as built in this checkout (npm run build), under the server contract.
# A script rather than the node command itself, so the runner's command line does not name
# the server's entry point (a `pkill -f .../main.js` elsewhere on the machine stops servers,
# not the run).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../../.." && pwd)
exec node "$root/dist/apps/placement-api/src/main.js"
