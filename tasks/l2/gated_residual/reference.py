# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 128), dtype="float32"), p_fc1_weight: R.Tensor((256, 128), dtype="float32"), p_fc1_bias: R.Tensor((256,), dtype="float32"), p_fc2_weight: R.Tensor((128, 256), dtype="float32"), p_fc2_bias: R.Tensor((128,), dtype="float32"), p_gate_weight: R.Tensor((128, 128), dtype="float32"), p_gate_bias: R.Tensor((128,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 128), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((64, 128), dtype="float32") = R.reshape(x, R.shape([64, 128]))
            lv1: R.Tensor((128, 256), dtype="float32") = R.permute_dims(p_fc1_weight, axes=[1, 0])
            lv2: R.Tensor((64, 256), dtype="float32") = R.matmul(lv, lv1, out_dtype="float32")
            lv3: R.Tensor((64, 256), dtype="float32") = R.add(p_fc1_bias, lv2)
            lv4: R.Tensor((1, 64, 256), dtype="float32") = R.reshape(lv3, R.shape([1, 64, 256]))
            lv5: R.Tensor((1, 64, 256), dtype="float32") = R.nn.relu(lv4)
            lv6: R.Tensor((64, 256), dtype="float32") = R.reshape(lv5, R.shape([64, 256]))
            lv7: R.Tensor((256, 128), dtype="float32") = R.permute_dims(p_fc2_weight, axes=[1, 0])
            lv8: R.Tensor((64, 128), dtype="float32") = R.matmul(lv6, lv7, out_dtype="float32")
            lv9: R.Tensor((64, 128), dtype="float32") = R.add(p_fc2_bias, lv8)
            lv10: R.Tensor((1, 64, 128), dtype="float32") = R.reshape(lv9, R.shape([1, 64, 128]))
            lv11: R.Tensor((64, 128), dtype="float32") = R.reshape(x, R.shape([64, 128]))
            lv12: R.Tensor((128, 128), dtype="float32") = R.permute_dims(p_gate_weight, axes=[1, 0])
            lv13: R.Tensor((64, 128), dtype="float32") = R.matmul(lv11, lv12, out_dtype="float32")
            lv14: R.Tensor((64, 128), dtype="float32") = R.add(p_gate_bias, lv13)
            lv15: R.Tensor((1, 64, 128), dtype="float32") = R.reshape(lv14, R.shape([1, 64, 128]))
            lv16: R.Tensor((1, 64, 128), dtype="float32") = R.sigmoid(lv15)
            lv17: R.Tensor((1, 64, 128), dtype="float32") = R.multiply(lv16, lv10)
            lv18: R.Tensor((1, 64, 128), dtype="float32") = R.add(x, lv17)
            gv: R.Tuple(R.Tensor((1, 64, 128), dtype="float32")) = (lv18,)
            R.output(gv)
        return gv