#!/usr/bin/env python3
"""Compile every csrc/hip/*.hip for gfx942 and gfx950 and check the code objects.

No AMD GPU exists anywhere in the project, so this is what stands in for running the HIP kernels:
each source is compiled for gfx942 with Debian's clang-19 and for gfx950 with the clang 22 of PyPI's
ziglang (shared/spec/build.md section 7), the device code object is taken out of the .hip_fatbin
bundle and checked:

  * the ELF header: EM_AMDGPU, HSA OS/ABI, ABI version 3 (code object v5), e_flags of the arch;
  * no undefined symbols (everything a kernel needs is inside the code object; -nogpulib);
  * per kernel, from the AMDGPU metadata note: no private segment (scratch) and no dynamic stack,
    and at most the kernel's VGPR budget (scripts/hip_isa_budget.json);
  * optional instruction expectations per kernel (16-byte loads, DPP / ds_bpermute for wave
    collectives), counted in the assembly that the same compile writes (-save-temps).

It writes a per-kernel, per-arch table (markdown and JSON): VGPRs (incl. AGPRs), AGPRs, SGPRs, LDS,
scratch, max workgroup size, occupancy in waves per SIMD and what limits it, instruction counts.
Kernels templated on the other arch's traits are empty stubs in a code object (csrc/hip/cdna_common.h):
they must be just s_endpgm and stay out of the table.

Occupancy model (CDNA3 gfx942 / CDNA4 gfx950; AMD GPU specs table and LLVM AMDGPUUsage):
  - a SIMD holds 512 VGPRs per lane, shared by arch VGPRs and AGPRs, allocated in granules of 8,
    and at most 8 waves: vgpr_waves = min(8, 512 // roundup(vgpr_count, 8)); the metadata's
    .vgpr_count already is roundup(arch VGPRs, 4) + AGPRs on these archs;
  - SGPRs (800 per SIMD): 8 waves up to 100 SGPRs incl. VCC/flat scratch, else 7 (LLVM's gfx9 rule);
  - a workgroup of W threads is N = ceil(W / 64) waves spread over the CU's 4 SIMDs and is placed
    whole: registers admit floor(4 * reg_waves / N) workgroups per CU; LDS (64 KiB per CU on gfx942,
    160 KiB on gfx950, allocated in 512 / 1280-byte granules) admits floor(LDS / roundup(lds, g));
  - waves per SIMD = workgroups per CU * N / 4 (fractional when a CU holds fewer than 4 waves).
  W is the kernel's .max_flat_workgroup_size (its __launch_bounds__), static LDS only. The 16
  barriers per CU never bind: multi-wave workgroups reach 8 waves/SIMD with 16 of them. The
  compiler's own estimate (its "; Occupancy:" line; no LDS granule, no whole-workgroup placement) is
  recorded beside ours.

Usage: scripts/hip_isa_check.py [--jobs N] [--no-write] [sources...]   (run from anywhere; needs
clang-19, lld-19, llvm-19, libamdhip64-dev and `pip install ziglang` in the running interpreter).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import fnmatch
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LLVM_BIN = Path("/usr/lib/llvm-19/bin")
CLANG19_RESOURCE = Path("/usr/lib/llvm-19/lib/clang/19")
COMMON_FLAGS = ["-x", "hip", "-O3", "-std=c++17", "-nogpulib", "-I", str(ROOT / "csrc")]


@dataclass(frozen=True)
class Arch:
    name: str
    e_flags: int
    lds_per_cu: int
    lds_granule: int

    def compiler(self) -> list[str]:
        if self.name == "gfx942":
            return ["clang++-19", "--offload-arch=gfx942"]
        # clang 22 from ziglang: clang-19's HIP wrapper headers, lld-19, code object v5, and the
        # wave size macro that clang 22 dropped but the HIP 5.2 headers still read.
        return [sys.executable, "-m", "ziglang", "clang", "--target=x86_64-linux-gnu",
                f"-resource-dir={CLANG19_RESOURCE}", f"-B{LLVM_BIN}", "--offload-arch=gfx950",
                "-mcode-object-version=5", "-D__AMDGCN_WAVEFRONT_SIZE=64"]


ARCHS = {
    "gfx942": Arch("gfx942", 0x54C, 64 * 1024, 128 * 4),
    "gfx950": Arch("gfx950", 0x54F, 160 * 1024, 320 * 4),
}
EM_AMDGPU, ELFOSABI_AMDGPU_HSA, ABI_VERSION_V5 = 224, 64, 3
MAX_WAVES_PER_SIMD, VGPRS_PER_SIMD, VGPR_GRANULE, SIMDS_PER_CU, WAVE = 8, 512, 8, 4, 64

# Instruction classes counted per kernel (mnemonic regexes over the compiler's assembly).
INSTR_CLASSES = {
    "x4_load": r"^(global|buffer)_load_dwordx4$",
    "x4_store": r"^(global|buffer)_store_dwordx4$",
    "cross_lane": r"^(ds_bpermute_b32|ds_permute_b32|ds_swizzle_b32|v_readlane_b32|v_permlane\w*)$|_dpp$",
}


@dataclass
class Kernel:
    source: str
    arch: str
    symbol: str
    name: str = ""
    vgprs: int = 0
    agprs: int = 0
    sgprs: int = 0
    lds: int = 0
    scratch: int = 0
    dynamic_stack: bool = False
    vgpr_spills: int = 0
    sgpr_spills: int = 0
    max_wg: int = 0
    wave_size: int = 0
    occupancy: float = 0.0
    limiter: str = ""
    llvm_occupancy: int | None = None
    budget: int = 0
    stub: bool = False
    instr: dict = field(default_factory=dict)
    mnemonics: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)


def run(cmd: list[str], cwd: Path | None = None, stdin: str | None = None) -> str:
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"`{' '.join(map(str, cmd))}` failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    return p.stdout


def tool(name: str) -> str:
    return str(LLVM_BIN / name) if (LLVM_BIN / name).exists() else f"{name}-19"


def check_elf_header(data: bytes, arch: Arch) -> list[str]:
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return ["code object is not an ELF64 file"]
    osabi, abiver = data[7], data[8]
    e_machine, = struct.unpack_from("<H", data, 18)
    e_flags, = struct.unpack_from("<I", data, 48)
    errs = []
    if e_machine != EM_AMDGPU or osabi != ELFOSABI_AMDGPU_HSA:
        errs.append(f"not an AMDGPU HSA object (machine {e_machine}, OS/ABI {osabi})")
    if abiver != ABI_VERSION_V5:
        errs.append(f"ELF ABI version {abiver}, expected {ABI_VERSION_V5} (code object v5)")
    if e_flags != arch.e_flags:
        errs.append(f"e_flags {e_flags:#x}, expected {arch.e_flags:#x} ({arch.name}, xnack/sramecc any)")
    return errs


def parse_metadata(notes: str) -> tuple[str, list[dict]]:
    """The amdhsa.target and the kernel-level keys of each amdhsa.kernels entry (nested lists such
    as .args are skipped): a line-based reader of the YAML that llvm-readelf prints."""
    target, kernels, in_kernels = "", [], False
    for line in notes.splitlines():
        if line.startswith("amdhsa.target:"):
            target = line.split(":", 1)[1].strip()
        if re.match(r"^amdhsa\.", line):
            in_kernels = line.startswith("amdhsa.kernels:")
            continue
        if not in_kernels:
            continue
        m = re.match(r"^  (- |  )(\.[\w]+):\s*(.*)$", line)
        if not m:
            continue
        if m.group(1) == "- ":
            kernels.append({})
        kernels[-1][m.group(2)] = m.group(3).strip()
    return target, kernels


def parse_asm(asm: str) -> dict[str, dict]:
    """Per function in the device assembly: mnemonic counts and the compiler's occupancy."""
    funcs: dict[str, dict] = {}
    cur = None
    for line in asm.splitlines():
        m = re.match(r"^([\w.$]+):\s+; @", line)
        if m:
            cur = funcs.setdefault(m.group(1), {"mnemonics": {}, "occupancy": None})
            continue
        if cur is None:
            continue
        m = re.match(r"^; Occupancy: (\d+)", line)
        if m:
            cur["occupancy"] = int(m.group(1))
        elif re.match(r"^\t[a-z]", line):
            mnem = line.split()[0]
            cur["mnemonics"][mnem] = cur["mnemonics"].get(mnem, 0) + 1
    return funcs


