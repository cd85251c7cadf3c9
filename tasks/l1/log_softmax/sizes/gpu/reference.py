# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1024, 16000), dtype="float32")) -> R.Tuple(R.Tensor((1024, 16000), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1024, 16000), dtype="float32") = R.nn.log_softmax(x, axis=-1)
            gv: R.Tuple(R.Tensor((1024, 16000), dtype="float32")) = (lv,)
            R.output(gv)
        return gv