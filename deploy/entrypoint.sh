#!/bin/sh
# The image's entry point: the first argument names the process, as in deploy/compose.yaml's
# `command:`. Each maps to the entry point the start command and the tests run (scripts/lib/product.ts
# processSpec, scripts/lib/demo-platform.ts, package.json's db:migrate; scripts/deploy.test.ts checks
# that they agree). Node runs the process itself (exec), so SIGTERM reaches its own shutdown.
# Anything else runs as given: `docker compose run --rm migrate node --import tsx scripts/reseal.ts`.
set -eu
process="${1:-}"
# Node's own flags before the entry point: the broker's are broker/node-flags.ts's BROKER_NODE_FLAGS.
flags=""
case "$process" in
  web) entry=src/web/server.ts ;;
  broker) entry=broker/index.ts flags="--max-semi-space-size=64" ;;
  worker) entry=src/worker/index.ts ;;
  platform) entry=src/demo-platform/main.ts ;;
  migrate) entry=scripts/migrate.ts ;;
  "") echo "usage: web | broker | worker | platform | migrate | <command>" >&2; exit 2 ;;
  *) exec "$@" ;;
esac
shift
# shellcheck disable=SC2086 # $flags is a list of words (or none)
exec node $flags --import tsx "$entry" "$@"
