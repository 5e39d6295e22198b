# Helpers shared by bin/volumizer's commands. Sourced, not run.

MAVEN_CENTRAL=${MAVEN_CENTRAL:-https://repo.maven.apache.org/maven2}

die() {
  echo "volumizer: error: $*" >&2
  exit 1
}

info() {
  echo "volumizer: $*"
}

# Installs from Debian's packages whatever the scripts need and the machine lacks.
ensure_tools() {
  local missing=()
  command -v java >/dev/null || missing+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null || missing+=(maven)
  command -v curl >/dev/null || missing+=(curl)
  command -v unzip >/dev/null || missing+=(unzip)
  command -v python3 >/dev/null || missing+=(python3)
  [[ ${#missing[@]} -eq 0 ]] && return 0
  [[ $EUID -eq 0 ]] || die "missing tools (${missing[*]}); install them with apt-get or run as root"
  info "installing ${missing[*]} from Debian's packages"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
    || die "apt-get could not install ${missing[*]}"
  local version
  version=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p')
  [[ "$version" -ge 17 ]] || die "Java 17 or newer is needed, found Java $version"
}

# mvn with the flags every call here wants: batch mode, quiet transfer logs.
mvn_quiet() {
  mvn -B -q --no-transfer-progress "$@"
}

# Fetches a file from Maven Central into the state folder once, checked against its published SHA-1.
#   maven_download group:artifact:version:type[:classifier] -> prints the local path
maven_download() {
  local group artifact version type classifier
  IFS=: read -r group artifact version type classifier <<<"$1"
  local name="$artifact-$version${classifier:+-$classifier}.$type"
  local url="$MAVEN_CENTRAL/${group//.//}/$artifact/$version/$name"
  local target="$STATE/downloads/$name"
  if [[ ! -s "$target" ]]; then
    echo "volumizer: downloading $name" >&2
    curl -fsSL --retry 3 -o "$target.part" "$url" || die "download of $url failed"
    local expected actual
    expected=$(curl -fsSL --retry 3 "$url.sha1" | cut -c1-40) || die "download of $url.sha1 failed"
    actual=$(sha1sum "$target.part" | cut -c1-40)
    [[ "$expected" == "$actual" ]] || die "$name: SHA-1 $actual does not match the published $expected"
    mv "$target.part" "$target"
  fi
  echo "$target"
}

# True when something accepts TCP connections on host:port.
port_open() {
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# Prints an HTTP GET's body; fails on a connection error or a non-2xx status.
http_get() {
  curl -fsS --max-time 5 "$1" 2>/dev/null
}

pid_alive() {
  [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null
}
