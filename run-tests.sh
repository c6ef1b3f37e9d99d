#!/usr/bin/env bash
# Installs what is missing (Maven, Chromium), picks a JDK >= 21 and runs every test: unit, integration, browser.
set -euo pipefail
cd "$(dirname "$0")"
. .ci/setup.sh --browser
exec mvn -B -ntp verify "$@"
