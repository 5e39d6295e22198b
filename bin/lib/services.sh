# Installs, starts, checks and stops the local services. Sourced by bin/volumizer.
#
# Each service is one process with a PID file under $STATE/run and a log under $STATE/logs (Elasticsearch writes its
# own log, as the user it runs as). Processes are stopped by PID, never by name, and only once the PID is known to be
# still the process that was started. The PID file's format is shared with Java: ops/.../services/PidFile.java.

# mongodb-archive is a second MongoDB deployment: the one topologies/11b.yaml gives its archive repository.
SERVICES=(kafka registry elasticsearch mongodb mongodb-archive s3 flink-jobmanager flink-taskmanager)
# Started only when named (up prometheus): its first start builds it from its Go module (minutes).
OPTIONAL_SERVICES=(prometheus)
ALL_SERVICES=("${SERVICES[@]}" "${OPTIONAL_SERVICES[@]}")

APICURIO_ARTIFACT=io.apicurio:apicurio-registry-app:3.0.9:tar.gz:all
ES_ARTIFACT=org.elasticsearch.distribution.integ-test-zip:elasticsearch:7.10.2:zip
ES_ANALYSIS_COMMON_ARTIFACT=org.codelibs.elasticsearch.module:analysis-common:7.10.2:jar
# ES 7.10.2 ships log4j 2.11.1 (Log4Shell era); 2.17.1 is the patched line that still runs on its Java 8 baseline.
ES_LOG4J_VERSION=2.17.1

FLINK_JVM_FLAGS=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

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
    flink-taskmanager) echo "-" ;;
    api) echo "$API_PORT" ;;
    prometheus) echo "$PROMETHEUS_PORT" ;;
  esac
}

service_log() {
  case "$1" in
    elasticsearch) echo "$(es_home)/logs/volumizer.log" ;; # cluster.name is volumizer
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
    kafka) port_open "$BIND_HOST" "$KAFKA_PORT" ;;
    registry) http_get "http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7/subjects" >/dev/null ;;
    elasticsearch) http_get "http://$BIND_HOST:$ES_PORT/_cluster/health" | grep -Eq '"status":"(green|yellow)"' ;;
    mongodb) port_open "$BIND_HOST" "$MONGO_PORT" ;;
    mongodb-archive) port_open "$BIND_HOST" "$MONGO_ARCHIVE_PORT" ;;
    s3) http_get "http://$BIND_HOST:$S3_PORT/" | grep -q ListAllMyBucketsResult ;;
    flink-jobmanager) http_get "http://$BIND_HOST:$FLINK_REST_PORT/overview" >/dev/null ;;
    flink-taskmanager) http_get "http://$BIND_HOST:$FLINK_REST_PORT/overview" | grep -Eq '"taskmanagers":[1-9]' ;;
    api) http_get "http://$BIND_HOST:$API_PORT/health/live" >/dev/null ;;
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
  install_file "$ROOT/infra/kafka-server/target/classpath.txt" "$STATE/lib/kafka.classpath"
  install_file "$ROOT/infra/flink-cluster/target/classpath.txt" "$STATE/lib/flink.classpath"
  install_file "$(ls "$ROOT"/infra/flink-cluster/target/volumizer-infra-flink-cluster-*.jar)" "$STATE/lib/flink-cluster.jar"
  install_file "$ROOT/infra/mongo-server/target/classpath.txt" "$STATE/lib/mongo.classpath"
  install_file "$(ls "$ROOT"/infra/mongo-server/target/volumizer-infra-mongo-server-*.jar)" "$STATE/lib/mongo-server.jar"
  install_file "$ROOT/infra/s3-server/target/classpath.txt" "$STATE/lib/s3.classpath"
  install_file "$(ls "$ROOT"/infra/s3-server/target/volumizer-infra-s3-server-*.jar)" "$STATE/lib/s3-server.jar"
  touch "$stamp"
}

