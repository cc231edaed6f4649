# bench/server_env.sh - sourced by the benchmark scripts: the settings every
# benchmarked `conclave serve` runs with. Its defaults, except the abuse
# limits one load generator would trip (requests per token and address,
# sign-ups, quotas, WebSocket requests per connection and address,
# WebSocket sockets per address: every spectator comes from 127.0.0.1), and
# ports chosen by the kernel. Use: env "${BENCH_SERVER_ENV[@]}" DATABASE_URL=... conclave serve
BENCH_SERVER_ENV=(
    CONCLAVE_HTTP_PORT=0 CONCLAVE_WS_PORT=0 CONCLAVE_LOG_LEVEL=info
    CONCLAVE_RATE=1000000 CONCLAVE_RATE_BURST=1000000
    CONCLAVE_SIGNUPS_PER_HOUR=1000000 CONCLAVE_SIGNINS_PER_MINUTE=1000000
    CONCLAVE_SCRYPT_CONCURRENCY=64 CONCLAVE_LOBBIES_PER_PLAYER=1000000
    CONCLAVE_LIVE_GAMES_PER_PLAYER=1000000 CONCLAVE_ASYNC_GAMES_PER_PLAYER=1000000
    CONCLAVE_WS_IP_RATE=1000000 CONCLAVE_WS_IP_RATE_BURST=1000000
    CONCLAVE_WS_AUTH_RATE=1000000 CONCLAVE_WS_AUTH_BURST=1000000
    CONCLAVE_WS_RATE=1000000 CONCLAVE_WS_RATE_BURST=1000000
    CONCLAVE_WS_PER_IP=1000000
)
