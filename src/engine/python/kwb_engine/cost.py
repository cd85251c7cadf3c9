"""What a PyTorch model will cost before anything is built: FLOPs and bytes
from a run on PyTorch's meta device (which allocates nothing), and from
them the time TVM's untuned default build of its reference is expected to
take on this machine. The import refuses a file that will not fit at once,
and `--fit` searches the file's constants for values that do.

The time model is the roofline's, with the share of each peak an untuned
default build reaches on this machine's shipped tasks (see UNTUNED_*):
    time = flops / (UNTUNED_FLOPS_SHARE * peak_flops)
         + bytes / (UNTUNED_BANDWIDTH_SHARE * bandwidth)
FLOPs are those PyTorch's FlopCounterMode counts (contractions and
convolutions); bytes are every op's inputs and outputs, an upper bound on
the memory traffic of an unfused graph.

The same run counts the operators the graph will have (views aside). TVM's
compile time grows with them, not with FLOPs: a recurrence is exported
unrolled, one set of operators per time step and layer, and a 6-layer LSTM
over 128 steps (11.5k operators) took 563 s to import, most of it compiling.
"""

# Shares of the measured peaks an untuned default build reaches. Against
# the default-baseline timings of the shipped tasks
# (results/reference-all-default-baseline.json), these shares give
# measured/estimated of 1.08 at the median over 92 tasks, 1.61 at the 90th
# percentile and 6.3 at worst (transposed convolutions, which TVM lowers
# slowly); elementwise maps the estimate over-rates by up to 30x.
UNTUNED_FLOPS_SHARE = 0.02
UNTUNED_BANDWIDTH_SHARE = 0.25


# Aten ops that only re-describe memory: they move nothing and become no
# kernel of their own.
VIEW_OPS = ("view", "reshape", "expand", "permute", "transpose", "squeeze", "unsqueeze", "detach", "alias")


def _meta_model(module, torch):
    with torch.device("meta"):
        model = module.Model(*module.get_init_inputs())
        inputs = list(module.get_inputs())
    return model.eval(), inputs


def measure(module, torch):
    """{flops, bytes_moved, arg_bytes, output_bytes, ops} of one forward
    pass, on the meta device. Raises what the model raises (a cut that broke
    it)."""
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils.flop_counter import FlopCounterMode

    model, inputs = _meta_model(module, torch)
    moved = [0]
    ops = [0]

    def nbytes(x):
        return x.numel() * x.element_size() if torch.is_tensor(x) else 0

    class Bytes(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            flat = torch.utils._pytree.tree_leaves((args, kwargs, out))
            if not any(t in str(func) for t in VIEW_OPS):
                moved[0] += sum(nbytes(x) for x in flat)
                ops[0] += 1
            return out

    counter = FlopCounterMode(display=False)
    with torch.no_grad(), counter, Bytes():
        out = model(*inputs)
    outs = torch.utils._pytree.tree_leaves(out)
    arg_bytes = sum(nbytes(t) for t in inputs) + sum(nbytes(p) for p in model.parameters()) + sum(nbytes(b) for b in model.buffers())
    return {"flops": float(counter.get_total_flops()), "bytes_moved": float(moved[0]), "arg_bytes": int(arg_bytes),
            "output_bytes": int(sum(nbytes(o) for o in outs)), "ops": int(ops[0])}


def seconds(cost, peaks):
    """Expected run time of the untuned default build, from measure()."""
    return (cost["flops"] / (UNTUNED_FLOPS_SHARE * peaks["peak_flops"])
            + cost["bytes_moved"] / (UNTUNED_BANDWIDTH_SHARE * peaks["bandwidth_bytes_s"]))
