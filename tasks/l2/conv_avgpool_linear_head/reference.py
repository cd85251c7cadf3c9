# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 64, 14, 14), dtype="float32"), p_conv_weight: R.Tensor((128, 64, 1, 1), dtype="float32"), p_conv_bias: R.Tensor((128,), dtype="float32"), p_fc_weight: R.Tensor((10, 128), dtype="float32"), p_fc_bias: R.Tensor((10,), dtype="float32")) -> R.Tuple(R.Tensor((4, 10), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((4, 128, 14, 14), dtype="float32") = R.nn.conv2d(x, p_conv_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 128, 1, 1), dtype="float32") = R.reshape(p_conv_bias, R.shape([1, 128, 1, 1]))
            lv2: R.Tensor((4, 128, 14, 14), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((4, 128, 14, 14), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((4, 128, 1, 1), dtype="float32") = R.mean(lv3, axis=[-1, -2], keepdims=True)
            lv5: R.Tensor((4, 128), dtype="float32") = R.reshape(lv4, R.shape([4, 128]))
            lv6: R.Tensor((128, 10), dtype="float32") = R.permute_dims(p_fc_weight, axes=[1, 0])
            lv7: R.Tensor((4, 10), dtype="float32") = R.matmul(lv5, lv6, out_dtype="float32")
            lv8: R.Tensor((4, 10), dtype="float32") = R.add(p_fc_bias, lv7)
            gv: R.Tuple(R.Tensor((4, 10), dtype="float32")) = (lv8,)
            R.output(gv)
        return gv