# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 64, 56, 56), dtype="float32"), p_conv_weight: R.Tensor((64, 64, 3, 3), dtype="float32"), p_bn_weight: R.Tensor((64,), dtype="float32"), p_bn_bias: R.Tensor((64,), dtype="float32"), p_bn_running_mean: R.Tensor((64,), dtype="float32"), p_bn_running_var: R.Tensor((64,), dtype="float32")) -> R.Tuple(R.Tensor((128, 64, 56, 56), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 64, 56, 56), dtype="float32") = R.nn.conv2d(x, p_conv_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tuple(R.Tensor((128, 64, 56, 56), dtype="float32"), R.Tensor((64,), dtype="float32"), R.Tensor((64,), dtype="float32")) = R.nn.batch_norm(lv, p_bn_weight, p_bn_bias, p_bn_running_mean, p_bn_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv2: R.Tensor((128, 64, 56, 56), dtype="float32") = lv1[0]
            lv3: R.Tensor((128, 64, 56, 56), dtype="float32") = R.nn.relu(lv2)
            gv: R.Tuple(R.Tensor((128, 64, 56, 56), dtype="float32")) = (lv3,)
            R.output(gv)
        return gv