# Installs, starts, checks and stops the local services. Sourced by bin/volumizer.
#
# Each service is one process with a PID file under $STATE/run and a log under $STATE/logs (Elasticsearch writes its
# own log, as the user it runs as). Processes are stopped by PID, never by name, and only once the PID is known to be
# still the process that was started. The PID file's format is shared with Java: ops/.../services/PidFile.java.

# mongodb-archive is a second MongoDB deployment: the one topologies/11b.yaml gives its archive repository.
# $SEARCH_ENGINE (bin/volumizer's --search) is elasticsearch or opensearch.
TASKMANAGERS=(flink-taskmanager) # FLINK_TASKMANAGERS of them, and any more still recorded (so that down stops them)
while n=$((${#TASKMANAGERS[@]} + 1)) && { ((n <= FLINK_TASKMANAGERS)) || [[ -f $STATE/run/flink-taskmanager-$n.pid ]]; }; do
  TASKMANAGERS+=("flink-taskmanager-$n"); done
SERVICES=(kafka registry "$SEARCH_ENGINE" mongodb mongodb-archive s3 flink-jobmanager "${TASKMANAGERS[@]}" keycloak)
# Started only when named (up prometheus, up opensearch): Prometheus's first start builds it from its Go module
# (minutes); the other search engine can run beside the chosen one, on its own port.
OPTIONAL_SERVICES=(prometheus "$([[ $SEARCH_ENGINE == elasticsearch ]] && echo opensearch || echo elasticsearch)")
ALL_SERVICES=("${SERVICES[@]}" "${OPTIONAL_SERVICES[@]}")

APICURIO_ARTIFACT=io.apicurio:apicurio-registry-app:3.0.9:tar.gz:all
ES_ARTIFACT=org.elasticsearch.distribution.integ-test-zip:elasticsearch:7.10.2:zip
ES_ANALYSIS_COMMON_ARTIFACT=org.codelibs.elasticsearch.module:analysis-common:7.10.2:jar
# ES 7.10.2 ships log4j 2.11.1 (Log4Shell era); 2.17.1 is the patched line that still runs on its Java 8 baseline.
ES_LOG4J_VERSION=2.17.1
KEYCLOAK_ARTIFACT=org.keycloak:keycloak-quarkus-dist:26.7.3:zip

# ---------------------------------------------------------------------------------------------------------------
# Per-service facts

service_port() {
  case "$1" in
    kafka) echo "$KAFKA_PORT" ;;
    registry) echo "$REGISTRY_PORT" ;;
    elasticsearch) echo "$ES_PORT" ;;
    mongodb) echo "$MONGO_PORT" ;;
    mongodb-archive) echo "$MONGO_ARCHIVE_PORT" ;;
    s3) echo "$S3_PORT" ;;
    flink-jobmanager) echo "$FLINK_REST_PORT" ;;
    flink-taskmanager*) echo "-" ;;
    api) echo "$API_PORT" ;;
    keycloak) echo "$KEYCLOAK_PORT" ;;
    prometheus) echo "$PROMETHEUS_PORT" ;;
    opensearch) echo "$OS_PORT" ;;
  esac
}

search_url() { echo "http://$BIND_HOST:$(service_port "$1")"; } # of elasticsearch or opensearch, local
service_log() {
  case "$1" in
    elasticsearch | opensearch) echo "$(search_home "$1")/logs/volumizer.log" ;; # cluster.name is volumizer
    *) echo "$STATE/logs/$1.log" ;;
  esac
}

service_pid_file() {
  echo "$STATE/run/$1.pid"
}

# When a process started, in clock ticks since boot (/proc/<pid>/stat, field 22; the name in field 2 may hold
# spaces, so the fields are counted after its closing parenthesis).
process_start_time() {
  [[ -r "/proc/$1/stat" ]] && sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20
}

# Records a started process: "<pid> <start ticks>" (PidFile.java).
record_pid() {
  local service=$1 pid=$2
  echo "$pid $(process_start_time "$pid")" >"$(service_pid_file "$service")"
}

