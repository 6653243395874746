"""A Campfire deployment on this machine: `campfire serve` processes behind Debian's nginx.

Used by the load benchmark (benchmarks/load.py) and the deployment test
(tests/server/test_deploy.py), so both run exactly what docs/deploy.md describes: a fresh
database per run (SQLite file or PostgreSQL database), N server processes on free ports of
127.0.0.1, and nginx balancing them round-robin (no sticky sessions) with WebSocket upgrades and
forwarded headers. Processes can be killed (SIGKILL, no goodbye) and started again on their port.
Only what this module started is ever stopped.

    .venv/bin/python -m benchmarks.cluster --install-nginx   # apt-get install nginx, if missing
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

NGINX = "/usr/sbin/nginx"
PG_ADMIN = "host=127.0.0.1 port=5432 dbname=postgres user=postgres"
PG_URL = "postgresql://postgres@127.0.0.1:5432/{name}"
REDIS_URL = "redis://127.0.0.1:6379/0"
#: the counters `Cluster.counters` sums over the processes
COUNTERS = (
    "campfire_moves_applied_total",
    "campfire_notices_received_total",
    "campfire_notices_unserved_total",
)
#: how long a process or nginx may take to answer after it was started
START_LIMIT = 120.0

#: Debian's nginx, installed without letting the package start a service on port 80 (a
#: policy-rc.d that refuses every service start is put in place for the install when there is
#: none, and removed afterwards); run as root, or through sudo.
INSTALL_NGINX = r"""
set -e
made=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    made=1
fi
trap 'if [ -n "$made" ]; then rm -f /usr/sbin/policy-rc.d; fi' EXIT
# another apt-get at work (a second engineer, unattended upgrades): wait for its lock
apt="apt-get -qq -o DPkg::Lock::Timeout=300"
$apt update
DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends nginx-light \
    || DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends nginx
"""


class ClusterError(RuntimeError):
    """Something this machine lacks or a process that would not start, said in one line."""


# --- nginx ---------------------------------------------------------------------------------
def install_nginx() -> None:
    """Install Debian's nginx when /usr/sbin/nginx is missing (quiet when it is there)."""
    if os.access(NGINX, os.X_OK):
        return
    command = ["sh", "-c", INSTALL_NGINX]
    if os.geteuid() != 0:
        command = ["sudo", *command]
    try:
        done = subprocess.run(command, check=False)
    except OSError as error:
        raise ClusterError(f"could not run apt-get to install nginx: {error}") from None
    if done.returncode != 0:
        raise ClusterError(f"apt-get could not install nginx (exit status {done.returncode})")
    if not os.access(NGINX, os.X_OK):
        raise ClusterError(f"apt-get finished but {NGINX} is still missing")


def nginx_conf(
    listen: int,
    upstreams: Sequence[int],
    folder: Path,
    workers: int = 1,
    by_table: bool = False,
) -> str:
    """nginx in front of the processes: round-robin, WebSockets, forwarded headers, and every
    file it writes (pid, logs, temp files) inside `folder`. With `by_table`, every request about
    a table (`/t/ID`, `/api/tables/ID/...`, `/ws/tables/ID`) goes to one process by a consistent
    hash of the table's id, and any other request round-robin; any process still serves any
    table, so this only saves work (see docs/deploy.md)."""
    # never take a process out of the rotation: a refused connection just goes to the next
    servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=0;" for port in upstreams)
    sockets = "campfire_tables" if by_table else "campfire"
    pages = "campfire_tables" if by_table else "campfire"
    # what both locations do with what they pass on
    proxying = """\
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # a process that is down: the request goes to the next one
            proxy_connect_timeout 2s;
            proxy_next_upstream error timeout http_502 http_503;
            # a quiet table keeps its sockets open for hours
            proxy_read_timeout 3600s;
            proxy_send_timeout 3600s;"""
    return f"""\
worker_processes {workers};
worker_rlimit_nofile 16384;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;

events {{
    worker_connections 8192;
}}

http {{
    # which process served each request (a WebSocket is logged when it closes)
    log_format campfire '$remote_addr [$time_local] "$request" $status $body_bytes_sent '
                        'upstream=$upstream_addr time=$request_time '
                        'connect=$upstream_connect_time header=$upstream_header_time at=$msec';
    access_log {folder}/access.log campfire buffer=64k flush=1s;
    client_body_temp_path {folder}/temp/body;
    proxy_temp_path {folder}/temp/proxy;
    fastcgi_temp_path {folder}/temp/fastcgi;
    uwsgi_temp_path {folder}/temp/uwsgi;
    scgi_temp_path {folder}/temp/scgi;

    # a WebSocket asks to upgrade; a plain request keeps its upstream connection
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}

    # round-robin, no sticky sessions: any process serves any table
    upstream campfire {{
{servers}
        keepalive 32;
    }}

    # the table a request is about (its pages, API and socket); empty for anything else
    map $uri $campfire_table {{
        default "";
        "~^/(?:t|api/tables|ws/tables)/(?<table>[a-z2-9]+)" $table;
    }}

    # a table's requests to one process while it is up (the next on the ring when it is not);
    # an empty key (no table) goes round-robin
    upstream campfire_tables {{
        hash $campfire_table consistent;
{servers}
        keepalive 32;
    }}

    server {{
        listen 127.0.0.1:{listen};
        client_max_body_size 16k;

        location /ws/tables/ {{
            proxy_pass http://{sockets};
{proxying}
        }}

        location / {{
            proxy_pass http://{pages};
{proxying}
        }}
    }}
}}
"""


