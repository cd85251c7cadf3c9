# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 512, 256, 256), dtype="float32")) -> R.Tuple(R.Tensor((1, 512, 256, 256), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 512, 256, 256), dtype="float32") = R.multiply(x, R.const(3.0, "float32"))
            lv1: R.Tensor((1, 512, 256, 256), dtype="float32") = R.clip(lv, 0, 6)
            gv: R.Tuple(R.Tensor((1, 512, 256, 256), dtype="float32")) = (lv1,)
            R.output(gv)
        return gv