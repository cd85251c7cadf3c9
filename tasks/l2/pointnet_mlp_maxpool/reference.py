# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(points: R.Tensor((2, 512, 3), dtype="float32"), p_fc1_weight: R.Tensor((64, 3), dtype="float32"), p_fc1_bias: R.Tensor((64,), dtype="float32"), p_fc2_weight: R.Tensor((128, 64), dtype="float32"), p_fc2_bias: R.Tensor((128,), dtype="float32"), p_head_weight: R.Tensor((32, 128), dtype="float32"), p_head_bias: R.Tensor((32,), dtype="float32")) -> R.Tuple(R.Tensor((2, 32), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1024, 3), dtype="float32") = R.reshape(points, R.shape([1024, 3]))
            lv1: R.Tensor((3, 64), dtype="float32") = R.permute_dims(p_fc1_weight, axes=[1, 0])
            lv2: R.Tensor((1024, 64), dtype="float32") = R.matmul(lv, lv1, out_dtype="float32")
            lv3: R.Tensor((1024, 64), dtype="float32") = R.add(p_fc1_bias, lv2)
            lv4: R.Tensor((2, 512, 64), dtype="float32") = R.reshape(lv3, R.shape([2, 512, 64]))
            lv5: R.Tensor((2, 512, 64), dtype="float32") = R.nn.relu(lv4)
            lv6: R.Tensor((1024, 64), dtype="float32") = R.reshape(lv5, R.shape([1024, 64]))
            lv7: R.Tensor((64, 128), dtype="float32") = R.permute_dims(p_fc2_weight, axes=[1, 0])
            lv8: R.Tensor((1024, 128), dtype="float32") = R.matmul(lv6, lv7, out_dtype="float32")
            lv9: R.Tensor((1024, 128), dtype="float32") = R.add(p_fc2_bias, lv8)
            lv10: R.Tensor((2, 512, 128), dtype="float32") = R.reshape(lv9, R.shape([2, 512, 128]))
            lv11: R.Tensor((2, 512, 128), dtype="float32") = R.nn.relu(lv10)
            lv12: R.Tuple(R.Tensor((2, 1, 128), dtype="float32"), R.Tensor((2, 1, 128), dtype="int64")) = R.topk(lv11, k=1, axis=1, ret_type="both", largest=True, dtype="int64")
            lv13: R.Tensor((2, 1, 128), dtype="float32") = lv12[0]
            lv14: R.Tensor((2, 128), dtype="float32") = R.squeeze(lv13, axis=[1])
            lv15: R.Tensor((2, 1, 128), dtype="int64") = lv12[1]
            lv16: R.Tensor((2, 128), dtype="int64") = R.squeeze(lv15, axis=[1])
            lv17: R.Tuple(R.Tensor((2, 128), dtype="float32"), R.Tensor((2, 128), dtype="int64")) = lv14, lv16
            lv18: R.Tensor((2, 128), dtype="float32") = lv17[0]
            lv19: R.Tensor((128, 32), dtype="float32") = R.permute_dims(p_head_weight, axes=[1, 0])
            lv20: R.Tensor((2, 32), dtype="float32") = R.matmul(lv18, lv19, out_dtype="float32")
            lv21: R.Tensor((2, 32), dtype="float32") = R.add(p_head_bias, lv20)
            gv: R.Tuple(R.Tensor((2, 32), dtype="float32")) = (lv21,)
            R.output(gv)
        return gv