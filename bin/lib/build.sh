# Build, test and demo commands. Sourced by bin/volumizer.

# The endpoints integration tests and jobs talk to, as Maven properties (see the root pom).
endpoint_properties() {
  echo "-Dvolumizer.kafka.bootstrap=$BIND_HOST:$KAFKA_PORT"
  echo "-Dvolumizer.registry.url=http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7"
  echo "-Dvolumizer.elasticsearch.url=http://$BIND_HOST:$ES_PORT"
  echo "-Dvolumizer.mongodb.uri=mongodb://$BIND_HOST:$MONGO_PORT"
  echo "-Dvolumizer.flink.rest=http://$BIND_HOST:$FLINK_REST_PORT"
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
  for service in "${SERVICES[@]}"; do
    service_running "$service" || were_stopped+=("$service")
  done
  if [[ ${#were_stopped[@]} -gt 0 ]]; then
    # shellcheck disable=SC2064 # expand now: the list is fixed
    trap "services_down ${were_stopped[*]}" EXIT
  fi
  services_up
  local -a properties
  mapfile -t properties < <(endpoint_properties)
  info "running the test suite"
  mvn -B --no-transfer-progress -f "$ROOT/pom.xml" verify "${properties[@]}" "$@"
}

run_demo() {
  ensure_tools
  services_up
  local jar
  jar=$(ensure_built jobs)
  java -cp "$jar:$(cat "$ROOT/jobs/target/classpath.txt")" io.volumizer.jobs.submit.Demo --jar "$jar" --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" \
    --bootstrap-servers "$BIND_HOST:$KAFKA_PORT" --registry-url "http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7" \
    --mongodb-uri "mongodb://$BIND_HOST:$MONGO_PORT" --elasticsearch-url "http://$BIND_HOST:$ES_PORT" \
    --documents-topic volumizer.demo.documents --imported-topic volumizer.demo.imported \
    --deadletter-topic volumizer.demo.deadletter --checkpoint-interval PT2S --parallelism 2 "$@"
}

# Operates jobs on the session cluster: submit/stop/resume/reset/list.
run_job() {
  ensure_tools
  mkdir -p "$STATE/logs"
  local jar
  jar=$(ensure_built jobs)
  java -cp "$jar:$(cat "$ROOT/jobs/target/classpath.txt")" io.volumizer.jobs.submit.JobsCommand \
    --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" --jar "$jar" "$@"
}

# Builds a module, and the modules it needs, when any source or POM is newer than its jar.
ensure_built() {
  local module=$1 jar
  jar=$(ls "$ROOT/$module"/target/volumizer-"$module"-*.jar 2>/dev/null | grep -v -e original -e sources | head -1)
  if [[ -z "$jar" ]] || [[ -n "$(find "$ROOT" -path "$ROOT/.volumizer" -prune -o -path '*/target' -prune -o \
      \( -name pom.xml -o -path '*/src/*' \) -type f -newer "$jar" -print -quit)" ]]; then
    info "building $module" >&2
    mvn_quiet -f "$ROOT/pom.xml" -pl "$module" -am install -DskipTests >"$STATE/logs/build-$module.log" 2>&1 \
      || { tail -n 30 "$STATE/logs/build-$module.log" >&2; die "build of $module failed (see $STATE/logs/build-$module.log)"; }
    jar=$(ls "$ROOT/$module"/target/volumizer-"$module"-*.jar | grep -v -e original -e sources | head -1)
  fi
  echo "$jar"
}

run_generate() {
  ensure_tools
  mkdir -p "$STATE/logs"
  local jar
  jar=$(ensure_built generators)
  java -cp "$jar:$(cat "$ROOT/generators/target/classpath.txt")" io.volumizer.generators.cli.GenerateCommand "$@"
}

# JMH benchmarks: one thread, then one per core; JSON and a markdown table land in benchmarks/results/.
run_bench() {
  local suite=${1:-generators}
  ensure_tools
  mkdir -p "$STATE/logs"
  local jar=$ROOT/benchmarks/target/benchmarks.jar results=$ROOT/benchmarks/results
  ensure_built benchmarks >/dev/null
  case "$suite" in
    generators)
      local cores
      cores=$(nproc)
      local -a jmh=(-f 1 -wi 2 -w 3s -i 4 -r 4s -rf json io.volumizer.benchmarks.generators)
      java -jar "$jar" "${jmh[@]}" -t 1 -rff "$results/generators-1-thread.json"
      java -jar "$jar" "${jmh[@]}" -t "$cores" -rff "$results/generators-$cores-threads.json"
      python3 "$ROOT/benchmarks/scripts/jmh_report.py" "Generator benchmarks" "$results/generators.md" \
        "$results/generators-targets.json" "$results/generators-1-thread.json" "$results/generators-$cores-threads.json"
      ;;
    pipeline)
      services_up
      local jobs_jar
      jobs_jar=$(ensure_built jobs)
      shift
      java -cp "$jar" io.volumizer.benchmarks.pipeline.PipelineBenchmark --jar "$jobs_jar" \
        --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" --bootstrap-servers "$BIND_HOST:$KAFKA_PORT" \
        --registry-url "http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7" --mongodb-uri "mongodb://$BIND_HOST:$MONGO_PORT" \
        --elasticsearch-url "http://$BIND_HOST:$ES_PORT" --documents-topic volumizer.bench.documents \
        --imported-topic volumizer.bench.imported --deadletter-topic volumizer.bench.deadletter \
        --parallelism 2 --checkpoint-interval PT2S --results "$results" "$@"
      ;;
    *) die "unknown benchmark suite '$suite' (suites: generators, pipeline)" ;;
  esac
}
