# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 48, 20, 20), dtype="float32"), p_shared_weight: R.Tensor((48, 48, 3, 3), dtype="float32"), p_shared_bias: R.Tensor((48,), dtype="float32"), p_cls_weight: R.Tensor((24, 48, 1, 1), dtype="float32"), p_cls_bias: R.Tensor((24,), dtype="float32"), p_box_weight: R.Tensor((12, 48, 1, 1), dtype="float32"), p_box_bias: R.Tensor((12,), dtype="float32")) -> R.Tuple(R.Tensor((1, 24, 20, 20), dtype="float32"), R.Tensor((1, 12, 20, 20), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 48, 20, 20), dtype="float32") = R.nn.conv2d(x, p_shared_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv1: R.Tensor((1, 48, 1, 1), dtype="float32") = R.reshape(p_shared_bias, R.shape([1, 48, 1, 1]))
            lv2: R.Tensor((1, 48, 20, 20), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((1, 48, 20, 20), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 24, 20, 20), dtype="float32") = R.nn.conv2d(lv3, p_cls_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv5: R.Tensor((1, 24, 1, 1), dtype="float32") = R.reshape(p_cls_bias, R.shape([1, 24, 1, 1]))
            lv6: R.Tensor((1, 24, 20, 20), dtype="float32") = R.add(lv4, lv5)
            lv7: R.Tensor((1, 12, 20, 20), dtype="float32") = R.nn.conv2d(lv3, p_box_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv8: R.Tensor((1, 12, 1, 1), dtype="float32") = R.reshape(p_box_bias, R.shape([1, 12, 1, 1]))
            lv9: R.Tensor((1, 12, 20, 20), dtype="float32") = R.add(lv7, lv8)
            gv: R.Tuple(R.Tensor((1, 24, 20, 20), dtype="float32"), R.Tensor((1, 12, 20, 20), dtype="float32")) = lv6, lv9
            R.output(gv)
        return gv