# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 28, 28), dtype="float32"), p_fc1_weight: R.Tensor((8, 64), dtype="float32"), p_fc1_bias: R.Tensor((8,), dtype="float32"), p_fc2_weight: R.Tensor((64, 8), dtype="float32"), p_fc2_bias: R.Tensor((64,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 28, 28), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 64), dtype="float32") = R.mean(x, axis=[2, 3], keepdims=False)
            lv1: R.Tensor((1, 64, 784), dtype="float32") = R.reshape(x, R.shape([1, 64, 784]))
            lv2: R.Tuple(R.Tensor((1, 64, 1), dtype="float32"), R.Tensor((1, 64, 1), dtype="int64")) = R.topk(lv1, k=1, axis=-1, ret_type="both", largest=True, dtype="int64")
            lv3: R.Tensor((1, 64, 1), dtype="float32") = lv2[0]
            lv4: R.Tensor((1, 64), dtype="float32") = R.squeeze(lv3, axis=[-1])
            lv5: R.Tensor((1, 64, 1), dtype="int64") = lv2[1]
            lv6: R.Tensor((1, 64), dtype="int64") = R.squeeze(lv5, axis=[-1])
            lv7: R.Tuple(R.Tensor((1, 64), dtype="float32"), R.Tensor((1, 64), dtype="int64")) = lv4, lv6
            lv8: R.Tensor((1, 64), dtype="float32") = lv7[0]
            lv9: R.Tensor((64, 8), dtype="float32") = R.permute_dims(p_fc1_weight, axes=[1, 0])
            lv10: R.Tensor((1, 8), dtype="float32") = R.matmul(lv, lv9, out_dtype="float32")
            lv11: R.Tensor((1, 8), dtype="float32") = R.add(p_fc1_bias, lv10)
            lv12: R.Tensor((1, 8), dtype="float32") = R.nn.relu(lv11)
            lv13: R.Tensor((8, 64), dtype="float32") = R.permute_dims(p_fc2_weight, axes=[1, 0])
            lv14: R.Tensor((1, 64), dtype="float32") = R.matmul(lv12, lv13, out_dtype="float32")
            lv15: R.Tensor((1, 64), dtype="float32") = R.add(p_fc2_bias, lv14)
            lv16: R.Tensor((64, 8), dtype="float32") = R.permute_dims(p_fc1_weight, axes=[1, 0])
            lv17: R.Tensor((1, 8), dtype="float32") = R.matmul(lv8, lv16, out_dtype="float32")
            lv18: R.Tensor((1, 8), dtype="float32") = R.add(p_fc1_bias, lv17)
            lv19: R.Tensor((1, 8), dtype="float32") = R.nn.relu(lv18)
            lv20: R.Tensor((8, 64), dtype="float32") = R.permute_dims(p_fc2_weight, axes=[1, 0])
            lv21: R.Tensor((1, 64), dtype="float32") = R.matmul(lv19, lv20, out_dtype="float32")
            lv22: R.Tensor((1, 64), dtype="float32") = R.add(p_fc2_bias, lv21)
            lv23: R.Tensor((1, 64), dtype="float32") = R.add(lv15, lv22)
            lv24: R.Tensor((1, 64), dtype="float32") = R.sigmoid(lv23)
            lv25: R.Tensor((1, 64, 1), dtype="float32") = R.expand_dims(lv24, axis=[2])
            lv26: R.Tensor((1, 64, 1, 1), dtype="float32") = R.expand_dims(lv25, axis=[3])
            lv27: R.Tensor((1, 64, 28, 28), dtype="float32") = R.multiply(x, lv26)
            gv: R.Tuple(R.Tensor((1, 64, 28, 28), dtype="float32")) = (lv27,)
            R.output(gv)
        return gv