#!/usr/bin/env bash
# Installs what is missing (Maven), picks a JDK >= 21, builds the jar if needed and serves the workbench
# on http://127.0.0.1:8080 with the sample recordings loaded. Extra arguments go to `workbench serve`.
set -euo pipefail
cd "$(dirname "$0")"
. .ci/setup.sh
jar=server/target/workbench.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml */pom.xml */src sample-recordings -newer "$jar" -type f -print -quit 2>/dev/null)" ]; then
  mvn -B -ntp -q -DskipTests package
fi
exec java --enable-native-access=ALL-UNNAMED -jar "$jar" serve "$@"
