#!/usr/bin/env bash
# Sets everything up (Debian 12, as root) and starts Trainscope on the default scenario.
# Arguments are passed to the app: scripts/run.sh my-plan.json
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build
mkdir -p -m700 "/tmp/runtime-$(id -u)"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/runtime-$(id -u)}
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "run: no display found; starting under Xvfb (screen 1600x1000)" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" ./build/app/trainscope "$@"
fi
exec ./build/app/trainscope "$@"
