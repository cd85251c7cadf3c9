"""Linking for another architecture: kernels built for a board's triple
(an aarch64 board, say) are linked by a cross toolchain's gcc. Kept free of
TVM's import, since the sandbox (confine.py) reads CROSS_GCC before
anything else is loaded."""

import platform
import shutil

from . import errors
from .errors import JobError


# The Debian cross toolchains that link for another architecture's triple
# (`apt-get install gcc-aarch64-linux-gnu`, ...), by the triple's first part.
CROSS_GCC = {
    "aarch64": "aarch64-linux-gnu-gcc",
    "arm64": "aarch64-linux-gnu-gcc",
    "armv7": "arm-linux-gnueabihf-gcc",
    "armv7a": "arm-linux-gnueabihf-gcc",
    "riscv64": "riscv64-linux-gnu-gcc",
}


def cross_gcc(target):
    """The C compiler that links kernels built for `target`: None for this
    machine's own architecture, a cross toolchain's gcc for another's."""
    if target.kind.name != "llvm":
        return None
    triple = str(target.attrs.get("mtriple", "") or "")
    arch = triple.split("-", 1)[0]
    host = platform.machine()
    if not arch or arch == host or (arch in ("x86_64", "amd64") and host in ("x86_64", "AMD64")):
        return None
    gcc = CROSS_GCC.get(arch)
    if gcc is None:
        raise JobError(errors.SYNTAX_API, f"kwb does not know a toolchain that links for `{triple}` (it knows {', '.join(sorted(CROSS_GCC))})", "target")
    found = shutil.which(gcc)
    if found is None:
        raise JobError(errors.INTERNAL, f"linking for `{triple}` needs the cross toolchain `{gcc}`: install it (Debian: apt-get install gcc-{gcc[:-4]})", "build")
    return found
