# syntax=docker/dockerfile:1
# genbot: one image for every role; compose.yaml picks the role with the command
# (slack, discord, worker). See README, "Running at scale".

FROM node:24-bookworm-slim AS build
WORKDIR /app
# pnpm at the version package.json pins.
RUN npm install -g --loglevel=error pnpm@10.34.9
# The lockfile alone fetches every package: this layer stays cached until it changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --prod
COPY . .
# Production dependencies only; tsx is one of them (the CLI runs TypeScript without a build).
RUN pnpm install --frozen-lockfile --prod --offline

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
# glibc keeps an arena a thread; sharp's image threads would each hold on to what they freed (bench/README.md).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# The default SQLite file's folder; scaled-out deployments set DATABASE_URL to PostgreSQL.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000 9090
# Exec form, no shell in between: node is PID 1 and receives SIGTERM itself, so genbot drains and exits 0.
ENTRYPOINT ["node", "apps/genbot/bin/genbot.js"]
CMD ["start"]
