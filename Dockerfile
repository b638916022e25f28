# Not built on the project's CI machines (they have no Docker engine); test/integration/deploy-manifests.test.ts checks the
# base image is pinned. Node 20.20.2 is the version the suite runs on.
# Build stage: production dependencies (esbuild, the compiler, is one of them: the dashboard needs it at run time), then
# the build: dist/ (compiled JavaScript) and the local embedder's word-vector table.
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Without the `prepare` build (the sources are not here yet), so this layer stays cached until the lockfile changes.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/
COPY src src
COPY migrations migrations
RUN node scripts/build.mjs

# Runtime: the build, the production dependencies, and the files read at run time (the dashboard's sources, the prompts).
FROM node:20.20.2-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
COPY dashboard dashboard
COPY src/ai/openai/prompts src/ai/openai/prompts
# The embedded database's default data dir (./data), writable by the unprivileged user the service runs as.
RUN mkdir data && chown node:node data
USER node
EXPOSE 8080
# Liveness (not readiness: a database outage is not a reason to restart the container). The slim image has no curl.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js", "start"]
