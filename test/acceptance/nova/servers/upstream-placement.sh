#!/bin/bash
# Upstream Placement 8.0.0 for the Nova harness: the conformance kit's server
# (../shared/conformance/servers/upstream-placement.sh: Debian's python3-placement under
# uWSGI, the same server contract), answering every request with "Connection: close".
#
# Why: the kit serves uWSGI's --http11-socket, which keeps connections alive, and two things
# then drop a request Nova sends on a kept connection ("Remote end closed connection without
# response"), failing tests for upstream that have nothing to do with placement:
# - a body placement never reads (Nova's PUT /traits/{name} with "{}") stays in the
#   connection, and uWSGI takes it for the start of the next request;
# - uWSGI closes a connection idle for its socket timeout (4 s), racing the client that
#   sends its next request on it; Nova's tests idle that long between calls on a busy machine.
# A connection per request ends both; placement's answers are the same. Placement in
# production sits behind a proxy that speaks uwsgi's own protocol and meets neither.
# uWSGI reads any option from UWSGI_<NAME> in the environment.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shared=${SHARED_DIR:-$here/../../../../../shared}
export UWSGI_ADD_HEADER="Connection: close"
exec "$shared/conformance/servers/upstream-placement.sh"
