"""Session 25: rows whose k-th key shares its prefix with a few others (topk_cases.FEW_ON_PREFIX, with and without
keys filling the first digit's bin) on the clustered all-to-all decode paths (clusters of 8 and 4), plus random
rows, checked against torch.topk's values, for ascending indices (deterministic) and, in default order, for the
tie-to-lowest set; small enough to run under compute-sanitizer."""
import sys, torch, dsv4ext
sys.path.insert(0, "tests/python")
from topk_cases import FEW_ON_PREFIX, few_on_prefix_row
g = torch.Generator().manual_seed(25)
for rows, width in ((1, 65536), (2, 20000), (1, 262144)):
    for k in (2048, 512):
        for first in range(0, 2 * len(FEW_ON_PREFIX) + rows, rows):
            x = torch.stack([few_on_prefix_row(width, k, first + r, g) if first < 2 * len(FEW_ON_PREFIX)
                             else torch.randn(width, generator=g) for r in range(rows)]).cuda()
            lens = torch.full((rows,), width, dtype=torch.int32, device="cuda")
            ref = torch.topk(x.cpu().double(), k, dim=1)
            for det in (True, False):
                idx = torch.full((rows, k), -7, dtype=torch.int32, device="cuda")
                torch.ops.dsv4ext.top_k_per_row_decode(x, 1, lens, idx, k, det)
                got = idx.cpu().long()
                vals = torch.gather(x.cpu().double(), 1, got).sort(dim=1).values
                assert torch.equal(vals, ref.values.sort(dim=1).values), (rows, width, k, first, det)
                for r in range(rows):  # ties to the lowest index: the k-th value's lowest-index holders
                    kth = ref.values[r, -1]
                    want = torch.nonzero(x[r].cpu().double() == kth).flatten()[: int((ref.values[r] == kth).sum())]
                    have = got[r][x[r].cpu().double()[got[r]] == kth].sort().values
                    assert torch.equal(have, want), (rows, width, k, first, det, r)
                if det:
                    assert bool((got[:, 1:] > got[:, :-1]).all()), (rows, width, k, first)
print("race_few done")
