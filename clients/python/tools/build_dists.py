"""Builds profiler-client's sdist and wheel into a directory, offline, through the PEP 517 hooks that pyproject.toml names.

    python3 tools/build_dists.py [OUT_DIR]        (default: dist/)

A stand-in for `python -m build --no-isolation` where the `build` package is not installed: it reads
[build-system] from pyproject.toml, imports the backend from its backend-path, and calls build_sdist and build_wheel in
a clean subprocess whose working directory is the project, as a PEP 517 frontend does. The backend needs no packages,
so there is nothing to install first. `pip wheel --no-deps .` builds the same wheel through pip.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

PROJECT = Path(__file__).resolve().parent.parent

HOOK = r"""
import importlib, json, sys
backend_path, backend, hook, out = sys.argv[1:5]
sys.path[:0] = json.loads(backend_path)
mod = importlib.import_module(backend)
print(json.dumps(getattr(mod, hook)(out)))
"""


def main(argv: List[str]) -> int:
    out = Path(argv[1]).resolve() if len(argv) > 1 else PROJECT / "dist"
    out.mkdir(parents=True, exist_ok=True)
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:
        import tomli as tomllib  # type: ignore[import-not-found,no-redef]
    with open(PROJECT / "pyproject.toml", "rb") as f:
        doc: Dict[str, Any] = tomllib.load(f)
    system: Dict[str, Any] = doc["build-system"]
    paths: List[str] = system.get("backend-path", [])
    if system.get("requires"):
        print(f"build-system requires {system['requires']}: use `python -m build`", file=sys.stderr)
        return 2
    backend_path = json.dumps([str(PROJECT / p) for p in paths])
    for hook in ("build_sdist", "build_wheel"):
        r = subprocess.run(
            [sys.executable, "-c", HOOK, backend_path, system["build-backend"], hook, str(out)],
            cwd=PROJECT,
            stdout=subprocess.PIPE,
            text=True,
        )
        if r.returncode != 0:
            print(f"{hook} failed", file=sys.stderr)
            return r.returncode
        print(out / json.loads(r.stdout.strip().splitlines()[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
