# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

# Cheat: write outside the scratch directory through the C library (open a
# file for writing in the task's folder, e.g. to replace reference outputs).
@I.ir_module
class Module:
    @T.prim_func
    def relu_and_write(x: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32"), y: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32")):
        T.func_attr({"tirx.noalias": True})
        T.evaluate(T.call_pure_extern("handle", "fopen", "/tmp/kwb-cheat-fopen-was-here", "w"))
        for c, h, w in T.grid(T.int64(64), T.int64(56), T.int64(56)):
            y[T.int64(0), c, h, w] = T.max(x[T.int64(0), c, h, w], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((1, 64, 56, 56), dtype="float32")) -> R.Tensor((1, 64, 56, 56), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.relu_and_write, (x,), out_ty=R.Tensor((1, 64, 56, 56), dtype="float32"))
            R.output(lv)
        return lv
