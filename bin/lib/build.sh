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

jobs_jar() {
  local jar
  jar=$(ls "$ROOT"/jobs/target/volumizer-jobs-*.jar 2>/dev/null | grep -v -e original -e sources | head -1)
  [[ -n "$jar" ]] || die "jobs jar not built (run bin/volumizer build)"
  echo "$jar"
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
  info "building the jobs jar"
  mvn_quiet -f "$ROOT/pom.xml" install -DskipTests
  local -a properties
  mapfile -t properties < <(endpoint_properties)
  java -cp "$(jobs_jar)" io.volumizer.jobs.submit.Demo \
    --flink-rest "http://$BIND_HOST:$FLINK_REST_PORT" --jar "$(jobs_jar)" \
    --bootstrap-servers "$BIND_HOST:$KAFKA_PORT" "$@"
}
