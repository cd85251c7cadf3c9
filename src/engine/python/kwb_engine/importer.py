"""Import a KernelBench-format PyTorch file as a kwb task (needs torch).

Produces, under out_dir: reference.py (the Relax module as TVMScript),
reference.json (main's arguments with their generator specs, the outputs'
shapes and dtypes, provenance) and outputs/seed{N}.digest.npz, a digest of
PyTorch's outputs (output_digest.py) with inputs and parameters from the
seeded generator (gen.py). It then builds the Relax reference with TVM and
compares it with PyTorch's full outputs on every seed, so a frontend that
lowers an op differently is reported with its figure.
"""

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

from . import build, check, constants, errors, fit, gen, implicit, output_digest, pipeline
from .converters import CUSTOM_CONVERTERS
from .errors import JobError

NEAR_ZERO_RMS = 1e-6


def _coerce(original, value):
    """An override in the type of the constant it replaces; a tuple (a
    shape) from a list, one number, or "a,b" as --set writes it."""
    if isinstance(original, bool):
        return bool(value)
    if isinstance(original, (tuple, list)):
        if isinstance(value, str):
            value = [v for v in value.split(",") if v.strip()]
        items = value if isinstance(value, (list, tuple)) else [value]
        return type(original)(type(original[i] if i < len(original) else 0)(v) for i, v in enumerate(items))
    return type(original)(value)


