"""What the machine is, for `info` and the benchmark's records.

GPUs are described through cuda-python (CUDA torch) or hip-python (ROCm torch) when installed
(extras ``dsv4ext[cuda]`` / ``dsv4ext[rocm]``): driver and runtime versions, SM/CU count, L2 size,
arch. Without them, or when they cannot query the driver, through torch (no driver version there).
"""

import platform
from typing import Dict, List

import torch


def _cuda_version(v: int) -> str:
    """CUDA's 1000 * major + 10 * minor encoding; 0 means none."""
    return f"{v // 1000}.{v % 1000 // 10}" if v else "-"


def _hip_version(v: int) -> str:
    """HIP's 10^7 * major + 10^5 * minor + patch encoding; 0 means none."""
    return f"{v // 10**7}.{v // 10**5 % 100}.{v % 10**5}" if v else "-"


def _text(b) -> str:
    return (b.decode(errors="replace") if isinstance(b, (bytes, bytearray)) else str(b)).rstrip("\0")


def _via_cuda_python() -> Dict:
    try:
        from cuda.bindings import runtime as rt
    except ImportError:
        from cuda import cudart as rt  # cuda-python before the cuda.bindings layout (12.6)

    err, count = rt.cudaGetDeviceCount()
    if err != rt.cudaError_t.cudaSuccess:
        raise RuntimeError(f"cuda-python: {err.name}")
    devices = []
    for i in range(count):
        err, p = rt.cudaGetDeviceProperties(i)
        if err != rt.cudaError_t.cudaSuccess:
            raise RuntimeError(f"cuda-python: {err.name}")
        devices.append({"name": _text(p.name), "arch": f"sm_{p.major}{p.minor}", "units": p.multiProcessorCount,
                        "unit_name": "SMs", "l2_bytes": p.l2CacheSize, "memory_bytes": p.totalGlobalMem})
    return {"query": "cuda-python", "driver": _cuda_version(rt.cudaDriverGetVersion()[1]),
            "runtime": _cuda_version(rt.cudaRuntimeGetVersion()[1]), "devices": devices}


def _via_hip_python() -> Dict:
    from hip import hip

    err, count = hip.hipGetDeviceCount()
    if err != hip.hipError_t.hipSuccess:
        raise RuntimeError(f"hip-python: {err.name}")
    devices = []
    for i in range(count):
        p = hip.hipDeviceProp_t()
        (err,) = hip.hipGetDeviceProperties(p, i)
        if err != hip.hipError_t.hipSuccess:
            raise RuntimeError(f"hip-python: {err.name}")
        devices.append({"name": _text(p.name), "arch": _text(p.gcnArchName), "units": p.multiProcessorCount,
                        "unit_name": "CUs", "l2_bytes": p.l2CacheSize, "memory_bytes": p.totalGlobalMem})
    return {"query": "hip-python", "driver": _hip_version(hip.hipDriverGetVersion()[1]),
            "runtime": _hip_version(hip.hipRuntimeGetVersion()[1]), "devices": devices}


def _via_torch() -> Dict:
    devices = []
    for i in range(torch.cuda.device_count() if torch.cuda.is_available() else 0):
        p = torch.cuda.get_device_properties(i)
        devices.append({"name": p.name, "arch": p.gcnArchName if torch.version.hip else f"sm_{p.major}{p.minor}",
                        "units": p.multi_processor_count, "unit_name": "CUs" if torch.version.hip else "SMs",
                        "l2_bytes": getattr(p, "L2_cache_size", None), "memory_bytes": p.total_memory})
    return {"query": "torch", "driver": "-", "runtime": torch.version.hip or torch.version.cuda or "-",
            "devices": devices}


def gpus() -> Dict:
    """{'query', 'driver', 'runtime', 'devices': [{name, arch, units, unit_name, l2_bytes, memory_bytes}]}
    plus 'note' when the vendor binding is installed but could not answer (torch answered instead)."""
    binding = _via_hip_python if torch.version.hip else _via_cuda_python
    try:
        return binding()
    except ImportError:
        return _via_torch()
    except RuntimeError as e:
        return {**_via_torch(), "note": str(e)}


def cpu_name() -> str:
    """The CPU model from /proc/cpuinfo, else what platform reports."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe(device: str, index: int = 0) -> Dict:
    """Flat record of one device ('cpu' or 'cuda') for benchmark results."""
    if device == "cpu":
        return {"device": "cpu", "device_name": cpu_name(), "threads": torch.get_num_threads(), "driver": "-",
                "runtime": "-", "device_query": "platform"}
    info = gpus()
    gpu = info["devices"][index]
    return {"device": f"cuda:{index}", "device_name": gpu["name"], "arch": gpu["arch"],
            gpu["unit_name"].lower(): gpu["units"], "l2_bytes": gpu["l2_bytes"], "memory_bytes": gpu["memory_bytes"],
            "driver": info["driver"], "runtime": info["runtime"], "device_query": info["query"]}


def gpu_lines() -> List[str]:
    """`info`'s lines about the GPUs."""
    info = gpus()
    head = f"{info['query']} (driver {info['driver']}, runtime {info['runtime']})"
    lines = [f"  GPU query     : {head}" + (f"; {info['note']}" if "note" in info else "")]
    for i, d in enumerate(info["devices"]):
        l2 = f", L2 {d['l2_bytes'] / 2**20:.0f} MiB" if d["l2_bytes"] else ""
        lines.append(f"  {f'cuda:{i}':<14}: {d['name']}, {d['arch']}, {d['units']} {d['unit_name']}{l2}, "
                     f"{d['memory_bytes'] / 2**30:.0f} GiB")
    if not info["devices"]:
        lines.append("  GPUs          : none visible")
    return lines
