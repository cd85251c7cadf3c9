# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 128), dtype="float32"), p_w1_int: R.Tensor((256, 128), dtype="float32"), p_w1_scale: R.Tensor((256,), dtype="float32"), p_b1: R.Tensor((256,), dtype="float32"), p_w2_int: R.Tensor((128, 256), dtype="float32"), p_w2_scale: R.Tensor((128,), dtype="float32"), p_b2: R.Tensor((128,), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 128), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((256, 128), dtype="float32") = R.multiply(p_w1_int, R.const(16.0, "float32"))
            lv1: R.Tensor((256, 128), dtype="float32") = R.round(lv)
            lv2: R.Tensor((256, 128), dtype="float32") = R.clip(lv1, -128, 127)
            lv3: R.Tensor((256, 1), dtype="float32") = R.expand_dims(p_w1_scale, axis=[1])
            lv4: R.Tensor((256, 1), dtype="float32") = R.divide(lv3, R.const(16.0, "float32"))
            lv5: R.Tensor((256, 128), dtype="float32") = R.multiply(lv2, lv4)
            lv6: R.Tensor((128, 256), dtype="float32") = R.multiply(p_w2_int, R.const(16.0, "float32"))
            lv7: R.Tensor((128, 256), dtype="float32") = R.round(lv6)
            lv8: R.Tensor((128, 256), dtype="float32") = R.clip(lv7, -128, 127)
            lv9: R.Tensor((128, 1), dtype="float32") = R.expand_dims(p_w2_scale, axis=[1])
            lv10: R.Tensor((128, 1), dtype="float32") = R.divide(lv9, R.const(16.0, "float32"))
            lv11: R.Tensor((128, 256), dtype="float32") = R.multiply(lv8, lv10)
            lv12: R.Tensor((128, 256), dtype="float32") = R.permute_dims(lv5, axes=[1, 0])
            lv13: R.Tensor((64, 128), dtype="float32") = R.reshape(x, R.shape([64, 128]))
            lv14: R.Tensor((64, 256), dtype="float32") = R.matmul(lv13, lv12, out_dtype="float32")
            lv15: R.Tensor((1, 64, 256), dtype="float32") = R.reshape(lv14, R.shape([1, 64, 256]))
            lv16: R.Tensor((1, 64, 256), dtype="float32") = R.add(lv15, p_b1)
            lv17: R.Tensor((1, 64, 256), dtype="float32") = R.nn.relu(lv16)
            lv18: R.Tensor((256, 128), dtype="float32") = R.permute_dims(lv11, axes=[1, 0])
            lv19: R.Tensor((64, 256), dtype="float32") = R.reshape(lv17, R.shape([64, 256]))
            lv20: R.Tensor((64, 128), dtype="float32") = R.matmul(lv19, lv18, out_dtype="float32")
            lv21: R.Tensor((1, 64, 128), dtype="float32") = R.reshape(lv20, R.shape([1, 64, 128]))
            lv22: R.Tensor((1, 64, 128), dtype="float32") = R.add(lv21, p_b2)
            gv: R.Tuple(R.Tensor((1, 64, 128), dtype="float32")) = (lv22,)
            R.output(gv)
        return gv