"""`python -m dsv4ext bench`: the ops at DeepSeek-V4 shapes against their bandwidth floors, the
pure-torch baselines and importable peers.

Modules: ``timing`` (CUDA-event / perf_counter medians, graph replay, copy bandwidth, markdown and
JSON writing; also used by benchmarks/bench_*.py), ``cases`` (shapes, floors, baselines),
``peers`` (vLLM, AITER, DeepGEMM adapters), ``report`` (tables, JSON, plot), ``cli`` (the command).
"""

from .cli import add_arguments, run

__all__ = ["add_arguments", "run"]
