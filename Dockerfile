# Multi-stage build: compile the web app and the server bundle, then ship only production deps.
# NODE_IMAGE is the base of every stage; the default is the current Node LTS on Debian bookworm.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json ./
# pnpm at exactly the version package.json's "packageManager" names (corepack is not used: it
# cannot fetch or verify pnpm on every network).
RUN npm install -g --no-fund --no-audit "$(node -p "require('./package.json').packageManager.split('+')[0]")" && pnpm --version
# Dependency patches (pnpm patchedDependencies) must be present for the frozen install.
COPY patches ./patches
COPY packages/contract/package.json packages/contract/
COPY packages/count/package.json packages/count/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/

FROM base AS build
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build

FROM base AS prod-deps
RUN pnpm install --frozen-lockfile --prod --filter @kura/server...

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/packages/server/node_modules ./packages/server/node_modules
COPY --from=build /app/packages/server/dist ./packages/server/dist
COPY --from=build /app/packages/server/package.json ./packages/server/package.json
COPY --from=build /app/packages/web/dist ./packages/web/dist
COPY --from=build /app/migrations ./migrations
COPY package.json ./
# Operator commands: `docker compose exec server kura <command>` (docs/operations.md "Operator commands").
COPY deploy/kura /usr/local/bin/kura
RUN chmod 755 /usr/local/bin/kura && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:3000/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "packages/server/dist/main.js"]
