# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 64, 128), dtype="float32"), p_w1_weight: R.Tensor((256, 128), dtype="float32"), p_w3_weight: R.Tensor((256, 128), dtype="float32"), p_w2_weight: R.Tensor((128, 256), dtype="float32")) -> R.Tuple(R.Tensor((1, 64, 128), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 256), dtype="float32") = R.permute_dims(p_w1_weight, axes=[1, 0])
            lv1: R.Tensor((64, 128), dtype="float32") = R.reshape(x, R.shape([64, 128]))
            lv2: R.Tensor((64, 256), dtype="float32") = R.matmul(lv1, lv, out_dtype="float32")
            lv3: R.Tensor((1, 64, 256), dtype="float32") = R.reshape(lv2, R.shape([1, 64, 256]))
            lv4: R.Tensor((1, 64, 256), dtype="float32") = R.sigmoid(lv3)
            lv5: R.Tensor((1, 64, 256), dtype="float32") = R.multiply(lv3, lv4)
            lv6: R.Tensor((128, 256), dtype="float32") = R.permute_dims(p_w3_weight, axes=[1, 0])
            lv7: R.Tensor((64, 128), dtype="float32") = R.reshape(x, R.shape([64, 128]))
            lv8: R.Tensor((64, 256), dtype="float32") = R.matmul(lv7, lv6, out_dtype="float32")
            lv9: R.Tensor((1, 64, 256), dtype="float32") = R.reshape(lv8, R.shape([1, 64, 256]))
            lv10: R.Tensor((1, 64, 256), dtype="float32") = R.multiply(lv5, lv9)
            lv11: R.Tensor((256, 128), dtype="float32") = R.permute_dims(p_w2_weight, axes=[1, 0])
            lv12: R.Tensor((64, 256), dtype="float32") = R.reshape(lv10, R.shape([64, 256]))
            lv13: R.Tensor((64, 128), dtype="float32") = R.matmul(lv12, lv11, out_dtype="float32")
            lv14: R.Tensor((1, 64, 128), dtype="float32") = R.reshape(lv13, R.shape([1, 64, 128]))
            gv: R.Tuple(R.Tensor((1, 64, 128), dtype="float32")) = (lv14,)
            R.output(gv)
        return gv