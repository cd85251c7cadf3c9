# from tvm.script import ir as I
# from tvm.script import relax as R

# Cheat: the same parse-time attack without a dunder name: `exec` of a string
# that slows the baseline down while the candidate runs at full speed.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 1000), dtype=exec("import time") or "float32")) -> R.Tuple(R.Tensor((128, 1000), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 1000), dtype="float32") = R.nn.softmax(x, axis=-1)
            gv: R.Tuple(R.Tensor((128, 1000), dtype="float32")) = (lv,)
            R.output(gv)
        return gv
