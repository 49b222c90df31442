# syntax=docker/dockerfile:1
# The service's image: the API by default (`node dist/src/api/server.js`); the worker and the one-off
# migration run from the same image with another command (see compose.yaml).
ARG NODE_VERSION=24

# Generate the Prisma client and type-check (npm run build) with every dependency, exactly as
# locked; then bundle each program the image runs, with the code it loads, into /image/dist.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
RUN node scripts/image/bundle.js /image/dist

# The production dependencies, exactly as locked, of which the image keeps in /image/node_modules
# only the packages the bundles leave out (the migration's Prisma CLI, pg, msgpackr) and theirs.
FROM node:${NODE_VERSION}-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY scripts/image/modules.js ./scripts/image/
RUN node scripts/image/modules.js /app /image

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=4000 \
    WEBHOOK_SIGNING_KEY_DIR=/var/lib/payreq/signing-keys
WORKDIR /app
# The key directory belongs to the unprivileged user, so a volume mounted there is writable.
RUN mkdir -p /var/lib/payreq/signing-keys && chown -R node:node /var/lib/payreq
COPY --from=dependencies /image/node_modules ./node_modules
COPY --from=build /image/dist ./dist
# The migration command runs the migration step's Prisma CLI (the `prisma6` package), which reads
# its configuration in prisma/migrate/ (and the settings-file reader that imports) and the migrations,
# with the preload that lets it exit once done (scripts/start/prisma-cli.ts).
COPY package.json ./
COPY src/env-file.ts ./src/
# The pay page's stylesheet and script, which the API reads from there (src/http/pay/assets.ts).
COPY src/http/pay/static ./src/http/pay/static
# The merchant console's browser bundle, made by `npm run build` (scripts/start/console-bundle.js).
COPY --from=build /app/src/generated/console ./src/generated/console
COPY scripts/start/engine-lock-timer.cjs ./scripts/start/
COPY prisma ./prisma
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# API_PROCESSES API processes on PORT (default: one per core but one), under the supervisor of npm
# start, which gives them their V8 flags, starts again one that dies, sums their metrics on
# METRICS_PORT and stops them on SIGTERM; compose.yaml runs the migration and the worker apart.
CMD ["node", "dist/scripts/start/main.js", "--api"]
