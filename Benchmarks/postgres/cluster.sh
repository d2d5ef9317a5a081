# Sourced by the PostgreSQL benchmark scripts: starts a throwaway cluster in a temp folder on a
# free loopback port (as the postgres user when run as root), one core's work a query (no
# parallel workers), and stops and removes it when the script exits. Sets `psql` (an array:
# the command line for the superuser `bench`), `url` (the same server as a postgres:// URL),
# `bin` (the server's bin folder) and `port`.
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
folder=$(mktemp -d /tmp/dbb-pg-bench-XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_server() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$folder"
as_server "$bin/initdb" -D "$folder/data" -U bench --auth=trust >/dev/null
as_server "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c max_parallel_workers_per_gather=0 -c shared_buffers=256MB" start >/dev/null
trap 'as_server "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null; rm -rf "$folder"' EXIT
psql=(psql -X -q -h 127.0.0.1 -p "$port" -U bench -d postgres)
url="postgres://bench@127.0.0.1:$port/postgres?sslmode=disable"
