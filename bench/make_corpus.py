#!/usr/bin/env python3
"""Build the pinned benchmark corpus: the .py files of exact versions of JAX-ecosystem
wheels from PyPI, each wheel checked against its sha256.

    python bench/make_corpus.py [DIR]        (default: /tmp/jaxlint-corpus)

Re-running gives a byte-identical tree.  Needs network access to PyPI (pip download).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

# name, version, sha256 of the py3-none-any wheel
PINNED = [
    ("jax", "0.10.2", "724d73c4678d8b06f6a6ab4db1b8a2fea8cd4f1e2c2564f99601634ec7b8d1c6"),
    ("flax", "0.12.8", "807931d369cbc716fc447801ab39cd6c3c2614d573387a2319a028675dd34fe5"),
    ("optax", "0.2.8", "e3ca2d36c99daab1800ae9dbc0545034382d6bc780b24d969e1b0df65fa31cb4"),
    ("equinox", "0.13.8", "ca004348533cc30a63ebe8823d7dd4bb626dce17743d40bbddb89b402ef2a240"),
    ("chex", "0.1.92", "f34989d9bff7954edfab09fba7757e3d62404da34577bff0d253599ec5b4f93d"),
    ("numpyro", "0.22.0", "0bbcd8e5319876306eaea595bc78c09201cbcde89bd5856f2867ab65e1dab0a5"),
    ("diffrax", "0.7.2", "1beee2f991cd049962fe3c89da28f933753aa66d80bef857533276c9f23301ed"),
    ("distrax", "0.1.9", "11c93bd4dd913803f2539847cf3a688804fae5f9da224dc44e340846753f75f4"),
]


def main() -> int:
    dest = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/jaxlint-corpus")
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, version, sha in PINNED:
            out = dest / f"{name}-{version}"
            if out.is_dir() and any(out.rglob("*.py")):
                continue
            wheel_dir = Path(tmp) / name
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                 "--only-binary=:all:", f"{name}=={version}", "-d", str(wheel_dir)],
                check=True,
            )
            (wheel,) = wheel_dir.glob("*.whl")
            got = hashlib.sha256(wheel.read_bytes()).hexdigest()
            if got != sha:
                print(f"sha256 mismatch for {wheel.name}: {got} != {sha}", file=sys.stderr)
                return 1
            with zipfile.ZipFile(wheel) as z:
                for member in sorted(z.namelist()):
                    if member.endswith(".py") and ".dist-info/" not in member:
                        z.extract(member, out)
    files = sorted(dest.rglob("*.py"))
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"{dest}: {len(files)} files, {lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
