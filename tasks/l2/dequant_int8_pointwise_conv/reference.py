# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 32, 16, 16), dtype="float32"), p_w_int: R.Tensor((64, 32), dtype="float32"), p_w_scale: R.Tensor((64,), dtype="float32"), p_bias: R.Tensor((64,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 16, 16), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((64, 32), dtype="float32") = R.multiply(p_w_int, R.const(16.0, "float32"))
            lv1: R.Tensor((64, 32), dtype="float32") = R.round(lv)
            lv2: R.Tensor((64, 32), dtype="float32") = R.clip(lv1, -128, 127)
            lv3: R.Tensor((64, 1), dtype="float32") = R.expand_dims(p_w_scale, axis=[1])
            lv4: R.Tensor((64, 1), dtype="float32") = R.divide(lv3, R.const(16.0, "float32"))
            lv5: R.Tensor((64, 32), dtype="float32") = R.multiply(lv2, lv4)
            lv6: R.Tensor((1, 32, 256), dtype="float32") = R.reshape(x, R.shape([1, 32, 256]))
            lv7: R.Tensor((1, 64, 32), dtype="float32") = R.broadcast_to(lv5, R.shape([1, 64, 32]))
            lv8: R.Tensor((1, 32, 256), dtype="float32") = R.broadcast_to(lv6, R.shape([1, 32, 256]))
            lv9: R.Tensor((1, 64, 256), dtype="float32") = R.matmul(lv7, lv8, out_dtype="float32")
            lv10: R.Tensor((1, 64), dtype="float32") = R.expand_dims(p_bias, axis=[0])
            lv11: R.Tensor((1, 64, 1), dtype="float32") = R.expand_dims(lv10, axis=[2])
            lv12: R.Tensor((1, 64, 256), dtype="float32") = R.add(lv9, lv11)
            lv13: R.Tensor((1, 64, 256), dtype="float32") = R.clip(lv12, T.float64(0.0), T.float64(6.0))
            lv14: R.Tensor((1, 64, 16, 16), dtype="float32") = R.reshape(lv13, R.shape([1, 64, 16, 16]))
            gv: R.Tuple(R.Tensor((1, 64, 16, 16), dtype="float32")) = (lv14,)
            R.output(gv)
        return gv