# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((256, 512, 256), dtype="float32")) -> R.Tuple(R.Tensor((256, 256, 512), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((256, 256, 512), dtype="float32") = R.permute_dims(x, axes=[0, 2, 1])
            gv: R.Tuple(R.Tensor((256, 256, 512), dtype="float32")) = (lv,)
            R.output(gv)
        return gv