# Copies a file into place by renaming a copy over it.
install_file() {
  cp "$1" "$2.part" && mv -f "$2.part" "$2"
}

# Prometheus from its Go module (no binary downloads here), cached in the state folder: `go install` refuses the
# module (it has replace directives), so its source is copied somewhere writable and built there; -trimpath lets
# Go's build cache serve the next build from another folder (a fresh clone) in about a minute.
prometheus_binary() {
  echo "$STATE/tools/prometheus-$PROMETHEUS_VERSION"
}

install_prometheus() {
  local binary go source
  binary=$(prometheus_binary)
  [[ -x "$binary" ]] && return 0
  go=$(command -v go || echo /usr/local/go/bin/go)
  [[ -x "$go" ]] || die "prometheus: Go 1.24 or newer is needed to build it (https://go.dev/dl/)"
  info "prometheus: building $PROMETHEUS_VERSION from its Go module (once; about 8 minutes on 2 cores)"
  source=$("$go" mod download -json "github.com/prometheus/prometheus@$PROMETHEUS_VERSION" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])') \
    || die "prometheus: could not download github.com/prometheus/prometheus@$PROMETHEUS_VERSION"
  rm -rf "$STATE/tools/prometheus-source"
  cp -r "$source" "$STATE/tools/prometheus-source" && chmod -R u+w "$STATE/tools/prometheus-source"
  (cd "$STATE/tools/prometheus-source" && "$go" build -trimpath -o "$binary.part" ./cmd/prometheus) \
    >"$STATE/logs/build-prometheus.log" 2>&1 \
    || { tail -n 20 "$STATE/logs/build-prometheus.log" >&2; die "prometheus: build failed (see $STATE/logs/build-prometheus.log)"; }
  mv "$binary.part" "$binary"
  rm -rf "$STATE/tools/prometheus-source"
}

