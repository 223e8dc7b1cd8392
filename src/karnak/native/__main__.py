"""``python -m karnak.native``: say whether the compiled modules are in use, and why."""

from __future__ import annotations

import karnak  # noqa: F401  (installs the finder)
from karnak.native import status


def main() -> None:
    found = status()
    print(f"compiled modules: {found.state} ({found.reason})")
    for module in found.modules:
        print(f"  {module}")
    for source in found.stale:
        print(f"  stale: karnak/{source}")


if __name__ == "__main__":
    main()