# The PID of a service we started, if that process still runs: trusted only while the process holding that PID
# started when the recorded one did (PidFile.java says why).
service_pid() {
  local file pid started
  file=$(service_pid_file "$1")
  [[ -f "$file" ]] || return 0
  read -r pid started <"$file" 2>/dev/null || true
  if [[ -n "$pid" && -n "$started" && "$(process_start_time "$pid")" == "$started" ]]; then
    echo "$pid"
  fi
}

service_running() {
  pid_alive "$(service_pid "$1")"
}

service_healthy() {
  service_running "$1" || return 1
  case "$1" in
    kafka | mongodb | mongodb-archive) port_open "$BIND_HOST" "$(service_port "$1")" ;;
    registry) http_get "http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7/subjects" >/dev/null ;;
    elasticsearch | opensearch) http_get "$(search_url "$1")/_cluster/health" | grep -Eq '"status":"(green|yellow)"' ;;
    s3) http_get "http://$BIND_HOST:$S3_PORT/" | grep -q ListAllMyBucketsResult ;;
    flink-jobmanager) http_get "http://$BIND_HOST:$FLINK_REST_PORT/overview" >/dev/null ;;
    flink-taskmanager*) local n=${1#flink-taskmanager-} count # the nth is healthy once the cluster has n
      [[ $n == "$1" ]] && n=1
      count=$(http_get "http://$BIND_HOST:$FLINK_REST_PORT/overview" | grep -o '"taskmanagers":[0-9]*' | cut -d: -f2)
      ((${count:-0} >= n)) ;;
    api) http_get "http://$BIND_HOST:$API_PORT/health/live" >/dev/null ;;
    keycloak) http_get "$OIDC_ISSUER/.well-known/openid-configuration" >/dev/null ;;
    prometheus) http_get "http://$BIND_HOST:$PROMETHEUS_PORT/-/ready" >/dev/null ;;
  esac
}

# ---------------------------------------------------------------------------------------------------------------
# Installation (idempotent; downloads cached under $STATE/downloads, Maven artifacts in Maven's own cache)

# Resolves the Kafka, Flink and MongoDB-protocol server classpaths (infra/) and copies what runs into $STATE/lib,
# so that rebuilding the project never swaps a jar under a running service.
install_infra() {
  local stamp="$STATE/lib/infra.stamp"
  if [[ -f "$stamp" ]] && [[ -z "$(find "$ROOT/infra" "$ROOT/pom.xml" -newer "$stamp" -type f -not -path '*/target/*' | head -1)" ]]; then
    return 0
  fi
  info "resolving service classpaths (infra/)"
  mvn_quiet -f "$ROOT/infra/pom.xml" package -DskipTests >"$STATE/logs/infra-build.log" 2>&1 \
    || { tail -n 30 "$STATE/logs/infra-build.log" >&2; die "infra: Maven build failed (see $STATE/logs/infra-build.log)"; }
  mkdir -p "$STATE/lib"
  # Each file is replaced by a rename: a running service keeps reading the jar it opened.
  local module # <module>:<service>: the module's classpath, and its jar but Kafka's (it has no code of ours)
  for module in kafka-server:kafka flink-cluster:flink mongo-server:mongo s3-server:s3; do
    install_file "$ROOT/infra/${module%:*}/target/classpath.txt" "$STATE/lib/${module#*:}.classpath"
    [[ $module == kafka-* ]] || install_file "$(ls "$ROOT/infra/${module%:*}"/target/volumizer-infra-*.jar)" "$STATE/lib/${module%:*}.jar"
  done
  touch "$stamp"
}

install_file() { cp "$1" "$2.part" && mv -f "$2.part" "$2"; } # into place, by renaming a copy over it

