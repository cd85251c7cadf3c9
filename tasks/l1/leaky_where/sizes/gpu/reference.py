# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4096, 4096), dtype="float32")) -> R.Tuple(R.Tensor((4096, 4096), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((4096, 4096), dtype="bool") = R.greater(x, R.const(0.0, "float32"))
            lv1: R.Tensor((4096, 4096), dtype="float32") = R.multiply(x, R.const(0.10000000149011612, "float32"))
            lv2: R.Tensor((4096, 4096), dtype="float32") = R.where(lv, x, lv1)
            gv: R.Tuple(R.Tensor((4096, 4096), dtype="float32")) = (lv2,)
            R.output(gv)
        return gv