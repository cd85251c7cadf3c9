"""OS confinement a worker applies to itself at start, before `import tvm`,
while it is still single-threaded (Landlock binds the calling thread and the
threads it starts later, so every thread TVM or numpy starts is bound too).

- Landlock (no root needed): writes, file creation and removal only under
  the directories kwb names (the worker's scratch; a build worker also the
  artifacts folder); program execution only of the files named (a build
  worker: the C toolchain `export_library` links with; a measuring worker:
  nothing); no TCP bind or connect; no signals to, and no abstract sockets
  of, processes outside the sandbox. A sandboxed process also cannot
  ptrace or read /proc/<pid>/environ of one outside it, so kwb's own
  environment is out of reach.
- seccomp (measuring workers): execve and execveat fail with EPERM, so a
  loaded kernel cannot start a program even through a path Landlock allows.
- no_new_privs and an empty capability set.

What was applied is reported in the worker's `ready` line and so in every
result's manifest; a layer the kernel lacks is reported as missing, not
silently skipped.
"""

import ctypes
import os
import shutil
import struct
import subprocess

_SYS_LANDLOCK_CREATE_RULESET = 444
_SYS_LANDLOCK_ADD_RULE = 445
_SYS_LANDLOCK_RESTRICT_SELF = 446
_SYS_SECCOMP = 317
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24

