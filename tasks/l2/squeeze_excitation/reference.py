# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 16, 16), dtype="float32"), p_fc1_weight: R.Tensor((16, 64), dtype="float32"), p_fc1_bias: R.Tensor((16,), dtype="float32"), p_fc2_weight: R.Tensor((64, 16), dtype="float32"), p_fc2_bias: R.Tensor((64,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 16, 16), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 64), dtype="float32") = R.mean(x, axis=[2, 3], keepdims=False)
            lv1: R.Tensor((64, 16), dtype="float32") = R.permute_dims(p_fc1_weight, axes=[1, 0])
            lv2: R.Tensor((1, 16), dtype="float32") = R.matmul(lv, lv1, out_dtype="float32")
            lv3: R.Tensor((1, 16), dtype="float32") = R.add(p_fc1_bias, lv2)
            lv4: R.Tensor((1, 16), dtype="float32") = R.nn.relu(lv3)
            lv5: R.Tensor((16, 64), dtype="float32") = R.permute_dims(p_fc2_weight, axes=[1, 0])
            lv6: R.Tensor((1, 64), dtype="float32") = R.matmul(lv4, lv5, out_dtype="float32")
            lv7: R.Tensor((1, 64), dtype="float32") = R.add(p_fc2_bias, lv6)
            lv8: R.Tensor((1, 64), dtype="float32") = R.sigmoid(lv7)
            lv9: R.Tensor((1, 64, 1), dtype="float32") = R.expand_dims(lv8, axis=[2])
            lv10: R.Tensor((1, 64, 1, 1), dtype="float32") = R.expand_dims(lv9, axis=[3])
            lv11: R.Tensor((1, 64, 16, 16), dtype="float32") = R.multiply(x, lv10)
            gv: R.Tuple(R.Tensor((1, 64, 16, 16), dtype="float32")) = (lv11,)
            R.output(gv)
        return gv