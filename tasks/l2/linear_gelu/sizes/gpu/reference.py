# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((128, 128, 256), dtype="float32"), p_fc_weight: R.Tensor((512, 256), dtype="float32"), p_fc_bias: R.Tensor((512,), dtype="float32")) -> R.Tuple(R.Tensor((128, 128, 512), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((16384, 256), dtype="float32") = R.reshape(x, R.shape([16384, 256]))
            lv1: R.Tensor((256, 512), dtype="float32") = R.permute_dims(p_fc_weight, axes=[1, 0])
            lv2: R.Tensor((16384, 512), dtype="float32") = R.matmul(lv, lv1, out_dtype="float32")
            lv3: R.Tensor((16384, 512), dtype="float32") = R.add(p_fc_bias, lv2)
            lv4: R.Tensor((128, 128, 512), dtype="float32") = R.reshape(lv3, R.shape([128, 128, 512]))
            lv5: R.Tensor((128, 128, 512), dtype="float32") = R.nn.gelu(lv4)
            gv: R.Tuple(R.Tensor((128, 128, 512), dtype="float32")) = (lv5,)
            R.output(gv)
        return gv