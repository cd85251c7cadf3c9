# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

# A correct ReLU computed 64 times over (each pass stores the same values,
# and no compiler pass deletes a loop that stores): many times slower than
# the reference, and exact.
@I.ir_module
class Module:
    @T.prim_func
    def slow_relu(x: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32"), y: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32")):
        T.func_attr({"tirx.noalias": True})
        for _, c, h, w in T.grid(64, T.int64(64), T.int64(56), T.int64(56)):
            y[T.int64(0), c, h, w] = T.max(x[T.int64(0), c, h, w], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((1, 64, 56, 56), dtype="float32")) -> R.Tensor((1, 64, 56, 56), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.slow_relu, (x,), out_ty=R.Tensor((1, 64, 56, 56), dtype="float32"))
            R.output(lv)
        return lv
