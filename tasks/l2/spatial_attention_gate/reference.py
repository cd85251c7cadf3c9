# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 32, 28, 28), dtype="float32"), p_conv_weight: R.Tensor((32, 32, 3, 3), dtype="float32"), p_conv_bias: R.Tensor((32,), dtype="float32"), p_attn_weight: R.Tensor((1, 32, 1, 1), dtype="float32"), p_attn_bias: R.Tensor((1,), dtype="float32")) -> R.Tuple(R.Tensor((1, 32, 28, 28), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.conv2d(x, p_conv_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 32, 1, 1), dtype="float32") = R.reshape(p_conv_bias, R.shape([1, 32, 1, 1]))
            lv2: R.Tensor((1, 32, 28, 28), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 1, 28, 28), dtype="float32") = R.nn.conv2d(lv3, p_attn_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv5: R.Tensor((1, 1, 1, 1), dtype="float32") = R.reshape(p_attn_bias, R.shape([1, 1, 1, 1]))
            lv6: R.Tensor((1, 1, 28, 28), dtype="float32") = R.add(lv4, lv5)
            lv7: R.Tensor((1, 1, 28, 28), dtype="float32") = R.sigmoid(lv6)
            lv8: R.Tensor((1, 32, 28, 28), dtype="float32") = R.multiply(lv3, lv7)
            gv: R.Tuple(R.Tensor((1, 32, 28, 28), dtype="float32")) = (lv8,)
            R.output(gv)
        return gv