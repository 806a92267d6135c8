# Stand-in for node:24-bookworm-slim: Debian bookworm (debootstrap minbase) + the Node 24 binary
# from the npm registry's node@24 package + npm, and the image's `node` user (uid 1000).
FROM kura-standin/debian:bookworm
# The host's trusted authorities (this machine's egress may inspect TLS), so npm reaches the
# registry from inside the build as it does from the host.
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt npm_config_cafile=/etc/ssl/certs/ca-certificates.crt
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd -g 1000 node && useradd -u 1000 -g node -m -s /bin/sh node \
 && node --version && npm --version
CMD ["node"]