def _load_model_file(path, overrides):
    spec = importlib.util.spec_from_file_location("kwb_task_model", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise JobError(errors.TASK, f"{path} does not run: {type(e).__name__}: {e}", "load")
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(module, name):
            raise JobError(errors.TASK, f"{path} has no `{name}` (KernelBench format needs Model, get_inputs, get_init_inputs)", "load")
    for name, value in (overrides or {}).items():
        if not hasattr(module, name):
            raise JobError(errors.TASK, f"--set {name}: the file has no module-level constant `{name}`", "load")
        setattr(module, name, _coerce(getattr(module, name), value))
    return module


def _buffers_to_parameters(model, torch):
    """Float buffers (batch-norm statistics) become parameters, so they are
    arguments of `main` rather than constants that TVMScript cannot print."""
    for mod in model.modules():
        for name, buf in list(mod._buffers.items()):
            if buf is not None and buf.is_floating_point():
                del mod._buffers[name]
                mod.register_parameter(name, torch.nn.Parameter(buf.detach().clone(), requires_grad=False))
        # TVM's frontend declares a 0-d parameter of `main` with one shape and
        # hands it to kernels with another, which fails at run time; as a
        # 1-element vector it broadcasts the same wherever it meets a tensor.
        for name, param in list(mod._parameters.items()):
            if param is not None and param.dim() == 0:
                mod._parameters[name] = torch.nn.Parameter(param.detach().reshape(1).clone(), requires_grad=param.requires_grad)


def _refuse_if_too_big(module, max_bytes, torch):
    """Sizes the inputs and parameters on PyTorch's meta device, which
    allocates nothing, so a KernelBench file sized for a large GPU is refused
    with its figure instead of exhausting memory."""
    try:
        with torch.device("meta"):
            model = module.Model(*module.get_init_inputs())
            example = list(module.get_inputs())
    except Exception:
        return  # some files need real tensors to build; the real build below reports errors
    tensors = [t for t in example if torch.is_tensor(t)]
    total = sum(t.numel() * t.element_size() for t in tensors)
    total += sum(p.numel() * p.element_size() for p in model.parameters())
    total += sum(b.numel() * b.element_size() for b in model.buffers())
    if total <= max_bytes:
        return
    big = max(tensors, key=lambda t: t.numel(), default=None)
    consts = [k for k, v in vars(module).items() if not k.startswith("_") and isinstance(v, int) and not isinstance(v, bool)]
    hint = f"; module constants: {', '.join(f'{k}={getattr(module, k)}' for k in consts)}" if consts else ""
    raise JobError(
        errors.TASK,
        f"inputs and parameters take {total / 2**20:.1f} MiB, over the bound of {max_bytes / 2**20:.1f} MiB"
        f"{' (largest input ' + str(list(big.shape)) + ')' if big is not None else ''}"
        f": shrink it with --set NAME=VALUE{hint}, or raise --max-bytes",
        "size",
    )


def _bind_non_tensor_inputs(model, example, torch):
    """A model whose get_inputs() gives numbers besides tensors (a scalar
    multiplier) takes them as they are: bound into the exported program,
    so `main` has tensor arguments only."""

    class Bound(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = model
            self.fixed = {i: x for i, x in enumerate(example) if not torch.is_tensor(x)}
            self.count = len(example)

        def forward(self, *tensors):
            it = iter(tensors)
            return self.inner(*[self.fixed[i] if i in self.fixed else next(it) for i in range(self.count)])

    return Bound().eval()


def _input_domains(args_spec, example, given, torch):
    """Integer inputs (indices, class labels) are drawn from the range the
    file's own get_inputs() uses, not the default [0, 16). Returns, for
    float inputs the file draws non-negative (torch.rand, probabilities),
    the uniform init to use if default normal inputs leave the model's
    domain: {position in args_spec: init}."""
    inputs = [i for i, a in enumerate(args_spec) if a["role"] == "input"]
    tensors = [t for t in example if torch.is_tensor(t)]
    fallback = {}
    for i, t in zip(inputs, tensors):
        a = args_spec[i]
        if a["name"] in given or a["source"] in given or t.numel() == 0:
            continue
        if not t.is_floating_point() and t.dtype != torch.bool:
            a["init"] = {"kind": "int", "low": int(t.min()), "high": int(t.max()) + 1}
        elif t.is_floating_point() and float(t.min()) >= 0:
            # From the file's own least value: a zero drawn where it draws
            # none would put a log at -inf.
            low, high = float(t.min()), float(t.max())
            fallback[i] = {"kind": "uniform", "low": low, "high": high if high > low else low + 1.0}
    return fallback


def _finite_outputs(model, args_spec, user_inputs, torch):
    """Whether the model's outputs on seed 0's arguments are all finite."""
    values = gen.generate_args(gen.SEEDS[0], args_spec)
    with torch.no_grad():
        for a, v in zip(args_spec, values):
            if a["role"] == "param":
                param = model.get_parameter(a["source"])
                param.copy_(torch.from_numpy(v).reshape(param.shape))
        outs = _flatten(model(*[torch.from_numpy(values[i].copy()) for i in user_inputs]))
    return all(bool(torch.isfinite(o).all()) for o in outs if torch.is_tensor(o) and o.is_floating_point())


def _run(model, args_spec, values, user_inputs, torch, float64):
    """The model's outputs as numpy on one seed's arguments; with float64,
    float arguments go in as float64 and float outputs come back as float32."""
    def tensor(v):
        t = torch.from_numpy(v.copy())
        return t.double() if float64 and t.is_floating_point() else t

    with torch.no_grad():
        for a, v in zip(args_spec, values):
            if a["role"] == "param":
                param = model.get_parameter(a["source"])
                # A 0-d parameter is a 1-element argument of `main`.
                param.copy_(tensor(v).reshape(param.shape))
        outs = _flatten(model(*[tensor(values[i]) for i in user_inputs]))
    outs = [o.detach() for o in outs]
    if float64:
        outs = [o.float() if o.dtype == torch.float64 else o for o in outs]
    return [o.numpy() for o in outs]


def _float64_twin(model, args_spec, user_inputs, torch):
    """The model in float64, whose outputs rounded to float32 become the
    task's reference: PyTorch's own float32 is not always within the
    tolerance of the exact result (a Frobenius norm over 50M elements is
    2% off), and a reference must be. None where the task is not float32
    or the model does not run in float64 (then float32 is the reference)."""
    import copy

    if any(a["dtype"] not in ("float32",) and a["dtype"].startswith("float") for a in args_spec):
        return None
    try:
        twin = copy.deepcopy(model).double()
        values = gen.generate_args(gen.SEEDS[0], args_spec)
        wide = _run(twin, args_spec, values, user_inputs, torch, float64=True)
        narrow = _run(model, args_spec, values, user_inputs, torch, float64=False)
    except Exception:
        return None
    if len(wide) != len(narrow) or any(w.dtype != n.dtype or w.shape != n.shape for w, n in zip(wide, narrow)):
        return None
    return twin


def _flatten(out):
    if isinstance(out, (list, tuple)):
        items = []
        for o in out:
            items.extend(_flatten(o))
        return items
    return [out]


class _Split:
    """Seconds spent in PyTorch and in TVM during one import, for the
    directory report (the rest is kwb's own: digests, inputs, files)."""

    def __init__(self):
        self.spent = {"torch_s": 0.0, "tvm_s": 0.0}
        self.start = time.perf_counter()

    @contextlib.contextmanager
    def on(self, side):
        t = time.perf_counter()
        try:
            yield
        finally:
            self.spent[side] += time.perf_counter() - t

    def report(self):
        return {**self.spent, "total_s": time.perf_counter() - self.start}


def import_task(args):
    import torch
    from tvm import relax
    from tvm.relax.frontend.torch import from_exported_program

    path = args["model_path"]
    out_dir = args["out_dir"]
    max_bytes = int(args.get("max_bytes", 256 << 20))
    atol, rtol = float(args["atol"]), float(args["rtol"])
    split = _Split()
    module = _load_model_file(path, args.get("overrides"))
    # Sized for this machine first (fit.py): a file sized for a large GPU is
    # refused at once with values that fit, or imported with them (--fit).
    with split.on("torch_s"):
        if args.get("grow"):
            # Sized for a faster device (`kwb tasks resize`): this machine's
            # time budget does not apply, its bounds on bytes and operators do.
            bounds = fit.Bounds(None, float("inf"), max_bytes, int(args.get("max_ops", fit.MAX_OPS)))
            fitted = fit.grow(module, torch, bounds, args["grow"])
        else:
            bounds = fit.Bounds(args.get("peaks"), float(args.get("budget_ms", 500.0)) / 1e3, max_bytes, int(args.get("max_ops", fit.MAX_OPS)))
            fitted = fit.size_up(module, torch, bounds, bool(args.get("fit")))
    for name, value in fitted.items():
        setattr(module, name, value)
    overrides = {**(args.get("overrides") or {}), **fitted}
    _refuse_if_too_big(module, max_bytes, torch)
    torch.manual_seed(0)
    try:
        model = module.Model(*module.get_init_inputs()).eval()
        example = list(module.get_inputs())
    except Exception as e:
        raise JobError(errors.TASK, f"building the model failed: {type(e).__name__}: {e}", "load")
    _buffers_to_parameters(model, torch)
    if not all(torch.is_tensor(x) for x in example):
        model = _bind_non_tensor_inputs(model, example, torch)
        example = [x for x in example if torch.is_tensor(x)]
    try:
        model, example, implicit_inits = implicit.explicit(model, example, torch)
    except Exception as e:
        raise JobError(errors.TASK, f"the model does not run on its own inputs: {type(e).__name__}: {str(e)[:800]}", "load")

    try:
        with split.on("torch_s"):
            ep = torch.export.export(model, tuple(example))
    except Exception as e:
        raise JobError(errors.TASK, f"torch.export failed (dynamic shapes or data-dependent control flow?): {type(e).__name__}: {str(e)[:800]}", "export")
    implicit.refuse_random_ops(ep)
    try:
        with split.on("tvm_s"):
            mod = from_exported_program(ep, keep_params_as_input=True, custom_convert_map=CUSTOM_CONVERTERS)
            mod, _ = relax.frontend.detach_params(mod)
    except Exception as e:
        raise JobError(errors.TASK, f"TVM's Relax frontend cannot convert it: {type(e).__name__}: {str(e)[:800]}", "convert")
    mod, lifted = constants.lift(mod)
    lifted = dict(lifted)
    text = pipeline.script(mod)
    if "metadata[" in text:
        raise JobError(errors.INTERNAL, "the module still holds tensor constants after lifting them to arguments", "convert")

    kinds = {s.arg.name: s for s in ep.graph_signature.input_specs}
    args_spec = []
    for p in mod["main"].params:
        s = kinds.get(p.name)
        if p.name in lifted:
            value = lifted[p.name]
            args_spec.append({"name": p.name, "role": constants.ROLE, "source": p.name, "shape": list(value.shape),
                              "dtype": str(value.dtype), "init": constants.init_for(value)})
            continue
        if s is None:
            raise JobError(errors.TASK, f"cannot map Relax parameter {p.name} to the PyTorch program", "convert")
        role = "input" if s.kind is torch.export.graph_signature.InputKind.USER_INPUT else "param"
        shape = pipeline.var_shape(p)
        dtype = pipeline.var_dtype(p)
        if shape is None:
            raise JobError(errors.TASK, f"argument {p.name} has a dynamic shape; kwb tasks are static", "convert")
        source = s.target if role == "param" else p.name
        args_spec.append({"name": p.name, "role": role, "source": source, "shape": shape,
                          "dtype": dtype, "init": gen.default_init(role, source, shape, dtype)})
    for name, init in (args.get("inits") or {}).items():
        matched = [a for a in args_spec if a["source"] == name or a["name"] == name]
        if not matched:
            raise JobError(errors.TASK, f"init given for `{name}`, which is not an argument", "convert")
        for a in matched:
            a["init"] = init
    given = set(args.get("inits") or {})
    # Random draws and state the model kept to itself are its last inputs.
    if implicit_inits:
        for a, init in zip([a for a in args_spec if a["role"] == "input"][-len(implicit_inits):], implicit_inits):
            if a["name"] not in given and a["source"] not in given:
                a["init"] = init
            given.add(a["name"])
    domains = _input_domains(args_spec, example, given, torch)

    os.makedirs(os.path.join(out_dir, "outputs"), exist_ok=True)
    # PyTorch's full outputs serve this import's own check, then go.
    full_dir = tempfile.mkdtemp(prefix="kwb-import-")
    user_inputs = [i for i, a in enumerate(args_spec) if a["role"] == "input"]
    if domains and not _finite_outputs(model, args_spec, user_inputs, torch):
        # Default inputs leave the model's domain (a log, a square root, a
        # KL divergence of probabilities): draw them as the file does.
        for i, init in domains.items():
            args_spec[i]["init"] = init
    outputs_spec = None
    with split.on("torch_s"):
        exact = _float64_twin(model, args_spec, user_inputs, torch)
    for seed in gen.SEEDS:
        values = gen.generate_args(seed, args_spec)
        with split.on("torch_s"):
            outs = _run(exact or model, args_spec, values, user_inputs, torch, float64=exact is not None)
        for i, o in enumerate(outs):
            if o.dtype.kind == "f":
                if not np.all(np.isfinite(o)):
                    raise JobError(errors.TASK, f"seed {seed}: output {i} has non-finite values", "reference")
                rms = float(np.sqrt(np.mean(o.astype(np.float64) ** 2)))
                if rms < NEAR_ZERO_RMS:
                    raise JobError(errors.TASK, f"seed {seed}: output {i} is near zero (rms {rms:.3g}): a zero candidate would pass; give live inputs or parameters with [inits] in task.toml", "reference")
        np.savez(os.path.join(full_dir, f"seed{seed}.npz"), **{f"out{i}": o for i, o in enumerate(outs)})
        output_digest.write(os.path.join(out_dir, "outputs", output_digest.digest_name(seed)), outs, seed)
        if output_digest.verify(outs, output_digest.load(os.path.join(out_dir, "outputs", output_digest.digest_name(seed))), seed, atol, rtol):
            raise JobError(errors.INTERNAL, f"seed {seed}: PyTorch's outputs do not pass their own digest", "reference")
        outputs_spec = [{"shape": list(o.shape), "dtype": str(o.dtype)} for o in outs]
    # The model's tensors and the last seed's arrays are not needed again;
    # dropping them keeps the check below within the worker's memory limit.
    precision = "float32" if exact is None else "float64, rounded to float32"
    del model, exact, outs, values

    with open(os.path.join(out_dir, "reference.py"), "w") as f:
        f.write(text)
    with open(path, "rb") as f:
        model_sha = hashlib.sha256(f.read()).hexdigest()
    meta = {
        "format": 1,
        "args": args_spec,
        "outputs": outputs_spec,
        "model_sha256": model_sha,
        "overrides": overrides,
        "torch": torch.__version__,
        # The precision PyTorch computed the recorded outputs in.
        "torch_precision": precision,
        "generator": "numpy.default_rng([seed, arg_index]) v1",
        # Verified before every check, so outputs changed after import are refused.
        "outputs_sha256": {
            output_digest.digest_name(seed): hashlib.sha256(open(os.path.join(out_dir, "outputs", output_digest.digest_name(seed)), "rb").read()).hexdigest()
            for seed in gen.SEEDS
        },
    }
    from . import layers

    with split.on("tvm_s"):
        meta["size"] = layers.size({"source": text, "target": args["target"], "args_spec": args_spec, "outputs": outputs_spec})
    meta["size"].pop("tvm_s", None)
    with open(os.path.join(out_dir, "reference.json"), "w") as f:
        json.dump(meta, f, indent=1)

    # The Relax reference against PyTorch's outputs, on every seed.
    artifact = os.path.join(out_dir, "reference.so")
    with split.on("tvm_s"):
        built = build.build({"source": text, "target": args["target"], "artifact": artifact, "args_spec": args_spec})
    try:
        with split.on("tvm_s"):
            verdict = check.check({"artifact": artifact, "args_spec": args_spec, "outputs_dir": full_dir, "atol": atol, "rtol": rtol})
    finally:
        shutil.rmtree(full_dir, ignore_errors=True)
    os.remove(artifact)
    return {
        "args": len(args_spec),
        "outputs": outputs_spec,
        "tvm_matches_torch": verdict["correct"],
        "seeds": verdict["seeds"],
        "fitted": fitted,
        "split": split.report(),
        "compile_s": built["compile_s"],
        "tvm_s": built["tvm_s"] + verdict["tvm_s"],
    }
