# Build, test and the command line in Java. Sourced by bin/volumizer.

build_all() { ensure_tools && info "building all modules" && mvn -B --no-transfer-progress -f "$ROOT/pom.xml" install -DskipTests; }

# Starts the services, runs unit then integration tests (they read the endpoints file), stops what it started.
run_tests() {
  ensure_tools "${BROWSER_TOOLS[@]}"
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

# Checks a command's options before any service starts, then starts the services (and runs it).
check_then_up() { "$@" --check-options || exit $?; services_up; }
run_checked() { check_then_up "$@" && "$@"; }

# bench <suite> [options]: the suites, their options, defaults and needs are BenchCommand's (bench --needs <suite>);
# here only what Java cannot do: start the services, install a tool, size the JVM's heap.
run_bench() {
  local kind value services=() offline=
  render_conf endpoints.properties "$STATE/endpoints.properties" # the API's heap, before any service is up
  cli_command
  while read -r kind value; do
    case $kind in
      offline) offline=1 ;;
      tools) ensure_tools "$value" ;;
      heap) JAVA_OPTIONS=("-Xmx$value") ;;
      services) read -ra services <<<"$value" ;;
    esac
  done < <("${CLI[@]}" bench "--needs=${1:-}")
  cli_command
  [[ -n $offline ]] && { "${CLI[@]}" bench "$@"; return; }
  "${CLI[@]}" bench "$@" --check-options || exit $?
  services_up "${SERVICES[@]}" "${services[@]}" && "${CLI[@]}" bench "$@"
}
