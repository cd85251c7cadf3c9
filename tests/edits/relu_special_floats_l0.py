# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 56, 56), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 56, 56), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            # ReLU, through constants that are not finite: clamped to
            # [-inf, inf], NaN where x is below -1e30 (never).
            lv0: R.Tensor((1, 64, 56, 56), dtype="float32") = R.minimum(R.maximum(x, R.const(float("-inf"), "float32")), R.const(float("inf"), "float32"))
            lv1: R.Tensor((1, 64, 56, 56), dtype="bool") = R.less(lv0, R.const(-1e30, "float32"))
            lv2: R.Tensor((1, 64, 56, 56), dtype="float32") = R.where(lv1, R.const(float("nan"), "float32"), lv0)
            lv: R.Tensor((1, 64, 56, 56), dtype="float32") = R.maximum(lv2, R.const(0.0, "float32"))
            gv: R.Tuple(R.Tensor((1, 64, 56, 56), dtype="float32")) = (lv,)
            R.output(gv)
        return gv
