# Stand-in for the official redis image: Debian bookworm's redis-server 7.0.
FROM kura-standin/debian:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null && rm -rf /var/lib/apt/lists/*
EXPOSE 6379
CMD ["redis-server", "--protected-mode", "no", "--bind", "0.0.0.0", "--save", "", "--appendonly", "no"]
