# One image, two roles (ROLE=web | worker | all). Node 20, as in development.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# tsx runs the TypeScript sources directly; dev tools are not installed. The lock may lack
# other platforms' optional binaries (see .ci/run), in which case npm install honours it instead.
RUN (npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund) \
  && npm install --no-save --no-audit --no-fund tsx@4.23.15 && npm cache clean --force
COPY tsconfig.json ./
COPY src ./src
COPY drizzle ./drizzle
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
# SIGTERM drains (no new updates, jobs finished or handed back) before exit
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "src/main.ts"]
