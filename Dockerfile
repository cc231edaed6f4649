# Dockerfile - Conclave in a container: build on Debian bookworm, run on a slim image.
#
#   docker build -t conclave .
#   docker run -e DATABASE_URL=postgresql://USER:PASSWORD@HOST/conclave -p 8080:8080 -p 8081:8081 conclave
#
# or `docker compose up`, which also starts PostgreSQL (docker-compose.yml).
# `conclave serve` applies pending migrations (sql/) at start and serves web/ and the
# OpenAPI document from the working folder, /app.

FROM debian:bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential pkg-config \
      libmicrohttpd-dev libwebsockets-dev libuv1-dev libev-dev libjansson-dev libpq-dev libssl-dev libcurl4-openssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Only what the server build reads, so that unrelated changes keep the cache.
COPY Makefile ./
COPY engine ./engine
COPY common ./common
COPY server ./server
COPY api ./api
COPY sql ./sql
COPY web ./web
RUN make -j"$(nproc)" build/conclave \
 && mkdir -p /out/app/api \
 && cp -r sql web /out/app/ \
 && if [ -f api/openapi.yaml ]; then cp api/openapi.yaml /out/app/api/; fi

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libmicrohttpd12 libwebsockets17 libwebsockets-evlib-uv libwebsockets-evlib-ev libuv1 libev4 libjansson4 libpq5 libssl3 libcurl4 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --user-group --uid 10001 --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin conclave
COPY --from=build /src/build/conclave /usr/local/bin/conclave
COPY --from=build /out/app /app
WORKDIR /app
USER conclave
EXPOSE 8080 8081
ENV CONCLAVE_HTTP_PORT=8080 CONCLAVE_WS_PORT=8081
CMD ["conclave", "serve"]
