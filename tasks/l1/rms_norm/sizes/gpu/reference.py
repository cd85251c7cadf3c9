# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 1024, 4096), dtype="float32"), p_weight: R.Tensor((4096,), dtype="float32")) -> R.Tuple(R.Tensor((4, 1024, 4096), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((4, 1024, 4096), dtype="float32") = R.power(x, R.const(2.0, "float32"))
            lv1: R.Tensor((4, 1024, 1), dtype="float32") = R.mean(lv, axis=[2], keepdims=True)
            lv2: R.Tensor((4, 1024, 1), dtype="float32") = R.add(lv1, R.const(9.9999999747524271e-07, "float32"))
            lv3: R.Tensor((4, 1024, 1), dtype="float32") = R.rsqrt(lv2)
            lv4: R.Tensor((4, 1024, 4096), dtype="float32") = R.multiply(x, lv3)
            lv5: R.Tensor((4, 1024, 4096), dtype="float32") = R.multiply(lv4, p_weight)
            gv: R.Tuple(R.Tensor((4, 1024, 4096), dtype="float32")) = (lv5,)
            R.output(gv)
        return gv