#!/usr/bin/env bash
# Re-records the sample recordings in this folder with the workbench agent (JDK 25 by default; JAVA=... for another).
#   sample-recordings/record.sh
# Each recording is one workload run of ~12-16 s; the agent writes a chunk every 6 s and the chunks of one run are
# concatenated (a JFR file is a sequence of chunks), so each sample shows rotation too.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/setup.sh
JAVA=${JAVA:-$JAVA_HOME/bin/java}
mvn -B -ntp -q -o -pl agent,sample-recordings -am -DskipTests package 2>/dev/null || mvn -B -ntp -q -pl agent,sample-recordings -am -DskipTests package
out=$PWD/sample-recordings
# run from a neutral scratch directory with relative paths and a minimal environment, so the recordings' JVM
# arguments and system properties name no directory of the machine that made them
work=${TMPDIR:-/tmp}/workbench-samples
rm -rf "$work" && mkdir -p "$work"
cp agent/target/workbench-agent.jar "$work/"
cp -r sample-recordings/target/classes "$work/classes"
cd "$work"
agent=workbench-agent.jar
classes=classes

record() { # name jvm-options agent-options main args...
  local name=$1 jvmopts=$2 opts=$3; shift 3
  rm -rf "$name"
  # shellcheck disable=SC2086
  env -i PATH=/usr/bin:/bin HOME="$work" "$JAVA" --enable-native-access=ALL-UNNAMED $jvmopts \
    "-javaagent:$agent=dir=$name,interval=6s,$opts" -cp "$classes" "$@"
  cat "$name"/*.jfr > "$out/$name.jfr"
  echo "sample-recordings/$name.jfr: $(stat -c %s "$out/$name.jfr") bytes from $(ls "$name" | wc -l) chunk(s)"
}

record checkout-before "-Xmx256m" "cpu=10ms,alloc=2m,live=true,label.service=checkout,label.version=before" \
  org.jfrworkbench.samples.CheckoutService before 12
record checkout-after "-Xmx256m" "cpu=10ms,alloc=2m,live=true,label.service=checkout,label.version=after" \
  org.jfrworkbench.samples.CheckoutService after 12
record retaining-cache "-Xmx128m -XX:NativeMemoryTracking=summary" \
  "cpu=10ms,alloc=1m,live=true,nmt-interval=2s,label.service=session-cache,label.version=1.0" \
  org.jfrworkbench.samples.RetainingCache 16
