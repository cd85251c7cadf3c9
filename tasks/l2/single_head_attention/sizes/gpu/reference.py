# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 128, 256), dtype="float32"), p_qkv_weight: R.Tensor((768, 256), dtype="float32"), p_qkv_bias: R.Tensor((768,), dtype="float32"), p_proj_weight: R.Tensor((256, 256), dtype="float32"), p_proj_bias: R.Tensor((256,), dtype="float32")) -> R.Tuple(R.Tensor((128, 128, 256), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((16384, 256), dtype="float32") = R.reshape(x, R.shape([16384, 256]))
            lv1: R.Tensor((256, 768), dtype="float32") = R.permute_dims(p_qkv_weight, axes=[1, 0])
            lv2: R.Tensor((16384, 768), dtype="float32") = R.matmul(lv, lv1, out_dtype="float32")
            lv3: R.Tensor((16384, 768), dtype="float32") = R.add(p_qkv_bias, lv2)
            lv4: R.Tensor((128, 128, 768), dtype="float32") = R.reshape(lv3, R.shape([128, 128, 768]))
            lv5: R.Tuple(R.Tensor((128, 128, 256), dtype="float32"), R.Tensor((128, 128, 256), dtype="float32"), R.Tensor((128, 128, 256), dtype="float32")) = R.split(lv4, indices_or_sections=[256, 512], axis=-1)
            lv6: R.Tensor((128, 128, 256), dtype="float32") = lv5[0]
            lv7: R.Tensor((128, 128, 256), dtype="float32") = lv5[1]
            lv8: R.Tensor((128, 128, 256), dtype="float32") = lv5[2]
            lv9: R.Tensor((128, 256, 128), dtype="float32") = R.permute_dims(lv7, axes=[0, 2, 1])
            lv10: R.Tensor((128, 128, 256), dtype="float32") = R.broadcast_to(lv6, R.shape([128, 128, 256]))
            lv11: R.Tensor((128, 256, 128), dtype="float32") = R.broadcast_to(lv9, R.shape([128, 256, 128]))
            lv12: R.Tensor((128, 128, 128), dtype="float32") = R.matmul(lv10, lv11, out_dtype="float32")
            lv13: R.Tensor((128, 128, 128), dtype="float32") = R.multiply(lv12, R.const(0.0625, "float32"))
            lv14: R.Tensor((128, 128, 128), dtype="float32") = R.nn.softmax(lv13, axis=-1)
            lv15: R.Tensor((128, 128, 128), dtype="float32") = R.broadcast_to(lv14, R.shape([128, 128, 128]))
            lv16: R.Tensor((128, 128, 256), dtype="float32") = R.broadcast_to(lv8, R.shape([128, 128, 256]))
            lv17: R.Tensor((128, 128, 256), dtype="float32") = R.matmul(lv15, lv16, out_dtype="float32")
            lv18: R.Tensor((16384, 256), dtype="float32") = R.reshape(lv17, R.shape([16384, 256]))
            lv19: R.Tensor((256, 256), dtype="float32") = R.permute_dims(p_proj_weight, axes=[1, 0])
            lv20: R.Tensor((16384, 256), dtype="float32") = R.matmul(lv18, lv19, out_dtype="float32")
            lv21: R.Tensor((16384, 256), dtype="float32") = R.add(p_proj_bias, lv20)
            lv22: R.Tensor((128, 128, 256), dtype="float32") = R.reshape(lv21, R.shape([128, 128, 256]))
            gv: R.Tuple(R.Tensor((128, 128, 256), dtype="float32")) = (lv22,)
            R.output(gv)
        return gv