# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 64, 128), dtype="float32"), p_qkv_weight: R.Tensor((384, 128), dtype="float32"), p_qkv_bias: R.Tensor((384,), dtype="float32"), p_proj_weight: R.Tensor((128, 128), dtype="float32"), p_proj_bias: R.Tensor((128,), dtype="float32")) -> R.Tuple(R.Tensor((2, 64, 128), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((128, 128), dtype="float32") = R.reshape(x, R.shape([128, 128]))
            lv1: R.Tensor((128, 384), dtype="float32") = R.permute_dims(p_qkv_weight, axes=[1, 0])
            lv2: R.Tensor((128, 384), dtype="float32") = R.matmul(lv, lv1, out_dtype="float32")
            lv3: R.Tensor((128, 384), dtype="float32") = R.add(p_qkv_bias, lv2)
            lv4: R.Tensor((2, 64, 384), dtype="float32") = R.reshape(lv3, R.shape([2, 64, 384]))
            lv5: R.Tensor((2, 64, 3, 4, 32), dtype="float32") = R.reshape(lv4, R.shape([2, 64, 3, 4, 32]))
            lv6: R.Tensor((3, 2, 4, 64, 32), dtype="float32") = R.permute_dims(lv5, axes=[2, 0, 3, 1, 4])
            lv7: R.Tensor((2, 4, 64, 32), dtype="float32") = R.take(lv6, R.const(0, "int64"), axis=0, mode="fast")
            lv8: R.Tensor((2, 4, 64, 32), dtype="float32") = R.take(lv6, R.const(1, "int64"), axis=0, mode="fast")
            lv9: R.Tensor((2, 4, 64, 32), dtype="float32") = R.take(lv6, R.const(2, "int64"), axis=0, mode="fast")
            lv10: R.Tensor((2, 4, 32, 64), dtype="float32") = R.permute_dims(lv8, axes=[0, 1, 3, 2])
            lv11: R.Tensor((2, 4, 64, 32), dtype="float32") = R.broadcast_to(lv7, R.shape([2, 4, 64, 32]))
            lv12: R.Tensor((8, 64, 32), dtype="float32") = R.reshape(lv11, R.shape([8, 64, 32]))
            lv13: R.Tensor((2, 4, 32, 64), dtype="float32") = R.broadcast_to(lv10, R.shape([2, 4, 32, 64]))
            lv14: R.Tensor((8, 32, 64), dtype="float32") = R.reshape(lv13, R.shape([8, 32, 64]))
            lv15: R.Tensor((8, 64, 64), dtype="float32") = R.matmul(lv12, lv14, out_dtype="float32")
            lv16: R.Tensor((2, 4, 64, 64), dtype="float32") = R.reshape(lv15, R.shape([2, 4, 64, 64]))
            lv17: R.Tensor((2, 4, 64, 64), dtype="float32") = R.multiply(lv16, R.const(0.1767766922712326, "float32"))
            lv18: R.Tensor((2, 4, 64, 64), dtype="float32") = R.nn.softmax(lv17, axis=-1)
            lv19: R.Tensor((2, 4, 64, 64), dtype="float32") = R.broadcast_to(lv18, R.shape([2, 4, 64, 64]))
            lv20: R.Tensor((8, 64, 64), dtype="float32") = R.reshape(lv19, R.shape([8, 64, 64]))
            lv21: R.Tensor((2, 4, 64, 32), dtype="float32") = R.broadcast_to(lv9, R.shape([2, 4, 64, 32]))
            lv22: R.Tensor((8, 64, 32), dtype="float32") = R.reshape(lv21, R.shape([8, 64, 32]))
            lv23: R.Tensor((8, 64, 32), dtype="float32") = R.matmul(lv20, lv22, out_dtype="float32")
            lv24: R.Tensor((2, 4, 64, 32), dtype="float32") = R.reshape(lv23, R.shape([2, 4, 64, 32]))
            lv25: R.Tensor((2, 64, 4, 32), dtype="float32") = R.permute_dims(lv24, axes=[0, 2, 1, 3])
            lv26: R.Tensor((2, 64, 128), dtype="float32") = R.reshape(lv25, R.shape([2, 64, 128]))
            lv27: R.Tensor((128, 128), dtype="float32") = R.reshape(lv26, R.shape([128, 128]))
            lv28: R.Tensor((128, 128), dtype="float32") = R.permute_dims(p_proj_weight, axes=[1, 0])
            lv29: R.Tensor((128, 128), dtype="float32") = R.matmul(lv27, lv28, out_dtype="float32")
            lv30: R.Tensor((128, 128), dtype="float32") = R.add(p_proj_bias, lv29)
            lv31: R.Tensor((2, 64, 128), dtype="float32") = R.reshape(lv30, R.shape([2, 64, 128]))
            gv: R.Tuple(R.Tensor((2, 64, 128), dtype="float32")) = (lv31,)
            R.output(gv)
        return gv