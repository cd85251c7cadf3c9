# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 128, 1024), dtype="float32"), p_norm_weight: R.Tensor((1024,), dtype="float32"), p_norm_bias: R.Tensor((1024,), dtype="float32")) -> R.Tuple(R.Tensor((128, 128, 1024), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 128, 4, 256), dtype="float32") = R.reshape(x, R.shape([128, 128, 4, 256]))
            lv1: R.Tensor((128, 128, 4, 1), dtype="float32") = R.sum(lv, axis=[-1], keepdims=True)
            lv2: R.Tensor((128, 128, 1, 1), dtype="float32") = R.sum(lv1, axis=[-2], keepdims=True)
            lv3: R.Tensor((128, 128, 1, 1), dtype="float32") = R.divide(lv2, R.const(1024.0, "float32"))
            lv4: R.Tensor((128, 128, 4, 256), dtype="float32") = R.subtract(lv, lv3)
            lv5: R.Tensor((128, 128, 4, 256), dtype="float32") = R.multiply(lv4, lv4)
            lv6: R.Tensor((128, 128, 4, 1), dtype="float32") = R.sum(lv5, axis=[-1], keepdims=True)
            lv7: R.Tensor((128, 128, 1, 1), dtype="float32") = R.sum(lv6, axis=[-2], keepdims=True)
            lv8: R.Tensor((128, 128, 1, 1), dtype="float32") = R.divide(lv7, R.const(1024.0, "float32"))
            lv9: R.Tensor((128, 128, 1, 1), dtype="float32") = R.add(lv8, R.const(9.9999997473787516e-06, "float32"))
            lv10: R.Tensor((128, 128, 1, 1), dtype="float32") = R.rsqrt(lv9)
            lv11: R.Tensor((128, 128, 4, 256), dtype="float32") = R.subtract(lv, lv3)
            lv12: R.Tensor((128, 128, 4, 256), dtype="float32") = R.multiply(lv11, lv10)
            lv13: R.Tensor((128, 128, 1024), dtype="float32") = R.reshape(lv12, R.shape([128, 128, 1024]))
            lv14: R.Tensor((128, 128, 1024), dtype="float32") = R.reshape(lv13, R.shape([128, 128, 1024]))
            lv15: R.Tensor((128, 128, 1024), dtype="float32") = R.multiply(lv14, p_norm_weight)
            lv16: R.Tensor((128, 128, 1024), dtype="float32") = R.add(lv15, p_norm_bias)
            gv: R.Tuple(R.Tensor((128, 128, 1024), dtype="float32")) = (lv16,)
            R.output(gv)
        return gv