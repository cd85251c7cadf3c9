# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(fine: R.Tensor((1, 64, 28, 28), dtype="float32"), coarse: R.Tensor((1, 32, 14, 14), dtype="float32"), p_lateral_weight: R.Tensor((32, 64, 1, 1), dtype="float32"), p_lateral_bias: R.Tensor((32,), dtype="float32"), p_smooth_weight: R.Tensor((32, 32, 3, 3), dtype="float32"), p_smooth_bias: R.Tensor((32,), dtype="float32")) -> R.Tuple(R.Tensor((1, 32, 28, 28), dtype="float32")):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((1, 32, 28, 28), dtype="float32") = R.image.resize2d(coarse, R.shape([28, 28]), roi=[T.float32(0.0), T.float32(0.0), T.float32(0.0), T.float32(0.0)], layout="NCHW", method="nearest_neighbor", coordinate_transformation_mode="half_pixel", rounding_method="round", cubic_alpha=-0.75, cubic_exclude=0, extrapolation_value=0.0, out_dtype=None)
            lv1: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.conv2d(fine, p_lateral_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv2: R.Tensor((1, 32, 1, 1), dtype="float32") = R.reshape(p_lateral_bias, R.shape([1, 32, 1, 1]))
            lv3: R.Tensor((1, 32, 28, 28), dtype="float32") = R.add(lv1, lv2)
            lv4: R.Tensor((1, 32, 28, 28), dtype="float32") = R.add(lv3, lv)
            lv5: R.Tensor((1, 32, 28, 28), dtype="float32") = R.nn.conv2d(lv4, p_smooth_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv6: R.Tensor((1, 32, 1, 1), dtype="float32") = R.reshape(p_smooth_bias, R.shape([1, 32, 1, 1]))
            lv7: R.Tensor((1, 32, 28, 28), dtype="float32") = R.add(lv5, lv6)
            gv: R.Tuple(R.Tensor((1, 32, 28, 28), dtype="float32")) = (lv7,)
            R.output(gv)
        return gv