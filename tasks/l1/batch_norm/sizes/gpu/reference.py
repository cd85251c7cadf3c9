# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 512, 224, 224), dtype="float32"), p_bn_weight: R.Tensor((512,), dtype="float32"), p_bn_bias: R.Tensor((512,), dtype="float32"), p_bn_running_mean: R.Tensor((512,), dtype="float32"), p_bn_running_var: R.Tensor((512,), dtype="float32")) -> R.Tuple(R.Tensor((1, 512, 224, 224), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tuple(R.Tensor((1, 512, 224, 224), dtype="float32"), R.Tensor((512,), dtype="float32"), R.Tensor((512,), dtype="float32")) = R.nn.batch_norm(x, p_bn_weight, p_bn_bias, p_bn_running_mean, p_bn_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv1: R.Tensor((1, 512, 224, 224), dtype="float32") = lv[0]
            gv: R.Tuple(R.Tensor((1, 512, 224, 224), dtype="float32")) = (lv1,)
            R.output(gv)
        return gv