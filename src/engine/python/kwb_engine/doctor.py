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
    }


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
