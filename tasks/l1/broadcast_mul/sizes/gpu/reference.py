# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16, 1024, 1024), dtype="float32"), s: R.Tensor((1024, 1), dtype="float32")) -> R.Tuple(R.Tensor((16, 1024, 1024), dtype="float32")):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((16, 1024, 1024), dtype="float32") = R.multiply(x, s)
            gv: R.Tuple(R.Tensor((16, 1024, 1024), dtype="float32")) = (lv,)
            R.output(gv)
        return gv