@dataclass
class Nginx:
    """Debian's nginx in the foreground, its configuration and files in a folder of its own."""

    port: int
    upstreams: list[int]
    folder: Path
    workers: int = 1
    by_table: bool = False
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if not os.access(NGINX, os.X_OK):
            raise ClusterError(
                f"{NGINX} is missing: `make nginx` (or python -m benchmarks.cluster "
                "--install-nginx) installs Debian's nginx"
            )
        self.folder.mkdir(parents=True, exist_ok=True)
        # nginx started by root runs its workers as nobody: they must reach the temp folders
        self.folder.chmod(0o755)
        (self.folder / "temp").mkdir(exist_ok=True)
        conf = self.folder / "nginx.conf"
        conf.write_text(
            nginx_conf(self.port, self.upstreams, self.folder, self.workers, self.by_table)
        )
        args = [NGINX, "-p", str(self.folder), "-e", str(self.folder / "error.log")]
        args += ["-c", str(conf), "-g", "daemon off;"]
        checked = subprocess.run([*args, "-t"], capture_output=True, text=True)
        if checked.returncode != 0:
            raise ClusterError(f"nginx refuses its configuration: {checked.stderr.strip()}")
        with (self.folder / "stderr.log").open("wb") as log:
            self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        wait_until_up(f"http://127.0.0.1:{self.port}", self.process, self.folder / "error.log")

    @property
    def pids(self) -> list[int]:
        return tree(self.process.pid) if self.process and self.process.poll() is None else []

    def upstreams_of(self, path_part: str) -> list[int]:
        """The port of the process that served each logged request whose line holds
        `path_part`, in log order (the last one tried, when nginx had to try another)."""
        log = self.folder / "access.log"
        ports = []
        for line in log.read_text().splitlines() if log.exists() else []:
            if path_part in line and "upstream=" in line:
                tried = line.split("upstream=", 1)[1].split()[0]
                last = tried.rsplit(",", 1)[-1].strip()
                if last.rpartition(":")[2].isdigit():
                    ports.append(int(last.rpartition(":")[2]))
        return ports

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            # fast shutdown: a graceful one would wait for every open WebSocket to close
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                for pid in reversed(tree(self.process.pid)):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                self.process.wait(timeout=10)


# --- databases -----------------------------------------------------------------------------
@dataclass
class Database:
    """A database that exists for one run only."""

    url: str
    kind: str  # "sqlite" or "postgresql"
    name: str

    def drop(self) -> None:
        if self.kind == "postgresql":
            import psycopg

            with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        else:
            path = Path(self.name)
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(str(path) + suffix).unlink(missing_ok=True)


