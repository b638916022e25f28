"""A small PEP 517 build backend for profiler-client, the standard library only.

Why not setuptools: the machines this project is built and tested on reach no Python package index, and their
interpreter has setuptools without `wheel`, so neither an isolated nor a non-isolated setuptools build works there. A
pure-Python package with no compiled parts needs only a zip (the wheel, PEP 427) and a tarball (the sdist, PEP 625),
each with its core metadata (2.1), which this module writes from `pyproject.toml`'s `[project]` table.

Hooks: build_wheel, build_sdist, build_editable (PEP 660, a .pth file pointing at src/), prepare_metadata_for_build_wheel
and _editable, and the get_requires_* hooks (nothing). Reading pyproject.toml needs `tomllib` (Python 3.11+) or `tomli`:
building needs one of those, installing the wheel works on any Python the package supports (3.9+).

Archives are reproducible: entries sorted, timestamps from SOURCE_DATE_EPOCH (default 1980-01-01), fixed modes.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".mypy_cache", "dist", "build", ".venv", "venv"}
SKIP_SUFFIXES = (".pyc", ".pyo", ".egg-info")


def _load_pyproject() -> Dict[str, Any]:
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:  # Python < 3.11
        try:
            import tomli as tomllib  # type: ignore[import-not-found,no-redef]
        except ModuleNotFoundError as e:
            raise RuntimeError("Building profiler-client needs Python 3.11+ (tomllib) or the tomli package") from e
    with open(ROOT / "pyproject.toml", "rb") as f:
        doc: Dict[str, Any] = tomllib.load(f)
    return doc


class _Project:
    def __init__(self) -> None:
        doc = _load_pyproject()
        self.project: Dict[str, Any] = doc["project"]
        tool: Dict[str, Any] = doc.get("tool", {})
        self.options: Dict[str, Any] = tool.get("profiler-build", {})
        self.name: str = self.project["name"]
        self.version: str = self.project["version"]
        # Normalised distribution name as file names spell it (PEP 427 / PEP 625).
        self.dist_name = re.sub(r"[-_.]+", "_", self.name).lower()
        self.package: str = self.options.get("package", self.dist_name)
        self.dist_info = f"{self.dist_name}-{self.version}.dist-info"
        # The package says its version too (profiler_client.__version__, the User-Agent): both must agree.
        version_file = ROOT / "src" / self.package / "_version.py"
        if version_file.is_file():
            m = re.search(r'__version__\s*=\s*["\']([^"\']+)["\']', version_file.read_text(encoding="utf-8"))
            if not m or m.group(1) != self.version:
                raise RuntimeError(f"{version_file} says {m.group(1) if m else 'no version'}, pyproject.toml says {self.version}")

    def metadata(self) -> str:
        p = self.project
        lines = ["Metadata-Version: 2.1", f"Name: {self.name}", f"Version: {self.version}"]
        if p.get("description"):
            lines.append(f"Summary: {p['description']}")
        if p.get("keywords"):
            lines.append(f"Keywords: {','.join(p['keywords'])}")
        lic = p.get("license")
        if isinstance(lic, dict) and lic.get("text"):
            lines.append(f"License: {lic['text']}")
        if p.get("requires-python"):
            lines.append(f"Requires-Python: {p['requires-python']}")
        for c in p.get("classifiers", []):
            lines.append(f"Classifier: {c}")
        for label, url in p.get("urls", {}).items():
            lines.append(f"Project-URL: {label}, {url}")
        for dep in p.get("dependencies", []):
            lines.append(f"Requires-Dist: {dep}")
        body = ""
        readme = p.get("readme")
        if isinstance(readme, str):
            lines.append("Description-Content-Type: text/markdown" if readme.endswith(".md") else "Description-Content-Type: text/plain")
            body = (ROOT / readme).read_text(encoding="utf-8")
        return "\n".join(lines) + "\n\n" + body

    def wheel_name(self) -> str:
        return f"{self.dist_name}-{self.version}-py3-none-any.whl"

    def sdist_stem(self) -> str:
        return f"{self.dist_name}-{self.version}"


def _epoch() -> int:
    return max(315532800, int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")))  # zip cannot go before 1980


def _walk(base: Path, rel: Path) -> Iterator[Tuple[Path, str]]:
    """Files under base/rel (sorted), as (path, relative posix name), leaving caches and build output out."""
    start = base / rel
    if start.is_file():
        yield start, rel.as_posix()
        return
    for dirpath, dirnames, filenames in os.walk(start):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.endswith(SKIP_SUFFIXES))
        for fn in sorted(filenames):
            if fn.endswith(SKIP_SUFFIXES):
                continue
            full = Path(dirpath) / fn
            yield full, full.relative_to(base).as_posix()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


class _WheelWriter:
    def __init__(self, path: Path, epoch: int) -> None:
        self.zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        self.date = time.gmtime(epoch)[:6]
        self.records: List[str] = []

    def add(self, name: str, data: bytes) -> None:
        info = zipfile.ZipInfo(name, date_time=self.date)  # type: ignore[arg-type]
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        self.records.append(_record_line(name, data))

    def close(self, dist_info: str) -> None:
        record = f"{dist_info}/RECORD"
        text = "\n".join(self.records + [f"{record},,"]) + "\n"
        info = zipfile.ZipInfo(record, date_time=self.date)  # type: ignore[arg-type]
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, text.encode("utf-8"))
        self.zip.close()


def _wheel_file() -> bytes:
    return b"Wheel-Version: 1.0\nGenerator: profiler_build 0.1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _write_dist_info(proj: _Project, add: Any) -> None:
    add(f"{proj.dist_info}/METADATA", proj.metadata().encode("utf-8"))
    add(f"{proj.dist_info}/WHEEL", _wheel_file())


def _build(wheel_directory: str, editable: bool) -> str:
    proj = _Project()
    out = Path(wheel_directory)
    out.mkdir(parents=True, exist_ok=True)
    name = proj.wheel_name()
    w = _WheelWriter(out / name, _epoch())
    try:
        if editable:
            w.add(f"__editable__.{proj.dist_name}.pth", (str(ROOT / "src") + "\n").encode("utf-8"))
        else:
            src = ROOT / "src"
            pkg = src / proj.package
            if not (pkg / "__init__.py").is_file():
                raise RuntimeError(f"No package at {pkg}")
            for full, rel in _walk(src, Path(proj.package)):
                w.add(rel, full.read_bytes())
        _write_dist_info(proj, w.add)
    finally:
        w.close(proj.dist_info)
    return name


# --- PEP 517 / 660 hooks -------------------------------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    proj = _Project()
    target = Path(metadata_directory) / proj.dist_info
    target.mkdir(parents=True, exist_ok=True)
    (target / "METADATA").write_bytes(proj.metadata().encode("utf-8"))
    (target / "WHEEL").write_bytes(_wheel_file())
    return proj.dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    return _build(wheel_directory, editable=False)


def build_editable(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    return _build(wheel_directory, editable=True)


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    proj = _Project()
    out = Path(sdist_directory)
    out.mkdir(parents=True, exist_ok=True)
    stem = proj.sdist_stem()
    name = f"{stem}.tar.gz"
    epoch = _epoch()
    include = proj.options.get("sdist-include", ["pyproject.toml", "README.md", "src"])

    def add(tar: tarfile.TarFile, arcname: str, data: bytes) -> None:
        info = tarfile.TarInfo(f"{stem}/{arcname}")
        info.size = len(data)
        info.mtime = epoch
        info.mode = 0o644
        info.uname = info.gname = ""
        tar.addfile(info, io.BytesIO(data))

    # gzip's own header carries a time too: written through GzipFile with mtime fixed.
    import gzip

    with open(out / name, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=epoch) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            files: List[Tuple[str, bytes]] = [("PKG-INFO", proj.metadata().encode("utf-8"))]
            for entry in include:
                if not (ROOT / entry).exists():
                    raise RuntimeError(f"sdist-include names {entry}, which does not exist")
                for full, rel in _walk(ROOT, Path(entry)):
                    files.append((rel, full.read_bytes()))
            for arcname, data in sorted(files):
                add(tar, arcname, data)
    return name