_EXECUTE = 1 << 0
_WRITE_FILE = 1 << 1
_REMOVE_DIR = 1 << 4
_REMOVE_FILE = 1 << 5
_MAKE_ALL = sum(1 << b for b in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_REFER = 1 << 13
_TRUNCATE = 1 << 14
_NET_BIND_TCP = 1 << 0
_NET_CONNECT_TCP = 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
_SCOPE_SIGNAL = 1 << 1


def _libc():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _err(libc):
    return os.strerror(ctypes.get_errno())


def toolchain():
    """The programs export_library runs to link a shared library (the
    compiler driver, collect2, ld) and the ELF loader they need."""
    found = []
    cc = None
    for name in (os.environ.get("CXX"), "g++", "gcc", "cc", "clang++", "clang"):
        if name and shutil.which(name):
            cc = shutil.which(name)
            break
    # Cross toolchains link kernels built for a board's architecture.
    from .cross import CROSS_GCC

    drivers = [cc] + [shutil.which(g) for g in sorted(set(CROSS_GCC.values()))]
    for cc in [d for d in drivers if d]:
        found.append(cc)
        for prog in ("collect2", "ld", "lto-wrapper", "as", "cc1", "cc1plus"):
            try:
                p = subprocess.run([cc, f"-print-prog-name={prog}"], capture_output=True, text=True, timeout=10).stdout.strip()
            except Exception:
                continue
            p = p if os.path.isabs(p) else shutil.which(p) or ""
            if p and os.path.exists(p):
                found.append(p)
    for loader in ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"):
        if os.path.exists(loader):
            found.append(loader)
    return sorted({os.path.realpath(p) for p in found})


def _landlock(libc, write_dirs, exec_files, connect=False):
    abi = libc.syscall(_SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 0:
        return {"applied": False, "why": f"Landlock is not available: {_err(libc)}"}
    fs = _EXECUTE | _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_ALL
    if abi >= 2:
        fs |= _REFER
    if abi >= 3:
        fs |= _TRUNCATE
    # A remote-measuring worker talks to an RPC tracker and its servers, at
    # ports the tracker hands out: it may connect, never listen.
    net = (_NET_BIND_TCP | (0 if connect else _NET_CONNECT_TCP)) if abi >= 4 else 0
    scoped = (_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL) if abi >= 6 else 0
    attr = struct.pack("=QQQ", fs, net, scoped)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    buf = ctypes.create_string_buffer(attr[:size], size)
    fd = libc.syscall(_SYS_LANDLOCK_CREATE_RULESET, buf, ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        return {"applied": False, "why": f"landlock_create_ruleset failed: {_err(libc)}"}
    try:
        rules = [(d, fs & ~_EXECUTE) for d in write_dirs] + [(f, _EXECUTE) for f in exec_files]
        for path, access in rules:
            try:
                pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                rule = ctypes.create_string_buffer(struct.pack("=Qi", access, pfd), 12)
                if libc.syscall(_SYS_LANDLOCK_ADD_RULE, fd, 1, rule, ctypes.c_uint32(0)) < 0:
                    return {"applied": False, "why": f"landlock_add_rule({path}) failed: {_err(libc)}"}
            finally:
                os.close(pfd)
        if libc.syscall(_SYS_LANDLOCK_RESTRICT_SELF, fd, ctypes.c_uint32(0)) < 0:
            return {"applied": False, "why": f"landlock_restrict_self failed: {_err(libc)}"}
    finally:
        os.close(fd)
    return {"applied": True, "abi": int(abi), "write": list(write_dirs), "execute": list(exec_files),
            "network": ("TCP connect only" if connect else "no TCP") if net else "not covered (ABI < 4)", "scoped": bool(scoped)}


def _seccomp_no_exec(libc):
    """A BPF filter: execve/execveat (and any x32 syscall) fail with EPERM."""
    ld_abs, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    allow, eperm = 0x7FFF0000, 0x00050000 | 1
    prog = [
        (ld_abs, 0, 0, 4),                 # arch
        (jeq, 1, 0, 0xC000003E),           # x86_64: go on; else allow (other arches untouched)
        (ret, 0, 0, allow),
        (ld_abs, 0, 0, 0),                 # syscall number
        (jge, 3, 0, 0x40000000),           # x32 ABI: refuse
        (jeq, 2, 0, 59),                   # execve
        (jeq, 1, 0, 322),                  # execveat
        (ret, 0, 0, allow),
        (ret, 0, 0, eperm),
    ]
    return _install_filter(libc, prog, ["execve", "execveat"])


def _install_filter(libc, prog, denies):
    """Installs a BPF program of (code, jt, jf, k) instructions."""
    raw = b"".join(struct.pack("=HBBI", *ins) for ins in prog)
    filt = ctypes.create_string_buffer(raw, len(raw))
    fprog = struct.pack("=HxxxxxxQ", len(prog), ctypes.addressof(filt))
    fbuf = ctypes.create_string_buffer(fprog, len(fprog))
    # SECCOMP_SET_MODE_FILTER with TSYNC, so every thread is covered.
    r = libc.syscall(_SYS_SECCOMP, ctypes.c_uint(1), ctypes.c_uint(1), fbuf)
    if r != 0:
        return {"applied": False, "why": f"seccomp failed: {_err(libc)}"}
    return {"applied": True, "denies": denies}


def _drop_capabilities(libc):
    for cap in range(0, 64):
        libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    # capset(v3, all zero): effective, permitted and inheritable emptied.
    header = ctypes.create_string_buffer(struct.pack("=Ii", 0x20080522, 0), 8)
    data = ctypes.create_string_buffer(b"\0" * 24, 24)
    return libc.syscall(126, header, data) == 0


def apply():
    """Confines this process as KWB_SANDBOX_ROLE says; returns the report."""
    role = os.environ.get("KWB_SANDBOX_ROLE", "")
    report = {"role": role or "none"}
    if role not in ("build", "measure", "remote"):
        report["note"] = "trusted work (tuning, import, doctor): the environment, scratch and network limits only"
        return report
    libc = _libc()
    write_dirs = [d for d in os.environ.get("KWB_SANDBOX_WRITE", "").split(os.pathsep) if d]
    exec_files = toolchain() if role == "build" else []
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        report["no_new_privs"] = False
        return report
    report["no_new_privs"] = True
    report["landlock"] = _landlock(libc, write_dirs, exec_files, connect=role == "remote")
    report["seccomp"] = _seccomp_no_exec(libc) if role in ("measure", "remote") else {
        "applied": False, "why": "a build worker links with the C toolchain; Landlock limits what it may run"}
    report["capabilities_dropped"] = _drop_capabilities(libc)
    return report


def _seccomp_one_process(libc):
    """A BPF filter for a side (sides.py): threads may be started, processes
    not (fork, vfork, clone without CLONE_THREAD fail with EPERM; clone3
    with ENOSYS, so the C library falls back to clone, whose flags a filter
    can read), and the process group cannot be left (setsid, setpgid), so
    everything a side runs is stopped and killed with it."""
    ld_abs, jeq, jset, ret = 0x20, 0x15, 0x45, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
    clone_thread = 0x00010000
    prog = [
        (ld_abs, 0, 0, 4),            # 0: arch
        (jeq, 1, 0, 0xC000003E),      # 1: x86_64: go on
        (ret, 0, 0, allow),           # 2
        (ld_abs, 0, 0, 0),            # 3: syscall number
        (jeq, 9, 0, 57),              # 4: fork -> 14
        (jeq, 8, 0, 58),              # 5: vfork -> 14
        (jeq, 7, 0, 112),             # 6: setsid -> 14
        (jeq, 6, 0, 109),             # 7: setpgid -> 14
        (jeq, 6, 0, 435),             # 8: clone3 -> 15
        (jeq, 1, 0, 56),              # 9: clone -> 11
        (ret, 0, 0, allow),           # 10
        (ld_abs, 0, 0, 16),           # 11: clone's flags (args[0], low half)
        (jset, 0, 1, clone_thread),   # 12: a thread -> 13, else 14
        (ret, 0, 0, allow),           # 13
        (ret, 0, 0, eperm),           # 14
        (ret, 0, 0, enosys),          # 15
    ]
    return _install_filter(libc, prog, ["fork", "vfork", "clone without CLONE_THREAD", "clone3", "setsid", "setpgid"])


def side():
    """What a side of a measurement (sides.py) adds to its worker's
    confinement, right after its fork and before it loads its module: a
    Landlock domain nested in the worker's, with no file writes and scoped
    signals and abstract sockets (so it can signal or trace neither the
    job's process nor the other side), and a filter that allows threads but
    no new process. Without the worker's own layers (a trusted run by hand)
    it adds them all the same."""
    libc = _libc()
    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    return {"landlock": _landlock(libc, [], []), "seccomp": _seccomp_one_process(libc)}
