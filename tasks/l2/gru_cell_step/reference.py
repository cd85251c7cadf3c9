# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16, 64), dtype="float32"), h: R.Tensor((16, 128), dtype="float32"), p_x2h_weight: R.Tensor((384, 64), dtype="float32"), p_x2h_bias: R.Tensor((384,), dtype="float32"), p_h2h_weight: R.Tensor((384, 128), dtype="float32"), p_h2h_bias: R.Tensor((384,), dtype="float32")) -> R.Tuple(R.Tensor((16, 128), dtype="float32")):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((64, 384), dtype="float32") = R.permute_dims(p_x2h_weight, axes=[1, 0])
            lv1: R.Tensor((16, 384), dtype="float32") = R.matmul(x, lv, out_dtype="float32")
            lv2: R.Tensor((16, 384), dtype="float32") = R.add(p_x2h_bias, lv1)
            lv3: R.Tuple(R.Tensor((16, 128), dtype="float32"), R.Tensor((16, 128), dtype="float32"), R.Tensor((16, 128), dtype="float32")) = R.split(lv2, indices_or_sections=[128, 256], axis=-1)
            lv4: R.Tensor((16, 128), dtype="float32") = lv3[0]
            lv5: R.Tensor((16, 128), dtype="float32") = lv3[1]
            lv6: R.Tensor((16, 128), dtype="float32") = lv3[2]
            lv7: R.Tensor((128, 384), dtype="float32") = R.permute_dims(p_h2h_weight, axes=[1, 0])
            lv8: R.Tensor((16, 384), dtype="float32") = R.matmul(h, lv7, out_dtype="float32")
            lv9: R.Tensor((16, 384), dtype="float32") = R.add(p_h2h_bias, lv8)
            lv10: R.Tuple(R.Tensor((16, 128), dtype="float32"), R.Tensor((16, 128), dtype="float32"), R.Tensor((16, 128), dtype="float32")) = R.split(lv9, indices_or_sections=[128, 256], axis=-1)
            lv11: R.Tensor((16, 128), dtype="float32") = lv10[0]
            lv12: R.Tensor((16, 128), dtype="float32") = lv10[1]
            lv13: R.Tensor((16, 128), dtype="float32") = lv10[2]
            lv14: R.Tensor((16, 128), dtype="float32") = R.add(lv4, lv11)
            lv15: R.Tensor((16, 128), dtype="float32") = R.sigmoid(lv14)
            lv16: R.Tensor((16, 128), dtype="float32") = R.add(lv5, lv12)
            lv17: R.Tensor((16, 128), dtype="float32") = R.sigmoid(lv16)
            lv18: R.Tensor((16, 128), dtype="float32") = R.multiply(lv15, lv13)
            lv19: R.Tensor((16, 128), dtype="float32") = R.add(lv6, lv18)
            lv20: R.Tensor((16, 128), dtype="float32") = R.tanh(lv19)
            lv21: R.Tensor((16, 128), dtype="float32") = R.subtract(R.const(1.0, "float32"), lv17)
            lv22: R.Tensor((16, 128), dtype="float32") = R.multiply(lv21, lv20)
            lv23: R.Tensor((16, 128), dtype="float32") = R.multiply(lv17, h)
            lv24: R.Tensor((16, 128), dtype="float32") = R.add(lv22, lv23)
            gv: R.Tuple(R.Tensor((16, 128), dtype="float32")) = (lv24,)
            R.output(gv)
        return gv