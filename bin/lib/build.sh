# Build, test and the command line in Java. Sourced by bin/volumizer.

build_all() { ensure_tools && info "building all modules" && mvn -B --no-transfer-progress -f "$ROOT/pom.xml" install -DskipTests; }

# Starts the services, runs unit then integration tests (they read the endpoints file), stops what it started.
run_tests() {
  ensure_tools
  local -a were_stopped=() service
  for service in "${ALL_SERVICES[@]}"; do service_running "$service" || were_stopped+=("$service"); done
  # shellcheck disable=SC2064 # expand now: the list is fixed
  [[ ${#were_stopped[@]} -gt 0 ]] && trap "services_down ${were_stopped[*]}" EXIT
  services_up "${ALL_SERVICES[@]}" # Prometheus too: PrometheusIT checks that it scrapes the Flink processes
  local helm kubeconform kubernetes
  helm=$(go_build helm "helm.sh/helm/v3@$HELM_VERSION" ./cmd/helm) || exit 1
  kubeconform=$(go_build kubeconform "github.com/yannh/kubeconform@$KUBECONFORM_VERSION" ./cmd/kubeconform) || exit 1
  kubernetes=$(go_module_dir "k8s.io/kubernetes@$KUBERNETES_VERSION") || exit 1
  # The second run of some ITs on OpenSearch, unless the whole suite runs on it already.
  [[ $SEARCH_ENGINE == opensearch ]] && set -- -Dvolumizer.search.engine=opensearch -Dvolumizer.opensearch.skip=true "$@"
  info "running the test suite"
  mvn -B --no-transfer-progress -f "$ROOT/pom.xml" verify "-Dvolumizer.state=$STATE" "-Dvolumizer.helm=$helm" \
    "-Dvolumizer.kubeconform=$kubeconform" "-Dvolumizer.kubernetes.swagger=$kubernetes/api/openapi-spec/swagger.json" \
    "-Dvolumizer.kubernetes.version=$KUBERNETES_VERSION" "$@"
}

# Builds a module and those it needs (package: nothing is installed) when a source or POM is newer than its jar.
ensure_built() {
  local module=$1 jar
  jar=$(ls "$ROOT/$module"/target/volumizer-"$module"-*.jar 2>/dev/null | grep -v -e original -e sources -e tests | head -1 || true)
  if [[ -z "$jar" ]] || [[ -n "$(find "$ROOT" -path "$ROOT/.volumizer" -prune -o -path '*/target' -prune -o \
      \( -name pom.xml -o -path '*/src/*' \) -type f -newer "$jar" -print -quit)" ]]; then
    info "building $module" >&2
    mvn_quiet -f "$ROOT/pom.xml" -pl "$module" -am package -DskipTests >"$STATE/logs/build-$module.log" 2>&1 \
      || { tail -n 30 "$STATE/logs/build-$module.log" >&2; die "build of $module failed (see $STATE/logs/build-$module.log)"; }
    jar=$(ls "$ROOT/$module"/target/volumizer-"$module"-*.jar | grep -v -e original -e sources -e tests | head -1)
  fi
  echo "$jar"
}

# CLI: the command line in Java (cli/; it reads the state folder's endpoints file), built with the jobs jar it uploads.
cli_command() {
  local jar
  ensure_tools && jar=$(ensure_built cli) && ensure_built jobs >/dev/null
  CLI=(java "-Dvolumizer.root=$ROOT" "-Dvolumizer.state=$STATE" "${JAVA_OPTIONS[@]}"
    -cp "$jar:$(cat "$ROOT/cli/target/classpath.txt")" io.volumizer.cli.Volumizer)
}
cli() { cli_command && "${CLI[@]}" "$@"; }

# Checks a command's options before any service starts, then starts the services and runs it.
run_checked() { "$@" --check-options || exit $?; services_up && "$@"; }

# The benchmark runners, on the endpoints file's services: bench <suite> [options]; results into benchmarks/results/.
run_bench() {
  local suite=${1:-generators} results=$ROOT/benchmarks/results jar=$ROOT/benchmarks/target/benchmarks.jar
  [[ $# -gt 0 ]] && shift
  ensure_tools && ensure_built benchmarks >/dev/null
  local -a endpoints run=(java "-Dvolumizer.root=$ROOT" "-Dvolumizer.state=$STATE")
  render_conf endpoints.properties "$STATE/endpoints.properties"
  mapfile -t endpoints < <(sed -n 's/^\(volumizer\.[^=]*\)=/-D\1=/p' "$STATE/endpoints.properties"
    sed -n "s/^volumizer.search.url.$SEARCH_ENGINE=/-Dvolumizer.search.url=/p" "$STATE/endpoints.properties")
  run+=("${endpoints[@]}" -cp "$jar")
  local -a store=(--jar "$(ensure_built jobs)" --parallelism 2 --checkpoint-interval PT2S --results "$results")
  store_run() { run_checked "${run[@]}" "$1" "${store[@]}" --topics-of "$2" --repository "$2" --customers "$3" "${@:4}"; }
  case "$suite" in
    generators) [[ $# -eq 0 ]] || die "bench generators takes no options (it runs the JMH suite of the generators)"
      java -cp "$jar" io.volumizer.benchmarks.generators.GeneratorBenchmarks "$results" "$ROOT/benchmarks/scripts/jmh_report.py" ;;
    text) ensure_tools pdftotext:poppler-utils; java -cp "$jar" io.volumizer.benchmarks.text.TextAgreementBenchmark --results "$results" "$@" ;;
    pipeline) store_run io.volumizer.benchmarks.pipeline.PipelineBenchmark "$BENCH_REPOSITORY" "$BENCH_CUSTOMERS" --store-service mongodb "$@" ;;
    throttle) store_run io.volumizer.benchmarks.throttle.ThrottleBenchmark "$THROTTLE_REPOSITORY" "$THROTTLE_CUSTOMERS" "$@" ;;
    csv) store_run io.volumizer.benchmarks.csv.CsvImportBenchmark "$CSV_REPOSITORY" "$CSV_CUSTOMERS" "$@" ;;
    commands) store_run io.volumizer.benchmarks.commands.CommandsBenchmark "$COMMANDS_REPOSITORY" "$COMMANDS_CUSTOMERS" --store-service mongodb "$@" ;;
    acl) store_run io.volumizer.benchmarks.acl.AclBenchmark "$ACL_REPOSITORY" "$ACL_CUSTOMERS" "$@" ;;
    calibrate) store_run io.volumizer.benchmarks.calibration.CalibrationBenchmark "$CALIBRATION_REPOSITORY" "$CALIBRATION_CUSTOMERS" "$@" ;;
    engines) services_up "${SERVICES[@]}" elasticsearch opensearch
      store_run io.volumizer.benchmarks.engines.EnginesBenchmark "$ENGINES_REPOSITORY" "$ENGINES_CUSTOMERS" \
        --engine "elasticsearch=$(search_url elasticsearch)" --engine "opensearch=$(search_url opensearch)" "$@" ;;
    reliability | fuzz) [[ $suite == fuzz ]] && set -- --scenarios clean,fuzz --report fuzz "$@"
      run_checked "${run[@]}" io.volumizer.benchmarks.reliability.ReliabilityBenchmark "${store[@]}" --repository reliability \
        --customers "$RELIABILITY_CUSTOMERS" "$@" ;;
    sharding) run_checked "${run[@]}" -Xmx2g io.volumizer.benchmarks.sharding.ShardingBenchmark --customers "$SHARDING_CUSTOMERS" --results "$results" "$@" ;;
    security) run_checked "${run[@]}" io.volumizer.benchmarks.security.SecurityBenchmark --results "$results" "$@" ;;
    hostile) run_checked "${run[@]}" "-Xmx$API_HEAP" io.volumizer.benchmarks.security.HostileClientsBenchmark \
      --topics-of "$DEMO_REPOSITORY" --blob-store "$STATE/blobs" --results "$results" "$@" ;;
    *) die "unknown benchmark suite '$suite' (suites: generators, text, pipeline, reliability, fuzz, throttle, csv, commands, acl, calibrate, sharding, security, hostile, engines)" ;;
  esac
}
