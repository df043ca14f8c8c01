#!/usr/bin/env bash
# Start a throw-away Virtuoso Open-Source on loopback for the remote-store tests.
#
#   .ci/start-virtuoso.sh [DIR]      start it; prints the SPARQL endpoint URL on stdout
#   .ci/start-virtuoso.sh --stop DIR stop the instance started in DIR
#
# Installs Debian's virtuoso-opensource when virtuoso-t is missing (CI must),
# writes its own virtuoso.ini into DIR (default: a new temp folder), binds the
# SQL and HTTP ports to 127.0.0.1 (KG_VIRTUOSO_SQL_PORT / KG_VIRTUOSO_HTTP_PORT,
# default: free ports), and waits until /sparql answers. The database is fresh,
# so the dba password is "dba": kg writes through /sparql-auth (digest auth).
# Transaction limits are Virtuoso's defaults (TransactionAfterImageLimit is not
# set: 50,000,000 bytes, as in Debian's virtuoso.ini), so the tests see what a
# stock server refuses. KG_VIRTUOSO_BUFFERS (default 10000, Debian's value)
# sets NumberOfBuffers for benchmarks of the bulk loader. DirsAllowed holds DIR,
# so kg push --bulk can write its files under DIR/bulk.
set -euo pipefail

if [ "${1:-}" = "--stop" ]; then
  dir=${2:?usage: $0 --stop DIR}
  if [ -f "$dir/virtuoso.pid" ]; then
    pid=$(cat "$dir/virtuoso.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  exit 0
fi

if ! command -v virtuoso-t >/dev/null 2>&1; then
  echo "start-virtuoso: installing virtuoso-opensource" >&2
  export DEBIAN_FRONTEND=noninteractive
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo -n"
  $sudo_ apt-get update -qq >&2
  $sudo_ apt-get install -y -qq virtuoso-opensource >&2
  # the package starts a system instance on the default ports: not ours, stop it
  $sudo_ service virtuoso-opensource-7 stop >/dev/null 2>&1 || true
fi

dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/kg-virtuoso.XXXXXX")}
mkdir -p "$dir"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
sql_port=${KG_VIRTUOSO_SQL_PORT:-$(free_port)}
http_port=${KG_VIRTUOSO_HTTP_PORT:-$(free_port)}
vad=/usr/share/virtuoso-opensource-7/vad
buffers=${KG_VIRTUOSO_BUFFERS:-10000}

cat > "$dir/virtuoso.ini" <<INI
[Database]
DatabaseFile       = $dir/virtuoso.db
ErrorLogFile       = $dir/virtuoso.log
LockFile           = $dir/virtuoso.lck
TransactionFile    = $dir/virtuoso.trx
xa_persistent_file = $dir/virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = $dir/virtuoso-temp.db
TransactionFile    = $dir/virtuoso-temp.trx
Striping           = 0

[Parameters]
ServerPort               = 127.0.0.1:$sql_port
DisableUnixSocket        = 1
CheckpointInterval       = 60
CaseMode                 = 2
DirsAllowed              = ., $dir, $vad
VADInstallDir            = $vad/
NumberOfBuffers          = $buffers
MaxDirtyBuffers          = $((buffers * 3 / 4))
MaxQueryMem              = 512M
ThreadsPerQuery          = 2

[HTTPServer]
ServerPort               = 127.0.0.1:$http_port
ServerRoot               = $dir
MaxClientConnections     = 10
ServerThreads            = 10
KeepAliveTimeout         = 10
Charset                  = UTF-8
EnabledGzipContent       = 0

[SPARQL]
ResultSetMaxRows           = 1000000
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime      = 0
DefaultQuery               = SELECT * WHERE { ?s ?p ?o } LIMIT 10
INI

cd "$dir"
nohup virtuoso-t +foreground +configfile "$dir/virtuoso.ini" >"$dir/stdout.log" 2>&1 &
echo $! > "$dir/virtuoso.pid"
echo "$sql_port" > "$dir/sql.port"
url="http://127.0.0.1:$http_port/sparql"
echo "$url" > "$dir/endpoint.url"

for _ in $(seq 1 240); do
  if ! kill -0 "$(cat "$dir/virtuoso.pid")" 2>/dev/null; then
    echo "start-virtuoso: virtuoso-t exited; log follows" >&2
    tail -20 "$dir/virtuoso.log" >&2 2>/dev/null || tail -20 "$dir/stdout.log" >&2
    exit 1
  fi
  if python3 - "$url" <<'PY' 2>/dev/null
import sys, urllib.parse, urllib.request
q = urllib.parse.urlencode({"query": "ASK {}"}).encode()
req = urllib.request.Request(sys.argv[1], data=q, headers={"Accept": "application/sparql-results+json"})
with urllib.request.urlopen(req, timeout=2) as r:
    sys.exit(0 if b"boolean" in r.read() else 1)
PY
  then
    echo "$url"
    exit 0
  fi
  sleep 0.5
done
echo "start-virtuoso: $url did not answer within 120 s" >&2
exit 1
