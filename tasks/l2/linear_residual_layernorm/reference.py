# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 128), dtype="float32"), p_fc_weight: R.Tensor((128, 128), dtype="float32"), p_fc_bias: R.Tensor((128,), dtype="float32"), p_norm_weight: R.Tensor((128,), dtype="float32"), p_norm_bias: R.Tensor((128,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 128), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((64, 128), dtype="float32") = R.reshape(x, R.shape([64, 128]))
            lv1: R.Tensor((128, 128), dtype="float32") = R.permute_dims(p_fc_weight, axes=[1, 0])
            lv2: R.Tensor((64, 128), dtype="float32") = R.matmul(lv, lv1, out_dtype="float32")
            lv3: R.Tensor((64, 128), dtype="float32") = R.add(p_fc_bias, lv2)
            lv4: R.Tensor((1, 64, 128), dtype="float32") = R.reshape(lv3, R.shape([1, 64, 128]))
            lv5: R.Tensor((1, 64, 128), dtype="float32") = R.add(x, lv4)
            lv6: R.Tensor((1, 64, 128), dtype="float32") = R.nn.layer_norm(lv5, p_norm_weight, p_norm_bias, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tuple(R.Tensor((1, 64, 128), dtype="float32")) = (lv6,)
            R.output(gv)
        return gv