"""Writes a trimmed copy of the flashinfer-python wheel: only what `flashinfer.mhc` and
`flashinfer.topk` import (followed through every import statement, function-level ones included)
and the CUDA sources and headers their JIT builds read. The full wheel (62 MB) does not fit the
GPU machine's 64 MiB carry; the trimmed one is about a tenth of it.

    python scripts/trim_flashinfer_wheel.py FULL.whl OUT_DIR

The package __init__ is left out (it imports hundreds of modules): `dsv4ext.bench.flashinfer`
imports the two modules without it. RECORD is rewritten for the files kept.
"""

import ast
import base64
import hashlib
import os
import sys
import zipfile

ROOTS = ("flashinfer/mhc.py", "flashinfer/topk.py")
# Read by the JIT builds of the mhc and top-k modules (flashinfer/jit/{mhc,topk}.py, jit/env.py).
DATA_PREFIXES = (
    "flashinfer/data/include/",
    "flashinfer/data/spdlog/include/",
    "flashinfer/data/cccl/cub/",
    "flashinfer/data/cccl/libcudacxx/include/",
    "flashinfer/data/cccl/thrust/",
    "flashinfer/data/csrc/mhc/",
)
DATA_FILES = tuple(f"flashinfer/data/csrc/{f}" for f in (
    "topk.cu", "cub_topk.cu", "flashinfer_topk_binding.cu", "flashinfer_fast_topk_clusters_binding.cu",
    "topk_transform_checks.h", "tvm_ffi_utils.h"))


def _module_file(names: set, dotted: str):
    """The wheel path of module `dotted` (a .py file or a package __init__), or None."""
    base = dotted.replace(".", "/")
    for path in (f"{base}.py", f"{base}/__init__.py"):
        if path in names:
            return path
    return None


def _imports(path: str, source: bytes):
    """Dotted names of the flashinfer modules a file imports (absolute and relative, at any depth),
    including `from pkg import name` candidates that may be submodules."""
    package = path.rsplit("/", 1)[0].replace("/", ".")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            yield base
            yield from (f"{base}.{a.name}" for a in node.names)


def closure(zf: zipfile.ZipFile) -> set:
    """The Python files reachable from ROOTS, with the __init__ of every package on the way
    (except flashinfer/__init__.py)."""
    names = set(zf.namelist())
    todo, seen = list(ROOTS), set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for dotted in _imports(path, zf.read(path)):
            if not dotted.startswith("flashinfer."):
                continue
            parts = dotted.split(".")
            for i in range(2, len(parts) + 1):  # the module and every package above it
                found = _module_file(names, ".".join(parts[:i]))
                if found:
                    todo.append(found)
    return seen


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def trim(wheel: str, out_dir: str) -> str:
    out = os.path.join(out_dir, os.path.basename(wheel))
    with zipfile.ZipFile(wheel) as zf:
        keep = closure(zf)
        keep |= {n for n in zf.namelist()
                 if n.startswith(DATA_PREFIXES) or n in DATA_FILES or ".dist-info/" in n}
        keep.discard("flashinfer/__init__.py")
        record = next(n for n in keep if n.endswith(".dist-info/RECORD"))
        lines = []
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as oz:
            for name in sorted(keep - {record}):
                data = zf.read(name)
                oz.writestr(name, data)
                lines.append(_record_line(name, data))
            oz.writestr(record, "\n".join(lines + [f"{record},,"]) + "\n")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path = trim(sys.argv[1], sys.argv[2])
    print(f"{path}: {os.path.getsize(path) / 2**20:.1f} MiB")
