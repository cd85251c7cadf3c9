# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((512, 2048), dtype="float32"), w: R.Tensor((2048, 1024), dtype="int8"), scale: R.Tensor((1024,), dtype="float32")) -> R.Tuple(R.Tensor((512, 1024), dtype="float32")):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((2048, 1024), dtype="float32") = R.astype(w, dtype="float32")
            lv1: R.Tensor((2048, 1024), dtype="float32") = R.multiply(lv, scale)
            lv2: R.Tensor((512, 1024), dtype="float32") = R.matmul(x, lv1, out_dtype="float32")
            gv: R.Tuple(R.Tensor((512, 1024), dtype="float32")) = (lv2,)
            R.output(gv)
        return gv