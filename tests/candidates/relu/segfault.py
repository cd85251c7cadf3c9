# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def scribble(x: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32"), y: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32")):
        T.func_attr({"tirx.noalias": True})
        for i in range(T.int64(64)):
            y[T.int64(0), T.int64(0), T.int64(0), (T.int64(1) << T.int64(42)) + i * T.int64(1048576)] = x[T.int64(0), T.int64(0), T.int64(0), i]

    @R.function
    def main(x: R.Tensor((1, 64, 56, 56), dtype="float32")) -> R.Tensor((1, 64, 56, 56), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.scribble, (x,), out_ty=R.Tensor((1, 64, 56, 56), dtype="float32"))
            R.output(lv)
        return lv
