"""Prepared in session 24 for the next session: the four-block top-k kernel with more rows than blocks (so that a
block selects several rows and xr's next-row prefetch runs, including a last row with no next one), under
compute-sanitizer and plain: ../../2026-11-27w/scripts/race23_prefill.py's checks (random and tied rows, windows of
every length class, deterministic and default) with windows from k - 100 (some at most k: the trivial path, whose
next row still prefetches) and rows spread over the batch checked against torch.topk."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "2026-11-27w", "scripts"))
from race23_prefill import run

run(shapes=((1300, 9000, 2048), (1111, 20000, 512)), seed=241, shortest=lambda k: k - 100,
    checked=lambda rows: list(range(0, rows, 97)) + [rows - 1], name="race_xr")
