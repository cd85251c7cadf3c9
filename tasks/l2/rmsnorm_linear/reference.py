# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 256), dtype="float32"), p_weight: R.Tensor((256,), dtype="float32"), p_proj_weight: R.Tensor((256, 256), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 256), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 64, 256), dtype="float32") = R.power(x, R.const(2.0, "float32"))
            lv1: R.Tensor((1, 64, 1), dtype="float32") = R.mean(lv, axis=[-1], keepdims=True)
            lv2: R.Tensor((1, 64, 1), dtype="float32") = R.add(lv1, R.const(9.9999999747524271e-07, "float32"))
            lv3: R.Tensor((1, 64, 1), dtype="float32") = R.rsqrt(lv2)
            lv4: R.Tensor((1, 64, 256), dtype="float32") = R.multiply(x, lv3)
            lv5: R.Tensor((1, 64, 256), dtype="float32") = R.multiply(lv4, p_weight)
            lv6: R.Tensor((256, 256), dtype="float32") = R.permute_dims(p_proj_weight, axes=[1, 0])
            lv7: R.Tensor((64, 256), dtype="float32") = R.reshape(lv5, R.shape([64, 256]))
            lv8: R.Tensor((64, 256), dtype="float32") = R.matmul(lv7, lv6, out_dtype="float32")
            lv9: R.Tensor((1, 64, 256), dtype="float32") = R.reshape(lv8, R.shape([1, 64, 256]))
            gv: R.Tuple(R.Tensor((1, 64, 256), dtype="float32")) = (lv9,)
            R.output(gv)
        return gv