# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 28, 28), dtype="float32"), p_gconv1_weight: R.Tensor((32, 16, 1, 1), dtype="float32"), p_bn1_weight: R.Tensor((32,), dtype="float32"), p_bn1_bias: R.Tensor((32,), dtype="float32"), p_bn1_running_mean: R.Tensor((32,), dtype="float32"), p_bn1_running_var: R.Tensor((32,), dtype="float32"), p_dw_weight: R.Tensor((32, 1, 3, 3), dtype="float32"), p_bn2_weight: R.Tensor((32,), dtype="float32"), p_bn2_bias: R.Tensor((32,), dtype="float32"), p_bn2_running_mean: R.Tensor((32,), dtype="float32"), p_bn2_running_var: R.Tensor((32,), dtype="float32"), p_gconv2_weight: R.Tensor((64, 8, 1, 1), dtype="float32"), p_bn3_weight: R.Tensor((64,), dtype="float32"), p_bn3_bias: R.Tensor((64,), dtype="float32"), p_bn3_running_mean: R.Tensor((64,), dtype="float32"), p_bn3_running_var: R.Tensor((64,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 28, 28), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.conv2d(x, p_gconv1_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=4, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tuple(R.Tensor((1, 32, 28, 28), dtype="float32"), R.Tensor((32,), dtype="float32"), R.Tensor((32,), dtype="float32")) = R.nn.batch_norm(lv, p_bn1_weight, p_bn1_bias, p_bn1_running_mean, p_bn1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv2: R.Tensor((1, 32, 28, 28), dtype="float32") = lv1[0]
            lv3: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 4, 8, 28, 28), dtype="float32") = R.reshape(lv3, R.shape([1, 4, 8, 28, 28]))
            lv5: R.Tensor((1, 8, 4, 28, 28), dtype="float32") = R.permute_dims(lv4, axes=[0, 2, 1, 3, 4])
            lv6: R.Tensor((1, 32, 28, 28), dtype="float32") = R.reshape(lv5, R.shape([1, 32, 28, 28]))
            lv7: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.conv2d(lv6, p_dw_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=32, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv8: R.Tuple(R.Tensor((1, 32, 28, 28), dtype="float32"), R.Tensor((32,), dtype="float32"), R.Tensor((32,), dtype="float32")) = R.nn.batch_norm(lv7, p_bn2_weight, p_bn2_bias, p_bn2_running_mean, p_bn2_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv9: R.Tensor((1, 32, 28, 28), dtype="float32") = lv8[0]
            lv10: R.Tensor((1, 64, 28, 28), dtype="float32") = R.nn.conv2d(lv9, p_gconv2_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=4, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv11: R.Tuple(R.Tensor((1, 64, 28, 28), dtype="float32"), R.Tensor((64,), dtype="float32"), R.Tensor((64,), dtype="float32")) = R.nn.batch_norm(lv10, p_bn3_weight, p_bn3_bias, p_bn3_running_mean, p_bn3_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv12: R.Tensor((1, 64, 28, 28), dtype="float32") = lv11[0]
            lv13: R.Tensor((1, 64, 28, 28), dtype="float32") = R.add(x, lv12)
            lv14: R.Tensor((1, 64, 28, 28), dtype="float32") = R.nn.relu(lv13)
            gv: R.Tuple(R.Tensor((1, 64, 28, 28), dtype="float32")) = (lv14,)
            R.output(gv)
        return gv