def count_classes(mnemonics: dict[str, int]) -> dict[str, int]:
    return {cls: sum(n for m, n in mnemonics.items() if re.search(pat, m))
            for cls, pat in INSTR_CLASSES.items()}


def occupancy(k: Kernel, arch: Arch) -> tuple[float, str]:
    alloc = max(VGPR_GRANULE, math.ceil(k.vgprs / VGPR_GRANULE) * VGPR_GRANULE)
    limits = {"VGPRs": min(MAX_WAVES_PER_SIMD, VGPRS_PER_SIMD // alloc),
              "SGPRs": MAX_WAVES_PER_SIMD if k.sgprs <= 100 else 7}
    reg_waves = min(MAX_WAVES_PER_SIMD, *limits.values())
    waves_per_wg = max(1, math.ceil(k.max_wg / WAVE))
    wgs = {"max waves": MAX_WAVES_PER_SIMD * SIMDS_PER_CU // waves_per_wg,
           "VGPRs": SIMDS_PER_CU * limits["VGPRs"] // waves_per_wg,
           "SGPRs": SIMDS_PER_CU * limits["SGPRs"] // waves_per_wg}
    if k.lds:
        wgs["LDS"] = arch.lds_per_cu // (math.ceil(k.lds / arch.lds_granule) * arch.lds_granule)
    n = min(wgs.values())
    if n == 0:
        return 0.0, "does not fit" if reg_waves else "registers"
    waves = n * waves_per_wg / SIMDS_PER_CU
    if waves >= MAX_WAVES_PER_SIMD:
        return float(MAX_WAVES_PER_SIMD), "max waves"
    binding = [name for name, v in wgs.items() if v == n and name != "max waves"]
    return waves, ", ".join(binding) if binding else "workgroup size"


def budget_for(name: str, budgets: dict) -> int:
    for rule in budgets.get("kernels", []):
        if fnmatch.fnmatchcase(name, rule["match"]):
            return int(rule["vgprs"])
    return int(budgets["default_vgprs"])


def expectations_for(name: str, arch: str, budgets: dict) -> list[tuple[str, str]]:
    out = []
    for rule in budgets.get("expect", []):
        if fnmatch.fnmatchcase(name, rule["match"]) and arch in rule.get("archs", list(ARCHS)):
            out += [(cls, rule.get("why", "")) for cls in rule["classes"]]
    return out


def compile_and_check(src: Path, arch: Arch, budgets: dict, work: Path) -> tuple[list[Kernel], list[str]]:
    """Compiles one source for one arch; returns its kernels and source-level errors."""
    rel = src.relative_to(ROOT).as_posix() if src.is_relative_to(ROOT) else str(src)
    d = work / f"{src.stem}.{arch.name}"
    d.mkdir(parents=True, exist_ok=True)
    obj = d / f"{src.stem}.o"
    try:
        run(arch.compiler() + COMMON_FLAGS + ["-save-temps=obj", "-c", str(src), "-o", str(obj)], cwd=d)
    except RuntimeError as e:
        return [], [f"{rel} [{arch.name}]: compilation failed\n{e}"]
    host_only = src.name in budgets.get("host_only_sources", [])
    fatbin, co = d / "fatbin", d / "code_object.elf"
    if ".hip_fatbin" not in run([tool("llvm-readelf"), "-S", str(obj)]):
        # clang emits no device code object at all for a source without kernels.
        return [], [] if host_only else [
            f"{rel} [{arch.name}]: no kernels (no .hip_fatbin); a host-only source goes in host_only_sources"]
    try:
        run([tool("llvm-objcopy"), f"--dump-section=.hip_fatbin={fatbin}", str(obj)])
        run([tool("clang-offload-bundler"), "--unbundle", "--type=o", f"--input={fatbin}",
             f"--targets=hipv4-amdgcn-amd-amdhsa--{arch.name}", f"--output={co}"])
    except RuntimeError as e:
        return [], [f"{rel} [{arch.name}]: no {arch.name} code object in the .hip_fatbin\n{e}"]
    errs = [f"{rel} [{arch.name}]: {m}" for m in check_elf_header(co.read_bytes(), arch)]
    undefined = [ln.split()[-1] for ln in run([tool("llvm-nm"), "-u", str(co)]).splitlines() if ln.strip()]
    if undefined:
        errs.append(f"{rel} [{arch.name}]: undefined symbols in the code object: {' '.join(undefined)}")
    target, meta = parse_metadata(run([tool("llvm-readelf"), "--notes", str(co)]))
    if not target.endswith(f"--{arch.name}"):
        errs.append(f"{rel} [{arch.name}]: amdhsa.target is '{target}'")
    if host_only:
        if meta:
            errs.append(f"{rel} [{arch.name}]: listed as host-only but has {len(meta)} kernel(s)")
        return [], errs
    if not meta:
        errs.append(f"{rel} [{arch.name}]: no kernels (a host-only source goes in host_only_sources)")
        return [], errs
    asm_files = list(d.glob(f"*-hip-amdgcn-amd-amdhsa-{arch.name}*.s"))
    funcs = parse_asm(asm_files[0].read_text()) if asm_files else {}
    kernels = []
    for m in meta:
        k = Kernel(source=rel, arch=arch.name, symbol=m.get(".name", "?"),
                   vgprs=int(m.get(".vgpr_count", 0)), agprs=int(m.get(".agpr_count", 0)),
                   sgprs=int(m.get(".sgpr_count", 0)), lds=int(m.get(".group_segment_fixed_size", 0)),
                   scratch=int(m.get(".private_segment_fixed_size", 0)),
                   dynamic_stack=m.get(".uses_dynamic_stack", "false") == "true",
                   vgpr_spills=int(m.get(".vgpr_spill_count", 0)),
                   sgpr_spills=int(m.get(".sgpr_spill_count", 0)),
                   max_wg=int(m.get(".max_flat_workgroup_size", 1024)),
                   wave_size=int(m.get(".wavefront_size", 64)))
        f = funcs.get(k.symbol)
        if f:
            k.llvm_occupancy = f["occupancy"]
            k.mnemonics = f["mnemonics"]
            k.instr = count_classes(f["mnemonics"])
        kernels.append(k)
    return kernels, errs


def finish(kernels: list[Kernel], budgets: dict) -> None:
    """Demangles the names, then applies the budgets, the occupancy model and the expectations."""
    if kernels:
        names = run([tool("llvm-cxxfilt")], stdin="\n".join(k.symbol for k in kernels) + "\n").splitlines()
        for k, n in zip(kernels, names):
            k.name = n
    for k in kernels:
        arch = ARCHS[k.arch]
        where = f"{k.source} [{k.arch}] {k.name}"
        # Kernels templated on the other arch's traits are empty stubs in this code object (their
        # bodies are guarded by the target macro; see csrc/hip/cdna_common.h): checked, not tabled.
        named = {a.lower() for a in re.findall(r"\b[Gg]fx9\d\d\b", k.name)}
        k.stub = bool(named) and k.arch not in named
        if k.stub:
            if k.mnemonics != {"s_endpgm": 1}:
                k.errors.append(f"{where}: a kernel for {'/'.join(sorted(named))} has code in the "
                                f"{k.arch} object (body not guarded by its target?)")
            continue
        k.occupancy, k.limiter = occupancy(k, arch)
        k.budget = budget_for(k.name, budgets)
        if k.wave_size != WAVE:
            k.errors.append(f"{where}: wavefront size {k.wave_size}, expected {WAVE}")
        if k.scratch or k.dynamic_stack:
            k.errors.append(f"{where}: private segment {k.scratch} B, dynamic stack {k.dynamic_stack} "
                            f"(VGPR spills {k.vgpr_spills}): scratch memory is not allowed")
        if k.vgprs > k.budget:
            k.errors.append(f"{where}: {k.vgprs} VGPRs over its budget of {k.budget}")
        if not k.instr:
            k.errors.append(f"{where}: not found in the compiler's assembly")
            continue
        for cls, why in expectations_for(k.name, k.arch, budgets):
            if not k.instr.get(cls):
                k.errors.append(f"{where}: no {cls} instructions ({why})")


def short_name(name: str) -> str:
    """The demangled name without return type, parameter list and the dsv4::hip namespaces."""
    depth, cut = 0, len(name)
    for i in range(len(name) - 1, -1, -1):
        c = name[i]
        depth += c == ")"
        depth -= c == "("
        if depth == 0 and c == "(":
            cut = i
            break
    head = name[:cut].removeprefix("void ")
    return head.replace("(anonymous namespace)::", "").replace("dsv4::hip::", "")


def fmt_occ(x: float) -> str:
    return f"{x:g}"


def toolchain_versions() -> dict[str, str]:
    first = lambda cmd: run(cmd).splitlines()[0].strip()
    return {"gfx942": first(["clang++-19", "--version"]),
            "gfx950": first([sys.executable, "-m", "ziglang", "clang", "--version"])}


def write_tables(kernels: list[Kernel], budgets: dict, md: Path, js: Path) -> None:
    rows = sorted((k for k in kernels if not k.stub), key=lambda k: (k.source, short_name(k.name), k.arch))
    versions = toolchain_versions()
    js.parent.mkdir(parents=True, exist_ok=True)
    js.write_text(json.dumps({
        "toolchains": versions,
        "model": {a.name: {"lds_per_cu": a.lds_per_cu, "lds_granule": a.lds_granule,
                           "vgprs_per_simd": VGPRS_PER_SIMD, "vgpr_granule": VGPR_GRANULE,
                           "max_waves_per_simd": MAX_WAVES_PER_SIMD} for a in ARCHS.values()},
        "kernels": [{"source": k.source, "arch": k.arch, "kernel": k.name, "symbol": k.symbol,
                     "vgprs": k.vgprs, "agprs": k.agprs, "sgprs": k.sgprs, "lds_bytes": k.lds,
                     "scratch_bytes": k.scratch, "vgpr_spills": k.vgpr_spills,
                     "sgpr_spills": k.sgpr_spills, "max_workgroup_size": k.max_wg,
                     "waves_per_simd": k.occupancy, "limited_by": k.limiter,
                     "llvm_waves_per_simd": k.llvm_occupancy, "vgpr_budget": k.budget,
                     "instructions": k.instr, "errors": k.errors} for k in rows]}, indent=1) + "\n")
    lines = [
        "# HIP kernels: registers, LDS, scratch and occupancy per arch",
        "",
        "Generated by `scripts/hip_isa_check.py` (CI runs it on every push; regenerate with "
        "`.venv/bin/python scripts/hip_isa_check.py`). No AMD GPU is available to the project, so "
        "these code objects have not run; the kernels' sources run on the HIP CPU runtime "
        "(`scripts/hip_cpu_test.sh`).",
        "",
        f"Toolchains: gfx942 `{versions['gfx942']}`, gfx950 `{versions['gfx950']}` (PyPI ziglang).",
        "",
        "VGPRs count arch VGPRs and AGPRs (one 512-register file per SIMD lane); **waves/SIMD** is the "
        "occupancy at the kernel's max workgroup size (its launch bound) from registers and static "
        "LDS (model in the script's docstring), *LLVM* is the compiler's own estimate. "
        + budgets.get("_why", "") + " Instruction counts are static (in the code, not executed): "
        "16-byte global loads/stores, cross-lane ops (DPP, ds_bpermute/swizzle, readlane).",
        "",
        f"{len(rows)} kernels, {sum(bool(k.errors) for k in rows)} failing the check.",
        "",
        "| source | kernel | arch | VGPRs (AGPRs) / budget | SGPRs | LDS B | scratch B | max WG "
        "| waves/SIMD | limited by | LLVM | x4 ld/st | cross-lane | check |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for k in rows:
        i = k.instr
        lines.append(
            f"| `{Path(k.source).name}` | `{short_name(k.name)}` | {k.arch} | {k.vgprs} ({k.agprs}) / "
            f"{k.budget} | {k.sgprs} | {k.lds} | {k.scratch} | {k.max_wg} | {fmt_occ(k.occupancy)} "
            f"| {k.limiter} | {k.llvm_occupancy if k.llvm_occupancy is not None else '-'} "
            f"| {i.get('x4_load', 0)}/{i.get('x4_store', 0)} | {i.get('cross_lane', 0)} "
            f"| {'**FAIL**' if k.errors else 'ok'} |")
    host_only = budgets.get("host_only_sources", [])
    if host_only:
        lines += ["", "Host-only sources (no kernels; compiled and checked for both archs): "
                  + ", ".join(f"`{s}`" for s in host_only) + "."]
    md.write_text("\n".join(lines) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sources", nargs="*", type=Path, help="default: csrc/hip/*.hip")
    ap.add_argument("--archs", default="gfx942,gfx950")
    ap.add_argument("--budget", type=Path, default=ROOT / "scripts" / "hip_isa_budget.json")
    ap.add_argument("--md", type=Path, help="default (all sources): benchmarks/results/hip_isa.md")
    ap.add_argument("--json", type=Path, help="default (all sources): benchmarks/results/hip_isa.json")
    ap.add_argument("--no-write", action="store_true", help="check only, write no tables")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", type=Path, help="keep objects, bundles and assembly in this folder")
    args = ap.parse_args()

    missing = [t for t in ("clang++-19", tool("llvm-objcopy"), tool("clang-offload-bundler"),
                           tool("llvm-readelf"), tool("llvm-nm"), tool("llvm-cxxfilt"), tool("ld.lld"))
               if not shutil.which(t)]
    if missing:
        print(f"hip_isa_check: missing tools {missing}: apt-get install clang-19 lld-19 llvm-19 "
              "libamdhip64-dev", file=sys.stderr)
        return 2
    archs = [ARCHS[a] for a in args.archs.split(",")]
    if any(a.name == "gfx950" for a in archs) and subprocess.run(
            [sys.executable, "-c", "import ziglang"], capture_output=True).returncode != 0:
        print(f"hip_isa_check: gfx950 needs `{sys.executable} -m pip install ziglang`", file=sys.stderr)
        return 2
    sources = [s.resolve() for s in args.sources] or sorted((ROOT / "csrc" / "hip").glob("*.hip"))
    if not sources:
        print("hip_isa_check: no HIP sources", file=sys.stderr)
        return 1
    budgets = json.loads(args.budget.read_text())

    work_ctx = tempfile.TemporaryDirectory(prefix="hip_isa_") if args.keep is None else None
    work = Path(work_ctx.name) if work_ctx else args.keep
    kernels, errors = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = [pool.submit(compile_and_check, s, a, budgets, work) for s in sources for a in archs]
        for fut in futs:
            ks, errs = fut.result()
            kernels += ks
            errors += errs
    if work_ctx:
        work_ctx.cleanup()
    finish(kernels, budgets)
    errors += [e for k in kernels for e in k.errors]

    for k in sorted((k for k in kernels if not k.stub), key=lambda k: (k.source, k.name, k.arch)):
        status = "FAIL" if k.errors else "ok"
        print(f"{status:4} {k.arch} {Path(k.source).name:24} {short_name(k.name)[:70]:70} "
              f"vgpr {k.vgprs:3}/{k.budget:<3} sgpr {k.sgprs:3} lds {k.lds:6} scratch {k.scratch} "
              f"waves/SIMD {fmt_occ(k.occupancy)} ({k.limiter}; LLVM {k.llvm_occupancy})")
    stubs = sum(k.stub for k in kernels)
    print(f"hip_isa_check: {len(sources)} sources x {len(archs)} archs, {len(kernels) - stubs} kernels "
          f"(+ {stubs} other-arch stubs), {len(errors)} errors")
    for e in errors:
        print(f"ERROR: {e}", file=sys.stderr)
    if not args.sources:  # the committed tables always cover every source
        args.md = args.md or ROOT / "benchmarks" / "results" / "hip_isa.md"
        args.json = args.json or ROOT / "benchmarks" / "results" / "hip_isa.json"
    if not args.no_write and args.md and args.json:
        write_tables(kernels, budgets, args.md, args.json)
        print(f"hip_isa_check: wrote {args.md} and {args.json}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
