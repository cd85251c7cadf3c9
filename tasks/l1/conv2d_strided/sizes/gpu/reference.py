# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 128, 224, 224), dtype="float32"), p_conv_weight: R.Tensor((256, 128, 3, 3), dtype="float32"), p_conv_bias: R.Tensor((256,), dtype="float32")) -> R.Tuple(R.Tensor((1, 256, 112, 112), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 256, 112, 112), dtype="float32") = R.nn.conv2d(x, p_conv_weight, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 256, 1, 1), dtype="float32") = R.reshape(p_conv_bias, R.shape([1, 256, 1, 1]))
            lv2: R.Tensor((1, 256, 112, 112), dtype="float32") = R.add(lv, lv1)
            gv: R.Tuple(R.Tensor((1, 256, 112, 112), dtype="float32")) = (lv2,)
            R.output(gv)
        return gv