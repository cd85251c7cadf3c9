# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 512, 224, 224), dtype="float32")) -> R.Tuple(R.Tensor((1, 512, 112, 112), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 512, 112, 112), dtype="float32") = R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv1: R.Tensor((1, 512, 112, 112), dtype="float32") = R.zeros_like(lv, dtype=None)
            lv2: R.Tuple(R.Tensor((1, 512, 112, 112), dtype="float32"), R.Tensor((1, 512, 112, 112), dtype="float32")) = lv, lv1
            lv3: R.Tensor((1, 512, 112, 112), dtype="float32") = lv2[0]
            gv: R.Tuple(R.Tensor((1, 512, 112, 112), dtype="float32")) = (lv3,)
            R.output(gv)
        return gv