def fresh_database(kind: str, folder: Path) -> Database:
    """A new, empty SQLite file under `folder`, or a new PostgreSQL database on 127.0.0.1."""
    if kind == "sqlite":
        path = folder / f"campfire-{uuid.uuid4().hex[:8]}.sqlite3"
        return Database(f"sqlite:///{path}", "sqlite", str(path))
    if kind != "postgresql":
        raise ClusterError(f"unknown database kind {kind!r} (sqlite or postgresql)")
    import psycopg

    name = f"campfire_run_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        raise ClusterError(
            f"PostgreSQL at 127.0.0.1:5432 cannot make a database: {error}"
        ) from None
    return Database(PG_URL.format(name=name), "postgresql", name)


# --- server processes ----------------------------------------------------------------------
@dataclass
class ServeOptions:
    """The `campfire serve` flags of every process of a cluster; None leaves a flag out."""

    db: str
    redis: str | None = None
    workers: int | None = None
    bot_pause: float | None = None
    seed: int | None = None
    away_seconds: float | None = None
    tables_per_minute: int | None = None
    waiting_per_address: int | None = None
    forwarded_allow_ips: str | None = None
    extra: tuple[str, ...] = ()

    def argv(self, port: int) -> list[str]:
        args = [sys.executable, "-m", "campfire", "serve", "--host", "127.0.0.1"]
        args += ["--port", str(port), "--db", self.db]
        flags: dict[str, object] = {
            "--redis": self.redis,
            "--workers": self.workers,
            "--bot-pause": self.bot_pause,
            "--seed": self.seed,
            "--away-seconds": self.away_seconds,
            "--tables-per-minute": self.tables_per_minute,
            "--waiting-per-address": self.waiting_per_address,
            "--forwarded-allow-ips": self.forwarded_allow_ips,
        }
        for flag, value in flags.items():
            if value is not None:
                args += [flag, str(value)]
        return [*args, *self.extra]


@dataclass
class ServerProcess:
    """One `campfire serve` process on a fixed port, its output in a log file."""

    options: ServeOptions
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None
    #: CPU seconds (user + system) of the earlier lives of this process, before it was killed
    cpu_before: float = 0.0
    starts: int = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def pids(self) -> list[int]:
        """The process and its children (uvicorn's workers, with --workers)."""
        return tree(self.process.pid) if self.process and self.alive else []

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.starts += 1
        with self.log.open("ab") as log:
            log.write(
                f"--- start {self.starts}: {' '.join(self.options.argv(self.port))}\n".encode()
            )
            log.flush()
            self.process = subprocess.Popen(
                self.options.argv(self.port), stdout=log, stderr=subprocess.STDOUT, env=env
            )

    def wait_until_up(self) -> None:
        assert self.process is not None
        wait_until_up(self.base, self.process, self.log)

    def terminate(self, limit: float = 60) -> int:
        """SIGTERM, as an upgrade stops a process: it drains (hands its tables over, tells
        its sockets 1012, finishes its writes) and exits; gives its exit status."""
        if self.process is None or not self.alive:
            return 0 if self.process is None else self.process.returncode
        pids = self.pids
        self.cpu_before += cpu_seconds(pids)
        self.process.terminate()
        return self.process.wait(timeout=limit)

    def kill(self) -> None:
        """SIGKILL the process and its children: nothing is flushed, nothing is closed."""
        if self.process is None or not self.alive:
            return
        pids = self.pids
        self.cpu_before += cpu_seconds(pids)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def cpu(self) -> float:
        """CPU seconds used by every life of this process so far."""
        return self.cpu_before + cpu_seconds(self.pids)


