# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4096, 16384), dtype="float32")) -> R.Tuple(R.Tensor((4096,), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tuple(R.Tensor((4096, 1), dtype="float32"), R.Tensor((4096, 1), dtype="int64")) = R.topk(x, k=1, axis=-1, ret_type="both", largest=True, dtype="int64")
            lv1: R.Tensor((4096, 1), dtype="float32") = lv[0]
            lv2: R.Tensor((4096,), dtype="float32") = R.squeeze(lv1, axis=[-1])
            lv3: R.Tensor((4096, 1), dtype="int64") = lv[1]
            lv4: R.Tensor((4096,), dtype="int64") = R.squeeze(lv3, axis=[-1])
            lv5: R.Tuple(R.Tensor((4096,), dtype="float32"), R.Tensor((4096,), dtype="int64")) = lv2, lv4
            lv6: R.Tensor((4096,), dtype="float32") = lv5[0]
            gv: R.Tuple(R.Tensor((4096,), dtype="float32")) = (lv6,)
            R.output(gv)
        return gv