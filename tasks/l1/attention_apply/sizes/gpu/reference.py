# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(s: R.Tensor((4, 1024, 1024), dtype="float32"), v: R.Tensor((4, 1024, 512), dtype="float32")) -> R.Tuple(R.Tensor((4, 1024, 512), dtype="float32")):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((4, 1024, 1024), dtype="float32") = R.nn.softmax(s, axis=-1)
            lv1: R.Tensor((4, 1024, 1024), dtype="float32") = R.broadcast_to(lv, R.shape([4, 1024, 1024]))
            lv2: R.Tensor((4, 1024, 512), dtype="float32") = R.broadcast_to(v, R.shape([4, 1024, 512]))
            lv3: R.Tensor((4, 1024, 512), dtype="float32") = R.matmul(lv1, lv2, out_dtype="float32")
            gv: R.Tuple(R.Tensor((4, 1024, 512), dtype="float32")) = (lv3,)
            R.output(gv)
        return gv