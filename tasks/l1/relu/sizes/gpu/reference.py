# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 128, 56, 56), dtype="float32")) -> R.Tuple(R.Tensor((128, 128, 56, 56), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 128, 56, 56), dtype="float32") = R.nn.relu(x)
            gv: R.Tuple(R.Tensor((128, 128, 56, 56), dtype="float32")) = (lv,)
            R.output(gv)
        return gv