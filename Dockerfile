# One image, two roles (ROLE=web | worker | all). Node 24 LTS, as in development (the `node` devDependency).
# The lock may lack other platforms' optional binaries (see .ci/run): npm install honours it then.

# 1. typecheck, bundle src/ into dist/ (esbuild; dependencies stay in node_modules), and the playground page (Vite)
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY drizzle ./drizzle
COPY scripts/build.ts ./scripts/build.ts
RUN npx tsc --noEmit && npm run -s build

# 2. plain node on the bundle, production dependencies only
FROM node:24-bookworm-slim
ENV NODE_ENV=production
# ffmpeg cuts a dub longer than the studio's 5 minutes into parts and joins the dubbed parts
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN (npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund) \
  && npm cache clean --force
COPY --from=build /app/dist ./dist
# files read at run time, found from the project root (src/platform/lib/project-root.ts)
COPY drizzle ./drizzle
COPY src/platform/i18n/locales ./src/platform/i18n/locales
COPY sandbox/simulator/fixtures ./sandbox/simulator/fixtures
COPY src/domain/pricing/default-prices.json ./src/domain/pricing/default-prices.json
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
# SIGTERM drains (no new updates, jobs finished or handed back) before exit
STOPSIGNAL SIGTERM
# The same settings as `npm start` (docs/operations.md, "Memory"). V8 lets the old generation grow
# to 4x the live heap before a full GC when its ceiling is the machine-sized default;
# under a 160 MB ceiling it stays close to the live heap (~35-55 MB). 4 MB semi-spaces
# (16 by default) keep the young generation small, and --no-maglev leaves out V8's
# middle compiler (its code and compile memory, ~9 MB on the web role under load; hot code
# is still optimized by TurboFan). Two malloc arenas (glibc makes up to 8 per core) keep
# what node's threads freed from staying resident.
# No --enable-source-maps: it keeps the map of every loaded module that has one in
# memory (ours, and drizzle-orm's), 5-10 MB per process; NODE_OPTIONS=--enable-source-maps
# gives stack traces in terms of src/ where that is worth it.
# --expose-gc: large relays ask for a minor GC every MB (src/platform/lib/release-chunks.ts).
ENV MALLOC_ARENA_MAX=2
CMD ["node", "--expose-gc", "--max-old-space-size=160", "--max-semi-space-size=4", "--no-maglev", "dist/main.js"]
