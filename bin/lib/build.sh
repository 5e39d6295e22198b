# Build, test and demo commands. Sourced by bin/volumizer.

# The endpoints integration tests and jobs talk to, as Maven properties (see the root pom).
endpoint_properties() {
  echo "-Dvolumizer.kafka.bootstrap=$BIND_HOST:$KAFKA_PORT"
  echo "-Dvolumizer.registry.url=http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7"
  echo "-Dvolumizer.search.url=$SEARCH_URL"
  echo "-Dvolumizer.opensearch.url=$(search_url opensearch)"
  # The second run of some ITs on OpenSearch, unless the whole suite runs on it already.
  [[ $SEARCH_ENGINE == opensearch ]] && echo "-Dvolumizer.opensearch.skip=true"
  echo "-Dvolumizer.mongodb.uri=mongodb://$BIND_HOST:$MONGO_PORT"
  echo "-Dvolumizer.archive-mongodb.uri=$VOLUMIZER_ARCHIVES_MONGODB_URI"
  echo "-Dvolumizer.flink.rest=http://$BIND_HOST:$FLINK_REST_PORT"
  echo "-Dvolumizer.flink.metrics=$BIND_HOST:$FLINK_JM_METRICS_PORT,$BIND_HOST:$FLINK_TM_METRICS_PORTS"
  echo "-Dvolumizer.prometheus.url=http://$BIND_HOST:$PROMETHEUS_PORT"
  echo "-Dvolumizer.s3.endpoint=http://$BIND_HOST:$S3_PORT"
  echo "-Dvolumizer.oidc.issuer=$OIDC_ISSUER"
  echo "-Dvolumizer.state=$STATE"
}

build_all() {
  ensure_tools
  info "building all modules"
  mvn -B --no-transfer-progress -f "$ROOT/pom.xml" install -DskipTests
}

