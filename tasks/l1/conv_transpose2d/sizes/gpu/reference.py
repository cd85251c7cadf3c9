# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 32768, 14, 14), dtype="float32"), p_deconv_weight: R.Tensor((32768, 16, 4, 4), dtype="float32"), p_deconv_bias: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor((1, 16, 28, 28), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 16, 28, 28), dtype="float32") = R.nn.conv2d_transpose(x, p_deconv_weight, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 16, 1, 1), dtype="float32") = R.reshape(p_deconv_bias, R.shape([1, 16, 1, 1]))
            lv2: R.Tensor((1, 16, 28, 28), dtype="float32") = R.add(lv, lv1)
            gv: R.Tuple(R.Tensor((1, 16, 28, 28), dtype="float32")) = (lv2,)
            R.output(gv)
        return gv