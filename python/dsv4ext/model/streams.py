"""Shared auxiliary CUDA streams (shared/spec/ops.md §4.6): created once by the model and handed, as the
same list, to every decoder layer, every MTP layer and the injected attention / FFN factories, so
injected modules can overlap independent work (indexer, compressor, shared experts) with the main
stream. Work put on an aux stream must be joined back (`join`) before its result is read."""

import inspect
from typing import Callable, Sequence

import torch
from torch import nn

AuxStreams = Sequence[torch.cuda.Stream]
# (layer index, aux streams) -> attention or FFN module; one-argument factories (layer index) are
# accepted too. MTP layer i gets index num_hidden_layers + i.
SubLayerFactory = Callable[..., nn.Module]


class AuxStreamList(list):
    """The model's shared list of aux streams. copy.deepcopy (of a model) keeps the same list: streams
    are device resources shared by every layer, not model state."""

    def __deepcopy__(self, memo):
        return self


def create_aux_streams(count: int) -> AuxStreamList:
    """`count` new CUDA streams on the current device; none when count is 0 or there is no GPU."""
    if count < 0:
        raise ValueError(f"num_aux_streams must be >= 0, got {count}")
    if count == 0 or not torch.cuda.is_available():
        return AuxStreamList()
    return AuxStreamList(torch.cuda.Stream() for _ in range(count))


def _takes_streams(factory: Callable) -> bool:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # no introspectable signature: assume the two-argument form
        return True
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return (any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in params)
            or sum(p.kind in positional for p in params) >= 2)


def build_sublayer(factory: SubLayerFactory, layer_index: int, aux_streams: AuxStreams) -> nn.Module:
    """factory(layer_index, aux_streams), or factory(layer_index) for a one-argument factory."""
    return factory(layer_index, aux_streams) if _takes_streams(factory) else factory(layer_index)


def fork(aux: torch.cuda.Stream) -> None:
    """Make `aux` wait for the work queued so far on the current stream (eager and under capture)."""
    aux.wait_stream(torch.cuda.current_stream())


def join(aux: torch.cuda.Stream) -> None:
    """Make the current stream wait for the work queued so far on `aux`."""
    torch.cuda.current_stream().wait_stream(aux)