# Starts the services it needs, runs unit tests then integration tests, and stops again what it started.
run_tests() {
  ensure_tools
  local -a were_stopped=() service
  for service in "${ALL_SERVICES[@]}"; do
    service_running "$service" || were_stopped+=("$service")
  done
  if [[ ${#were_stopped[@]} -gt 0 ]]; then
    # shellcheck disable=SC2064 # expand now: the list is fixed
    trap "services_down ${were_stopped[*]}" EXIT
  fi
  # Prometheus too: PrometheusIT checks that it scrapes the Flink processes.
  services_up "${ALL_SERVICES[@]}"
  local -a properties
  mapfile -t properties < <(endpoint_properties)
  local chart_tools
  chart_tools=$(chart_tool_properties) || exit 1
  mapfile -t -O "${#properties[@]}" properties <<<"$chart_tools"
  info "running the test suite"
  mvn -B --no-transfer-progress -f "$ROOT/pom.xml" verify "${properties[@]}" "$@"
}

# What the chart's tests need: helm, kubeconform, the Kubernetes OpenAPI document and its version, as -D properties.
chart_tool_properties() {
  local helm kubeconform kubernetes
  helm=$(go_build helm "helm.sh/helm/v3@$HELM_VERSION" ./cmd/helm) || return 1
  kubeconform=$(go_build kubeconform "github.com/yannh/kubeconform@$KUBECONFORM_VERSION" ./cmd/kubeconform) || return 1
  kubernetes=$(go_module_dir "k8s.io/kubernetes@$KUBERNETES_VERSION") || return 1
  echo "-Dvolumizer.helm=$helm"
  echo "-Dvolumizer.kubeconform=$kubeconform"
  echo "-Dvolumizer.kubernetes.swagger=$kubernetes/api/openapi-spec/swagger.json"
  echo "-Dvolumizer.kubernetes.version=$KUBERNETES_VERSION"
}

# The local services' endpoints, as the options every job, the API and the tools share.
SEARCH_URL=$(search_url "$SEARCH_ENGINE")
KAFKA_OPTIONS=(--bootstrap-servers "$BIND_HOST:$KAFKA_PORT" --registry-url "http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7")
ENDPOINT_OPTIONS=("${KAFKA_OPTIONS[@]}" --mongodb-uri "mongodb://$BIND_HOST:$MONGO_PORT" --search-url "$SEARCH_URL")
# The demo's topics and stores: the API and the load tests work on what the demo imported.
DEMO_PIPELINE_OPTIONS=("${ENDPOINT_OPTIONS[@]}" --topics-of "$DEMO_REPOSITORY" --checkpoint-interval PT2S --parallelism 2)

# Java told where the checkout and the state folder are (for PID files and the demo's record: LocalServices).
volumizer_java() {
  java "-Dvolumizer.root=$ROOT" "-Dvolumizer.state=$STATE" "$@"
}

# Runs a main class of a module (built when needed) on its classpath: java_main <module> <class> [args...]
java_main() {
  local module=$1 jar
  shift
  jar=$(ensure_built "$module")
  volumizer_java -cp "$jar:$(cat "$ROOT/$module/target/classpath.txt")" "$@"
}

# Checks a command's options before any service starts, then starts the services and runs it.
run_checked() {
  "$@" --check-options || exit $?
  services_up
  "$@"
}

run_demo() {
  ensure_tools
  local jar
  jar=$(ensure_built jobs)
  run_checked java_main ops io.volumizer.ops.demo.Demo --jar "$jar" --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" \
    "${DEMO_PIPELINE_OPTIONS[@]}" --repository "$DEMO_REPOSITORY" "$@"
}

# The API on the demo's stores and documents topic: in the foreground, or 'start'/'stop' in the background.
run_api() {
  ensure_tools
  local jar jobs_jar
  jar=$(ensure_built api)
  jobs_jar=$(ensure_built jobs)
  local -a server=(java "-Xmx$API_HEAP" -cp "$jar:$(cat "$ROOT/api/target/classpath.txt")" io.volumizer.api.ApiServer
    --bind "$BIND_HOST" --port "$API_PORT" --metrics-port "$API_METRICS_PORT" --oidc-issuer "$OIDC_ISSUER"
    "${ENDPOINT_OPTIONS[@]}" --topics-of "$DEMO_REPOSITORY" --blob-store "$STATE/blobs" --jobs-jar "$jobs_jar"
    --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" "--job-option=--checkpoint-interval=PT2S")
  case "${1:-}" in
    start)
      shift
      service_running api && { info "api already running (pid $(service_pid api))"; return 0; }
      check_port_free api "$API_PORT"
      launch api "${server[@]}" "$@"
      wait_healthy api
      info "API: http://$BIND_HOST:$API_PORT/api/v1 (OpenAPI: /api/v1/openapi.json); requests need a token:" \
        "-H \"Authorization: Bearer \$(bin/volumizer token <user>)\""
      ;;
    stop) stop_service api ;;
    *) exec "${server[@]}" "$@" ;;
  esac
}

# A Gatling simulation against the API on what the demo imported, with the jobs it needs beside it (LoadTestSession).
run_loadtest() {
  ensure_tools
  local jobs_jar
  jobs_jar=$(ensure_built jobs)
  java_main loadtest io.volumizer.loadtest.LoadTestSession --api "http://$BIND_HOST:$API_PORT" --oidc-issuer "$OIDC_ISSUER" \
    --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" --jar "$jobs_jar" "${DEMO_PIPELINE_OPTIONS[@]}" \
    --import-rate "$MIXED_IMPORT_RATE" --import-customers "$MIXED_IMPORT_CUSTOMERS" --results "$ROOT/loadtest/results" "$@"
}

# Reindex and bulk commands (the API's, from a shell) on a repository's topics and stores (CommandsCli says whose).
run_commands() {
  ensure_tools
  local jar
  jar=$(ensure_built jobs)
  java_main api io.volumizer.api.commands.CommandsCli --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" --jar "$jar" \
    "${ENDPOINT_OPTIONS[@]}" --checkpoint-interval PT2S --default-repository "$DEMO_REPOSITORY" "$@"
}

# Operates jobs on the session cluster: submit/stop/resume/recover/reset/list, on the chosen search engine by default.
run_job() {
  ensure_tools
  local jar
  jar=$(ensure_built jobs)
  java_main ops io.volumizer.ops.jobs.JobsCommand --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" --jar "$jar" \
    --default-search-url "$SEARCH_URL" "$@"
}

# Builds a module, and the modules it needs, when any source or POM is newer than its jar.
ensure_built() {
  local module=$1 jar
  jar=$(ls "$ROOT/$module"/target/volumizer-"$module"-*.jar 2>/dev/null | grep -v -e original -e sources -e tests | head -1 || true)
  if [[ -z "$jar" ]] || [[ -n "$(find "$ROOT" -path "$ROOT/.volumizer" -prune -o -path '*/target' -prune -o \
      \( -name pom.xml -o -path '*/src/*' \) -type f -newer "$jar" -print -quit)" ]]; then
    info "building $module" >&2
    mvn_quiet -f "$ROOT/pom.xml" -pl "$module" -am install -DskipTests >"$STATE/logs/build-$module.log" 2>&1 \
      || { tail -n 30 "$STATE/logs/build-$module.log" >&2; die "build of $module failed (see $STATE/logs/build-$module.log)"; }
    jar=$(ls "$ROOT/$module"/target/volumizer-"$module"-*.jar | grep -v -e original -e sources -e tests | head -1)
  fi
  echo "$jar"
}

run_generate() {
  ensure_tools
  java_main generators io.volumizer.generators.cli.GenerateCommand "$@"
}

# bench <suite> [options]: the suites, their options and defaults are BenchCommand's; the launcher passes it the
# local services' endpoints (as -Dvolumizer.bench.<option>), and starts the services of the suites that need them.
run_bench() {
  ensure_tools
  local jobs_jar i heap=()
  jobs_jar=$(ensure_built jobs)
  ensure_built benchmarks >/dev/null
  local endpoints=(--jar "$jobs_jar" --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" "${ENDPOINT_OPTIONS[@]}"
    --api "http://$BIND_HOST:$API_PORT" --oidc-issuer "$OIDC_ISSUER" --blob-store "$STATE/blobs"
    --engine "elasticsearch=$(search_url elasticsearch),opensearch=$(search_url opensearch)")
  local bench=(volumizer_java -cp "$ROOT/benchmarks/target/benchmarks.jar")
  for ((i = 0; i < ${#endpoints[@]}; i += 2)); do bench+=("-Dvolumizer.bench.${endpoints[i]#--}=${endpoints[i + 1]}"); done
  case ${1:-} in
    text) ensure_tools pdftotext:poppler-utils ;&
    generators | -h | --help | "") "${bench[@]}" io.volumizer.benchmarks.BenchCommand "$@"; return ;;
    engines) services_up "${SERVICES[@]}" elasticsearch opensearch ;;
    sharding) heap=(-Xmx2g) ;;
    hostile) heap=("-Xmx$API_HEAP") ;; # the API runs in the benchmark's JVM, with the heap it has on its own
  esac
  run_checked "${bench[@]}" "${heap[@]}" io.volumizer.benchmarks.BenchCommand "$@"
}
