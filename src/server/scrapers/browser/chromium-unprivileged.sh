#!/bin/sh
# Starts Chromium as an unprivileged user, with its sandbox on, for a worker that runs as root
# (Chromium refuses to sandbox itself as root). Playwright starts this file in Chromium's place and
# talks to the browser over the pipes this process inherits (exec keeps them).
#   SCRAPER_CHROMIUM      the Chromium executable
#   SCRAPER_BROWSER_USER  the user to run as (default nobody)
set -eu
user="${SCRAPER_BROWSER_USER:-nobody}"
group="$(id -gn "$user")"
profile=""
for arg in "$@"; do
  case "$arg" in --user-data-dir=*) profile="${arg#--user-data-dir=}" ;; esac
done
# Playwright makes a fresh, private profile folder for each launch: hand it to the browser's user.
if [ -n "$profile" ]; then chown -R "$user:$group" "$profile"; fi
exec setpriv --reuid="$user" --regid="$group" --clear-groups --no-new-privs --inh-caps=-all \
  env HOME="${profile:-/tmp}" "$SCRAPER_CHROMIUM" "$@"
