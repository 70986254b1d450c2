"""Command line: `python -m dsv4ext info` (the build and the devices),
`python -m dsv4ext check` (every op on every available device against the reference) and
`python -m dsv4ext bench` (every op at DeepSeek-V4 shapes against its bandwidth floor and baselines)."""

import argparse
import sys

import torch

import dsv4ext

from . import bench
from . import check as check_mod
from . import device


def cmd_info(_args) -> int:
    from . import _build_info as b

    print(f"dsv4ext {b.VERSION}")
    print(f"  backends      : {', '.join(b.BACKENDS)}")
    print(f"  CUDA archs    : {', '.join(b.CUDA_ARCHS) or '-'}")
    print(f"  HIP archs     : {', '.join(b.HIP_ARCHS) or '-'}")
    print(f"  built against : torch {b.BUILT_WITH_TORCH} (CUDA {b.BUILT_WITH_CUDA or '-'}), stable ABI 2.10, abi3")
    print(f"  running torch : {torch.__version__} (CUDA {torch.version.cuda or '-'}, HIP {torch.version.hip or '-'})")
    print(f"  CPU           : {device.cpu_name()}, {torch.get_num_threads()} threads")
    print("\n".join(device.gpu_lines()))
    return 0


def cmd_check(args) -> int:
    devices = args.device or check_mod.available_devices()
    results = check_mod.run(devices, seed=args.seed)
    print(f"{'op':<26} {'device':<7} {'case':<24} {'max error':>10} {'limit':>7}  {'metric':<18} result")
    for r in results:
        print(f"{r.op:<26} {r.device:<7} {r.case:<24} {r.error:>10.4g} {r.limit:>7.3g}  {r.unit:<18} "
              f"{'PASS' if r.passed else 'FAIL'}")
    failed = [r for r in results if not r.passed]
    print(f"{len(results) - len(failed)}/{len(results)} passed on {', '.join(devices)}")
    return 1 if failed else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dsv4ext", description=dsv4ext.__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="print the build and the devices").set_defaults(func=cmd_info)
    p = sub.add_parser("check", help="run every op on every available device against the reference")
    p.add_argument("--device", action="append", choices=["cpu", "cuda"], help="limit to a device (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("bench", help="time every op at DeepSeek-V4 shapes against its floor and baselines")
    bench.add_arguments(p)
    p.set_defaults(func=bench.run)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
