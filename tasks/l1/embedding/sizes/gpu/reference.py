# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(ids: R.Tensor((1, 4096), dtype="int64"), p_table_weight: R.Tensor((32000, 2048), dtype="float32")) -> R.Tuple(R.Tensor((1, 4096, 2048), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 4096), dtype="int32") = R.astype(ids, dtype="int32")
            lv1: R.Tensor((4096,), dtype="int32") = R.reshape(lv, R.shape([4096]))
            lv2: R.Tensor((4096, 2048), dtype="float32") = R.take(p_table_weight, lv1, axis=0, mode="fast")
            lv3: R.Tensor((1, 4096, 2048), dtype="float32") = R.reshape(lv2, R.shape([1, 4096, 2048]))
            gv: R.Tuple(R.Tensor((1, 4096, 2048), dtype="float32")) = (lv3,)
            R.output(gv)
        return gv