class Cluster:
    """N `campfire serve` processes on one database, behind nginx when `balancer` (or N > 1).

    `base` is where clients go: nginx when there is one, else the single process.
    """

    def __init__(
        self,
        processes: int,
        options: ServeOptions,
        *,
        balancer: bool | None = None,
        folder: Path | None = None,
        nginx_workers: int = 1,
        by_table: bool = False,
    ) -> None:
        if processes < 1:
            raise ClusterError(f"a cluster needs at least one process, not {processes}")
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if folder is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="campfire-")
            folder = Path(self._tmp.name)
        self.folder = folder
        self.options = options
        ports = free_ports(processes + 1)
        self.servers = [
            ServerProcess(options, port, self.folder / f"serve-{i}.log")
            for i, port in enumerate(ports[:processes])
        ]
        use_nginx = processes > 1 if balancer is None else balancer
        self.nginx = (
            Nginx(ports[-1], ports[:processes], self.folder / "nginx", nginx_workers, by_table)
            if use_nginx
            else None
        )

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.nginx.port}" if self.nginx else self.servers[0].base

    @property
    def ws_base(self) -> str:
        return "ws" + self.base.removeprefix("http")

    def start(self) -> Cluster:
        try:
            for server in self.servers:
                server.start()
            for server in self.servers:
                server.wait_until_up()
            if self.nginx is not None:
                self.nginx.start()
        except BaseException:
            self.stop()
            raise
        return self

    def kill(self, index: int) -> None:
        self.servers[index].kill()

    def restart(self, index: int, wait: bool = True) -> None:
        """Start a killed process again on its own port (nginx keeps the same upstreams)."""
        server = self.servers[index]
        server.kill()
        server.start()
        if wait:
            server.wait_until_up()

    def server_cpu(self) -> float:
        return sum(s.cpu() for s in self.servers)

    def server_rss(self) -> int:
        """Bytes of resident memory of every live server process (children included)."""
        return sum(rss_bytes(pid) for s in self.servers for pid in s.pids)

    def counters(self) -> dict[str, float]:
        """The bus and rules counters of every live server process together (`/metrics`):
        moves applied through the rules, bus messages received, and of those the ones about
        tables the receiving process holds no socket of. A process killed meanwhile starts
        again from zero."""
        total = dict.fromkeys(COUNTERS, 0.0)
        for each in self.process_counters():
            for name, value in each.items():
                total[name] += value
        return total

    def process_counters(self) -> list[dict[str, float]]:
        """`counters` of each server process in turn (empty for one not answering)."""
        out: list[dict[str, float]] = []
        for server in self.servers:
            found: dict[str, float] = {}
            out.append(found)
            if not server.alive:
                continue
            try:
                with urllib.request.urlopen(server.base + "/metrics", timeout=10) as answer:
                    text = answer.read().decode()
            except (OSError, urllib.error.URLError):
                continue
            for line in text.splitlines():
                name, _, value = line.partition(" ")
                if name in COUNTERS:
                    found[name] = found.get(name, 0.0) + float(value)
        return out

    def nginx_cpu(self) -> float:
        return cpu_seconds(self.nginx.pids) if self.nginx else 0.0

    def pids(self) -> list[int]:
        """Every live process of the deployment (servers, their workers, nginx)."""
        nginx = self.nginx.pids if self.nginx else []
        return [pid for s in self.servers for pid in s.pids] + list(nginx)

    def logs(self) -> str:
        """The tail of every log, for a failure message."""
        out = []
        paths = [s.log for s in self.servers]
        if self.nginx is not None:
            paths.append(self.nginx.folder / "error.log")
        for path in paths:
            if path.exists():
                text = path.read_text(errors="replace")
                out.append(f"== {path.name}\n{text[-3000:]}")
        return "\n".join(out)

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for server in self.servers:
            server.kill()
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


@contextlib.contextmanager
def deployment(
    processes: int,
    database: str,
    *,
    redis: str | None = None,
    balancer: bool | None = None,
    by_table: bool = False,
    **options: Any,
) -> Iterator[tuple[Cluster, Database]]:
    """A fresh database and a cluster on it; both gone afterwards."""
    with tempfile.TemporaryDirectory(prefix="campfire-") as tmp:
        folder = Path(tmp)
        db = fresh_database(database, folder)
        try:
            serve = ServeOptions(db.url, redis=redis, **options)
            with Cluster(
                processes, serve, balancer=balancer, folder=folder, by_table=by_table
            ) as cluster:
                yield cluster, db
        finally:
            db.drop()


