#!/usr/bin/env bash
# Dev/test single-node OpenSearch 2.19.1 (+ k-NN, painless, analysis-common) built from
# Maven Central jars. Usage: node.sh build|start|stop|status|restart|url  (any cwd)
# status exits 0 when running, 3 when stopped. See README.md.
#
# Environment:
#   OPENSEARCH_PORT           HTTP port (default 9250)
#   OPENSEARCH_TRANSPORT_PORT transport port range (default 9350-9399)
#   OPENSEARCH_JAVA_OPTS      JVM options (default "-Xms512m -Xmx1g")
#   OPENSEARCH_START_TIMEOUT  seconds to wait for GET / and health >= yellow (default 180)
#   MVN                       maven command, may carry args (default "mvn"),
#                             e.g. MVN="mvn -Dmaven.repo.local=/some/repo"
#   JAVA_HOME                 used for java if set (Java 17)
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TARGET="$DIR/target"
PID_FILE="$TARGET/opensearch.pid"
PORT_FILE="$TARGET/opensearch.port"
LOG_FILE="$TARGET/opensearch.log"
STAMP="$TARGET/.node-build.stamp"

PORT="${OPENSEARCH_PORT:-9250}"
JAVA_OPTS="${OPENSEARCH_JAVA_OPTS:--Xms512m -Xmx1g}"
START_TIMEOUT="${OPENSEARCH_START_TIMEOUT:-180}"
MVN="${MVN:-mvn}"
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=java; fi

log() { echo "node.sh: $*" >&2; }

http_ok() { # $1 = url; true when GET answers 200
  if command -v curl >/dev/null 2>&1; then
    curl -sf -o /dev/null --max-time 5 "$1"
  else
    python3 - "$1" <<'EOF' >/dev/null 2>&1
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=5).read()
EOF
  fi
}

running_pid() { # prints pid and succeeds if the node from the pid file is alive
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  # guard against pid reuse: it must be our launcher
  grep -q "tutormemory.OpenSearchNode" "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

current_port() { if [[ -f "$PORT_FILE" ]]; then cat "$PORT_FILE"; else echo "$PORT"; fi; }

is_built() {
  [[ -f "$STAMP" && -d "$TARGET/classes/tutormemory" && -d "$TARGET/lib" && -f "$TARGET/knn/opensearch-knn-2.19.1.0.jar" ]] || return 1
  # rebuild when pom.xml or any source is newer than the stamp
  [[ -z "$(find "$DIR/pom.xml" "$DIR/src" -newer "$STAMP" -print -quit)" ]]
}

cmd_build() {
  if is_built; then
    log "already built ($TARGET)"
    return 0
  fi
  log "building with maven (the first run on a machine downloads ~92 MB into the maven repo) ..."
  # drop copied jars so a changed pom never leaves stale versions on the classpath
  rm -rf "$TARGET/lib" "$TARGET/knn" "$TARGET/dependency-maven-plugin-markers"
  # shellcheck disable=SC2086  # MVN may carry extra args
  mkdir -p "$TARGET"
  if ! $MVN -B -q -f "$DIR/pom.xml" package > "$TARGET/build.log" 2>&1; then
    log "maven build failed; see $TARGET/build.log:"
    tail -n 40 "$TARGET/build.log" >&2
    return 1
  fi
  touch "$STAMP"
  log "built"
}

# the system properties the OpenSearch distribution's jvm.options sets that matter here
SYS_PROPS=(
  -Djava.awt.headless=true -Dfile.encoding=UTF-8 -Djava.locale.providers=SPI,COMPAT
  -Dio.netty.noUnsafe=true -Dio.netty.noKeySetOptimization=true -Dio.netty.recycler.maxCapacityPerThread=0
  -Dlog4j.shutdownHookEnabled=false -Dlog4j2.disable.jmx=true -XX:+UseG1GC
)

classpath() { echo "$TARGET/classes:$TARGET/lib/*:$TARGET/knn/*"; }

cmd_start() {
  local pid
  if pid="$(running_pid)"; then
    local p; p="$(current_port)"
    log "already running (pid $pid)"
    echo "http://127.0.0.1:$p"
    return 0
  fi
  cmd_build
  if http_ok "http://127.0.0.1:$PORT/"; then
    log "port $PORT already answers HTTP but it is not our node; set OPENSEARCH_PORT"
    return 1
  fi
  mkdir -p "$TARGET"
  echo "$PORT" > "$PORT_FILE"
  : > "$LOG_FILE"
  local launcher=()
  if command -v setsid >/dev/null 2>&1; then launcher=(setsid); fi
  # shellcheck disable=SC2086
  nohup "${launcher[@]}" "$JAVA" $JAVA_OPTS "${SYS_PROPS[@]}" \
    -cp "$(classpath)" tutormemory.OpenSearchNode --port "$PORT" --base "$TARGET" \
    >> "$LOG_FILE" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$PID_FILE"
  log "started pid $pid, log $LOG_FILE; waiting up to ${START_TIMEOUT}s for http://127.0.0.1:$PORT/"
  local start=$SECONDS
  while (( SECONDS - start < START_TIMEOUT )); do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "node exited during start-up; last log lines:"
      tail -n 40 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      return 1
    fi
    # GET / answers as soon as HTTP is bound; existing indices may still be recovering,
    # so also wait until every primary shard is active (health yellow or green)
    if http_ok "http://127.0.0.1:$PORT/" \
      && http_ok "http://127.0.0.1:$PORT/_cluster/health?wait_for_status=yellow&timeout=4s"; then
      log "ready after $(( SECONDS - start ))s"
      echo "http://127.0.0.1:$PORT"
      return 0
    fi
    sleep 1
  done
  log "timed out after ${START_TIMEOUT}s; stopping it. Last log lines:"
  tail -n 40 "$LOG_FILE" >&2 || true
  cmd_stop || true
  return 1
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    log "not running"
    rm -f "$PID_FILE"
    return 0
  fi
  log "stopping pid $pid (SIGTERM)"
  kill -TERM "$pid" 2>/dev/null || true
  local i
  for (( i = 0; i < 60; i++ )); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$PID_FILE"; log "stopped"; return 0; }
    sleep 1
  done
  log "still alive after 60s, sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 1
  rm -f "$PID_FILE"
}

cmd_status() {
  local pid p
  if pid="$(running_pid)"; then
    p="$(current_port)"
    if http_ok "http://127.0.0.1:$p/"; then
      echo "running pid=$pid url=http://127.0.0.1:$p"
    else
      echo "starting-or-unresponsive pid=$pid url=http://127.0.0.1:$p"
    fi
    return 0
  fi
  echo "stopped"
  return 3
}

case "${1:-}" in
  build) cmd_build ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  url) echo "http://127.0.0.1:$(current_port)" ;;
  restart) cmd_stop; cmd_start ;;
  *) echo "usage: $0 build|start|stop|status|restart|url" >&2; exit 2 ;;
esac
