# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((4096, 4096), dtype="float32"), v: R.Tensor((4096,), dtype="float32")) -> R.Tuple(R.Tensor((4096,), dtype="float32")):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((4096, 4096), dtype="float32") = R.multiply(a, v)
            lv1: R.Tensor((4096,), dtype="float32") = R.sum(lv, axis=[1], keepdims=False)
            gv: R.Tuple(R.Tensor((4096,), dtype="float32")) = (lv1,)
            R.output(gv)
        return gv