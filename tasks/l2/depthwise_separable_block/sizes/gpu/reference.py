# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 64, 56, 56), dtype="float32"), p_dw_weight: R.Tensor((64, 1, 3, 3), dtype="float32"), p_bn1_weight: R.Tensor((64,), dtype="float32"), p_bn1_bias: R.Tensor((64,), dtype="float32"), p_bn1_running_mean: R.Tensor((64,), dtype="float32"), p_bn1_running_var: R.Tensor((64,), dtype="float32"), p_pw_weight: R.Tensor((128, 64, 1, 1), dtype="float32"), p_bn2_weight: R.Tensor((128,), dtype="float32"), p_bn2_bias: R.Tensor((128,), dtype="float32"), p_bn2_running_mean: R.Tensor((128,), dtype="float32"), p_bn2_running_var: R.Tensor((128,), dtype="float32")) -> R.Tuple(R.Tensor((128, 128, 56, 56), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 64, 56, 56), dtype="float32") = R.nn.conv2d(x, p_dw_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=64, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tuple(R.Tensor((128, 64, 56, 56), dtype="float32"), R.Tensor((64,), dtype="float32"), R.Tensor((64,), dtype="float32")) = R.nn.batch_norm(lv, p_bn1_weight, p_bn1_bias, p_bn1_running_mean, p_bn1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv2: R.Tensor((128, 64, 56, 56), dtype="float32") = lv1[0]
            lv3: R.Tensor((128, 64, 56, 56), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((128, 128, 56, 56), dtype="float32") = R.nn.conv2d(lv3, p_pw_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv5: R.Tuple(R.Tensor((128, 128, 56, 56), dtype="float32"), R.Tensor((128,), dtype="float32"), R.Tensor((128,), dtype="float32")) = R.nn.batch_norm(lv4, p_bn2_weight, p_bn2_bias, p_bn2_running_mean, p_bn2_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv6: R.Tensor((128, 128, 56, 56), dtype="float32") = lv5[0]
            lv7: R.Tensor((128, 128, 56, 56), dtype="float32") = R.nn.relu(lv6)
            gv: R.Tuple(R.Tensor((128, 128, 56, 56), dtype="float32")) = (lv7,)
            R.output(gv)
        return gv