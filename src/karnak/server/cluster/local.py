"""A whole Karnak cluster on this machine, for the tests and the benchmark.

:class:`LocalCluster` starts, in a folder of its own: a Redis server (a free port, nothing
written to disk), a new PostgreSQL database (made from an administrator URL whose role may
create databases, and dropped at the end), ``count`` ``karnak serve`` processes on free
ports, each waited for until it answers, and HAProxy in front of them (round robin, health
checks every half second, WebSocket upgrades, a request that could not reach a process
retried on another). Every address is on the loopback interface: a PostgreSQL URL naming
another host is refused.

Each process runs in a process group of its own, so that stopping it stops whatever it
started; :meth:`LocalCluster.close` (also on leaving the ``with`` block, and at interpreter
exit as a last resort) stops everything and drops the database, whatever happened before.

    with LocalCluster(admin_url, folder, count=3) as cluster:
        httpx.get(cluster.url + "/api/games")          # through the balancer
        httpx.get(cluster.urls[1] + "/api/games")      # process 1 directly
        cluster.kill(1)                                # SIGKILL, as a crash
        cluster.restart(1)

Nothing here is used by the server itself; docs/operating.md shows a production set-up.
"""

from __future__ import annotations

import atexit
import contextlib
import csv
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any

#: Where the programs are looked for when they are not on the PATH (Debian's places).
SEARCH_PATH = os.pathsep.join(
    [os.environ.get("PATH", ""), "/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]
)
LOOPBACK = "127.0.0.1"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: The environment a server process must not inherit: it would override its command line
#: (a database, a broker, trusted proxies), send e-mail, or start several workers.
SCRUBBED_ENV = (
    "KARNAK_DATABASE_URL",
    "KARNAK_BROKER_URL",
    "KARNAK_FORWARDED_ALLOW_IPS",
    "KARNAK_PUBLIC_URL",
    "WEB_CONCURRENCY",
)
SCRUBBED_PREFIXES = ("KARNAK_SMTP_", "KARNAK_MAIL_")
#: Proxies must never carry the cluster's loopback traffic elsewhere.
PROXY_ENV = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")

#: The limits every process gets unless the caller gives its own: one test or benchmark is
#: one client that creates and moves far faster than a person.
GENEROUS_LIMITS = (
    "--creates-per-minute",
    "1000000",
    "--moves-per-minute",
    "1000000",
    "--max-games",
    "100000",
)

#: The limits that have no option of their own (set through the environment), as generous.
GENEROUS_ENV = {
    "KARNAK_SOCKETS_PER_CLIENT": "1000000",
    "KARNAK_SOCKETS_PER_ACCOUNT": "1000000",
    "KARNAK_RUNNING_GAMES_PER_CLIENT": "1000000",
}

#: The balancer's health check: alive (no database work; karnak.server.observability).
HEALTH_PATH = "/healthz"
#: What a process answers once it is up (database reachable, migrations current, games loaded).
READY_PATH = "/readyz"


class ClusterUnavailable(RuntimeError):
    """A part the cluster needs is missing here (a program, PostgreSQL); the reason says which."""


class ClusterError(RuntimeError):
    """A part of the cluster did not start or misbehaved; the message ends with its log."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


def program(name: str) -> str | None:
    """The path of ``name`` on the PATH or in the system's usual places, or None."""
    return shutil.which(name, path=SEARCH_PATH)


def missing_parts(admin_url: str | None) -> list[str]:
    """What this machine lacks for a cluster, one reason each (empty: it can run one)."""
    reasons = []
    if not admin_url:
        reasons.append("no PostgreSQL to use (set KARNAK_TEST_POSTGRES_URL; .ci/run starts one)")
    elif not is_loopback_database(admin_url):
        reasons.append("the PostgreSQL URL names another machine; a local cluster uses loopback")
    if program("redis-server") is None:
        reasons.append("redis-server is not installed (apt-get install redis-server)")
    if program("haproxy") is None:
        reasons.append("haproxy is not installed (apt-get install haproxy)")
    return reasons


def is_loopback_database(url: str) -> bool:
    """Whether ``url`` reaches PostgreSQL on this machine (loopback or a Unix socket)."""
    from sqlalchemy import make_url

    parsed = make_url(url)
    host = parsed.host or str(parsed.query.get("host") or "")
    return not host or host.startswith("/") or host in LOOPBACK_HOSTS


def tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def get(url: str, timeout: float = 2.0) -> int | None:
    """The status of ``GET url`` (no proxy, ever), or None when nothing answered."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=timeout) as answer:
            status: int = answer.status
            return status
    except urllib.error.HTTPError as error:
        return error.code
    except (OSError, ValueError):
        return None


def wait_until(check: Callable[[], bool], timeout: float, what: str, log: Path | None) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise ClusterError(f"{what} (after {timeout:g} s)" + (f"\n{tail(log)}" if log else ""))
        time.sleep(0.05)


# ---------------------------------------------------------------------- process groups
def _group_members(group: int) -> list[int]:
    """The live processes of process group ``group`` (Linux: from /proc), else []."""
    members: list[int] = []
    proc = Path("/proc")
    if not proc.is_dir():
        return members
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields and fields[0] != "Z" and int(fields[2]) == group:
            members.append(int(entry.name))
    return members


@dataclass
class Child:
    """A program in a process group of its own, its output in a log file."""

    name: str
    command: list[str]
    log_path: Path
    env: dict[str, str] | None = None
    process: subprocess.Popen[bytes] | None = None
    _log: IO[bytes] | None = None

    def start(self) -> None:
        self._log = self.log_path.open("ab")
        self._log.write(f"\n==== {time.strftime('%H:%M:%S')} start: {self.name}\n".encode())
        self._log.flush()
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=self.env,
            start_new_session=True,  # its own process group: stopped whole
        )

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send(self, sig: int) -> None:
        """Send ``sig`` to the whole process group (the server and anything it started)."""
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            # not reaped yet, so the group's id cannot belong to anybody else
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
            return
        for member in _group_members(process.pid):  # children the leader left behind
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(member, sig)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 10.0) -> int | None:
        """Stop it (``sig``, then SIGKILL after ``timeout`` seconds); its exit status."""
        process = self.process
        if process is None:
            return None
        self.send(sig)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.send(signal.SIGKILL)
            process.wait(10)
        self.send(signal.SIGKILL)  # anything of its group still running
        if self._log is not None:
            self._log.write(
                f"==== {time.strftime('%H:%M:%S')} stopped: exit {process.returncode}\n".encode()
            )
            self._log.close()
            self._log = None
        return process.returncode

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


# ---------------------------------------------------------------------- the parts
class Redis(Child):
    """redis-server on a free loopback port, keeping nothing on disk."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        path = program("redis-server")
        if path is None:
            raise ClusterUnavailable("redis-server is not installed (apt-get install redis-server)")
        command = [
            path,
            *("--port", str(self.port), "--bind", LOOPBACK, "--protected-mode", "yes"),
            *("--save", "", "--appendonly", "no", "--dir", str(folder)),
            *("--daemonize", "no", "--loglevel", "warning"),
        ]
        super().__init__("redis", command, folder / "redis.log")

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def answers(self) -> bool:
        try:
            with socket.create_connection((LOOPBACK, self.port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        super().start()
        wait_until(self.answers, 15, "redis-server did not answer", self.log_path)


class Database:
    """A new PostgreSQL database, made from ``admin_url`` (its role may CREATE DATABASE)."""

    def __init__(self, admin_url: str, prefix: str = "karnak_cluster") -> None:
        if not is_loopback_database(admin_url):
            raise ClusterUnavailable(
                "the PostgreSQL URL names another machine; a local cluster stays on loopback"
            )
        self.admin_url = admin_url
        self.name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        self.url = ""

    def create(self) -> str:
        from sqlalchemy import create_engine, make_url, text

        admin = create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as connection:
                connection.execute(text(f'CREATE DATABASE "{self.name}"'))
        finally:
            admin.dispose()
        self.url = (
            make_url(self.admin_url).set(database=self.name).render_as_string(hide_password=False)
        )
        return self.url

    def drop(self) -> None:
        """Drop it, ending its connections; a few tries (an autovacuum worker's connection
        cannot be ended by a role that is not a superuser). Left behind, it is only litter."""
        if not self.url:
            return
        from sqlalchemy import create_engine, text
        from sqlalchemy.exc import DBAPIError

        admin = create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        try:
            for attempt in range(20):
                try:
                    with admin.connect() as connection:
                        connection.execute(
                            text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
                        )
                    self.url = ""
                    return
                except DBAPIError:
                    time.sleep(0.1 * (attempt + 1))
            print(f"left the database {self.name} behind (it stayed in use)", file=sys.stderr)
        finally:
            admin.dispose()


def karnak_command() -> list[str]:
    """How to run ``karnak``: the script beside this interpreter, else through it."""
    script = Path(sys.executable).with_name("karnak")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from karnak.cli.entry import main; main()"]


def server_env() -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in SCRUBBED_ENV
        and name not in PROXY_ENV
        and not name.startswith(SCRUBBED_PREFIXES)
    }
    env["NO_PROXY"] = env["no_proxy"] = "*"
    # every page of a test or benchmark comes from this one loopback address
    for name, value in GENEROUS_ENV.items():
        env.setdefault(name, value)
    return env


class Server(Child):
    """One ``karnak serve`` on a fixed loopback port (the same port again after a restart)."""

    def __init__(self, index: int, folder: Path, command: list[str], port: int) -> None:
        self.index = index
        self.port = port
        super().__init__(f"karnak serve #{index}", command, folder / f"server-{index}.log")
        self.env = server_env()

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def ready(self) -> bool:
        if not self.running():
            raise ClusterError(
                f"{self.name} exited (status {self.process.returncode if self.process else None})"
                f" before it answered:\n{tail(self.log_path)}"
            )
        return get(self.url + READY_PATH) == 200

    def wait_ready(self, timeout: float) -> None:
        wait_until(self.ready, timeout, f"{self.name} did not answer", self.log_path)


def max_connections() -> int:
    """The connections HAProxy may hold: each needs two descriptors (client and server), and
    it refuses to start when the limit on open files would not allow its maximum."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return 2000
    if soft == resource.RLIM_INFINITY:
        return 20000
    return max(100, min(20000, soft // 2 - 100))


def haproxy_config(
    port: int, servers: Sequence[tuple[str, int]], stats_socket: Path, health_path: str
) -> str:
    """HAProxy's configuration for the cluster (the one docs/operating.md explains)."""
    lines = [
        "global",
        f"    maxconn {max_connections()}",
        f"    stats socket {stats_socket} mode 600 level admin",
        "    log stdout format raw local0 notice",
        "",
        "defaults",
        "    mode http",
        "    log global",
        "    option httplog",
        "    option dontlog-normal",  # the failures only
        "    timeout connect 1s",
        "    timeout client 60s",
        "    timeout server 60s",
        "    timeout http-request 10s",
        "    timeout http-keep-alive 10s",
        "    timeout queue 10s",
        "    # an open WebSocket is a tunnel: idle for a long time between moves",
        "    timeout tunnel 1h",
        "    timeout client-fin 5s",
        "    # a busy process may take a moment to answer its health check: without this,",
        "    # HAProxy allows only the check interval (0.5 s) and takes a loaded process out",
        "    # (a dead one is taken out at once anyway: observe layer4 below)",
        "    timeout check 3s",
        "    # a request that reached no process (refused, reset before any answer) goes to",
        "    # another: safe for moves too, which name the version they were chosen at",
        "    retries 3",
        "    option redispatch 1",
        "    retry-on conn-failure empty-response",
        "",
        "frontend karnak",
        f"    bind {LOOPBACK}:{port}",
        "    option forwardfor",
        "    default_backend servers",
        "",
        "backend servers",
        "    balance roundrobin",
        "    option httpchk",
        f"    http-check send meth GET uri {health_path}",
        "    http-check expect status 200",
        "    # which process answered (the tests and the benchmark read it)",
        "    http-response set-header X-Karnak-Process %[srv_name]",
        "    default-server check inter 500 fall 2 rise 2 observe layer4 error-limit 1 "
        "on-error mark-down",
    ]
    lines += [f"    server {name} {LOOPBACK}:{server_port}" for name, server_port in servers]
    return "\n".join(lines) + "\n"


class Balancer(Child):
    """HAProxy in front of the servers, in the foreground, with a stats socket."""

    def __init__(
        self, folder: Path, servers: Sequence[tuple[str, int]], health_path: str = HEALTH_PATH
    ) -> None:
        path = program("haproxy")
        if path is None:
            raise ClusterUnavailable("haproxy is not installed (apt-get install haproxy)")
        self.port = free_port()
        self.stats_socket = folder / "haproxy.sock"
        self.config_path = folder / "haproxy.cfg"
        self.config_path.write_text(
            haproxy_config(self.port, servers, self.stats_socket, health_path)
        )
        super().__init__(
            "haproxy", [path, "-db", "-f", str(self.config_path)], folder / "haproxy.log"
        )

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def check_config(self) -> None:
        checked = subprocess.run(
            [self.command[0], "-c", "-q", "-f", str(self.config_path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if checked.returncode != 0:
            raise ClusterError(f"haproxy refused its configuration:\n{checked.stderr}")

    def command_answer(self, command: str) -> str:
        """The stats socket's answer to ``command`` (HAProxy's runtime API)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(2)
            connection.connect(str(self.stats_socket))
            connection.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode(errors="replace")

    def states(self) -> dict[str, str]:
        """Each server's state as HAProxy sees it (``UP``, ``DOWN``, ``UP 1/2``, ...)."""
        text = self.command_answer("show stat").lstrip("# ")
        found = {}
        for row in csv.DictReader(io.StringIO(text)):
            if row.get("pxname") == "servers" and row.get("svname") not in ("BACKEND", None):
                found[row["svname"]] = row.get("status", "")
        return found

    def start(self) -> None:
        self.check_config()
        super().start()
        wait_until(
            lambda: self.running() and self.stats_socket.exists() and bool(self.states()),
            15,
            "haproxy did not start",
            self.log_path,
        )


# ---------------------------------------------------------------------- the cluster
_open_clusters: weakref.WeakSet[LocalCluster] = weakref.WeakSet()


@atexit.register
def _close_left_open() -> None:
    for cluster in list(_open_clusters):
        cluster.close()


@dataclass(eq=False)
class LocalCluster:
    """PostgreSQL, Redis, ``count`` server processes and HAProxy, all on loopback.

    ``options`` are added to every ``karnak serve`` command (they replace
    :data:`GENEROUS_LIMITS` when they set a limit of their own); ``broker=False`` leaves
    Redis out; ``balancer=False`` leaves HAProxy out (the processes are reached directly);
    ``together=True`` starts every process at once on the new database (by default the first
    is waited for, so that the others find its migrations done).
    """

    admin_url: str
    folder: Path
    count: int = 2
    options: Sequence[str] = ()
    broker: bool = True
    balancer: bool = True
    together: bool = False
    workers: int = 1
    start_timeout: float = 90.0
    health_path: str = HEALTH_PATH
    database: Database = field(init=False)
    redis: Redis | None = field(init=False, default=None)
    servers: list[Server] = field(init=False, default_factory=list)
    proxy: Balancer | None = field(init=False, default=None)
    _closed: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.folder = Path(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.database = Database(self.admin_url)

    # ------------------------------------------------------------------ starting
    def start(self) -> LocalCluster:
        _open_clusters.add(self)
        try:
            if self.broker:
                self.redis = Redis(self.folder)
                self.redis.start()
            self.database.create()
            for _ in range(self.count):
                self._new_server()
            first, rest = (
                (self.servers, []) if self.together else (self.servers[:1], self.servers[1:])
            )
            self._start_servers(first)
            self._start_servers(rest)
            if self.balancer:
                self.proxy = Balancer(
                    self.folder,
                    [(f"p{s.index}", s.port) for s in self.servers],
                    self.health_path,
                )
                self.proxy.start()
                self.wait_balanced(range(self.count))
        except BaseException:
            self.close()
            raise
        return self

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def command(self, port: int) -> list[str]:
        """The ``karnak serve`` command of a process listening on ``port``."""
        given = list(self.options)
        limits: list[str] = []
        for option, value in zip(GENEROUS_LIMITS[::2], GENEROUS_LIMITS[1::2], strict=True):
            if option not in given:
                limits += [option, value]
        command = [
            *karnak_command(),
            "serve",
            *("--host", LOOPBACK, "--port", str(port)),
            *("--database", self.database.url),
            *("--bot-workers", "0"),
            *("--forwarded-allow-ips", LOOPBACK),
            *limits,
        ]
        if self.redis is not None:
            command += ["--broker", self.redis.url]
        if self.workers != 1:
            command += ["--workers", str(self.workers)]
        return command + given

    def _new_server(self) -> Server:
        index = len(self.servers)
        port = free_port()
        server = Server(index, self.folder, self.command(port), port)
        self.servers.append(server)
        return server

    def _start_servers(self, servers: Iterable[Server]) -> None:
        started = list(servers)
        for server in started:
            server.start()
        for server in started:
            server.wait_ready(self.start_timeout)

    def add(self) -> int:
        """Start one more process on the same database and broker, outside the balancer
        (reached at ``urls[i]``); its index."""
        server = self._new_server()
        self._start_servers([server])
        return server.index

    # ------------------------------------------------------------------ addresses
    @property
    def url(self) -> str:
        """The balancer's address (every request through it)."""
        if self.proxy is None:
            raise ClusterError("this cluster has no balancer (balancer=False)")
        return self.proxy.url

    @property
    def urls(self) -> list[str]:
        """Each process's own address, by index."""
        return [server.url for server in self.servers]

    @property
    def database_url(self) -> str:
        return self.database.url

    @property
    def broker_url(self) -> str | None:
        return self.redis.url if self.redis is not None else None

    def pid(self, index: int) -> int | None:
        return self.servers[index].pid

    # ------------------------------------------------------------------ faults
    def kill(self, index: int, sig: int = signal.SIGKILL, timeout: float = 30.0) -> int | None:
        """Send ``sig`` to process ``index`` (and its group) and wait for it to end; its exit
        status. SIGKILL is a crash (nothing said to anyone); SIGTERM a clean stop."""
        return self.servers[index].stop(sig, timeout)

    def restart(self, *indexes: int, wait_balanced: bool = True) -> None:
        """Start processes ``indexes`` again (each stopped first if it still runs), on their
        old ports, all at once; waited for until each answers, and until the balancer sends
        it requests again."""
        chosen = [self.servers[index] for index in indexes]
        for server in chosen:
            if server.running():
                server.stop()
        self._start_servers(chosen)
        balanced = [index for index in indexes if index < self.count]
        if wait_balanced and self.proxy is not None and balanced:
            self.wait_balanced(balanced)

    def states(self) -> dict[int, str]:
        """Each balanced process's state as HAProxy sees it (``UP``, ``DOWN``, ...)."""
        if self.proxy is None:
            return {}
        return {int(name[1:]): state for name, state in self.proxy.states().items()}

    def wait_balanced(self, indexes: Iterable[int], timeout: float = 15.0) -> None:
        """Wait until HAProxy sends requests to each of ``indexes``."""
        wanted = list(indexes)
        proxy = self.proxy
        assert proxy is not None
        wait_until(
            lambda: all(self.states().get(i) == "UP" for i in wanted),
            timeout,
            f"haproxy did not take processes {wanted} in: {self.states()}",
            proxy.log_path,
        )

    def wait_out(self, index: int, timeout: float = 5.0) -> float:
        """Wait until HAProxy has taken process ``index`` out; the seconds it took."""
        started = time.monotonic()
        proxy = self.proxy
        assert proxy is not None
        wait_until(
            lambda: (
                self.states().get(index, "").startswith("DOWN")
                or "MAINT" in self.states().get(index, "")
            ),
            timeout,
            f"haproxy still sends requests to process {index}: {self.states()}",
            proxy.log_path,
        )
        return time.monotonic() - started

    # ------------------------------------------------------------------ logs
    def log(self, index: int) -> str:
        """Everything process ``index`` wrote (every run of it, each headed by a line)."""
        return self.servers[index].log()

    def balancer_log(self) -> str:
        return self.proxy.log() if self.proxy is not None else ""

    def errors(self, index: int | None = None) -> list[str]:
        """The lines of the processes' logs (or of process ``index``) that tell of a failure:
        tracebacks and errors, each prefixed by the process."""
        chosen = self.servers if index is None else [self.servers[index]]
        found = []
        for server in chosen:
            for line in server.log().splitlines():
                if "Traceback" in line or "ERROR" in line or "Exception" in line:
                    found.append(f"#{server.index}: {line}")
        return found

    def logs(self) -> str:
        """Every log, for a failure message."""
        parts = [f"--- process {s.index} ({s.url})\n{tail(s.log_path, 60)}" for s in self.servers]
        if self.proxy is not None:
            parts.append(f"--- haproxy\n{tail(self.proxy.log_path, 30)}")
        if self.redis is not None:
            parts.append(f"--- redis\n{tail(self.redis.log_path, 10)}")
        return "\n".join(parts)

    # ------------------------------------------------------------------ the end
    def close(self) -> None:
        """Stop everything (processes, balancer, Redis) and drop the database. Safe to call
        twice, and after a failed start."""
        if self._closed:
            return
        self._closed = True
        _open_clusters.discard(self)
        children: list[Child] = []
        if self.proxy is not None:
            children.append(self.proxy)
        children += self.servers
        for child in children:  # all told at once, then each waited for
            child.send(signal.SIGTERM)
        for child in children:
            with contextlib.suppress(Exception):
                child.stop(signal.SIGTERM, timeout=15)
        if self.redis is not None:
            with contextlib.suppress(Exception):
                self.redis.stop()
        self.database.drop()


def start_cluster(admin_url: str, folder: Path, **options: Any) -> LocalCluster:
    """A started :class:`LocalCluster` (close it, or use it in a ``with`` block)."""
    return LocalCluster(admin_url, folder, **options).start()
