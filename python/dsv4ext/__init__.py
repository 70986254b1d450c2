"""dsv4ext: DeepSeek-V4 kernels for PyTorch.

Importing the package registers the ops as ``torch.ops.dsv4ext.*`` (C++ schemas and kernels in
``dsv4ext._C``, fake implementations for torch.compile in ``dsv4ext._fake``). Typed wrappers are in
``dsv4ext.ops``; the spec as plain torch code is ``dsv4ext.reference``.
"""

import torch  # noqa: F401  (loads libtorch before the extension)

from . import _C  # noqa: F401  (registers torch.ops.dsv4ext)
from . import _fake  # noqa: F401
from . import ops
from ._build_info import BACKENDS, CUDA_ARCHS, HIP_ARCHS, VERSION

__version__ = VERSION
__all__ = ["ops", "BACKENDS", "CUDA_ARCHS", "HIP_ARCHS", "__version__"]
