# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 24, 28, 28), dtype="float32"), p_expand_weight: R.Tensor((144, 24, 1, 1), dtype="float32"), p_bn1_weight: R.Tensor((144,), dtype="float32"), p_bn1_bias: R.Tensor((144,), dtype="float32"), p_bn1_running_mean: R.Tensor((144,), dtype="float32"), p_bn1_running_var: R.Tensor((144,), dtype="float32"), p_dw_weight: R.Tensor((144, 1, 3, 3), dtype="float32"), p_bn2_weight: R.Tensor((144,), dtype="float32"), p_bn2_bias: R.Tensor((144,), dtype="float32"), p_bn2_running_mean: R.Tensor((144,), dtype="float32"), p_bn2_running_var: R.Tensor((144,), dtype="float32"), p_project_weight: R.Tensor((24, 144, 1, 1), dtype="float32"), p_bn3_weight: R.Tensor((24,), dtype="float32"), p_bn3_bias: R.Tensor((24,), dtype="float32"), p_bn3_running_mean: R.Tensor((24,), dtype="float32"), p_bn3_running_var: R.Tensor((24,), dtype="float32")) -> R.Tuple(R.Tensor((1, 24, 28, 28), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 144, 28, 28), dtype="float32") = R.nn.conv2d(x, p_expand_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tuple(R.Tensor((1, 144, 28, 28), dtype="float32"), R.Tensor((144,), dtype="float32"), R.Tensor((144,), dtype="float32")) = R.nn.batch_norm(lv, p_bn1_weight, p_bn1_bias, p_bn1_running_mean, p_bn1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv2: R.Tensor((1, 144, 28, 28), dtype="float32") = lv1[0]
            lv3: R.Tensor((1, 144, 28, 28), dtype="float32") = R.clip(lv2, T.float64(0.0), T.float64(6.0))
            lv4: R.Tensor((1, 144, 28, 28), dtype="float32") = R.nn.conv2d(lv3, p_dw_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=144, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv5: R.Tuple(R.Tensor((1, 144, 28, 28), dtype="float32"), R.Tensor((144,), dtype="float32"), R.Tensor((144,), dtype="float32")) = R.nn.batch_norm(lv4, p_bn2_weight, p_bn2_bias, p_bn2_running_mean, p_bn2_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv6: R.Tensor((1, 144, 28, 28), dtype="float32") = lv5[0]
            lv7: R.Tensor((1, 144, 28, 28), dtype="float32") = R.clip(lv6, T.float64(0.0), T.float64(6.0))
            lv8: R.Tensor((1, 24, 28, 28), dtype="float32") = R.nn.conv2d(lv7, p_project_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv9: R.Tuple(R.Tensor((1, 24, 28, 28), dtype="float32"), R.Tensor((24,), dtype="float32"), R.Tensor((24,), dtype="float32")) = R.nn.batch_norm(lv8, p_bn3_weight, p_bn3_bias, p_bn3_running_mean, p_bn3_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv10: R.Tensor((1, 24, 28, 28), dtype="float32") = lv9[0]
            lv11: R.Tensor((1, 24, 28, 28), dtype="float32") = R.add(x, lv10)
            gv: R.Tuple(R.Tensor((1, 24, 28, 28), dtype="float32")) = (lv11,)
            R.output(gv)
        return gv