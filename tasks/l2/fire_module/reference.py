# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 24, 24), dtype="float32"), p_squeeze_weight: R.Tensor((16, 64, 1, 1), dtype="float32"), p_squeeze_bias: R.Tensor((16,), dtype="float32"), p_expand1x1_weight: R.Tensor((64, 16, 1, 1), dtype="float32"), p_expand1x1_bias: R.Tensor((64,), dtype="float32"), p_expand3x3_weight: R.Tensor((64, 16, 3, 3), dtype="float32"), p_expand3x3_bias: R.Tensor((64,), dtype="float32")) -> R.Tuple(R.Tensor((1, 128, 24, 24), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 16, 24, 24), dtype="float32") = R.nn.conv2d(x, p_squeeze_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 16, 1, 1), dtype="float32") = R.reshape(p_squeeze_bias, R.shape([1, 16, 1, 1]))
            lv2: R.Tensor((1, 16, 24, 24), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((1, 16, 24, 24), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 64, 24, 24), dtype="float32") = R.nn.conv2d(lv3, p_expand1x1_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv5: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(p_expand1x1_bias, R.shape([1, 64, 1, 1]))
            lv6: R.Tensor((1, 64, 24, 24), dtype="float32") = R.add(lv4, lv5)
            lv7: R.Tensor((1, 64, 24, 24), dtype="float32") = R.nn.relu(lv6)
            lv8: R.Tensor((1, 64, 24, 24), dtype="float32") = R.nn.conv2d(lv3, p_expand3x3_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv9: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(p_expand3x3_bias, R.shape([1, 64, 1, 1]))
            lv10: R.Tensor((1, 64, 24, 24), dtype="float32") = R.add(lv8, lv9)
            lv11: R.Tensor((1, 64, 24, 24), dtype="float32") = R.nn.relu(lv10)
            lv12: R.Tensor((1, 128, 24, 24), dtype="float32") = R.concat((lv7, lv11), axis=1)
            gv: R.Tuple(R.Tensor((1, 128, 24, 24), dtype="float32")) = (lv12,)
            R.output(gv)
        return gv