"""Test support: several people sharing one test client, each with the cookies of their
own account (sign up once, then act as them)."""

from __future__ import annotations

from fastapi.testclient import TestClient

PASSWORD = "two crowns, one Nile"


class People:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jars: dict[str, dict[str, str]] = {}

    def sign_up(self, name: str) -> None:
        """A new account, logged in from now on (as if by its own browser)."""
        self.client.cookies.clear()
        answer = self.client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.jars[name] = dict(self.client.cookies)

    def be(self, name: str | None) -> TestClient:
        """Act as ``name`` (None: a guest, no cookies); the client, for chaining."""
        self.client.cookies.clear()
        if name is not None:
            self.client.cookies.update(self.jars[name])
        return self.client
