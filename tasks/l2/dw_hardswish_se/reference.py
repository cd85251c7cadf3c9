# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 48, 28, 28), dtype="float32"), p_dw_weight: R.Tensor((48, 1, 3, 3), dtype="float32"), p_bn_weight: R.Tensor((48,), dtype="float32"), p_bn_bias: R.Tensor((48,), dtype="float32"), p_bn_running_mean: R.Tensor((48,), dtype="float32"), p_bn_running_var: R.Tensor((48,), dtype="float32"), p_fc1_weight: R.Tensor((12, 48, 1, 1), dtype="float32"), p_fc1_bias: R.Tensor((12,), dtype="float32"), p_fc2_weight: R.Tensor((48, 12, 1, 1), dtype="float32"), p_fc2_bias: R.Tensor((48,), dtype="float32")) -> R.Tuple(R.Tensor((1, 48, 28, 28), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 48, 28, 28), dtype="float32") = R.nn.conv2d(x, p_dw_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=48, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tuple(R.Tensor((1, 48, 28, 28), dtype="float32"), R.Tensor((48,), dtype="float32"), R.Tensor((48,), dtype="float32")) = R.nn.batch_norm(lv, p_bn_weight, p_bn_bias, p_bn_running_mean, p_bn_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv2: R.Tensor((1, 48, 28, 28), dtype="float32") = lv1[0]
            lv3: R.Tensor((1, 48, 28, 28), dtype="float32") = R.add(lv2, R.const(3.0, "float32"))
            lv4: R.Tensor((1, 48, 28, 28), dtype="float32") = R.clip(lv3, 0, T.float64("inf"))
            lv5: R.Tensor((1, 48, 28, 28), dtype="float32") = R.clip(lv4, T.float64("-inf"), 6)
            lv6: R.Tensor((1, 48, 28, 28), dtype="float32") = R.multiply(lv2, lv5)
            lv7: R.Tensor((1, 48, 28, 28), dtype="float32") = R.divide(lv6, R.const(6.0, "float32"))
            lv8: R.Tensor((1, 48, 1, 1), dtype="float32") = R.mean(lv7, axis=[-1, -2], keepdims=True)
            lv9: R.Tensor((1, 12, 1, 1), dtype="float32") = R.nn.conv2d(lv8, p_fc1_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv10: R.Tensor((1, 12, 1, 1), dtype="float32") = R.reshape(p_fc1_bias, R.shape([1, 12, 1, 1]))
            lv11: R.Tensor((1, 12, 1, 1), dtype="float32") = R.add(lv9, lv10)
            lv12: R.Tensor((1, 12, 1, 1), dtype="float32") = R.nn.relu(lv11)
            lv13: R.Tensor((1, 48, 1, 1), dtype="float32") = R.nn.conv2d(lv12, p_fc2_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv14: R.Tensor((1, 48, 1, 1), dtype="float32") = R.reshape(p_fc2_bias, R.shape([1, 48, 1, 1]))
            lv15: R.Tensor((1, 48, 1, 1), dtype="float32") = R.add(lv13, lv14)
            lv16: R.Tensor((1, 48, 1, 1), dtype="float32") = R.add(lv15, R.const(3.0, "float32"))
            lv17: R.Tensor((1, 48, 1, 1), dtype="float32") = R.clip(lv16, 0, T.float64("inf"))
            lv18: R.Tensor((1, 48, 1, 1), dtype="float32") = R.clip(lv17, T.float64("-inf"), 6)
            lv19: R.Tensor((1, 48, 1, 1), dtype="float32") = R.divide(lv18, R.const(6.0, "float32"))
            lv20: R.Tensor((1, 48, 28, 28), dtype="float32") = R.multiply(lv7, lv19)
            gv: R.Tuple(R.Tensor((1, 48, 28, 28), dtype="float32")) = (lv20,)
            R.output(gv)
        return gv