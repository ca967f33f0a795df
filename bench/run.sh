#!/usr/bin/env bash
# Runs a benchmark on this machine: bench/run.sh dataset
# Traffic stays on loopback. Figures are ratios against a baseline measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests install
mvn -B -q -pl bench dependency:build-classpath -Dmdep.outputFile=target/bench.classpath
case "${1:-dataset}" in
  dataset) main=io.quarry.bench.DatasetBench ;;
  chat) main=io.quarry.bench.ChatBench ;;
  cluster) main=io.quarry.bench.ClusterBench ;;
  *) echo "unknown benchmark: $1 (dataset, chat, cluster)" >&2; exit 2 ;;
esac
exec java ${BENCH_JAVA_OPTS:-} -Xmx6g -Djdk.net.hosts.file=bench/hosts -Dvertx.disableDnsResolver=true \
  -cp "bench/target/classes:$(cat bench/target/bench.classpath)" "$main" "${@:2}"
