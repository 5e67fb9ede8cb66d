"""Put on PYTHONPATH by eval/runs/generate for the torchrun process only (see README.md).

torch 1.13's Std.from_str turns "0" and "3" into None on Python 3.11, because iterating an IntFlag
class no longer yields the zero and multi-bit members; torchrun then dies in to_map with
"AttributeError: 'NoneType' object has no attribute 'get'" before starting any worker (the known
problem of torch < 2.0 on Python 3.11, meta-llama/llama#86). This rebuilds the members by value.
Training processes are left untouched."""
import os
import re
import sys

if sys.argv and os.path.basename(sys.argv[0]) == "torchrun":
    from torch.distributed.elastic.multiprocessing import api as _api

    def _from_str(cls, vm):
        if re.fullmatch(r"[0-3]", vm):
            return cls(int(vm))
        if re.fullmatch(r"(\d:[0-3],)*\d:[0-3]", vm):
            return {int(i): cls(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
        raise ValueError(f"{vm} does not match: <0-3> or <int:0-3>[,<int:0-3>...]")

    _api.Std.from_str = classmethod(_from_str)
