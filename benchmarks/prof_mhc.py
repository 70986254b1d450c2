"""Nsight Compute driver: a few calls of one mHC op at one shape (n = 4), nothing else on the GPU.

    ncu --kernel-name regex:pipeline --launch-skip 2 --launch-count 1 --section SpeedOfLight \
        --section Occupancy --section WarpStateStats --section SourceCounters \
        python3 benchmarks/prof_mhc.py mhc_pre 16384 4096
(add `--page source --print-source sass --csv` for per-instruction stall samples)
"""

import sys

import torch

import dsv4ext  # noqa: F401  (registers torch.ops.dsv4ext)
from dsv4ext.bench.cases import mhc_args


def main():
    op, tokens, hidden = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    args = mhc_args(op, tokens, hidden, "cuda")
    fn = getattr(torch.ops.dsv4ext, op)
    for _ in range(3):
        fn(*args)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
