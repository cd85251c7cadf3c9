"""What the engine environment has: versions, codegen support, CPU features."""

import importlib
import importlib.metadata
import os
import platform
import sys

REQUIRED = ["tvm", "tvm_ffi", "numpy", "ml_dtypes", "psutil", "cloudpickle", "tornado", "xgboost"]
PINS = {"apache-tvm": "0.27.0.post1", "apache-tvm-ffi": "0.1.14.post1"}


def _dist_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def versions():
    import numpy
    import tvm

    return {
        "python": platform.python_version(),
        "tvm": tvm.__version__,
        "tvm_ffi": _dist_version("apache-tvm-ffi"),
        "numpy": numpy.__version__,
        "host": host_cpu(),
    }


def host_cpu():
    """The host CPU as LLVM names it: baseline and candidates are both built
    for it (`mcpu`), and the features LLVM enables for it are recorded."""
    try:
        from tvm.target import Target, codegen

        cpu = str(codegen.llvm_get_system_cpu())
        t = Target({"kind": "llvm", "mcpu": cpu})
        return {
            "mcpu": cpu,
            "triple": str(codegen.llvm_get_system_triple()),
            "vector_width_bits": int(codegen.llvm_get_vector_width(t)),
            "features": sorted(str(f) for f in codegen.llvm_get_cpu_features(t)),
        }
    except Exception as e:  # a CPU LLVM does not know: generic code, said so
        return {"error": f"{type(e).__name__}: {e}"}


def probe(args):
    """Job `probe`: what this worker's sandbox stops, tried for real: a file
    written outside scratch, a program started, kwb's environment read
    through /proc, a TCP connection to loopback; in a measure worker, also
    what a side of a measurement may do (sides.probe)."""
    import socket
    import subprocess

    out = {}
    target = args.get("outside_path")
    if target:
        try:
            with open(target, "w") as f:
                f.write("written by a sandboxed worker")
            out["write_outside"] = "allowed"
        except OSError as e:
            out["write_outside"] = f"denied: {e.strerror}"
    try:
        subprocess.run(["/bin/true"], check=True, timeout=10)
        out["exec"] = "allowed"
    except (OSError, subprocess.SubprocessError) as e:
        out["exec"] = f"denied: {getattr(e, 'strerror', None) or e}"
    pid = args.get("read_environ_of")
    if pid:
        try:
            with open(f"/proc/{int(pid)}/environ", "rb") as f:
                f.read()
            out["read_environ"] = "allowed"
        except OSError as e:
            out["read_environ"] = f"denied: {e.strerror}"
    try:
        s = socket.create_connection(("127.0.0.1", int(args.get("port", 9))), timeout=2)
        s.close()
        out["connect"] = "allowed"
    except OSError as e:
        out["connect"] = f"denied: {e.strerror or e}"
    if os.environ.get("KWB_SANDBOX_ROLE") == "measure":
        from . import sides

        out["side"] = sides.probe()
    out["tvm_s"] = 0.0
    return out


def cpu_features():
    flags = set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    flags.update(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    wanted = ["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512_vnni", "amx_tile", "neon", "asimd", "sve"]
    return [f for f in wanted if f in flags]


def net_interfaces():
    """Network interfaces other than loopback in this process's namespace
    (/proc/self/net/dev, unlike sysfs, follows the namespace); [] means the
    worker cannot reach any host."""
    names = []
    try:
        with open("/proc/self/net/dev") as f:
            for line in f.readlines()[2:]:
                name = line.split(":", 1)[0].strip()
                if name and name != "lo":
                    names.append(name)
    except OSError:
        pass
    return names


def doctor(args):
    import tvm

    info = tvm.support.libinfo()
    missing = []
    for mod in REQUIRED:
        try:
            importlib.import_module(mod)
        except Exception as e:
            missing.append({"module": mod, "error": str(e)})
    pins = []
    for dist, want in PINS.items():
        got = _dist_version(dist)
        if got != want:
            pins.append({"package": dist, "want": want, "got": got})
    try:
        import torch  # noqa: F401
        torch_version = torch.__version__
    except Exception:
        torch_version = None
    return {
        "executable": sys.executable,
        "env_keys": sorted(os.environ),
        "net_interfaces": net_interfaces(),
        "versions": versions(),
        "llvm": info.get("USE_LLVM", "OFF") not in ("OFF", "", None),
        "llvm_version": info.get("LLVM_VERSION"),
        "cuda": info.get("USE_CUDA", "OFF") not in ("OFF", "", None),
        "cpu": platform.machine(),
        "cpu_count": os.cpu_count(),
        "cpu_features": cpu_features(),
        "missing": missing,
        "pin_mismatch": pins,
        "torch": torch_version,
        "tvm_s": 0.0,
    }
