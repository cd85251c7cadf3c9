# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 256, 512), dtype="float32"), b: R.Tensor((512,), dtype="float32")) -> R.Tuple(R.Tensor((128, 256, 512), dtype="float32")):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((128, 256, 512), dtype="float32") = R.add(x, b)
            gv: R.Tuple(R.Tensor((128, 256, 512), dtype="float32")) = (lv,)
            R.output(gv)
        return gv