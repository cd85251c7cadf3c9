# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 32, 28, 28), dtype="float32"), p_primary_weight: R.Tensor((32, 32, 1, 1), dtype="float32"), p_bn1_weight: R.Tensor((32,), dtype="float32"), p_bn1_bias: R.Tensor((32,), dtype="float32"), p_bn1_running_mean: R.Tensor((32,), dtype="float32"), p_bn1_running_var: R.Tensor((32,), dtype="float32"), p_cheap_weight: R.Tensor((32, 1, 3, 3), dtype="float32"), p_bn2_weight: R.Tensor((32,), dtype="float32"), p_bn2_bias: R.Tensor((32,), dtype="float32"), p_bn2_running_mean: R.Tensor((32,), dtype="float32"), p_bn2_running_var: R.Tensor((32,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 28, 28), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.conv2d(x, p_primary_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tuple(R.Tensor((1, 32, 28, 28), dtype="float32"), R.Tensor((32,), dtype="float32"), R.Tensor((32,), dtype="float32")) = R.nn.batch_norm(lv, p_bn1_weight, p_bn1_bias, p_bn1_running_mean, p_bn1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv2: R.Tensor((1, 32, 28, 28), dtype="float32") = lv1[0]
            lv3: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.conv2d(lv3, p_cheap_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=32, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv5: R.Tuple(R.Tensor((1, 32, 28, 28), dtype="float32"), R.Tensor((32,), dtype="float32"), R.Tensor((32,), dtype="float32")) = R.nn.batch_norm(lv4, p_bn2_weight, p_bn2_bias, p_bn2_running_mean, p_bn2_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv6: R.Tensor((1, 32, 28, 28), dtype="float32") = lv5[0]
            lv7: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.relu(lv6)
            lv8: R.Tensor((1, 64, 28, 28), dtype="float32") = R.concat((lv3, lv7), axis=1)
            gv: R.Tuple(R.Tensor((1, 64, 28, 28), dtype="float32")) = (lv8,)
            R.output(gv)
        return gv