"""``python -m karnak.native``: say whether an entry point (the ``karnak`` command, the server)
uses the compiled modules, and why."""

from __future__ import annotations

from karnak.native import install


def main() -> None:
    found = install()  # as an entry point does
    print(f"compiled modules: {found.state} ({found.reason})")
    for module in found.modules:
        print(f"  {module}")
    for source in found.stale:
        print(f"  stale: karnak/{source}")


if __name__ == "__main__":
    main()
