#!/bin/sh
# Creates .env beside docker-compose.yml from .env.example, with a random POSTGRES_PASSWORD,
# BALLOT_KEY and SESSION_SECRET. Refuses to overwrite an existing .env (it holds the keys).
set -eu
cd "$(dirname "$0")/.."
if [ -e .env ]; then echo ".env exists already: edit it, or move it away first." >&2; exit 1; fi
hex() { od -An -N32 -tx1 /dev/urandom | tr -d ' \n'; }
umask 077
sed -e "s/^POSTGRES_PASSWORD=\$/POSTGRES_PASSWORD=$(hex)/" \
    -e "s/^BALLOT_KEY=\$/BALLOT_KEY=$(hex)/" \
    -e "s/^SESSION_SECRET=\$/SESSION_SECRET=$(hex)/" .env.example > .env
echo "Wrote .env with new secrets. Now fill in SMTP_URL, MAIL_FROM and the SMS lines, then: docker compose up -d --build"
