"""Peak memory of a candidate, from the IR alone: the Relax static memory
plan (intermediate storage the VM allocates) plus the largest scratch buffer
any one kernel allocates (kernels run one at a time). Function outputs are
allocated outside the plan and are counted separately.
"""

import re

import tvm
from tvm import relax

from . import pipeline

_ALLOC = re.compile(r"R\.memory\.alloc_storage\(R\.shape\(\[(\d+)\]\)")


def estimate(mod, target, stage):
    l1 = pipeline.lower(mod, target) if stage == "l0" else mod
    with target:
        planned = tvm.transform.Sequential([
            relax.transform.RewriteDataflowReshape(),
            relax.transform.ToNonDataflow(),
            relax.transform.RemovePurityChecking(),
            relax.transform.CallTIRRewrite(),
            relax.transform.StaticPlanBlockMemory(),
        ])(l1)
    static = sum(int(m.group(1)) for m in _ALLOC.finditer(planned.script()))
    scratch = 0
    lower = tvm.transform.Sequential([
        tvm.s_tir.transform.LowerInitBlock(),
        tvm.s_tir.transform.PlanAndUpdateBufferAllocationLocation(),
        tvm.s_tir.transform.ConvertBlocksToOpaque(),
        tvm.s_tir.transform.CompactBufferAllocation(),
        tvm.s_tir.transform.LowerOpaqueBlock(),
    ])
    for f in pipeline.kernels_of(planned).values():
        try:
            counts = tvm.s_tir.analysis.calculate_allocated_bytes(lower(tvm.IRModule({"main": f}))["main"])
            scratch = max(scratch, sum(int(x) for v in dict(counts).values() for x in dict(v).values()))
        except Exception:
            pass
    return {"static_plan_bytes": static, "kernel_scratch_bytes": scratch, "peak_bytes": static + scratch}
