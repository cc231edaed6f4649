#!/usr/bin/env bash
# scripts/deps.sh - make sure the Debian packages the build and tests need are installed.
#
# As root: installs whatever is missing with apt-get (quietly; `apt-get update` only when
# something is missing). As anyone else: prints the exact command to run and exits 1.
# Fast and silent when nothing is missing. It never upgrades or removes anything.
set -euo pipefail

packages=(
    build-essential pkg-config
    libmicrohttpd-dev libwebsockets-dev libwebsockets-evlib-uv libwebsockets-evlib-ev libuv1-dev libev-dev libjansson-dev libpq-dev libssl-dev
    libcurl4-openssl-dev
    postgresql postgresql-contrib
    chromium
    clang libclang-rt-14-dev cppcheck clang-tidy clang-format valgrind
    curl ca-certificates haproxy
)

# A Node.js that is already there (from any source) is kept: Debian's npm package
# conflicts with some other builds of nodejs, so only ask for both when either is absent.
node_ok() {
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 1
    local major
    major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) || return 1
    [[ $major =~ ^[0-9]+$ ]] && ((major >= 18))
}
node_ok || packages+=(nodejs npm)

# One dpkg-query for all of them; a package dpkg has never heard of prints nothing.
declare -A installed=()
while read -r name status; do
    [[ $status == ii* ]] && installed[${name%%:*}]=1
done < <(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null || true)

missing=()
for p in "${packages[@]}"; do
    [[ -n ${installed[$p]:-} ]] || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

if ((EUID != 0)); then
    echo "deps: missing Debian packages: ${missing[*]}" >&2
    echo "deps: install them with:" >&2
    echo "sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp "${TMPDIR:-/tmp}/conclave-deps.XXXXXX")
trap 'rm -f "$log"' EXIT
apt=(apt-get -q -o Dpkg::Lock::Timeout=300 -o Dpkg::Use-Pty=0)

echo "deps: installing ${missing[*]}" >&2
if ! "${apt[@]}" update >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "deps: apt-get update failed" >&2
    exit 1
fi
if ! "${apt[@]}" install -y "${missing[@]}" >>"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "deps: apt-get install failed" >&2
    exit 1
fi
echo "deps: done" >&2
