# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 65536, 16, 16), dtype="float32")) -> R.Tuple(R.Tensor((1, 16384, 32, 32), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 16384, 2, 2, 16, 16), dtype="float32") = R.reshape(x, R.shape([1, 16384, 2, 2, 16, 16]))
            lv1: R.Tensor((1, 16384, 16, 2, 16, 2), dtype="float32") = R.permute_dims(lv, axes=[0, 1, 4, 2, 5, 3])
            lv2: R.Tensor((1, 16384, 32, 32), dtype="float32") = R.reshape(lv1, R.shape([1, 16384, 32, 32]))
            gv: R.Tuple(R.Tensor((1, 16384, 32, 32), dtype="float32")) = (lv2,)
            R.output(gv)
        return gv