# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 128, 512), dtype="float32"), p_weight: R.Tensor((512,), dtype="float32"), p_proj_weight: R.Tensor((512, 512), dtype="float32")) -> R.Tuple(R.Tensor((128, 128, 512), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 128, 512), dtype="float32") = R.power(x, R.const(2.0, "float32"))
            lv1: R.Tensor((128, 128, 1), dtype="float32") = R.mean(lv, axis=[2], keepdims=True)
            lv2: R.Tensor((128, 128, 1), dtype="float32") = R.add(lv1, R.const(9.9999999747524271e-07, "float32"))
            lv3: R.Tensor((128, 128, 1), dtype="float32") = R.rsqrt(lv2)
            lv4: R.Tensor((128, 128, 512), dtype="float32") = R.multiply(x, lv3)
            lv5: R.Tensor((128, 128, 512), dtype="float32") = R.multiply(lv4, p_weight)
            lv6: R.Tensor((512, 512), dtype="float32") = R.permute_dims(p_proj_weight, axes=[1, 0])
            lv7: R.Tensor((16384, 512), dtype="float32") = R.reshape(lv5, R.shape([16384, 512]))
            lv8: R.Tensor((16384, 512), dtype="float32") = R.matmul(lv7, lv6, out_dtype="float32")
            lv9: R.Tensor((128, 128, 512), dtype="float32") = R.reshape(lv8, R.shape([128, 128, 512]))
            gv: R.Tuple(R.Tensor((128, 128, 512), dtype="float32")) = (lv9,)
            R.output(gv)
        return gv