# Scrapes the Flink processes (every port a TaskManager may take) and the API, every 5 s.
write_prometheus_config() {
  local first=${FLINK_TM_METRICS_PORTS%-*} last=${FLINK_TM_METRICS_PORTS#*-} port taskmanager_targets=""
  for ((port = first; port <= last; port++)); do
    taskmanager_targets+="${taskmanager_targets:+, }\"$BIND_HOST:$port\""
  done
  mkdir -p "$STATE/prometheus/data"
  render_conf prometheus.yml "$STATE/prometheus/prometheus.yml"
}

install_registry() {
  local home="$STATE/registry/app"
  [[ -f "$home/apicurio-registry-app-3.0.9-runner.jar" ]] && return 0
  local archive
  archive=$(maven_download "$APICURIO_ARTIFACT")
  mkdir -p "$home"
  tar xzf "$archive" -C "$home" || die "registry: could not unpack $archive"
}

# Elasticsearch and OpenSearch refuse to run as root: as root they run as a system user, from a folder that user
# can reach (the state folder may sit under /root, which is mode 700).
search_home() {
  if [[ $EUID -ne 0 ]]; then
    echo "$STATE/$1"
  else
    echo "/var/lib/volumizer/$(printf '%s' "$STATE" | sha1sum | cut -c1-12)/$1"
  fi
}

# Elasticsearch or OpenSearch: unpacked once from its zip, configured, and started as a daemon (-d), which writes its
# own PID file (read once, then recorded as ours) and keeps the caller's stdout open unless redirected.
# Arguments: the service (its launcher's name), its zip's Maven artifact, then the launcher's environment (NAME=value).
start_search_engine() {
  local service=$1 artifact=$2 home
  shift 2
  home=$(search_home "$service")
  if [[ $EUID -eq 0 ]] && ! id "$ES_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER" || die "$service: could not create user $ES_USER"
  fi
  if [[ ! -x "$home/bin/$service" ]]; then
    local zip
    zip=$(maven_download "$artifact")
    rm -rf "$home.part" && mkdir -p "$home.part"
    unzip -q "$zip" -d "$home.part" || die "$service: could not unpack $zip"
    mv "$home.part/$service"-*/* "$home.part"/ && rmdir "$home.part/$service"-*
    [[ $service == elasticsearch ]] && add_elasticsearch_files "$home.part"
    rm -rf "$home" && mkdir -p "$(dirname "$home")" && mv "$home.part" "$home"
  fi
  mkdir -p "$home/config/jvm.options.d" "$home/data" "$home/logs" "$home/tmp"
  render_conf "$service/$service.yml" "$home/config/$service.yml"
  render_conf "$service/jvm.options" "$home/config/jvm.options.d/volumizer.options"
  local -a as_user=()
  if [[ $EUID -eq 0 ]]; then
    chown -R "$ES_USER" "$home"
    local dir=$home # every folder above the home must be traversable by that user
    while [[ "$dir" != "/" ]]; do dir=$(dirname "$dir"); chmod o+x "$dir" 2>/dev/null || true; done
    as_user=(runuser -u "$ES_USER" --)
  fi
  rm -f "$home/$service.pid"
  "${as_user[@]}" env "$@" "$home/bin/$service" -d -p "$home/$service.pid" </dev/null >"$home/logs/startup.log" 2>&1 \
    || { tail -n 20 "$home/logs/startup.log" >&2; die "$service: did not start (see $home/logs)"; }
  # The launcher returns once the daemon is forked; the daemon writes its PID file a moment later.
  local waited=0
  until [[ -s "$home/$service.pid" ]]; do
    ((waited++ < 120)) || fail_start "$service" "wrote no PID file within 60s"
    sleep 0.5
  done
  record_pid "$service" "$(cat "$home/$service.pid")"
}

# What Elasticsearch's integ-test zip lacks: analysis-common (asciifolding, html_strip, stemmers) as a module, and
# log4j patched for Log4Shell.
add_elasticsearch_files() {
  local home=$1 module log4j_api log4j_core
  module=$(maven_download "$ES_ANALYSIS_COMMON_ARTIFACT")
  log4j_api=$(maven_download "org.apache.logging.log4j:log4j-api:$ES_LOG4J_VERSION:jar")
  log4j_core=$(maven_download "org.apache.logging.log4j:log4j-core:$ES_LOG4J_VERSION:jar")
  mkdir -p "$home/modules/analysis-common"
  cp "$module" "$home/modules/analysis-common/"
  render_conf elasticsearch/plugin-descriptor.properties "$home/modules/analysis-common/plugin-descriptor.properties"
  rm -f "$home"/lib/log4j-api-*.jar "$home"/lib/log4j-core-*.jar
  cp "$log4j_api" "$log4j_core" "$home/lib/"
}

# The newest Temurin JDK, for the services that need a newer Java than the project's (Keycloak, OpenSearch).
newest_jdk() {
  find /usr/lib/jvm -maxdepth 1 -name 'temurin-*' | sort -V | tail -1
}

write_kafka_config() {
  local dir="$STATE/kafka"
  mkdir -p "$dir/data"
  render_conf kafka/server.properties "$dir/server.properties"
  render_conf kafka/log4j.properties "$dir/log4j.properties"
  if [[ ! -f "$dir/data/meta.properties" ]]; then
    # Without a log4j configuration the tool prints nothing but the id (its warnings go to stderr).
    local -a storage_tool=(java -cp "$(cat "$STATE/lib/kafka.classpath")" kafka.tools.StorageTool)
    local cluster_id
    cluster_id=$("${storage_tool[@]}" random-uuid 2>/dev/null) || die "kafka: could not make a cluster id"
    "${storage_tool[@]}" format --cluster-id="$cluster_id" -c "$dir/server.properties" >"$STATE/logs/kafka-format.log" 2>&1 \
      || { tail -n 20 "$STATE/logs/kafka-format.log" >&2; die "kafka: formatting the KRaft storage failed"; }
  fi
}

write_flink_config() {
  mkdir -p "$STATE"/flink/{conf,checkpoints,savepoints,completed-jobs,tmp,web-upload}
  render_conf flink/config.yaml "$STATE/flink/conf/config.yaml"
  render_conf flink/log4j.properties "$STATE/flink/conf/log4j.properties"
}

# Flink's own scripts derive the JVM memory flags from the configuration this way; flink-dist is not obtainable.
#   flink_resource_params GET_JM_RESOURCE_PARAMS|GET_TM_RESOURCE_PARAMS -> line 1 JVM flags, line 2 dynamic config
flink_resource_params() {
  java -cp "$(cat "$STATE/lib/flink.classpath")" org.apache.flink.runtime.util.bash.BashJavaUtils "$1" \
    --configDir "$STATE/flink/conf" 2>/dev/null | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tail -n 2
}

# ---------------------------------------------------------------------------------------------------------------
# Start

# Runs a command detached from this shell, in its own session, logging to the service's log and recording its PID.
launch() {
  local service=$1
  shift
  local log
  log=$(service_log "$service")
  echo "--- $(date -Is) starting $service" >>"$log"
  setsid "$@" </dev/null >>"$log" 2>&1 &
  record_pid "$service" $!
}

# A port held by anything but our own service is a clear error, not a silent clash.
check_port_free() {
  local service=$1 port=$2
  if port_open "$BIND_HOST" "$port"; then
    local owner
    owner=$(ss -ltnpH "sport = :$port" 2>/dev/null | sed -n 's/.*users:((\("[^"]*"\),pid=\([0-9]*\).*/\1 pid \2/p' | head -1)
    die "$service: port $port on $BIND_HOST is already taken${owner:+ by $owner}; free it or set another port in conf/volumizer.conf"
  fi
}

start_service() {
  local service=$1
  if service_running "$service"; then
    return 0
  fi
  local port
  port=$(service_port "$service")
  [[ "$port" != "-" ]] && check_port_free "$service" "$port"
  case "$service" in
    kafka)
      check_port_free kafka "$KAFKA_CONTROLLER_PORT"
      write_kafka_config
      launch kafka java "-Xms$KAFKA_HEAP" "-Xmx$KAFKA_HEAP" -cp "$(cat "$STATE/lib/kafka.classpath")" \
        -Dlog4j.configuration="file:$STATE/kafka/log4j.properties" kafka.Kafka "$STATE/kafka/server.properties"
      ;;
    registry)
      install_registry
      launch registry env APICURIO_STORAGE_KIND=kafkasql \
        APICURIO_KAFKASQL_BOOTSTRAP_SERVERS="$BIND_HOST:$KAFKA_PORT" \
        java "-Xmx$REGISTRY_HEAP" -Dquarkus.http.port="$REGISTRY_PORT" -Dquarkus.http.host="$BIND_HOST" \
        -Dquarkus.management.enabled=false -Dquarkus.log.console.color=false \
        -jar "$STATE/registry/app/apicurio-registry-app-3.0.9-runner.jar"
      ;;
    elasticsearch)
      start_search_engine elasticsearch "$ES_ARTIFACT" ES_TMPDIR="$(search_home elasticsearch)/tmp" \
        JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
      ;;
    opensearch)
      local jdk
      jdk=$(newest_jdk)
      [[ -x "$jdk/bin/java" ]] || die "opensearch needs Java 21 or later: no temurin-* JDK under /usr/lib/jvm"
      start_search_engine opensearch "org.opensearch.distribution.integ-test-zip:opensearch:$OS_VERSION:zip" \
        OPENSEARCH_JAVA_HOME="$jdk" OPENSEARCH_TMPDIR="$(search_home opensearch)/tmp"
      ;;
    mongodb | mongodb-archive)
      local heap=$MONGO_HEAP
      [[ $service == mongodb-archive ]] && heap=$MONGO_ARCHIVE_HEAP
      mkdir -p "$STATE/$service"
      launch "$service" java "-Xmx$heap" -cp "$STATE/lib/mongo-server.jar:$(cat "$STATE/lib/mongo.classpath")" \
        io.volumizer.infra.mongo.MongoServerMain --host "$BIND_HOST" --port "$port" --data-file "$STATE/$service/repository.mv.db"
      ;;
    s3)
      check_port_free s3 "$S3_TLS_PORT"
      mkdir -p "$STATE/s3"
      # S3Mock: a Spring Boot server that keeps buckets as files under $STATE/s3 across restarts; its plain-HTTP
      # connector is bound to BIND_HOST by our LoopbackHttpConnector (S3Mock has no setting for it).
      launch s3 java "-Xmx$S3_HEAP" -cp "$STATE/lib/s3-server.jar:$(cat "$STATE/lib/s3.classpath")" \
        com.adobe.testing.s3mock.S3MockApplication --spring.main.sources=io.volumizer.infra.s3.LoopbackHttpConnector \
        --http.port="$S3_PORT" --server.port="$S3_TLS_PORT" --server.address="$BIND_HOST" \
        --com.adobe.testing.s3mock.store.root="$STATE/s3" --com.adobe.testing.s3mock.store.retain-files-on-exit=true \
        --com.adobe.testing.s3mock.store.initial-buckets="$S3_BUCKET" --spring.main.banner-mode=off
      ;;
    keycloak)
      local jdk home=$STATE/keycloak zip admin
      jdk=$(newest_jdk)
      [[ -x "$jdk/bin/java" ]] || die "keycloak needs Java 21 or later: no temurin-* JDK under /usr/lib/jvm"
      if [[ ! -x "$home/bin/kc.sh" ]]; then
        zip=$(maven_download "$KEYCLOAK_ARTIFACT")
        rm -rf "$home.part" && mkdir -p "$home.part" && unzip -q "$zip" -d "$home.part" || die "keycloak: could not unpack $zip"
        mv "$home.part"/keycloak-* "$home" && rm -rf "$home.part"
      fi
      # Its realms with their secrets, in a new database when either changes; LocalSecrets (from source) prints the admin's password.
      admin=$("$jdk/bin/java" "$ROOT/ops/src/main/java/io/volumizer/ops/identity/LocalSecrets.java" keycloak "$STATE" \
        "$ROOT/conf/services/keycloak" "$home/data") || die "keycloak: could not prepare its realms and secrets"
      KC_BOOTSTRAP_ADMIN_USERNAME=$KEYCLOAK_ADMIN_USER KC_BOOTSTRAP_ADMIN_PASSWORD=$admin launch keycloak env JAVA_HOME="$jdk" \
        JAVA_OPTS_KC_HEAP="-Xmx$KEYCLOAK_HEAP" "$home/bin/kc.sh" start-dev --http-host="$BIND_HOST" --http-port="$KEYCLOAK_PORT" --import-realm
      ;;
    prometheus)
      local prometheus
      prometheus=$(go_build prometheus "github.com/prometheus/prometheus@$PROMETHEUS_VERSION" ./cmd/prometheus)
      write_prometheus_config
      launch prometheus "$prometheus" --config.file="$STATE/prometheus/prometheus.yml" \
        --storage.tsdb.path="$STATE/prometheus/data" --storage.tsdb.retention.time=2d \
        --web.listen-address="$BIND_HOST:$PROMETHEUS_PORT"
      ;;
    flink-jobmanager | flink-taskmanager*)
      write_flink_config
      local which entrypoint params jvm dynamic
      local -a jvm_flags # the module access Flink needs on Java 17
      mapfile -t jvm_flags <"$ROOT/conf/services/flink/jvm-flags"
      local -a reporter=() # a TaskManager takes the first free port of FLINK_TM_METRICS_PORTS
      if [[ "$service" == flink-jobmanager ]]; then
        check_port_free "$service" "$FLINK_RPC_PORT"
        which=GET_JM_RESOURCE_PARAMS entrypoint=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint
        reporter=(-D "metrics.reporter.prom.port=$FLINK_JM_METRICS_PORT")
      else
        which=GET_TM_RESOURCE_PARAMS entrypoint=org.apache.flink.runtime.taskexecutor.TaskManagerRunner
      fi
      params=$(flink_resource_params "$which")
      [[ $(wc -l <<<"$params") -eq 2 ]] || die "$service: could not compute memory settings from $STATE/flink/conf"
      { read -r jvm; read -r dynamic; } <<<"$params"
      # shellcheck disable=SC2086 # the computed flags are space-separated words
      launch "$service" java $jvm "${jvm_flags[@]}" -Dlog.file="$STATE/logs/$service.log" \
        -Dlog4j.configurationFile="file:$STATE/flink/conf/log4j.properties" \
        -cp "$STATE/lib/flink-cluster.jar:$(cat "$STATE/lib/flink.classpath")" "$entrypoint" \
        --configDir "$STATE/flink/conf" $dynamic "${reporter[@]}"
      ;;
  esac
}

