# Switchboard: one image that serves the API, the web app and the widget.
# Build: docker build -t switchboard .   Run with PostgreSQL and Redis: docker compose up

# --- build: install everything, build server, web app and widget, then keep production packages only
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/widget/package.json apps/widget/
COPY packages/core/package.json packages/core/
RUN npm ci --no-audit --no-fund
COPY . .
RUN node apps/widget/build.mjs \
  && node apps/server/build.mjs \
  && (cd apps/web && npx vite build --logLevel warn) \
  && npm prune --omit=dev --no-audit --no-fund

# --- runtime: the built files, production packages, a non-root user
FROM node:20-bookworm-slim
# MALLOC_ARENA_MAX: glibc's memory pools for the server's threads, at most two; MALLOC_TRIM_THRESHOLD_: free memory
# above 1 MiB at the top of glibc's heap goes back to the system (docs/performance.md, "Memory").
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2 \
    MALLOC_TRIM_THRESHOLD_=1048576
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/core ./packages/core
COPY --from=build /app/apps/server/package.json ./apps/server/
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/server/drizzle ./apps/server/drizzle
COPY --from=build /app/apps/web/package.json ./apps/web/
COPY --from=build /app/apps/web/dist ./apps/web/dist
COPY --from=build /app/apps/widget/package.json ./apps/widget/
COPY --from=build /app/apps/widget/dist ./apps/widget/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) lets the server finish its requests and jobs, then it exits.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "apps/server/dist/main.js"]
