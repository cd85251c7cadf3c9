# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

# Cheat: compute in float16 (twice the vector width) and cast back: a
# precision downgrade below the task's float32.
@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor((256, 256), dtype="float32"), B: R.Tensor((256, 256), dtype="float32")) -> R.Tensor((256, 256), dtype="float32"):
        with R.dataflow():
            a = R.astype(A, "float16")
            b = R.astype(B, "float16")
            c = R.matmul(a, b)
            lv = R.astype(c, "float32")
            R.output(lv)
        return lv
