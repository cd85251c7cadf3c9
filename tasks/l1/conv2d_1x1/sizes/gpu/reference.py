# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 512, 224, 224), dtype="float32"), p_conv_weight: R.Tensor((512, 512, 1, 1), dtype="float32")) -> R.Tuple(R.Tensor((1, 512, 224, 224), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 512, 224, 224), dtype="float32") = R.nn.conv2d(x, p_conv_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            gv: R.Tuple(R.Tensor((1, 512, 224, 224), dtype="float32")) = (lv,)
            R.output(gv)
        return gv