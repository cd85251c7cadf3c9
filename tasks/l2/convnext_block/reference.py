# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 48, 14, 14), dtype="float32"), p_dwconv_weight: R.Tensor((48, 1, 7, 7), dtype="float32"), p_dwconv_bias: R.Tensor((48,), dtype="float32"), p_norm_weight: R.Tensor((48,), dtype="float32"), p_norm_bias: R.Tensor((48,), dtype="float32"), p_pwconv1_weight: R.Tensor((192, 48), dtype="float32"), p_pwconv1_bias: R.Tensor((192,), dtype="float32"), p_pwconv2_weight: R.Tensor((48, 192), dtype="float32"), p_pwconv2_bias: R.Tensor((48,), dtype="float32")) -> R.Tuple(R.Tensor((1, 48, 14, 14), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 48, 14, 14), dtype="float32") = R.nn.conv2d(x, p_dwconv_weight, strides=[1, 1], padding=[3, 3, 3, 3], dilation=[1, 1], groups=48, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 48, 1, 1), dtype="float32") = R.reshape(p_dwconv_bias, R.shape([1, 48, 1, 1]))
            lv2: R.Tensor((1, 48, 14, 14), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((1, 14, 14, 48), dtype="float32") = R.permute_dims(lv2, axes=[0, 2, 3, 1])
            lv4: R.Tensor((1, 14, 14, 48), dtype="float32") = R.nn.layer_norm(lv3, p_norm_weight, p_norm_bias, axes=[-1], epsilon=9.9999999999999995e-07, center=True, scale=True)
            lv5: R.Tensor((196, 48), dtype="float32") = R.reshape(lv4, R.shape([196, 48]))
            lv6: R.Tensor((48, 192), dtype="float32") = R.permute_dims(p_pwconv1_weight, axes=[1, 0])
            lv7: R.Tensor((196, 192), dtype="float32") = R.matmul(lv5, lv6, out_dtype="float32")
            lv8: R.Tensor((196, 192), dtype="float32") = R.add(p_pwconv1_bias, lv7)
            lv9: R.Tensor((1, 14, 14, 192), dtype="float32") = R.reshape(lv8, R.shape([1, 14, 14, 192]))
            lv10: R.Tensor((1, 14, 14, 192), dtype="float32") = R.nn.gelu(lv9)
            lv11: R.Tensor((196, 192), dtype="float32") = R.reshape(lv10, R.shape([196, 192]))
            lv12: R.Tensor((192, 48), dtype="float32") = R.permute_dims(p_pwconv2_weight, axes=[1, 0])
            lv13: R.Tensor((196, 48), dtype="float32") = R.matmul(lv11, lv12, out_dtype="float32")
            lv14: R.Tensor((196, 48), dtype="float32") = R.add(p_pwconv2_bias, lv13)
            lv15: R.Tensor((1, 14, 14, 48), dtype="float32") = R.reshape(lv14, R.shape([1, 14, 14, 48]))
            lv16: R.Tensor((1, 48, 14, 14), dtype="float32") = R.permute_dims(lv15, axes=[0, 3, 1, 2])
            lv17: R.Tensor((1, 48, 14, 14), dtype="float32") = R.add(x, lv16)
            gv: R.Tuple(R.Tensor((1, 48, 14, 14), dtype="float32")) = (lv17,)
            R.output(gv)
        return gv