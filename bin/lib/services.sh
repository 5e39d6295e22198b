# Installs, starts, checks and stops the local services. Sourced by bin/volumizer. Each service is one process with a
# PID file under $STATE/run (this file's alone: Java asks `bin/volumizer pids`) and a log under $STATE/logs (Elasticsearch
# writes its own, as the user it runs as); processes are stopped by PID, never by name, once known to be still ours.

# mongodb-archive is a second MongoDB deployment: the one topologies/11b.yaml gives its archive repository.
TASKMANAGERS=(flink-taskmanager) # FLINK_TASKMANAGERS of them, and any more still recorded (so that down stops them)
while n=$((${#TASKMANAGERS[@]} + 1)) && { ((n <= FLINK_TASKMANAGERS)) || [[ -f $STATE/run/flink-taskmanager-$n.pid ]]; }; do
  TASKMANAGERS+=("flink-taskmanager-$n"); done
SERVICES=(kafka registry "$SEARCH_ENGINE" mongodb mongodb-archive s3 flink-jobmanager "${TASKMANAGERS[@]}" keycloak)
# Started only when named (up prometheus, up opensearch): Prometheus's first start builds it from its Go module
# (minutes); the other search engine can run beside the chosen one, on its own port.
OPTIONAL_SERVICES=(prometheus "$([[ $SEARCH_ENGINE == elasticsearch ]] && echo opensearch || echo elasticsearch)")
ALL_SERVICES=("${SERVICES[@]}" "${OPTIONAL_SERVICES[@]}")
APICURIO_JAR=apicurio-registry-app-3.0.9-runner.jar
APICURIO_ARTIFACT=io.apicurio:apicurio-registry-app:3.0.9:tar.gz:all
ES_ARTIFACT=org.elasticsearch.distribution.integ-test-zip:elasticsearch:7.10.2:zip
ES_ANALYSIS_COMMON_ARTIFACT=org.codelibs.elasticsearch.module:analysis-common:7.10.2:jar
# ES 7.10.2 ships log4j 2.11.1 (Log4Shell era); 2.17.1 is the patched line that still runs on its Java 8 baseline.
ES_LOG4J_VERSION=2.17.1
KEYCLOAK_ARTIFACT=org.keycloak:keycloak-quarkus-dist:26.7.3:zip

# Per-service facts: its port (- for none), other ports it binds (checked free before it starts), and its health:
# tcp (it accepts connections), taskmanagers (the cluster counts the nth), or a URL that answers, whose answer holds
# the pattern after it, if any. flink-taskmanager-2, -3... have the first TaskManager's facts.
declare -A PORT MORE_PORTS HEALTH
while read -r service port more health; do
  [[ -z $service || $service == '#'* ]] || PORT[$service]=$port MORE_PORTS[$service]=${more//,/ } HEALTH[$service]=$health
done <<EOF
# service        port                 more ports                 health
kafka            $KAFKA_PORT          $KAFKA_CONTROLLER_PORT     tcp
registry         $REGISTRY_PORT       -                          http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7/subjects
elasticsearch    $ES_PORT             -                          http://$BIND_HOST:$ES_PORT/_cluster/health "status":"(green|yellow)"
opensearch       $OS_PORT             -                          http://$BIND_HOST:$OS_PORT/_cluster/health "status":"(green|yellow)"
mongodb          $MONGO_PORT          -                          tcp
mongodb-archive  $MONGO_ARCHIVE_PORT  -                          tcp
s3               $S3_PORT             $S3_TLS_PORT               http://$BIND_HOST:$S3_PORT/ ListAllMyBucketsResult
flink-jobmanager $FLINK_REST_PORT     $FLINK_RPC_PORT            http://$BIND_HOST:$FLINK_REST_PORT/overview
flink-taskmanager -                   -                          taskmanagers
keycloak         $KEYCLOAK_PORT       -                          $OIDC_ISSUER/.well-known/openid-configuration
prometheus       $PROMETHEUS_PORT     -                          http://$BIND_HOST:$PROMETHEUS_PORT/-/ready
api              $API_PORT            -                          http://$BIND_HOST:$API_PORT/health/live
EOF
fact() { local -n facts=$1; echo "${facts[${2%-[0-9]*}]}"; } # fact PORT|MORE_PORTS|HEALTH <service>
search_url() { echo "http://$BIND_HOST:${PORT[$1]}"; }      # of elasticsearch or opensearch, local
service_log() { [[ $1 == *search ]] && echo "$(search_home "$1")/logs/volumizer.log" || echo "$STATE/logs/$1.log"; }

# A PID file holds "<pid> <start ticks>" (/proc/<pid>/stat's field 22, counted after the name's closing parenthesis: the
# name may hold spaces). It names the service only while the process holding that PID started then: after a reboot, or
# once the service exited, the PID may be another process's, never to be signalled. A file without both names none.
process_start_time() { [[ -r "/proc/$1/stat" ]] && sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
record_pid() { echo "$2 $(process_start_time "$2")" >"$STATE/run/$1.pid"; }
service_pid() {
  local pid started
  [[ -f "$STATE/run/$1.pid" ]] && read -r pid started <"$STATE/run/$1.pid" 2>/dev/null || true
  [[ -z "${pid:-}" || -z "${started:-}" || "$(process_start_time "$pid")" != "$started" ]] || echo "$pid"
}
service_running() { pid_alive "$(service_pid "$1")"; }
services_pids() { # "<service> <pid>" of each service that runs, the API and the optional ones too (LocalServices)
  local file
  for file in "$STATE"/run/*.pid; do service_running "$(basename "$file" .pid)" && echo "$(basename "$file" .pid) $(service_pid "$(basename "$file" .pid)")"; done; return 0
}
service_healthy() {
  service_running "$1" || return 1
  local url pattern count n=${1#flink-taskmanager-}
  read -r url pattern <<<"$(fact HEALTH "$1")"
  case "$url" in
    tcp) port_open "$BIND_HOST" "$(fact PORT "$1")" ;;
    taskmanagers) [[ $n == "$1" ]] && n=1 # the nth is healthy once the cluster has n
      count=$(http_get "http://$BIND_HOST:$FLINK_REST_PORT/overview" | grep -o '"taskmanagers":[0-9]*' | cut -d: -f2)
      ((${count:-0} >= n)) ;;
    *) if [[ -n $pattern ]]; then http_get "$url" | grep -Eq "$pattern"; else http_get "$url" >/dev/null; fi ;;
  esac
}

# Resolves the Kafka, Flink and MongoDB-protocol server classpaths (infra/) and copies what runs into $STATE/lib
# (each file renamed over the old one, so that rebuilding never swaps a jar under a running service). <module>:<name>:
# the module's classpath, and its jar but Kafka's (it has no code of ours).
install_infra() {
  local stamp="$STATE/lib/infra.stamp" module
  [[ -f "$stamp" && -z "$(find "$ROOT/infra" "$ROOT/pom.xml" -newer "$stamp" -type f -not -path '*/target/*' | head -1)" ]] && return 0
  info "resolving service classpaths (infra/)"
  mvn_quiet -f "$ROOT/infra/pom.xml" package -DskipTests >"$STATE/logs/infra-build.log" 2>&1 \
    || { tail -n 30 "$STATE/logs/infra-build.log" >&2; die "infra: Maven build failed (see $STATE/logs/infra-build.log)"; }
  mkdir -p "$STATE/lib"
  for module in kafka-server:kafka flink-cluster:flink mongo-server:mongo s3-server:s3; do
    install_file "$ROOT/infra/${module%:*}/target/classpath.txt" "$STATE/lib/${module#*:}.classpath"
    [[ $module == kafka-* ]] || install_file "$(ls "$ROOT/infra/${module%:*}"/target/volumizer-infra-*.jar)" "$STATE/lib/${module%:*}.jar"
  done
  touch "$stamp"
}
install_file() { cp "$1" "$2.part" && mv -f "$2.part" "$2"; }
# Unpacks an archive into a folder (the content of its one top folder, if it has one): unpack <zip|tar.gz> <folder>
unpack() {
  rm -rf "$2" "$2.part" && mkdir -p "$2.part" "$(dirname "$2")"
  case "$1" in *.zip) unzip -q "$1" -d "$2.part" ;; *) tar xzf "$1" -C "$2.part" ;; esac || die "could not unpack $1"
  local top=("$2.part"/*)
  if [[ ${#top[@]} -eq 1 && -d ${top[0]} ]]; then mv "${top[0]}" "$2" && rm -rf "$2.part"; else mv "$2.part" "$2"; fi
}
# Elasticsearch and OpenSearch refuse to run as root: as root they run as a system user, from a folder that user
# can reach (the state folder may sit under /root, which is mode 700).
search_home() { [[ $EUID -ne 0 ]] && echo "$STATE/$1" || echo "/var/lib/volumizer/$(printf '%s' "$STATE" | sha1sum | cut -c1-12)/$1"; }
# Elasticsearch or OpenSearch (<service> <zip artifact> <NAME=value of its environment>...): unpacked once, configured,
# started as a daemon (-d), which writes its own PID file (recorded as ours) and keeps stdout open unless redirected.
start_search_engine() {
  local service=$1 artifact=$2 home waited=0 dir
  shift 2
  home=$(search_home "$service") dir=$(search_home "$service")
  if [[ $EUID -eq 0 ]] && ! id "$ES_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER" || die "$service: could not create user $ES_USER"
  fi
  if [[ ! -x "$home/bin/$service" ]]; then # what Elasticsearch's zip lacks: analysis-common, log4j patched for Log4Shell
    unpack "$(maven_download "$artifact")" "$home"
    if [[ $service == elasticsearch ]]; then
      mkdir -p "$home/modules/analysis-common" && cp "$(maven_download "$ES_ANALYSIS_COMMON_ARTIFACT")" "$home/modules/analysis-common/"
      render_conf elasticsearch/plugin-descriptor.properties "$home/modules/analysis-common/plugin-descriptor.properties"
      rm -f "$home"/lib/log4j-api-*.jar "$home"/lib/log4j-core-*.jar
      cp "$(maven_download "org.apache.logging.log4j:log4j-api:$ES_LOG4J_VERSION:jar")" \
        "$(maven_download "org.apache.logging.log4j:log4j-core:$ES_LOG4J_VERSION:jar")" "$home/lib/"
    fi
  fi
  mkdir -p "$home/config/jvm.options.d" "$home/data" "$home/logs" "$home/tmp"
  render_conf "$service/$service.yml" "$home/config/$service.yml"
  render_conf "$service/jvm.options" "$home/config/jvm.options.d/volumizer.options"
  local -a as_user=()
  if [[ $EUID -eq 0 ]]; then # every folder above the home must be traversable by that user
    chown -R "$ES_USER" "$home" && as_user=(runuser -u "$ES_USER" --)
    while [[ "$dir" != "/" ]]; do dir=$(dirname "$dir"); chmod o+x "$dir" 2>/dev/null || true; done
  fi
  rm -f "$home/$service.pid"
  "${as_user[@]}" env "$@" "$home/bin/$service" -d -p "$home/$service.pid" </dev/null >"$home/logs/startup.log" 2>&1 \
    || { tail -n 20 "$home/logs/startup.log" >&2; die "$service: did not start (see $home/logs)"; }
  until [[ -s "$home/$service.pid" ]]; do # the daemon writes its PID file a moment after the launcher returns
    ((waited++ < 120)) || fail_start "$service" "wrote no PID file within 60s"
    sleep 0.5
  done
  record_pid "$service" "$(cat "$home/$service.pid")"
}
# The newest Temurin JDK, for the services that need a newer Java than the project's (Keycloak, OpenSearch).
newest_jdk() {
  local jdk
  jdk=$(find /usr/lib/jvm -maxdepth 1 -name 'temurin-*' | sort -V | tail -1)
  [[ -x "$jdk/bin/java" ]] && echo "$jdk" || die "$1 needs Java 21 or later: no temurin-* JDK under /usr/lib/jvm"
}
# Kafka's configuration, and its KRaft storage formatted once (the tool prints the id alone without a log4j file).
write_kafka_config() {
  local -a storage_tool=(java -cp "$(cat "$STATE/lib/kafka.classpath")" kafka.tools.StorageTool)
  mkdir -p "$STATE/kafka/data" && render_conf kafka/server.properties "$STATE/kafka/server.properties"
  render_conf kafka/log4j.properties "$STATE/kafka/log4j.properties"
  [[ -f "$STATE/kafka/data/meta.properties" ]] && return 0
  "${storage_tool[@]}" format --cluster-id="$("${storage_tool[@]}" random-uuid 2>/dev/null)" -c "$STATE/kafka/server.properties" \
    >"$STATE/logs/kafka-format.log" 2>&1 || { tail -n 20 "$STATE/logs/kafka-format.log" >&2; die "kafka: formatting the KRaft storage failed"; }
}
# Runs a command detached from this shell, in its own session, logging to the service's log and recording its PID.
launch() {
  local service=$1
  shift
  echo "--- $(date -Is) starting $service" >>"$(service_log "$service")"
  setsid "$@" </dev/null >>"$(service_log "$service")" 2>&1 &
  record_pid "$service" $!
}
# A port held by anything but our own service is a clear error, not a silent clash.
check_port_free() {
  port_open "$BIND_HOST" "$2" || return 0
  local owner
  owner=$(ss -ltnpH "sport = :$2" 2>/dev/null | sed -n 's/.*users:((\("[^"]*"\),pid=\([0-9]*\).*/\1 pid \2/p' | head -1)
  die "$1: port $2 on $BIND_HOST is already taken${owner:+ by $owner}; free it or set another port in conf/volumizer.conf"
}
start_service() {
  local service=$1 port jdk heap admin home=$STATE/$1
  service_running "$service" && return 0
  for port in $(fact PORT "$service") $(fact MORE_PORTS "$service"); do [[ $port == - ]] || check_port_free "$service" "$port"; done
  case "$service" in
    kafka) write_kafka_config
      launch kafka java "-Xms$KAFKA_HEAP" "-Xmx$KAFKA_HEAP" -cp "$(cat "$STATE/lib/kafka.classpath")" \
        -Dlog4j.configuration="file:$home/log4j.properties" kafka.Kafka "$home/server.properties" ;;
    registry) [[ -f "$home/app/$APICURIO_JAR" ]] || unpack "$(maven_download "$APICURIO_ARTIFACT")" "$home/app"
      launch registry env APICURIO_STORAGE_KIND=kafkasql APICURIO_KAFKASQL_BOOTSTRAP_SERVERS="$BIND_HOST:$KAFKA_PORT" \
        java "-Xmx$REGISTRY_HEAP" -Dquarkus.http.port="$REGISTRY_PORT" -Dquarkus.http.host="$BIND_HOST" \
        -Dquarkus.management.enabled=false -Dquarkus.log.console.color=false -jar "$home/app/$APICURIO_JAR" ;;
    elasticsearch) start_search_engine elasticsearch "$ES_ARTIFACT" ES_TMPDIR="$(search_home elasticsearch)/tmp" \
        JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")" ;;
    opensearch) jdk=$(newest_jdk opensearch)
      start_search_engine opensearch "org.opensearch.distribution.integ-test-zip:opensearch:$OS_VERSION:zip" \
        OPENSEARCH_JAVA_HOME="$jdk" OPENSEARCH_TMPDIR="$(search_home opensearch)/tmp" ;;
    mongodb | mongodb-archive) mkdir -p "$home"
      [[ $service == mongodb ]] && heap=$MONGO_HEAP || heap=$MONGO_ARCHIVE_HEAP
      launch "$service" java "-Xmx$heap" -cp "$STATE/lib/mongo-server.jar:$(cat "$STATE/lib/mongo.classpath")" \
        io.volumizer.infra.mongo.MongoServerMain --host "$BIND_HOST" --port "$(fact PORT "$service")" --data-file "$home/repository.mv.db" ;;
    s3) mkdir -p "$home" # S3Mock keeps buckets as files; our LoopbackHttpConnector binds its HTTP port to BIND_HOST
      launch s3 java "-Xmx$S3_HEAP" -cp "$STATE/lib/s3-server.jar:$(cat "$STATE/lib/s3.classpath")" \
        com.adobe.testing.s3mock.S3MockApplication --spring.main.sources=io.volumizer.infra.s3.LoopbackHttpConnector \
        --http.port="$S3_PORT" --server.port="$S3_TLS_PORT" --server.address="$BIND_HOST" \
        --com.adobe.testing.s3mock.store.root="$home" --com.adobe.testing.s3mock.store.retain-files-on-exit=true \
        --com.adobe.testing.s3mock.store.initial-buckets="$S3_BUCKET" --spring.main.banner-mode=off ;;
    keycloak) jdk=$(newest_jdk keycloak)
      [[ -x "$home/bin/kc.sh" ]] || unpack "$(maven_download "$KEYCLOAK_ARTIFACT")" "$home"
      # Its realms with their secrets, in a new database when either changes; LocalSecrets (from source) prints the admin's password.
      admin=$("$jdk/bin/java" "$ROOT/ops/src/main/java/io/volumizer/ops/identity/LocalSecrets.java" keycloak "$STATE" \
        "$ROOT/conf/services/keycloak" "$home/data") || die "keycloak: could not prepare its realms and secrets"
      KC_BOOTSTRAP_ADMIN_USERNAME=$KEYCLOAK_ADMIN_USER KC_BOOTSTRAP_ADMIN_PASSWORD=$admin launch keycloak env JAVA_HOME="$jdk" \
        JAVA_OPTS_KC_HEAP="-Xmx$KEYCLOAK_HEAP" "$home/bin/kc.sh" start-dev --http-host="$BIND_HOST" --http-port="$KEYCLOAK_PORT" --import-realm ;;
    prometheus) # scrapes the Flink processes (every port a TaskManager may take) and the API, every 5 s
      local taskmanager_targets="" first=${FLINK_TM_METRICS_PORTS%-*} last=${FLINK_TM_METRICS_PORTS#*-}
      for ((port = first; port <= last; port++)); do taskmanager_targets+="${taskmanager_targets:+, }\"$BIND_HOST:$port\""; done
      mkdir -p "$home/data" && render_conf prometheus.yml "$home/prometheus.yml"
      launch prometheus "$(go_build prometheus "github.com/prometheus/prometheus@$PROMETHEUS_VERSION" ./cmd/prometheus)" \
        --config.file="$home/prometheus.yml" --storage.tsdb.path="$home/data" --storage.tsdb.retention.time=2d \
        --web.listen-address="$BIND_HOST:$PROMETHEUS_PORT" ;;
    flink-*) home=$STATE/flink && mkdir -p "$home"/{conf,checkpoints,savepoints,completed-jobs,tmp,web-upload}
      render_conf flink/config.yaml "$home/conf/config.yaml" && render_conf flink/log4j.properties "$home/conf/log4j.properties"
      local which=TM entrypoint=org.apache.flink.runtime.taskexecutor.TaskManagerRunner params
      local -a jvm_flags reporter=() # the module access Flink needs on Java 17; a TaskManager takes the first free metrics port
      mapfile -t jvm_flags <"$ROOT/conf/services/flink/jvm-flags"
      [[ "$service" == flink-jobmanager ]] && which=JM entrypoint=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
        reporter=(-D "metrics.reporter.prom.port=$FLINK_JM_METRICS_PORT")
      # Flink's own scripts derive the JVM memory flags (line 1) and dynamic configuration (line 2) this way.
      mapfile -t params < <(java -cp "$(cat "$STATE/lib/flink.classpath")" org.apache.flink.runtime.util.bash.BashJavaUtils \
        "GET_${which}_RESOURCE_PARAMS" --configDir "$home/conf" 2>/dev/null | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tail -n 2)
      [[ ${#params[@]} -eq 2 ]] || die "$service: could not compute memory settings from $home/conf"
      # shellcheck disable=SC2086 # the computed flags are space-separated words
      launch "$service" java ${params[0]} "${jvm_flags[@]}" -Dlog.file="$STATE/logs/$service.log" \
        -Dlog4j.configurationFile="file:$home/conf/log4j.properties" -cp "$STATE/lib/flink-cluster.jar:$(cat "$STATE/lib/flink.classpath")" \
        "$entrypoint" --configDir "$home/conf" ${params[1]} "${reporter[@]}" ;;
  esac
}
wait_healthy() {
  local service=$1 started=${2:-$SECONDS}
  until service_healthy "$service"; do
    service_running "$service" || fail_start "$service" "exited during start-up"
    ((SECONDS - started <= START_TIMEOUT)) || fail_start "$service" "did not become healthy within ${START_TIMEOUT}s"
    sleep 1
  done
  [[ $service != registry ]] || curl -fsS -X PUT -H 'Content-Type: application/json' --data "{\"compatibility\":\"$REGISTRY_COMPATIBILITY\"}" \
    "http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7/config" >/dev/null || die "registry: could not set the compatibility level"
  info "$service healthy after $((SECONDS - started))s (port $(fact PORT "$service"), pid $(service_pid "$service"))"
}
fail_start() { # service, reason
  { echo "--- last lines of $(service_log "$1"):" && tail -n 15 "$(service_log "$1")" 2>/dev/null; } >&2
  die "$1 $2 (port $(fact PORT "$1")); log: $(service_log "$1")"
}
# Sets SELECTED to the requested names (none = every service but the optional ones, "flink" = both Flink
# processes) in start order; an unknown name ends the command (it runs in the caller's shell, not in a subshell).
select_services() {
  local wanted=" $* " service
  SELECTED=()
  [[ $# -eq 0 ]] && wanted=" ${SERVICES[*]} "
  wanted=${wanted// flink / flink-jobmanager ${TASKMANAGERS[*]} }
  for service in $wanted; do
    [[ " ${ALL_SERVICES[*]} " == *" $service "* ]] || die "unknown service '$service' (services: ${ALL_SERVICES[*]} flink)"
  done
  for service in "${ALL_SERVICES[@]}"; do [[ "$wanted" != *" $service "* ]] || SELECTED+=("$service"); done
}
# Launches the services at once (start-up is mostly waiting), but the registry, which keeps its schemas in Kafka,
# once Kafka is healthy; then waits for each.
services_up() {
  local started=$SECONDS service
  local -A launched_at
  select_services "$@"
  ensure_tools && install_infra
  render_conf endpoints.properties "$STATE/endpoints.properties" # for Java: LocalEndpoints, the tests' failsafe
  for service in "${SELECTED[@]}"; do
    [[ "$service" == registry ]] && wait_healthy kafka "${launched_at[kafka]:-$SECONDS}"
    launched_at[$service]=$SECONDS
    start_service "$service"
  done
  for service in "${SELECTED[@]}"; do
    [[ "$service" == kafka && " ${SELECTED[*]} " == *" registry "* ]] || wait_healthy "$service" "${launched_at[$service]}"
  done
  info "up in $((SECONDS - started))s; Flink Web UI: http://$BIND_HOST:$FLINK_REST_PORT"
}
stop_service() {
  local service=$1 pid waited=0
  pid=$(service_pid "$service")
  if pid_alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    while pid_alive "$pid" && ((waited++ < 60)); do sleep 0.5; done
    ! pid_alive "$pid" || { echo "volumizer: $service (pid $pid) ignored SIGTERM for 30s; killing it" >&2 && kill -KILL "$pid" 2>/dev/null; } || true
    info "$service stopped"
  fi
  rm -f "$STATE/run/$service.pid"
}
# Stops the services in the reverse order of their start; all of them, the API first (it talks to all of them).
services_down() {
  local i
  if [[ $# -eq 0 ]]; then select_services "${ALL_SERVICES[@]}" && stop_service api; else select_services "$@"; fi
  for ((i = ${#SELECTED[@]} - 1; i >= 0; i--)); do stop_service "${SELECTED[i]}"; done
}
services_status() {
  local service pid health all_healthy=0
  printf '%-18s %-6s %-8s %s\n' SERVICE PORT PID STATE
  for service in "${ALL_SERVICES[@]}"; do
    pid=$(service_pid "$service") health=healthy
    if ! pid_alive "$pid"; then
      pid=- health=stopped
      [[ " ${OPTIONAL_SERVICES[*]} " == *" $service "* ]] && health="stopped (optional)" || all_healthy=1
    elif ! service_healthy "$service"; then
      health=unhealthy all_healthy=1
    fi
    printf '%-18s %-6s %-8s %s\n' "$service" "$(fact PORT "$service")" "$pid" "$health"
  done
  echo "Prometheus metrics: JobManager http://$BIND_HOST:$FLINK_JM_METRICS_PORT/metrics," \
    "TaskManagers on the first free ports of $BIND_HOST:$FLINK_TM_METRICS_PORTS"
  return $all_healthy
}