# Scrapes the Flink processes (every port a TaskManager may take) and the API, every 5 s.
write_prometheus_config() {
  local first=${FLINK_TM_METRICS_PORTS%-*} last=${FLINK_TM_METRICS_PORTS#*-} port taskmanagers=""
  for ((port = first; port <= last; port++)); do
    taskmanagers+="${taskmanagers:+, }\"$BIND_HOST:$port\""
  done
  mkdir -p "$STATE/prometheus/data"
  cat >"$STATE/prometheus/prometheus.yml" <<EOF
global:
  scrape_interval: 5s
scrape_configs:
  - job_name: flink-jobmanager
    static_configs: [{targets: ["$BIND_HOST:$FLINK_JM_METRICS_PORT"]}]
  - job_name: flink-taskmanager
    static_configs: [{targets: [$taskmanagers]}]
  - job_name: api
    static_configs: [{targets: ["$BIND_HOST:$API_PORT"]}]
EOF
}

install_registry() {
  local home="$STATE/registry/app"
  [[ -f "$home/apicurio-registry-app-3.0.9-runner.jar" ]] && return 0
  local archive
  archive=$(maven_download "$APICURIO_ARTIFACT")
  mkdir -p "$home"
  tar xzf "$archive" -C "$home" || die "registry: could not unpack $archive"
}

# Elasticsearch refuses to run as root: as root it runs as a system user, from a folder that user can reach
# (the state folder may sit under /root, which is mode 700).
es_home() {
  if [[ $EUID -ne 0 ]]; then
    echo "$STATE/elasticsearch"
  else
    echo "/var/lib/volumizer/$(printf '%s' "$STATE" | sha1sum | cut -c1-12)/elasticsearch"
  fi
}

install_elasticsearch() {
  local home
  home=$(es_home)
  if [[ $EUID -eq 0 ]] && ! id "$ES_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER" || die "elasticsearch: could not create user $ES_USER"
  fi
  if [[ ! -x "$home/bin/elasticsearch" ]]; then
    local zip module log4j_api log4j_core
    zip=$(maven_download "$ES_ARTIFACT")
    module=$(maven_download "$ES_ANALYSIS_COMMON_ARTIFACT")
    log4j_api=$(maven_download "org.apache.logging.log4j:log4j-api:$ES_LOG4J_VERSION:jar")
    log4j_core=$(maven_download "org.apache.logging.log4j:log4j-core:$ES_LOG4J_VERSION:jar")
    rm -rf "$home.part" && mkdir -p "$home.part"
    unzip -q "$zip" -d "$home.part" || die "elasticsearch: could not unpack $zip"
    mv "$home.part"/elasticsearch-7.10.2/* "$home.part"/ && rmdir "$home.part/elasticsearch-7.10.2"
    # The integ-test zip lacks analysis-common (asciifolding, html_strip, stemmers): add it as a module.
    mkdir -p "$home.part/modules/analysis-common"
    cp "$module" "$home.part/modules/analysis-common/"
    cat >"$home.part/modules/analysis-common/plugin-descriptor.properties" <<EOF
description=Adds analysis components (asciifolding, stemmers, html_strip...)
version=7.10.2
name=analysis-common
classname=org.elasticsearch.analysis.common.CommonAnalysisPlugin
java.version=1.8
elasticsearch.version=7.10.2
has.native.controller=false
EOF
    rm -f "$home.part"/lib/log4j-api-*.jar "$home.part"/lib/log4j-core-*.jar
    cp "$log4j_api" "$log4j_core" "$home.part/lib/"
    rm -rf "$home" && mkdir -p "$(dirname "$home")" && mv "$home.part" "$home"
  fi
  cat >"$home/config/elasticsearch.yml" <<EOF
cluster.name: volumizer
node.name: volumizer-local
network.host: $BIND_HOST
http.port: $ES_PORT
transport.port: $ES_TRANSPORT_PORT
discovery.type: single-node
thread_pool.write.queue_size: $ES_WRITE_QUEUE_SIZE
path.data: $home/data
path.logs: $home/logs
action.destructive_requires_name: false
EOF
  mkdir -p "$home/config/jvm.options.d" "$home/data" "$home/logs" "$home/tmp"
  cat >"$home/config/jvm.options.d/volumizer.options" <<EOF
-Xms$ES_HEAP
-Xmx$ES_HEAP
-Dlog4j2.formatMsgNoLookups=true
EOF
  if [[ $EUID -eq 0 ]]; then
    chown -R "$ES_USER" "$home"
    # Every folder above the home must be traversable by that user.
    local dir=$home
    while [[ "$dir" != "/" ]]; do dir=$(dirname "$dir"); chmod o+x "$dir" 2>/dev/null || true; done
  fi
}

write_kafka_config() {
  local dir="$STATE/kafka"
  mkdir -p "$dir/data"
  cat >"$dir/server.properties" <<EOF
node.id=1
process.roles=broker,controller
controller.quorum.voters=1@$BIND_HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$BIND_HOST:$KAFKA_PORT,CONTROLLER://$BIND_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$BIND_HOST:$KAFKA_PORT
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data
num.partitions=$KAFKA_PARTITIONS
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
# Flink's exactly-once Kafka sink uses transactions of up to an hour by default.
transaction.max.timeout.ms=3600000
EOF
  cat >"$dir/log4j.properties" <<'EOF'
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
EOF
  if [[ ! -f "$dir/data/meta.properties" ]]; then
    local cluster_id
    # Like Kafka's own Uuid.randomUuid(): base64url can start with "-", which the tool would take for an option.
    cluster_id=$(python3 -c 'import base64,uuid
while True:
    id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    if not id.startswith("-"):
        break
print(id)')
    java -cp "$(cat "$STATE/lib/kafka.classpath")" -Dlog4j.configuration="file:$dir/log4j.properties" \
      kafka.tools.StorageTool format --cluster-id="$cluster_id" -c "$dir/server.properties" >"$STATE/logs/kafka-format.log" 2>&1 \
      || { tail -n 20 "$STATE/logs/kafka-format.log" >&2; die "kafka: formatting the KRaft storage failed"; }
  fi
}

write_flink_config() {
  local dir="$STATE/flink"
  mkdir -p "$dir/conf" "$dir/checkpoints" "$dir/savepoints" "$dir/tmp" "$dir/web-upload"
  cat >"$dir/conf/config.yaml" <<EOF
jobmanager:
  rpc:
    address: $BIND_HOST
    port: $FLINK_RPC_PORT
  bind-host: $BIND_HOST
  memory:
    process:
      size: $FLINK_JM_MEMORY
    jvm-metaspace:
      size: $FLINK_JM_METASPACE
taskmanager:
  host: $BIND_HOST
  bind-host: $BIND_HOST
  numberOfTaskSlots: $FLINK_SLOTS
  memory:
    process:
      size: $FLINK_TM_MEMORY
    jvm-metaspace:
      size: $FLINK_TM_METASPACE
rest:
  address: $BIND_HOST
  bind-address: $BIND_HOST
  port: $FLINK_REST_PORT
web:
  submit:
    enable: true
  cancel:
    enable: true
  upload:
    dir: $dir/web-upload
execution:
  checkpointing:
    dir: file://$dir/checkpoints
    savepoint-dir: file://$dir/savepoints
state:
  backend:
    type: hashmap
# A job that fails (a store or a broker down) restarts from its checkpoint, again and again while the outage lasts,
# at most 10 s apart, so that it is back soon after the outage ends.
restart-strategy:
  type: exponential-delay
  exponential-delay:
    initial-backoff: 1 s
    max-backoff: 10 s
io:
  tmp:
    dirs: $dir/tmp
blob:
  service:
    # A finished job's jar (42 MB) stays in each TaskManager's blob cache this long; with the default hour, 646 MB
    # of them piled up during benchmark runs.
    cleanup:
      interval: 300
cluster:
  registration:
    error-delay: 1000
parallelism:
  default: 2
metrics:
  fetcher:
    # Progress lines read metrics through REST; the default refreshes them only every 10 s.
    update-interval: 1000
  reporters: prom
  reporter:
    prom:
      # Flink's Prometheus reporter, bound to BIND_HOST (Flink's own binds every interface): infra/flink-cluster.
      factory:
        class: io.volumizer.infra.flink.HostBoundPrometheusReporterFactory
      host: $BIND_HOST
      port: $FLINK_TM_METRICS_PORTS
EOF
  cat >"$dir/conf/log4j.properties" <<'EOF'
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = MainAppender
appender.main.name = MainAppender
appender.main.type = File
appender.main.fileName = ${sys:log.file}
appender.main.append = true
appender.main.layout.type = PatternLayout
appender.main.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n
logger.kafka.name = org.apache.kafka
logger.kafka.level = WARN
EOF
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
      install_elasticsearch
      local home java_home
      home=$(es_home)
      java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
      rm -f "$home/es.pid"
      local -a as_user=()
      [[ $EUID -eq 0 ]] && as_user=(runuser -u "$ES_USER" --)
      # -d daemonizes, and ES writes its own PID file (read once, then recorded as ours); it keeps the caller's
      # stdout open unless redirected.
      "${as_user[@]}" env JAVA_HOME="$java_home" ES_TMPDIR="$home/tmp" "$home/bin/elasticsearch" -d -p "$home/es.pid" \
        </dev/null >"$home/logs/startup.log" 2>&1 || {
        tail -n 20 "$home/logs/startup.log" >&2
        die "elasticsearch: did not start (see $home/logs)"
      }
      # The launcher returns once the daemon is forked; the daemon writes its PID file a moment later.
      local waited=0
      until [[ -s "$home/es.pid" ]]; do
        ((waited++ < 120)) || fail_start elasticsearch "wrote no PID file within 60s"
        sleep 0.5
      done
      record_pid elasticsearch "$(cat "$home/es.pid")"
      ;;
    mongodb)
      mkdir -p "$STATE/mongodb"
      # Index pages of the stand-in's first file format are ordered differently (by serialized key bytes): that
      # file cannot be opened by the current server, and holds only local, reproducible runs.
      if [[ -f "$STATE/mongodb/volumizer.mv.db" ]]; then
        info "mongodb: discarding $STATE/mongodb/volumizer.mv.db (the previous stand-in's index format)"
        rm -f "$STATE/mongodb/volumizer.mv.db"
      fi
      launch mongodb java "-Xmx$MONGO_HEAP" -cp "$STATE/lib/mongo-server.jar:$(cat "$STATE/lib/mongo.classpath")" \
        io.volumizer.infra.mongo.MongoServerMain --host "$BIND_HOST" --port "$MONGO_PORT" \
        --data-file "$STATE/mongodb/repository.mv.db"
      ;;
    mongodb-archive)
      mkdir -p "$STATE/mongodb-archive"
      launch mongodb-archive java "-Xmx$MONGO_ARCHIVE_HEAP" -cp "$STATE/lib/mongo-server.jar:$(cat "$STATE/lib/mongo.classpath")" \
        io.volumizer.infra.mongo.MongoServerMain --host "$BIND_HOST" --port "$MONGO_ARCHIVE_PORT" \
        --data-file "$STATE/mongodb-archive/repository.mv.db"
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
    prometheus)
      install_prometheus
      write_prometheus_config
      launch prometheus "$(prometheus_binary)" --config.file="$STATE/prometheus/prometheus.yml" \
        --storage.tsdb.path="$STATE/prometheus/data" --storage.tsdb.retention.time=2d \
        --web.listen-address="$BIND_HOST:$PROMETHEUS_PORT"
      ;;
    flink-jobmanager | flink-taskmanager)
      write_flink_config
      local which entrypoint params jvm dynamic
      if [[ "$service" == flink-jobmanager ]]; then
        check_port_free "$service" "$FLINK_RPC_PORT"
        which=GET_JM_RESOURCE_PARAMS entrypoint=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint
      else
        which=GET_TM_RESOURCE_PARAMS entrypoint=org.apache.flink.runtime.taskexecutor.TaskManagerRunner
      fi
      params=$(flink_resource_params "$which")
      [[ $(wc -l <<<"$params") -eq 2 ]] || die "$service: could not compute memory settings from $STATE/flink/conf"
      jvm=$(sed -n 1p <<<"$params")
      dynamic=$(sed -n 2p <<<"$params")
      if [[ "$service" == flink-jobmanager ]]; then
        dynamic+=" -D metrics.reporter.prom.port=$FLINK_JM_METRICS_PORT"
      fi
      # shellcheck disable=SC2086 # the computed flags are space-separated words
      launch "$service" java $jvm "${FLINK_JVM_FLAGS[@]}" -Dlog.file="$STATE/logs/$service.log" \
        -Dlog4j.configurationFile="file:$STATE/flink/conf/log4j.properties" \
        -cp "$STATE/lib/flink-cluster.jar:$(cat "$STATE/lib/flink.classpath")" "$entrypoint" \
        --configDir "$STATE/flink/conf" $dynamic
      ;;
  esac
}

after_healthy() {
  case "$1" in
    registry)
      curl -fsS -X PUT -H 'Content-Type: application/json' --data "{\"compatibility\":\"$REGISTRY_COMPATIBILITY\"}" \
        "http://$BIND_HOST:$REGISTRY_PORT/apis/ccompat/v7/config" >/dev/null \
        || die "registry: could not set the compatibility level to $REGISTRY_COMPATIBILITY"
      ;;
  esac
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

fail_start() {
  local service=$1 reason=$2 log
  log=$(service_log "$service")
  {
    echo "--- last lines of $log:"
    tail -n 15 "$log" 2>/dev/null
  } >&2
  die "$service $reason (port $(service_port "$service")); log: $log"
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
  wanted=${wanted// flink / flink-jobmanager flink-taskmanager }
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
