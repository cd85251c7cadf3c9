# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4096, 16384), dtype="float32")) -> R.Tuple(R.Tensor((4096,), dtype="int64")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((4096,), dtype="int64") = R.argmax(x, axis=-1, keepdims=False)
            gv: R.Tuple(R.Tensor((4096,), dtype="int64")) = (lv,)
            R.output(gv)
        return gv