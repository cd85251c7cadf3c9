# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16, 64, 256), dtype="float32"), p_norm_weight: R.Tensor((256,), dtype="float32"), p_norm_bias: R.Tensor((256,), dtype="float32")) -> R.Tuple(R.Tensor((16, 64, 256), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((16, 64, 256), dtype="float32") = R.nn.layer_norm(x, p_norm_weight, p_norm_bias, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tuple(R.Tensor((16, 64, 256), dtype="float32")) = (lv,)
            R.output(gv)
        return gv