"""Tensors a model's forward reads without taking them as arguments, made
arguments, so the task is a pure function of its inputs.

Two kinds occur in KernelBench's files:
  - random draws in forward (`h0 = torch.randn(...)` where no initial state
    is given): every call computes something else, so no recorded output
    could check a candidate, and TVM's frontend has no random numbers to
    lower them to. Each draw becomes an input drawn from the same
    distribution on every seed.
  - state kept on the module across calls (`self.hidden = ...` in forward):
    torch.export refuses a tensor attribute that forward changes, and the
    output of a call depends on the calls before it. The state a call
    starts from becomes an input, drawn like the file's own initial value.

Found by running the model once and watching: the random functions are
wrapped to record each draw's shape, and every plain tensor attribute is
compared before and after the call.
"""

import contextlib
import inspect

from .errors import TASK, JobError

# torch function -> the init a draw of it is generated with (gen.py).
RANDOM_FUNCTIONS = {
    "randn": {"kind": "normal", "shift": 0.0, "scale": 1.0},
    "randn_like": {"kind": "normal", "shift": 0.0, "scale": 1.0},
    "rand": {"kind": "uniform", "low": 0.0, "high": 1.0},
    "rand_like": {"kind": "uniform", "low": 0.0, "high": 1.0},
}


@contextlib.contextmanager
def _random_functions(torch, replace):
    """torch.<name> for each random function becomes replace(name, original)."""
    saved = {name: getattr(torch, name) for name in RANDOM_FUNCTIONS}
    try:
        for name, original in saved.items():
            setattr(torch, name, replace(name, original))
        yield
    finally:
        for name, original in saved.items():
            setattr(torch, name, original)


def _tensor_attributes(model, torch):
    """(module path, attribute name, tensor) for every plain tensor attribute
    (not a parameter or buffer) of the model's modules."""
    out = []
    for path, mod in model.named_modules():
        for name, value in vars(mod).items():
            if torch.is_tensor(value) and not isinstance(value, torch.nn.Parameter):
                out.append((path, name, value))
    return out


def _state_init(value):
    """An init that draws like the file's own initial state: its mean and
    spread, or its one value."""
    v = value.detach().double()
    if v.numel() > 1 and float(v.std()) > 0:
        return {"kind": "normal", "shift": float(f"{float(v.mean()):.3g}"), "scale": float(f"{float(v.std()):.3g}")}
    return {"kind": "fill", "value": float(v.flatten()[0]) if v.numel() else 0.0}


def find(model, example, torch):
    """The model's implicit tensors: (state, draws), where state is a list of
    (module path, attribute, initial value, mutated in place) and draws a
    list of (function name, shape, dtype). Leaves the model as it was."""
    attrs = _tensor_attributes(model, torch)
    before = {(p, n): (t, t.detach().clone()) for p, n, t in attrs}
    draws = []

    def record(name, original):
        def draw(*a, **k):
            t = original(*a, **k)
            draws.append((name, tuple(t.shape), t.dtype))
            return t
        return draw

    try:
        with torch.no_grad(), _random_functions(torch, record):
            model(*example)
        state = []
        for path, name, _ in attrs:
            obj, value = before[(path, name)]
            now = getattr(model.get_submodule(path), name)
            in_place = not (obj.shape == value.shape and torch.equal(obj, value))
            if now is not obj or in_place:
                state.append((path, name, value, in_place))
    finally:
        for (path, name), (obj, value) in before.items():
            with torch.no_grad():
                if obj.shape == value.shape:
                    obj.copy_(value)
            setattr(model.get_submodule(path), name, obj)
    return state, draws


def explicit(model, example, torch):
    """(model, example, inits): the model with its implicit tensors as
    trailing arguments (state first, then draws), the example extended with
    their values, and the inits of the new arguments in order. Returns the
    model unchanged (and no inits) where it has none."""
    state, draws = find(model, example, torch)
    if not state and not draws:
        return model, example, []
    n_inputs = len(example)

    class Explicit(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = model

        def forward(self, *args):
            given, extra = args[:n_inputs], args[n_inputs:]
            mods = [self.inner.get_submodule(p) for p, _, _, _ in state]
            saved = [getattr(m, name) for m, (_, name, _, _) in zip(mods, state)]
            pending = list(extra[len(state):])

            def replay(name, original):
                def draw(*a, **k):
                    if not pending:
                        raise RuntimeError(f"torch.{name} was called more often than when the model was first run")
                    return pending.pop(0)
                return draw

            try:
                for m, (_, name, _, in_place), v in zip(mods, state, extra):
                    # A clone where forward writes into it: an argument is
                    # never mutated.
                    setattr(m, name, v.clone() if in_place else v)
                with _random_functions(torch, replay):
                    return self.inner(*given)
            finally:
                for m, (_, name, _, _), v in zip(mods, state, saved):
                    setattr(m, name, v)

    try:
        own = [n for n, p in inspect.signature(model.forward).parameters.items()
               if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        own = []
    names = own[:n_inputs] if len(own) >= n_inputs else [f"input_{i}" for i in range(n_inputs)]
    names += [f"state_{(p + '_' if p else '') + name}".replace(".", "_") for p, name, _, _ in state]
    names += [f"{fn}_{i}" for i, (fn, _, _) in enumerate(draws)]
    # torch.export names main's arguments after forward's parameters.
    Explicit.forward.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])
    gen = torch.Generator().manual_seed(0)
    values = [v for _, _, v, _ in state]
    for fn, shape, dtype in draws:
        base = torch.randn if fn.startswith("randn") else torch.rand
        values.append(base(shape, generator=gen, dtype=dtype))
    inits = [_state_init(v) for _, _, v, _ in state] + [dict(RANDOM_FUNCTIONS[fn]) for fn, _, _ in draws]
    return Explicit().eval(), list(example) + values, inits


# Aten ops that draw random numbers. explicit() has made the draws of
# RANDOM_FUNCTIONS inputs, so any left in an exported graph are draws it
# could not.
RANDOM_OPS = {"rand", "randn", "rand_like", "randn_like", "randint", "randint_like", "randperm", "bernoulli",
              "normal", "uniform", "multinomial", "poisson", "exponential", "cauchy", "geometric", "log_normal"}


def refuse_random_ops(ep):
    for node in ep.graph.nodes:
        if node.op != "call_function":
            continue
        parts = str(node.target).split(".")
        name = parts[1].rstrip("_") if len(parts) > 1 and parts[0] == "aten" else None
        if name in RANDOM_OPS:
            raise JobError(TASK, f"forward draws random numbers (aten.{parts[1]}) in a way that cannot become an input "
                           "(draws of torch.randn, torch.rand and their _like forms can): a task must compute the same outputs "
                           "from the same inputs", "export")
