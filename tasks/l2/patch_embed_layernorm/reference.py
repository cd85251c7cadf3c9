# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 56, 56), dtype="float32"), p_proj_weight: R.Tensor((96, 3, 7, 7), dtype="float32"), p_proj_bias: R.Tensor((96,), dtype="float32"), p_norm_weight: R.Tensor((96,), dtype="float32"), p_norm_bias: R.Tensor((96,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 96), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 96, 8, 8), dtype="float32") = R.nn.conv2d(x, p_proj_weight, strides=[7, 7], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 96, 1, 1), dtype="float32") = R.reshape(p_proj_bias, R.shape([1, 96, 1, 1]))
            lv2: R.Tensor((1, 96, 8, 8), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((1, 96, 64), dtype="float32") = R.reshape(lv2, R.shape([1, 96, 64]))
            lv4: R.Tensor((1, 64, 96), dtype="float32") = R.permute_dims(lv3, axes=[0, 2, 1])
            lv5: R.Tensor((1, 64, 96), dtype="float32") = R.nn.layer_norm(lv4, p_norm_weight, p_norm_bias, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tuple(R.Tensor((1, 64, 96), dtype="float32")) = (lv5,)
            R.output(gv)
        return gv