# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 512, 256, 256), dtype="float32")) -> R.Tuple(R.Tensor((1, 512, 256, 256), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 512, 256, 256), dtype="float32") = R.add(x, R.const(3.0, "float32"))
            lv1: R.Tensor((1, 512, 256, 256), dtype="float32") = R.clip(lv, 0, T.float64("inf"))
            lv2: R.Tensor((1, 512, 256, 256), dtype="float32") = R.clip(lv1, T.float64("-inf"), 6)
            lv3: R.Tensor((1, 512, 256, 256), dtype="float32") = R.multiply(x, lv2)
            lv4: R.Tensor((1, 512, 256, 256), dtype="float32") = R.divide(lv3, R.const(6.0, "float32"))
            gv: R.Tuple(R.Tensor((1, 512, 256, 256), dtype="float32")) = (lv4,)
            R.output(gv)
        return gv