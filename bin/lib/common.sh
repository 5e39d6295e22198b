# Helpers shared by bin/volumizer's commands. Sourced, not run.

MAVEN_CENTRAL=${MAVEN_CENTRAL:-https://repo.maven.apache.org/maven2}
die() { echo "volumizer: error: $*" >&2 && exit 1; }
info() { echo "volumizer: $*"; }
mvn_quiet() { mvn -B -q --no-transfer-progress "$@"; } # batch mode, quiet transfer logs
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; } # something accepts TCP connections on host:port
http_get() { curl -fsS --max-time 5 "$1" 2>/dev/null; } # a GET's body; fails on no connection or a non-2xx status
pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

# Debian's headless browser and its driver, for report --check and the report's browser test (ReportBrowserIT).
BROWSER_TOOLS=(chromium:chromium chromedriver:chromium-driver)
# Installs from Debian's packages whatever the scripts need and the machine lacks, and the tools a command needs as
# command:package pairs (pdftotext:poppler-utils).
ensure_tools() {
  local missing=() pair
  for pair in "$@" java:openjdk-17-jdk-headless mvn:maven curl:curl unzip:unzip python3:python3; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  [[ $EUID -eq 0 ]] || die "missing tools (${missing[*]}); install them with apt-get or run as root"
  info "installing ${missing[*]} from Debian's packages"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
    || die "apt-get could not install ${missing[*]}"
}

# maven_download group:artifact:version:type[:classifier]: fetched from Maven Central into the state folder once,
# checked against its published SHA-1; prints its path.
maven_download() {
  local group artifact version type classifier expected
  IFS=: read -r group artifact version type classifier <<<"$1"
  local name="$artifact-$version${classifier:+-$classifier}.$type"
  local url="$MAVEN_CENTRAL/${group//.//}/$artifact/$version/$name" target="$STATE/downloads/$name"
  if [[ ! -s "$target" ]]; then
    echo "volumizer: downloading $name" >&2
    curl -fsSL --retry 3 -o "$target.part" "$url" || die "download of $url failed"
    expected=$(curl -fsSL --retry 3 "$url.sha1" | cut -c1-40) || die "download of $url.sha1 failed"
    [[ "$expected" == "$(sha1sum "$target.part" | cut -c1-40)" ]] || die "$name: SHA-1 does not match the published $expected"
    mv "$target.part" "$target"
  fi
  echo "$target"
}

# Writes a service's configuration file from its template in conf/services/: each ${NAME} there is that shell
# variable's value (conf/volumizer.conf's, or, in lower case, one the caller sets); an unset one is an error.
#   render_conf <template> <file>
render_conf() {
  local text name
  text=$(<"$ROOT/conf/services/$1")
  while [[ $text =~ \$\{([A-Za-z_][A-Za-z0-9_]*)\} ]]; do
    name=${BASH_REMATCH[1]}
    [[ -v $name ]] || die "conf/services/$1: \${$name} is not set"
    text=${text//"\${$name}"/"${!name}"}
  done
  printf '%s\n' "$text" >"$2"
}

# The go command: on the PATH, or where Go's installer puts it.
go_command() {
  command -v go || { [[ -x /usr/local/go/bin/go ]] && echo /usr/local/go/bin/go; } \
    || die "Go 1.24 or newer is needed to build the chart's tools and Prometheus (https://go.dev/dl/)"
}

# A Go module's folder in Go's module cache, downloaded once (the cache spells a capital letter as ! and lower case).
go_module_dir() {
  local go
  go=$(go_command) && "$go" mod download "$1" || die "could not download the Go module $1"
  # shellcheck disable=SC2001 # the capital letter becomes lower case: no parameter expansion does that
  echo "$("$go" env GOMODCACHE)/$(sed 's/[A-Z]/!\L&/g' <<<"$1")"
}

# go_build <name> <module@version> <package>: a tool built once from a writable copy of its Go module (no binary
# downloads; `go install` refuses modules with replace directives, as Prometheus's), cached in the state folder;
# prints its path. -trimpath lets Go's build cache serve the build of another state folder (a fresh clone).
go_build() {
  local name=$1 module=$2 tool=$STATE/tools/$1-${2##*@} source=$STATE/tools/$1-source dir go
  if [[ ! -x "$tool" ]]; then
    dir=$(go_module_dir "$module") && go=$(go_command) || exit 1
    info "building $name from its Go module $module (once; minutes)" >&2
    rm -rf "$source" && cp -r "$dir" "$source" && chmod -R u+w "$source"
    (cd "$source" && "$go" build -trimpath -o "$tool.part" "$3") >"$STATE/logs/build-$name.log" 2>&1 \
      || { tail -n 20 "$STATE/logs/build-$name.log" >&2; die "could not build $name (see $STATE/logs/build-$name.log)"; }
    mv "$tool.part" "$tool" && rm -rf "$source"
  fi
  echo "$tool"
}
