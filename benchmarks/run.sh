#!/usr/bin/env bash
# Builds what the benchmarks need and runs one of them (a main class of org.jfrworkbench.bench), from the repository
# root, on a JDK >= 21:
#   benchmarks/run.sh NAME [ARGS...]
# NAME: BenchInputs (makes the benchmark inputs and prints their facts), ImportBench, UploadBench, RunAppendBench,
# QueriesSideBySide (two builds' queries in turn in one JVM),
# ServerBenchmark, FlameGraphBenchmark, OverheadBenchmark, ToggledOverhead, HeapAccuracyBench or HeapCountCost (see each
# class's doc).
# Options of the benchmark's own JVM (-Xmx4g, -Dbench.diff=true, ...) go in JAVA_OPTS.
set -euo pipefail
cd "$(dirname "$0")/.."
names="BenchInputs ImportBench UploadBench RunAppendBench ServerBenchmark QueriesSideBySide FlameGraphBenchmark OverheadBenchmark ToggledOverhead HeapAccuracyBench HeapCountCost"
if [ $# -lt 1 ] || [[ " $names " != *" $1 "* ]]; then
  echo "usage: benchmarks/run.sh NAME [ARGS...] with NAME one of: $names" >&2
  exit 2
fi
name=$1
shift
if [ "$name" = FlameGraphBenchmark ]; then
  . .ci/setup.sh --browser
else
  . .ci/setup.sh
fi
# the agent too: the overhead benchmarks take its jar (agent/target/workbench-agent.jar) as their first argument
mvn -B -ntp -q -pl agent,benchmarks -am package -DskipTests
main=org.jfrworkbench.bench.$name
[ "$name" = BenchInputs ] && main=org.jfrworkbench.bench.inputs.BenchInputs
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} \
  -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" "$main" "$@"
