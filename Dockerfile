# syntax=docker/dockerfile:1
# Multi-stage build: dependencies, client build, then a slim runtime as a non-root user.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# postinstall patches the PostgreSQL driver (see the script's header).
COPY src/server/db/patch-postgres-driver.mjs src/server/db/
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
# PGLITE_DATA_DIR: the embedded database (when DATABASE_URL is unset) and the auth-secret and
# secrets-key generated there when AUTH_SECRET and SECRETS_KEY are unset (production requires both).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    PGLITE_DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY src/server/db/patch-postgres-driver.mjs src/server/db/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY drizzle ./drizzle
COPY public ./public
COPY src ./src
COPY tsconfig.json vite.config.ts ./
# The image's own user (uid 1000) owns the data folder before it becomes a volume: a new volume
# starts as a copy of it, ownership included, so the server can write there without root.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness on the port the server listens on (PORT may be overridden at `docker run`); migrations
# run before it listens, hence the start period.
HEALTHCHECK --interval=30s --timeout=3s --start-period=60s --retries=3 CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Migrations are applied by the server at start-up, before it listens.
CMD ["node_modules/.bin/tsx", "src/server/main.ts"]
