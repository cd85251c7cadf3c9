# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 16, 48, 48), dtype="float32"), p_conv_weight: R.Tensor((32, 16, 3, 3), dtype="float32"), p_conv_bias: R.Tensor((32,), dtype="float32")) -> R.Tuple(R.Tensor((1, 32, 24, 24), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 32, 48, 48), dtype="float32") = R.nn.conv2d(x, p_conv_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 32, 1, 1), dtype="float32") = R.reshape(p_conv_bias, R.shape([1, 32, 1, 1]))
            lv2: R.Tensor((1, 32, 48, 48), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((1, 32, 48, 48), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 32, 24, 24), dtype="float32") = R.nn.max_pool2d(lv3, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv5: R.Tensor((1, 32, 24, 24), dtype="float32") = R.zeros_like(lv4, dtype=None)
            lv6: R.Tuple(R.Tensor((1, 32, 24, 24), dtype="float32"), R.Tensor((1, 32, 24, 24), dtype="float32")) = lv4, lv5
            lv7: R.Tensor((1, 32, 24, 24), dtype="float32") = lv6[0]
            gv: R.Tuple(R.Tensor((1, 32, 24, 24), dtype="float32")) = (lv7,)
            R.output(gv)
        return gv