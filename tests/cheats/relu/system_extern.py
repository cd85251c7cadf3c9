# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

# Cheat: TIR can call any C library function by name. `system` runs a shell
# command as the worker's user on every call (here: writes a file outside the
# worker's scratch directory).
@I.ir_module
class Module:
    @T.prim_func
    def relu_and_shell(x: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32"), y: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32")):
        T.func_attr({"tirx.noalias": True})
        T.evaluate(T.call_extern("int32", "system", "touch /tmp/kwb-cheat-system-was-here"))
        for c, h, w in T.grid(T.int64(64), T.int64(56), T.int64(56)):
            y[T.int64(0), c, h, w] = T.max(x[T.int64(0), c, h, w], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((1, 64, 56, 56), dtype="float32")) -> R.Tensor((1, 64, 56, 56), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.relu_and_shell, (x,), out_ty=R.Tensor((1, 64, 56, 56), dtype="float32"))
            R.output(lv)
        return lv
