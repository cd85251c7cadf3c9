# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((1024, 1024), dtype="float32"), b: R.Tensor((1024, 1024), dtype="float32")) -> R.Tuple(R.Tensor((1024, 1024), dtype="float32")):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((1024, 1024), dtype="float32") = R.matmul(a, b, out_dtype="float32")
            gv: R.Tuple(R.Tensor((1024, 1024), dtype="float32")) = (lv,)
            R.output(gv)
        return gv