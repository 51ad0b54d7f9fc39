FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps apps
COPY libs libs
COPY projections projections
COPY test test
RUN npm run build && npm prune --omit=dev \
 && chmod +x dist/apps/placement-api/src/main.js dist/apps/placement-admin/src/main.js \
    dist/apps/placement-admin/src/placement-manage.js dist/apps/placement-admin/src/placement-status.js

FROM node:20-bookworm-slim
WORKDIR /app
# Listen on every interface inside the container; the port is helm's 8778 unless PORT or
# `--port` says otherwise (kolla's 8780: `placement-api --port 8780`).
# No authentication strategy is set here on purpose: off loopback the server refuses to start
# (exit 2) until it is told one. Give it PLACEMENT_AUTH_STRATEGY=keystone with
# PLACEMENT_KEYSTONE_AUTH_URL, _USERNAME, _PASSWORD and _PROJECT_NAME (or mount a placement.conf:
# a file without [api] auth_strategy means keystone, as upstream), or PLACEMENT_AUTH_STRATEGY=noauth2,
# which lets anyone claim any identity, for development and tests only.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8778
# A young generation that fits concurrent answers and stays so when idle, one collection after the
# candidate index loads: see
# apps/placement-api/src/heap-flags.ts (PLACEMENT_WORKERS' workers get them anyway).
ENV NODE_OPTIONS="--min-semi-space-size=16 --max-semi-space-size=16 --expose-gc"
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
# Upstream's command names on PATH: deployment tools' bootstrap jobs run `placement-manage db sync`
# and `placement-status upgrade check`. Every command reads /etc/placement/placement.conf when it
# is there (mount it, or name another with --config-file; OS_PLACEMENT_CONFIG_DIR also works).
RUN ln -s /app/dist/apps/placement-api/src/main.js /usr/local/bin/placement-api \
 && ln -s /app/dist/apps/placement-admin/src/placement-manage.js /usr/local/bin/placement-manage \
 && ln -s /app/dist/apps/placement-admin/src/placement-status.js /usr/local/bin/placement-status \
 && ln -s /app/dist/apps/placement-admin/src/main.js /usr/local/bin/placement-admin \
 && mkdir -p /etc/placement
USER node
EXPOSE 8778
CMD ["placement-api"]
