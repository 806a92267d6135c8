#!/bin/sh
# Stand-in for the official postgres image's entrypoint (the parts docker-compose.yml relies on):
# first start initialises PGDATA with POSTGRES_USER/POSTGRES_PASSWORD/POSTGRES_DB while a
# temporary server listens on the Unix socket only, then the real server listens on TCP.
set -eu
PGDATA=${PGDATA:-/var/lib/postgresql/data}
export PGDATA
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  pw=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" > "$pw"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pw" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pw"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$db" != postgres ]; then createdb -U "$user" "$db"; fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "stand-in postgres: initialised $PGDATA (user $user, database $db)"
fi
exec "$@"
