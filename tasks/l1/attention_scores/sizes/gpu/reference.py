# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(q: R.Tensor((4, 1024, 512), dtype="float32"), k: R.Tensor((4, 1024, 512), dtype="float32")) -> R.Tuple(R.Tensor((4, 1024, 1024), dtype="float32")):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((4, 512, 1024), dtype="float32") = R.permute_dims(k, axes=[0, 2, 1])
            lv1: R.Tensor((4, 1024, 512), dtype="float32") = R.broadcast_to(q, R.shape([4, 1024, 512]))
            lv2: R.Tensor((4, 512, 1024), dtype="float32") = R.broadcast_to(lv, R.shape([4, 512, 1024]))
            lv3: R.Tensor((4, 1024, 1024), dtype="float32") = R.matmul(lv1, lv2, out_dtype="float32")
            lv4: R.Tensor((4, 1024, 1024), dtype="float32") = R.multiply(lv3, R.const(0.044194173067808151, "float32"))
            gv: R.Tuple(R.Tensor((4, 1024, 1024), dtype="float32")) = (lv4,)
            R.output(gv)
        return gv