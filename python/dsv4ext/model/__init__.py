"""The DeepSeek-V4 model layer over the dsv4ext ops (shared/spec/ops.md §4): hyper connections, a
decoder layer generic over its attention and FFN, the model with MTP, and checkpoint loading; and
the DeepSeek-V4.1 flow (delayed mHC pre, docs/model.md) beside it, with its MTP (the DSpark drafter)."""

from .checkpoint import CheckpointError, checkpoint_tensors, detect_naming, load_safetensors, load_state, vllm_name
from .config import HC_POST_MULT, DeepseekV41Config, DeepseekV4Config
from .decoder_layer import DecoderLayer, DecoderLayerV41
from .deepseek_v4 import DeepseekV4Model
from .deepseek_v41 import DeepseekV41Model
from .hyper_connection import HCHead, HyperConnection
from .mtp import MTPLayer, MultiTokenPredictor
from .mtp_v41 import DSparkConfidenceHead, DSparkDrafter, DSparkMarkovHead, MTPLayerV41
from .norm import RMSNorm
from .streams import AuxStreamList, create_aux_streams

__all__ = [
    "AuxStreamList",
    "CheckpointError",
    "DecoderLayer",
    "DSparkConfidenceHead",
    "DSparkDrafter",
    "DSparkMarkovHead",
    "DecoderLayerV41",
    "DeepseekV41Config",
    "DeepseekV41Model",
    "DeepseekV4Config",
    "DeepseekV4Model",
    "HC_POST_MULT",
    "HCHead",
    "HyperConnection",
    "MTPLayer",
    "MTPLayerV41",
    "MultiTokenPredictor",
    "RMSNorm",
    "checkpoint_tensors",
    "create_aux_streams",
    "detect_naming",
    "load_safetensors",
    "load_state",
    "vllm_name",
]