# The registry's compatibility level is set once it answers.
after_healthy() {
  [[ $1 == registry ]] || return 0
  curl -fsS -X PUT -H 'Content-Type: application/json' --data "{\"compatibility\":\"$REGISTRY_COMPATIBILITY\"}" \
    "http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7/config" >/dev/null \
    || die "registry: could not set the compatibility level to $REGISTRY_COMPATIBILITY"
}

wait_healthy() {
  local service=$1 started=${2:-$SECONDS}
  until service_healthy "$service"; do
    if ! service_running "$service"; then
      fail_start "$service" "exited during start-up"
    fi
    if ((SECONDS - started > START_TIMEOUT)); then
      fail_start "$service" "did not become healthy within ${START_TIMEOUT}s"
    fi
    sleep 1
  done
  after_healthy "$service"
  info "$service healthy after $((SECONDS - started))s (port $(service_port "$service"), pid $(service_pid "$service"))"
}

fail_start() { # service, reason
  local log
  log=$(service_log "$1")
  { echo "--- last lines of $log:" && tail -n 15 "$log" 2>/dev/null; } >&2
  die "$1 $2 (port $(service_port "$1")); log: $log"
}

# Sets SELECTED to the requested names (none = every service but the optional ones, "flink" = both Flink
# processes) in start order; an unknown name ends the command (it runs in the caller's shell, not in a subshell
# whose exit would be lost).
select_services() {
  SELECTED=()
  if [[ $# -eq 0 ]]; then
    SELECTED=("${SERVICES[@]}")
    return
  fi
  local wanted=" $* " service
  wanted=${wanted// flink / flink-jobmanager ${TASKMANAGERS[*]} }
  for service in $wanted; do
    [[ " ${ALL_SERVICES[*]} " == *" $service "* ]] || die "unknown service '$service' (services: ${ALL_SERVICES[*]} flink)"
  done
  for service in "${ALL_SERVICES[@]}"; do
    if [[ "$wanted" == *" $service "* ]]; then
      SELECTED+=("$service")
    fi
  done
}

services_up() {
  local started=$SECONDS service
  select_services "$@"
  local -a selected=("${SELECTED[@]}")
  ensure_tools
  install_infra
  # Launch everything at once (start-up is mostly waiting), except that the registry stores its schemas in Kafka.
  local -A launched_at
  for service in "${selected[@]}"; do
    [[ "$service" == registry ]] && wait_healthy kafka "${launched_at[kafka]:-$SECONDS}"
    launched_at[$service]=$SECONDS
    start_service "$service"
  done
  for service in "${selected[@]}"; do
    [[ "$service" == kafka && " ${selected[*]} " == *" registry "* ]] && continue # waited for above
    wait_healthy "$service" "${launched_at[$service]}"
  done
  info "up in $((SECONDS - started))s; Flink Web UI: http://$BIND_HOST:$FLINK_REST_PORT"
}

stop_service() {
  local service=$1 pid waited=0
  pid=$(service_pid "$service")
  if ! pid_alive "$pid"; then
    rm -f "$(service_pid_file "$service")"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  while pid_alive "$pid" && ((waited < 60)); do
    sleep 0.5
    waited=$((waited + 1))
  done
  if pid_alive "$pid"; then
    echo "volumizer: $service (pid $pid) ignored SIGTERM for 30s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$(service_pid_file "$service")"
  info "$service stopped"
}

services_down() {
  if [[ $# -eq 0 ]]; then
    select_services "${ALL_SERVICES[@]}"
  else
    select_services "$@"
  fi
  local -a selected=("${SELECTED[@]}")
  # The API (bin/volumizer api start) talks to all of them: it goes first.
  [[ $# -eq 0 ]] && stop_service api
  local i
  for ((i = ${#selected[@]} - 1; i >= 0; i--)); do
    stop_service "${selected[i]}"
  done
}

services_status() {
  local service pid health all_healthy=0
  printf '%-18s %-6s %-8s %s\n' SERVICE PORT PID STATE
  for service in "${ALL_SERVICES[@]}"; do
    pid=$(service_pid "$service")
    if ! pid_alive "$pid"; then
      health=stopped pid=-
      [[ " ${OPTIONAL_SERVICES[*]} " == *" $service "* ]] && health="stopped (optional)" || all_healthy=1
    elif service_healthy "$service"; then
      health=healthy
    else
      health=unhealthy all_healthy=1
    fi
    printf '%-18s %-6s %-8s %s\n' "$service" "$(service_port "$service")" "$pid" "$health"
  done
  echo "Prometheus metrics: JobManager http://$BIND_HOST:$FLINK_JM_METRICS_PORT/metrics," \
    "TaskManagers on the first free ports of $BIND_HOST:$FLINK_TM_METRICS_PORTS"
  return $all_healthy
}

services_logs() {
  [[ $# -eq 1 ]] || die "usage: bin/volumizer logs <service>"
  select_services "$1"
  tail -n 50 -F "$(service_log "$1")"
}
