#!/usr/bin/env bash
# Installs (Debian's `pgbouncer`) and starts PgBouncer in transaction mode on 127.0.0.1:6432, in
# front of the PostgreSQL server on 127.0.0.1:5432, for the tests of "Behind a connection pooler"
# (tests/reliability/processes/pooler.test.ts). Its config, userlist, pid file and log live in a
# temporary directory; nothing under /etc is touched. Idempotent: does nothing when something
# already answers on 6432.
set -uo pipefail
if pg_isready -h 127.0.0.1 -p 6432 -q 2>/dev/null; then exit 0; fi
if ! command -v pgbouncer >/dev/null && [ ! -x /usr/sbin/pgbouncer ]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null; } ||
    { echo "pgbouncer could not be installed: the pooler tests will skip"; exit 0; }
fi
bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
dir=$(mktemp -d /tmp/fragment-pgbouncer-XXXXXX)
chmod 755 "$dir"
cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=5432

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = 6432
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
max_db_connections = 40
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
echo '"postgres" ""' >"$dir/userlist.txt"
# PgBouncer refuses to run as root: as root it drops to the postgres user.
as=()
[ "$(id -u)" = 0 ] && { chown -R postgres "$dir"; as=(-u postgres); }
"$bin" -d "${as[@]}" "$dir/pgbouncer.ini" || { echo "pgbouncer did not start: the pooler tests will skip"; exit 0; }
for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 6432 -q && exit 0; sleep 0.2; done
echo "pgbouncer is not answering on 127.0.0.1:6432 (log: $dir/pgbouncer.log)"
