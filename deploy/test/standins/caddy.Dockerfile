# Stand-in for the official caddy image: Debian bookworm's caddy 2.6 with the official image's
# paths (/etc/caddy/Caddyfile, /data, /config).
FROM kura-standin/debian:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends caddy ca-certificates >/dev/null && rm -rf /var/lib/apt/lists/*
ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data
EXPOSE 80 443
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
