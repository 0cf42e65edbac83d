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
ENV NODE_ENV=production \
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
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Migrations are applied by the server at start-up, before it listens.
CMD ["node_modules/.bin/tsx", "src/server/main.ts"]
