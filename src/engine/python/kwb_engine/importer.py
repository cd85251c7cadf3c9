"""Import a KernelBench-format PyTorch file as a kwb task (needs torch).

Produces, under out_dir: reference.py (the Relax module as TVMScript),
reference.json (main's arguments with their generator specs, the outputs'
shapes and dtypes, provenance) and outputs/seed{N}.digest.npz, a digest of
PyTorch's outputs (output_digest.py) with inputs and parameters from the
seeded generator (gen.py). It then builds the Relax reference with TVM and
compares it with PyTorch's full outputs on every seed, so a frontend that
lowers an op differently is reported with its figure.
"""

import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile

import numpy as np

from . import build, check, constants, errors, fit, gen, output_digest, pipeline
from .converters import CUSTOM_CONVERTERS
from .errors import JobError

NEAR_ZERO_RMS = 1e-6


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
        setattr(module, name, type(getattr(module, name))(value) if not isinstance(getattr(module, name), bool) else bool(value))
    return module


def _buffers_to_parameters(model, torch):
    """Float buffers (batch-norm statistics) become parameters, so they are
    arguments of `main` rather than constants that TVMScript cannot print."""
    for mod in model.modules():
        for name, buf in list(mod._buffers.items()):
            if buf is not None and buf.is_floating_point():
                del mod._buffers[name]
                mod.register_parameter(name, torch.nn.Parameter(buf.detach().clone(), requires_grad=False))


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


def _flatten(out):
    if isinstance(out, (list, tuple)):
        items = []
        for o in out:
            items.extend(_flatten(o))
        return items
    return [out]


def import_task(args):
    import torch
    from tvm import relax
    from tvm.relax.frontend.torch import from_exported_program

    path = args["model_path"]
    out_dir = args["out_dir"]
    max_bytes = int(args.get("max_bytes", 256 << 20))
    atol, rtol = float(args["atol"]), float(args["rtol"])
    module = _load_model_file(path, args.get("overrides"))
    # Sized for this machine first (fit.py): a file sized for a large GPU is
    # refused at once with values that fit, or imported with them (--fit).
    fitted = fit.size_up(module, torch, args.get("peaks"), float(args.get("budget_ms", 500.0)) / 1e3, max_bytes, bool(args.get("fit")))
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

    try:
        ep = torch.export.export(model, tuple(example))
    except Exception as e:
        raise JobError(errors.TASK, f"torch.export failed (dynamic shapes or data-dependent control flow?): {type(e).__name__}: {str(e)[:800]}", "export")
    try:
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

    os.makedirs(os.path.join(out_dir, "outputs"), exist_ok=True)
    # PyTorch's full outputs serve this import's own check, then go.
    full_dir = tempfile.mkdtemp(prefix="kwb-import-")
    user_inputs = [i for i, a in enumerate(args_spec) if a["role"] == "input"]
    outputs_spec = None
    for seed in gen.SEEDS:
        values = gen.generate_args(seed, args_spec)
        with torch.no_grad():
            for a, v in zip(args_spec, values):
                if a["role"] == "param":
                    model.get_parameter(a["source"]).copy_(torch.from_numpy(v))
            outs = _flatten(model(*[torch.from_numpy(values[i].copy()) for i in user_inputs]))
        outs = [o.detach().numpy() for o in outs]
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
    del model, outs, values

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
        "generator": "numpy.default_rng([seed, arg_index]) v1",
        # Verified before every check, so outputs changed after import are refused.
        "outputs_sha256": {
            output_digest.digest_name(seed): hashlib.sha256(open(os.path.join(out_dir, "outputs", output_digest.digest_name(seed)), "rb").read()).hexdigest()
            for seed in gen.SEEDS
        },
    }
    from . import layers

    meta["size"] = layers.size({"source": text, "target": args["target"], "args_spec": args_spec, "outputs": outputs_spec})
    meta["size"].pop("tvm_s", None)
    with open(os.path.join(out_dir, "reference.json"), "w") as f:
        json.dump(meta, f, indent=1)

    # The Relax reference against PyTorch's outputs, on every seed.
    artifact = os.path.join(out_dir, "reference.so")
    built = build.build({"source": text, "target": args["target"], "artifact": artifact, "args_spec": args_spec})
    try:
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
        "compile_s": built["compile_s"],
        "tvm_s": built["tvm_s"] + verdict["tvm_s"],
    }