# --- the machine ---------------------------------------------------------------------------
class CpuCap:
    """Each server process in a control group of its own holding it to `share` of one core,
    as if each had a machine (or a core) to itself: on a small machine whose cores the client,
    PostgreSQL, Redis and nginx share, this is how throughput per process is told apart from
    what the machine has left. Linux control groups (v2, or v1's cpu controller), as root."""

    PERIOD_US = 100_000

    def __init__(self, share: float) -> None:
        if not 0 < share <= 64:
            raise ClusterError(f"a CPU cap is a share of a core above 0, not {share}")
        self.share = share
        v2 = Path("/sys/fs/cgroup/cgroup.controllers")
        self.root = Path("/sys/fs/cgroup") if v2.exists() else Path("/sys/fs/cgroup/cpu")
        self.v2 = v2.exists()
        self.groups: list[Path] = []

    def hold(self, pids: Sequence[int]) -> None:
        quota = int(self.share * self.PERIOD_US)
        for pid in pids:
            group = self.root / f"campfire-bench-{pid}"
            try:
                group.mkdir(exist_ok=True)
                if self.v2:
                    (group / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
                else:
                    (group / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
                    (group / "cpu.cfs_quota_us").write_text(str(quota))
                (group / "cgroup.procs").write_text(str(pid))
            except OSError as error:
                raise ClusterError(
                    f"cannot cap process {pid} at {self.share:g} of a core in {group}: {error} "
                    "(control groups need root, and v2's cpu controller or v1's cpu hierarchy)"
                ) from None
            self.groups.append(group)

    def release(self) -> None:
        for group in self.groups:
            with contextlib.suppress(OSError):
                for pid in (group / "cgroup.procs").read_text().split():
                    (self.root / "cgroup.procs").write_text(pid)
                group.rmdir()
        self.groups = []


def free_ports(count: int) -> list[int]:
    """Ports on 127.0.0.1 nobody listens on (all held open together, so they differ)."""
    with contextlib.ExitStack() as stack:
        ports = []
        for _ in range(count):
            sock = stack.enter_context(socket.socket())
            sock.bind(("127.0.0.1", 0))
            ports.append(int(sock.getsockname()[1]))
        return ports


def wait_until_up(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until GET /api/games answers 200; a process that exits or never answers is an error."""
    name = "nginx" if log.parent.name == "nginx" else "campfire serve"
    deadline = time.monotonic() + START_LIMIT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ClusterError(f"{name} exited with status {process.returncode}: {text}")
        try:
            with urllib.request.urlopen(base + "/api/games", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.05)
    raise ClusterError(f"nothing answered at {base} within {START_LIMIT:.0f} s")


def tree(root: int) -> list[int]:
    """`root` and every descendant, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def cpu_seconds(pids: Sequence[int]) -> float:
    """utime + stime of the processes (from /proc/PID/stat); a gone process counts 0."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / ticks


#: the services of a deployment besides its own processes: their CPU is the deployment's
SERVICES = frozenset({"nginx", "postgres", "redis-server"})


def other_work(own: Sequence[int]) -> dict[int, float]:
    """CPU seconds of every process on the machine that is neither in `own` nor a service of a
    deployment (nginx, PostgreSQL, Redis), nor a `campfire serve`: what else the machine ran
    while a benchmark measured, which latency figures cannot tell apart from the servers'."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in own:
            continue
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if head.split("(", 1)[1] in SERVICES or b"campfire\x00serve" in command:
            continue
        fields = tail.split()
        found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    return found


def rss_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@dataclass
class Usage:
    """CPU seconds of this client process, for saying what the client itself cost."""

    started: float = field(default_factory=lambda: _own_cpu())

    def seconds(self) -> float:
        return _own_cpu() - self.started


def _own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def main() -> None:
    parser = argparse.ArgumentParser(description="Campfire behind nginx on this machine.")
    parser.add_argument(
        "--install-nginx", action="store_true", help="apt-get install nginx when missing"
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--redis", default=None, help=f"e.g. {REDIS_URL}")
    args = parser.parse_args()
    try:
        if args.install_nginx:
            install_nginx()
            return
        with deployment(args.processes, args.db, redis=args.redis, balancer=True) as (cluster, _):
            print(f"Campfire is at {cluster.base}/ (Ctrl-C stops it)", flush=True)
            with contextlib.suppress(KeyboardInterrupt):
                while True:
                    time.sleep(1)
    except ClusterError as error:
        sys.exit(f"error: {error}")


if __name__ == "__main__":
    main()
