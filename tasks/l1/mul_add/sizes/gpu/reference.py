# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((2048, 8192), dtype="float32"), b: R.Tensor((2048, 8192), dtype="float32"), c: R.Tensor((2048, 8192), dtype="float32")) -> R.Tuple(R.Tensor((2048, 8192), dtype="float32")):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((2048, 8192), dtype="float32") = R.multiply(a, b)
            lv1: R.Tensor((2048, 8192), dtype="float32") = R.add(lv, c)
            gv: R.Tuple(R.Tensor((2048, 8192), dtype="float32")) = (lv1,)
            R.output(gv)
        return gv