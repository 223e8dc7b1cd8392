"""The cluster harness itself (karnak.server.cluster.local): it stays on loopback, its
HAProxy configuration is valid, and it leaves no process and no database behind."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from karnak.server.cluster.local import haproxy_config, is_loopback_database, program
from support.cluster import POSTGRES, client, running_cluster, wait_for


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("postgresql+psycopg://u:p@127.0.0.1/db", True),
        ("postgresql+psycopg://u:p@localhost:5433/db", True),
        ("postgresql+psycopg://u:p@[::1]/db", True),
        ("postgresql+psycopg://u:p@/db?host=/var/run/postgresql", True),
        ("postgresql+psycopg:///db", True),
        ("postgresql+psycopg://u:p@db.example.org/db", False),
        ("postgresql+psycopg://u:p@10.0.0.5/db", False),
    ],
)
def test_only_a_database_on_this_machine_is_used(url: str, local: bool) -> None:
    assert is_loopback_database(url) is local


def test_the_balancer_configuration_is_valid(tmp_path: Path) -> None:
    haproxy = program("haproxy")
    if haproxy is None:
        pytest.skip("haproxy is not installed (apt-get install haproxy)")
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config(8080, [("p0", 8001), ("p1", 8002)], tmp_path / "s", "/"))
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(config)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    written = config.read_text()
    assert "timeout tunnel" in written and "http-server-close" not in written
    assert "inter 500 fall 2 rise 2" in written and "option redispatch" in written
    assert "0.0.0.0" not in written and "bind 127.0.0.1:8080" in written


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat")
    return not state.exists() or state.read_text().rpartition(")")[2].split()[0] != "Z"


def test_a_cluster_is_killed_restarted_and_cleaned_up(tmp_path: Path) -> None:
    with running_cluster(tmp_path, count=2) as cluster:
        pids = [pid for pid in (cluster.pid(0), cluster.pid(1)) if pid is not None]
        children = [cluster.proxy.pid, cluster.redis.pid] if cluster.proxy and cluster.redis else []
        name = cluster.database.name
        with client(cluster.url) as http:
            assert http.get("/api/games").status_code == 200
            cluster.kill(0, signal.SIGKILL)
            assert not alive(pids[0])
            cluster.wait_out(0)
            served = {http.get("/api/games").headers.get("x-karnak-process") for _ in range(4)}
            assert served == {"p1"}
            cluster.restart(0)
            wait_for(
                lambda: (
                    {http.get("/api/games").headers.get("x-karnak-process") for _ in range(4)}
                    == {"p0", "p1"}
                ),
                5,
                "the balancer to send requests to the restarted process",
            )
        pids.append(cluster.pid(0) or 0)
    for pid in [*pids, *children]:
        assert pid is not None and not alive(pid), f"process {pid} outlived the cluster"
    assert POSTGRES is not None
    admin = create_engine(POSTGRES)
    try:
        with admin.connect() as connection:
            left = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).all()
        assert not left, f"the database {name} was left behind"
    finally:
        admin.dispose()
