# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 128, 14, 14), dtype="float32"), p_conv1_weight: R.Tensor((32, 128, 1, 1), dtype="float32"), p_bn1_weight: R.Tensor((32,), dtype="float32"), p_bn1_bias: R.Tensor((32,), dtype="float32"), p_bn1_running_mean: R.Tensor((32,), dtype="float32"), p_bn1_running_var: R.Tensor((32,), dtype="float32"), p_conv2_weight: R.Tensor((32, 32, 3, 3), dtype="float32"), p_bn2_weight: R.Tensor((32,), dtype="float32"), p_bn2_bias: R.Tensor((32,), dtype="float32"), p_bn2_running_mean: R.Tensor((32,), dtype="float32"), p_bn2_running_var: R.Tensor((32,), dtype="float32"), p_conv3_weight: R.Tensor((128, 32, 1, 1), dtype="float32"), p_bn3_weight: R.Tensor((128,), dtype="float32"), p_bn3_bias: R.Tensor((128,), dtype="float32"), p_bn3_running_mean: R.Tensor((128,), dtype="float32"), p_bn3_running_var: R.Tensor((128,), dtype="float32")) -> R.Tuple(R.Tensor((1, 128, 14, 14), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 32, 14, 14), dtype="float32") = R.nn.conv2d(x, p_conv1_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tuple(R.Tensor((1, 32, 14, 14), dtype="float32"), R.Tensor((32,), dtype="float32"), R.Tensor((32,), dtype="float32")) = R.nn.batch_norm(lv, p_bn1_weight, p_bn1_bias, p_bn1_running_mean, p_bn1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv2: R.Tensor((1, 32, 14, 14), dtype="float32") = lv1[0]
            lv3: R.Tensor((1, 32, 14, 14), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 32, 14, 14), dtype="float32") = R.nn.conv2d(lv3, p_conv2_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv5: R.Tuple(R.Tensor((1, 32, 14, 14), dtype="float32"), R.Tensor((32,), dtype="float32"), R.Tensor((32,), dtype="float32")) = R.nn.batch_norm(lv4, p_bn2_weight, p_bn2_bias, p_bn2_running_mean, p_bn2_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv6: R.Tensor((1, 32, 14, 14), dtype="float32") = lv5[0]
            lv7: R.Tensor((1, 32, 14, 14), dtype="float32") = R.nn.relu(lv6)
            lv8: R.Tensor((1, 128, 14, 14), dtype="float32") = R.nn.conv2d(lv7, p_conv3_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv9: R.Tuple(R.Tensor((1, 128, 14, 14), dtype="float32"), R.Tensor((128,), dtype="float32"), R.Tensor((128,), dtype="float32")) = R.nn.batch_norm(lv8, p_bn3_weight, p_bn3_bias, p_bn3_running_mean, p_bn3_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv10: R.Tensor((1, 128, 14, 14), dtype="float32") = lv9[0]
            lv11: R.Tensor((1, 128, 14, 14), dtype="float32") = R.add(x, lv10)
            lv12: R.Tensor((1, 128, 14, 14), dtype="float32") = R.nn.relu(lv11)
            gv: R.Tuple(R.Tensor((1, 128, 14, 14), dtype="float32")) = (lv12,)
            R.output(gv)
        return gv