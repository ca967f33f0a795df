#!/usr/bin/env bash
# Runs a benchmark on this machine: bench/run.sh dataset|chart|chat|cluster|startup|load|fetch|metrics|export|bridge|fresh|far|cold|text|rest|rest-layers|lean|passwords|databases|reload|first-load
# Traffic stays on loopback. Figures are ratios against a baseline measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests install
mvn -B -q -pl bench dependency:build-classpath -Dmdep.outputFile=target/bench.classpath
args=("${@:2}")
case "${1:-dataset}" in
  dataset) main=io.quarry.bench.DatasetBench ;;
  text) main=io.quarry.bench.TextBench ;;
  chart) main=io.quarry.bench.ChartBench ;;
  chat) main=io.quarry.bench.ChatBench
    # bench/run.sh chat [jar] [jvms]: the jar's node runs in a JVM of its own, under G1 and then ZGC unless told
    # other JVMs ('-Xmx1g;-XX:+UseZGC -Xmx1g': ; between JVMs); this JVM, which holds the fake model servers and the
    # 200 browsers' sockets, runs ZGC so that its own pauses stay off the clock that times the relay
    args=("${2:-app/target/quarry.jar}" "${@:3}")
    jvm_runs=("-XX:+UseZGC") ;;
  bridge) main=io.quarry.bench.BridgeBench ;;
  fresh) main=io.quarry.bench.FreshBench ;;
  far) main=io.quarry.bench.FarBench ;;
  rest) main=io.quarry.bench.RestBench
    # bench/run.sh rest [before.jar ...]: each jar's node against this build's, in the same run
    ;;
  rest-layers) main=io.quarry.bench.RestLayers ;;
  reload) main=io.quarry.bench.ReloadBench ;;
  first-load) main=io.quarry.bench.FirstLoadBench ;;
  databases) main=io.quarry.worker.DatabaseBench
    # As a worker process's JVM runs (C1 alone, two malloc arenas)
    export MALLOC_ARENA_MAX=2
    jvm_runs=("-XX:TieredStopAtLevel=1") ;;
  passwords) main=io.quarry.chat.PasswordBench
    # As a node's JVM compiles, then with C1 alone as the suite's test JVMs do
    jvm_runs=("" "-XX:TieredStopAtLevel=1") ;;
  cold) main=io.quarry.bench.ColdBench
    args=("${2:-app/target/quarry.jar}") ;;
  cluster) main=io.quarry.bench.ClusterBench
    # bench/run.sh cluster [jar] [tls]: tls measures only what bus TLS costs a query round trip
    args=("${2:-app/target/quarry.jar}" "${@:3}") ;;
  fetch) main=io.quarry.bench.FetchBench ;;
  export) main=io.quarry.bench.ExportBench
    args=("${2:-app/target/quarry.jar}") ;;
  metrics) main=io.quarry.bench.MetricsBench
    args=("${2:-app/target/quarry.jar}") ;;
  startup)
    # The baseline is the jar from before worker processes started on demand (commit 92c6a51), built once into the
    # temp directory, unless a jar is given: bench/run.sh startup [before.jar]
    before="${2:-${TMPDIR:-/tmp}/quarry-before-on-demand/app/target/quarry.jar}"
    if [ ! -f "$before" ]; then
      tree="${TMPDIR:-/tmp}/quarry-before-on-demand"
      rm -rf "$tree" && git worktree prune && git worktree add -f --detach "$tree" 92c6a51 >/dev/null
      (cd "$tree" && mvn -B -q -o -DskipTests package -pl app -am)
    fi
    main=io.quarry.bench.StartupBench
    args=("$before" "app/target/quarry.jar") ;;
  load)
    # The baseline is the jar from before issue 19 (commit 65bd3a0), built once into the temp directory, unless
    # jars are given: bench/run.sh load [jar ...]
    before="${TMPDIR:-/tmp}/quarry-before-load/app/target/quarry.jar"
    if [ $# -lt 2 ] && [ ! -f "$before" ]; then
      tree="${TMPDIR:-/tmp}/quarry-before-load"
      rm -rf "$tree" && git worktree prune && git worktree add -f --detach "$tree" 65bd3a0 >/dev/null
      (cd "$tree" && mvn -B -q -DskipTests package -pl app -am)
    fi
    main=io.quarry.bench.LoadBench
    if [ $# -lt 2 ]; then args=("$before" "app/target/quarry.jar"); fi ;;
  lean)
    # Issue 53's table in one run: every benchmark that measures a row of it, on the jar given and on this build's,
    # one after the other, then the table of their figures (BenchSummary): bench/run.sh lean before.jar
    before="${2:?bench/run.sh lean before.jar}"
    summary="$(mktemp "${TMPDIR:-/tmp}/quarry-lean.XXXXXX")"
    bench() {
      java ${BENCH_JAVA_OPTS:-} -Dbench.summary="$summary" -Xmx6g -Djdk.net.hosts.file=bench/hosts \
        -Dvertx.disableDnsResolver=true -cp "bench/target/classes:$(cat bench/target/bench.classpath)" "$@"
    }
    # Each node alone: a second node's processes beside it slowed each query by 1.5-2 ms on 2 cores, not `live`.
    bench -Drest.onlyGiven=true io.quarry.bench.RestBench "$before"
    bench io.quarry.bench.RestBench
    bench -Dload.levels=false io.quarry.bench.LoadBench "$before" app/target/quarry.jar
    bench io.quarry.bench.StartupBench "$before" app/target/quarry.jar
    for jar in "$before" app/target/quarry.jar; do bench -XX:+UseZGC io.quarry.bench.ChatBench "$jar"; done
    bench io.quarry.bench.FarBench
    bench io.quarry.bench.BenchSummary "$summary"
    echo "The suite's time is .ci/run's on a clean clone (README, Tests); the figures are in $summary"
    exit ;;
  *) echo "unknown benchmark: $1 (dataset, chart, chat, bridge, fresh, far, cold, rest, rest-layers, lean, cluster, fetch, export, metrics, startup, load, passwords, databases, reload, first-load)" >&2; exit 2 ;;
esac
# A benchmark that sets jvm_runs runs once with each of its JVM options, one after the other.
if [ -n "${jvm_runs+set}" ]; then
  for options in "${jvm_runs[@]}"; do
    echo "=== the JVM's options: ${options:-the defaults (G1, C2)}"
    java ${BENCH_JAVA_OPTS:-} $options -Xmx6g -Djdk.net.hosts.file=bench/hosts -Dvertx.disableDnsResolver=true \
      -cp "bench/target/classes:$(cat bench/target/bench.classpath)" "$main" "${args[@]}"
  done
  exit
fi
exec java ${BENCH_JAVA_OPTS:-} -Xmx6g -Djdk.net.hosts.file=bench/hosts -Dvertx.disableDnsResolver=true \
  -cp "bench/target/classes:$(cat bench/target/bench.classpath)" "$main" "${args[@]}"
