"""L2 moves on a GPU: edits of a module's CUDA C, the text nvcc compiles.

Each move changes what the compiler is told, not the schedule:
- `const-inputs`: the kernel's pointer parameters it never writes become
  `const float* __restrict__`, which lets nvcc load them through the
  read-only data path (`ld.global.nc`).
- `occupancy-N`: `__launch_bounds__(T)` becomes `__launch_bounds__(T, N)`,
  asking for N resident blocks per SM; nvcc caps registers per thread to
  fit them (more warps to hide memory latency, at the risk of spills).
- `unroll-K`: `#pragma unroll K` on each kernel's outermost serial loop
  with a constant trip count (the reduction loop of a tiled kernel).

The moves are offered only where they change the text. Whether one pays is
measured on the device.
"""

import re

_TYPES = r"(?:float|double|half|int|signed char|unsigned char|short|long|int64_t|int8_t|uint8_t|__nv_bfloat16)"
_PARAM = re.compile(rf"(?<![\w*])({_TYPES}\*) __restrict__ (\w+)")
_LAUNCH = re.compile(r"__launch_bounds__\((\d+)\)")
_LOOP = re.compile(r"^(\s*)for \((?:int|int64_t) (\w+) = \(?(?:int64_t)?\)?0; \2 < \(?(?:int64_t)?\)?(\d+); \+\+\2\) \{$")


def _written(body, name):
    """True if the kernels may write through `name`: it is on the left of an
    assignment, in an atomic's line, or copied into a pointer variable."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    for line in body.splitlines():
        if not word.search(line):
            continue
        if "atomic" in line:
            return True
        lhs, sep, rhs = line.partition(" = ")
        if sep and word.search(lhs):
            return True
        if sep and re.search(r"\*\s*\w+\s*$", lhs) and word.search(rhs):
            return True
    return False


def const_inputs(source):
    body = _body(source)
    names = sorted({m.group(2) for m in _PARAM.finditer(source)})
    readonly = [n for n in names if not _written(body, n)]
    if not readonly:
        return None, []
    out = source
    for n in readonly:
        out = re.sub(rf"(?<![\w*])({_TYPES}\*) __restrict__ {n}\b", rf"const \1 __restrict__ {n}", out)
    return (out if out != source else None), readonly


def _body(source):
    """The text after the kernel signatures (where loads and stores are)."""
    parts = source.split('extern "C" __global__')
    return "\n".join(p.split("{", 1)[1] if "{" in p else "" for p in parts[1:])


def occupancy(source, blocks):
    def repl(m):
        threads = int(m.group(1))
        # An SM holds at most 2048 threads: ask for no more blocks than fit.
        n = min(blocks, max(1, 2048 // threads))
        return f"__launch_bounds__({threads}, {n})" if n > 1 else m.group(0)

    out = _LAUNCH.sub(repl, source)
    return out if out != source else None


def unroll(source, factor):
    """`#pragma unroll K` before each kernel's first constant-trip loop whose
    trip count K divides and exceeds."""
    lines = source.splitlines(keepends=True)
    out, in_kernel, done = [], False, False
    for line in lines:
        if line.startswith('extern "C" __global__') and line.rstrip().endswith("{"):
            in_kernel, done = True, False
        m = _LOOP.match(line.rstrip("\n"))
        if in_kernel and not done and m and int(m.group(3)) > factor and int(m.group(3)) % factor == 0:
            prev = out[-1].strip() if out else ""
            if not prev.startswith("#pragma unroll"):
                out.append(f"{m.group(1)}#pragma unroll {factor}\n")
            done = True
        out.append(line)
    text = "".join(out)
    return text if text != source else None


def moves(args):
    """Job `cuda_l2_moves`: {text (CUDA C)} -> {moves: [{name, rationale, text}]}."""
    source = args["text"]
    out = []
    text, names = const_inputs(source)
    if text:
        out.append({"name": "const-inputs", "text": text,
                    "rationale": f"declare the inputs the kernels never write ({', '.join(names)}) `const __restrict__`, so nvcc loads them through the read-only path"})
    for blocks in (2, 4):
        text = occupancy(source, blocks)
        if text:
            out.append({"name": f"occupancy-{blocks}", "text": text,
                        "rationale": f"ask nvcc for {blocks} resident blocks per SM (`__launch_bounds__(threads, {blocks})`): registers are capped so more warps hide memory latency"})
    for factor in (4, 2):
        text = unroll(source, factor)
        if text:
            out.append({"name": f"unroll-{factor}", "text": text,
                        "rationale": f"`#pragma unroll {factor}` on each kernel's outer loop: fewer branches and more loads in flight per iteration"})
    seen, unique = {source}, []
    for m in out:
        if m["text"] not in seen:
            seen.add(m["text"])
            unique.append(m)
    return {"moves": unique, "tvm_s": 0.0}
