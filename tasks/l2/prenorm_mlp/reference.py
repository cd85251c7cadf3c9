# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 128), dtype="float32"), p_norm_weight: R.Tensor((128,), dtype="float32"), p_norm_bias: R.Tensor((128,), dtype="float32"), p_fc1_weight: R.Tensor((256, 128), dtype="float32"), p_fc1_bias: R.Tensor((256,), dtype="float32"), p_fc2_weight: R.Tensor((128, 256), dtype="float32"), p_fc2_bias: R.Tensor((128,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 128), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 64, 128), dtype="float32") = R.nn.layer_norm(x, p_norm_weight, p_norm_bias, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            lv1: R.Tensor((64, 128), dtype="float32") = R.reshape(lv, R.shape([64, 128]))
            lv2: R.Tensor((128, 256), dtype="float32") = R.permute_dims(p_fc1_weight, axes=[1, 0])
            lv3: R.Tensor((64, 256), dtype="float32") = R.matmul(lv1, lv2, out_dtype="float32")
            lv4: R.Tensor((64, 256), dtype="float32") = R.add(p_fc1_bias, lv3)
            lv5: R.Tensor((1, 64, 256), dtype="float32") = R.reshape(lv4, R.shape([1, 64, 256]))
            lv6: R.Tensor((1, 64, 256), dtype="float32") = R.nn.gelu(lv5)
            lv7: R.Tensor((64, 256), dtype="float32") = R.reshape(lv6, R.shape([64, 256]))
            lv8: R.Tensor((256, 128), dtype="float32") = R.permute_dims(p_fc2_weight, axes=[1, 0])
            lv9: R.Tensor((64, 128), dtype="float32") = R.matmul(lv7, lv8, out_dtype="float32")
            lv10: R.Tensor((64, 128), dtype="float32") = R.add(p_fc2_bias, lv9)
            lv11: R.Tensor((1, 64, 128), dtype="float32") = R.reshape(lv10, R.shape([1, 64, 128]))
            lv12: R.Tensor((1, 64, 128), dtype="float32") = R.add(x, lv11)
            gv: R.Tuple(R.Tensor((1, 64, 128), dtype="float32")) = (lv12,)
            R.output(gv)
        return gv