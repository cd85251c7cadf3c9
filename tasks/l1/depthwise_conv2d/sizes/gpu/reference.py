# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 128, 56, 56), dtype="float32"), p_conv_weight: R.Tensor((128, 1, 3, 3), dtype="float32")) -> R.Tuple(R.Tensor((128, 128, 56, 56), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 128, 56, 56), dtype="float32") = R.nn.conv2d(x, p_conv_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=128, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            gv: R.Tuple(R.Tensor((128, 128, 56, 56), dtype="float32")) = (lv,)
            R.output(gv)
        return gv