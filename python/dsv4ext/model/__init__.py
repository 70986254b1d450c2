"""The DeepSeek-V4 model layer over the dsv4ext ops (shared/spec/ops.md §4): hyper connections, a
decoder layer generic over its attention and FFN, the model with MTP, and checkpoint loading."""

from .checkpoint import CheckpointError, checkpoint_tensors, detect_naming, load_safetensors, load_state, vllm_name
from .config import HC_POST_MULT, DeepseekV4Config
from .decoder_layer import DecoderLayer
from .deepseek_v4 import DeepseekV4Model
from .hyper_connection import HCHead, HyperConnection
from .mtp import MTPLayer, MultiTokenPredictor
from .norm import RMSNorm
from .streams import AuxStreamList, create_aux_streams

__all__ = [
    "AuxStreamList",
    "CheckpointError",
    "DecoderLayer",
    "DeepseekV4Config",
    "DeepseekV4Model",
    "HC_POST_MULT",
    "HCHead",
    "HyperConnection",
    "MTPLayer",
    "MultiTokenPredictor",
    "RMSNorm",
    "checkpoint_tensors",
    "create_aux_streams",
    "detect_naming",
    "load_safetensors",
    "load_state",
    "vllm_name",
]
