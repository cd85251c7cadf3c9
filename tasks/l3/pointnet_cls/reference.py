# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 256), dtype="float32"), p_tnet_features_0_weight: R.Tensor((32, 3, 1), dtype="float32"), p_tnet_features_1_weight: R.Tensor((32,), dtype="float32"), p_tnet_features_1_bias: R.Tensor((32,), dtype="float32"), p_tnet_features_1_running_mean: R.Tensor((32,), dtype="float32"), p_tnet_features_1_running_var: R.Tensor((32,), dtype="float32"), p_tnet_features_3_weight: R.Tensor((64, 32, 1), dtype="float32"), p_tnet_features_4_weight: R.Tensor((64,), dtype="float32"), p_tnet_features_4_bias: R.Tensor((64,), dtype="float32"), p_tnet_features_4_running_mean: R.Tensor((64,), dtype="float32"), p_tnet_features_4_running_var: R.Tensor((64,), dtype="float32"), p_tnet_features_6_weight: R.Tensor((128, 64, 1), dtype="float32"), p_tnet_features_7_weight: R.Tensor((128,), dtype="float32"), p_tnet_features_7_bias: R.Tensor((128,), dtype="float32"), p_tnet_features_7_running_mean: R.Tensor((128,), dtype="float32"), p_tnet_features_7_running_var: R.Tensor((128,), dtype="float32"), p_tnet_fc_0_weight: R.Tensor((64, 128), dtype="float32"), p_tnet_fc_0_bias: R.Tensor((64,), dtype="float32"), p_tnet_fc_1_weight: R.Tensor((64,), dtype="float32"), p_tnet_fc_1_bias: R.Tensor((64,), dtype="float32"), p_tnet_fc_1_running_mean: R.Tensor((64,), dtype="float32"), p_tnet_fc_1_running_var: R.Tensor((64,), dtype="float32"), p_tnet_fc_3_weight: R.Tensor((9, 64), dtype="float32"), p_tnet_fc_3_bias: R.Tensor((9,), dtype="float32"), p_features_0_weight: R.Tensor((64, 3, 1), dtype="float32"), p_features_1_weight: R.Tensor((64,), dtype="float32"), p_features_1_bias: R.Tensor((64,), dtype="float32"), p_features_1_running_mean: R.Tensor((64,), dtype="float32"), p_features_1_running_var: R.Tensor((64,), dtype="float32"), p_features_3_weight: R.Tensor((64, 64, 1), dtype="float32"), p_features_4_weight: R.Tensor((64,), dtype="float32"), p_features_4_bias: R.Tensor((64,), dtype="float32"), p_features_4_running_mean: R.Tensor((64,), dtype="float32"), p_features_4_running_var: R.Tensor((64,), dtype="float32"), p_features_6_weight: R.Tensor((128, 64, 1), dtype="float32"), p_features_7_weight: R.Tensor((128,), dtype="float32"), p_features_7_bias: R.Tensor((128,), dtype="float32"), p_features_7_running_mean: R.Tensor((128,), dtype="float32"), p_features_7_running_var: R.Tensor((128,), dtype="float32"), p_features_9_weight: R.Tensor((256, 128, 1), dtype="float32"), p_features_10_weight: R.Tensor((256,), dtype="float32"), p_features_10_bias: R.Tensor((256,), dtype="float32"), p_features_10_running_mean: R.Tensor((256,), dtype="float32"), p_features_10_running_var: R.Tensor((256,), dtype="float32"), p_head_0_weight: R.Tensor((128, 256), dtype="float32"), p_head_0_bias: R.Tensor((128,), dtype="float32"), p_head_1_weight: R.Tensor((128,), dtype="float32"), p_head_1_bias: R.Tensor((128,), dtype="float32"), p_head_1_running_mean: R.Tensor((128,), dtype="float32"), p_head_1_running_var: R.Tensor((128,), dtype="float32"), p_head_3_weight: R.Tensor((64, 128), dtype="float32"), p_head_3_bias: R.Tensor((64,), dtype="float32"), p_head_4_weight: R.Tensor((64,), dtype="float32"), p_head_4_bias: R.Tensor((64,), dtype="float32"), p_head_4_running_mean: R.Tensor((64,), dtype="float32"), p_head_4_running_var: R.Tensor((64,), dtype="float32"), p_head_6_weight: R.Tensor((40, 64), dtype="float32"), p_head_6_bias: R.Tensor((40,), dtype="float32")) -> R.Tuple(R.Tensor((1, 40), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 32, 256), dtype="float32") = R.nn.conv1d(x, p_tnet_features_0_weight, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="float32")
            lv1: R.Tuple(R.Tensor((1, 32, 256), dtype="float32"), R.Tensor((32,), dtype="float32"), R.Tensor((32,), dtype="float32")) = R.nn.batch_norm(lv, p_tnet_features_1_weight, p_tnet_features_1_bias, p_tnet_features_1_running_mean, p_tnet_features_1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv2: R.Tensor((1, 32, 256), dtype="float32") = lv1[0]
            lv3: R.Tensor((1, 32, 256), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 64, 256), dtype="float32") = R.nn.conv1d(lv3, p_tnet_features_3_weight, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="float32")
            lv5: R.Tuple(R.Tensor((1, 64, 256), dtype="float32"), R.Tensor((64,), dtype="float32"), R.Tensor((64,), dtype="float32")) = R.nn.batch_norm(lv4, p_tnet_features_4_weight, p_tnet_features_4_bias, p_tnet_features_4_running_mean, p_tnet_features_4_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv6: R.Tensor((1, 64, 256), dtype="float32") = lv5[0]
            lv7: R.Tensor((1, 64, 256), dtype="float32") = R.nn.relu(lv6)
            lv8: R.Tensor((1, 128, 256), dtype="float32") = R.nn.conv1d(lv7, p_tnet_features_6_weight, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="float32")
            lv9: R.Tuple(R.Tensor((1, 128, 256), dtype="float32"), R.Tensor((128,), dtype="float32"), R.Tensor((128,), dtype="float32")) = R.nn.batch_norm(lv8, p_tnet_features_7_weight, p_tnet_features_7_bias, p_tnet_features_7_running_mean, p_tnet_features_7_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv10: R.Tensor((1, 128, 256), dtype="float32") = lv9[0]
            lv11: R.Tensor((1, 128, 256), dtype="float32") = R.nn.relu(lv10)
            lv12: R.Tensor((1, 128, 1, 256), dtype="float32") = R.expand_dims(lv11, axis=[-2])
            lv13: R.Tensor((1, 128, 1, 1), dtype="float32") = R.nn.max_pool2d(lv12, pool_size=[1, 256], strides=[1, 256], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv14: R.Tensor((1, 128, 1, 1), dtype="float32") = R.zeros_like(lv13, dtype=None)
            lv15: R.Tuple(R.Tensor((1, 128, 1, 1), dtype="float32"), R.Tensor((1, 128, 1, 1), dtype="float32")) = lv13, lv14
            lv16: R.Tensor((1, 128, 1, 1), dtype="float32") = lv15[0]
            lv17: R.Tensor((1, 128, 1), dtype="float32") = R.squeeze(lv16, axis=[-2])
            lv18: R.Tensor((1, 128), dtype="float32") = R.reshape(lv17, R.shape([1, 128]))
            lv19: R.Tensor((3,), dtype="int64") = R.arange(0, 3, 1, dtype="int64")
            lv20: R.Tensor((3, 1), dtype="int64") = R.expand_dims(lv19, axis=[1])
            lv21: R.Tensor((1, 3), dtype="int64") = R.expand_dims(lv19, axis=[0])
            lv22: R.Tensor((3, 3), dtype="bool") = R.equal(lv20, lv21)
            lv23: R.Tensor((3, 3), dtype="float32") = R.astype(lv22, dtype="float32")
            lv24: R.Tensor((1, 9), dtype="float32") = R.reshape(lv23, R.shape([1, 9]))
            lv25: R.Tensor((128, 64), dtype="float32") = R.permute_dims(p_tnet_fc_0_weight, axes=[1, 0])
            lv26: R.Tensor((1, 64), dtype="float32") = R.matmul(lv18, lv25, out_dtype="float32")
            lv27: R.Tensor((1, 64), dtype="float32") = R.add(p_tnet_fc_0_bias, lv26)
            lv28: R.Tuple(R.Tensor((1, 64), dtype="float32"), R.Tensor((64,), dtype="float32"), R.Tensor((64,), dtype="float32")) = R.nn.batch_norm(lv27, p_tnet_fc_1_weight, p_tnet_fc_1_bias, p_tnet_fc_1_running_mean, p_tnet_fc_1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv29: R.Tensor((1, 64), dtype="float32") = lv28[0]
            lv30: R.Tensor((1, 64), dtype="float32") = R.nn.relu(lv29)
            lv31: R.Tensor((64, 9), dtype="float32") = R.permute_dims(p_tnet_fc_3_weight, axes=[1, 0])
            lv32: R.Tensor((1, 9), dtype="float32") = R.matmul(lv30, lv31, out_dtype="float32")
            lv33: R.Tensor((1, 9), dtype="float32") = R.add(p_tnet_fc_3_bias, lv32)
            lv34: R.Tensor((1, 9), dtype="float32") = R.add(lv33, lv24)
            lv35: R.Tensor((1, 3, 3), dtype="float32") = R.reshape(lv34, R.shape([1, 3, 3]))
            lv36: R.Tensor((1, 3, 3), dtype="float32") = R.permute_dims(lv35, axes=[0, 2, 1])
            lv37: R.Tensor((1, 3, 256), dtype="float32") = R.matmul(lv36, x, out_dtype="float32")
            lv38: R.Tensor((1, 64, 256), dtype="float32") = R.nn.conv1d(lv37, p_features_0_weight, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="float32")
            lv39: R.Tuple(R.Tensor((1, 64, 256), dtype="float32"), R.Tensor((64,), dtype="float32"), R.Tensor((64,), dtype="float32")) = R.nn.batch_norm(lv38, p_features_1_weight, p_features_1_bias, p_features_1_running_mean, p_features_1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv40: R.Tensor((1, 64, 256), dtype="float32") = lv39[0]
            lv41: R.Tensor((1, 64, 256), dtype="float32") = R.nn.relu(lv40)
            lv42: R.Tensor((1, 64, 256), dtype="float32") = R.nn.conv1d(lv41, p_features_3_weight, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="float32")
            lv43: R.Tuple(R.Tensor((1, 64, 256), dtype="float32"), R.Tensor((64,), dtype="float32"), R.Tensor((64,), dtype="float32")) = R.nn.batch_norm(lv42, p_features_4_weight, p_features_4_bias, p_features_4_running_mean, p_features_4_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv44: R.Tensor((1, 64, 256), dtype="float32") = lv43[0]
            lv45: R.Tensor((1, 64, 256), dtype="float32") = R.nn.relu(lv44)
            lv46: R.Tensor((1, 128, 256), dtype="float32") = R.nn.conv1d(lv45, p_features_6_weight, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="float32")
            lv47: R.Tuple(R.Tensor((1, 128, 256), dtype="float32"), R.Tensor((128,), dtype="float32"), R.Tensor((128,), dtype="float32")) = R.nn.batch_norm(lv46, p_features_7_weight, p_features_7_bias, p_features_7_running_mean, p_features_7_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv48: R.Tensor((1, 128, 256), dtype="float32") = lv47[0]
            lv49: R.Tensor((1, 128, 256), dtype="float32") = R.nn.relu(lv48)
            lv50: R.Tensor((1, 256, 256), dtype="float32") = R.nn.conv1d(lv49, p_features_9_weight, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="float32")
            lv51: R.Tuple(R.Tensor((1, 256, 256), dtype="float32"), R.Tensor((256,), dtype="float32"), R.Tensor((256,), dtype="float32")) = R.nn.batch_norm(lv50, p_features_10_weight, p_features_10_bias, p_features_10_running_mean, p_features_10_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv52: R.Tensor((1, 256, 256), dtype="float32") = lv51[0]
            lv53: R.Tensor((1, 256, 256), dtype="float32") = R.nn.relu(lv52)
            lv54: R.Tensor((1, 256, 1, 256), dtype="float32") = R.expand_dims(lv53, axis=[-2])
            lv55: R.Tensor((1, 256, 1, 1), dtype="float32") = R.nn.max_pool2d(lv54, pool_size=[1, 256], strides=[1, 256], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv56: R.Tensor((1, 256, 1, 1), dtype="float32") = R.zeros_like(lv55, dtype=None)
            lv57: R.Tuple(R.Tensor((1, 256, 1, 1), dtype="float32"), R.Tensor((1, 256, 1, 1), dtype="float32")) = lv55, lv56
            lv58: R.Tensor((1, 256, 1, 1), dtype="float32") = lv57[0]
            lv59: R.Tensor((1, 256, 1), dtype="float32") = R.squeeze(lv58, axis=[-2])
            lv60: R.Tensor((1, 256), dtype="float32") = R.reshape(lv59, R.shape([1, 256]))
            lv61: R.Tensor((256, 128), dtype="float32") = R.permute_dims(p_head_0_weight, axes=[1, 0])
            lv62: R.Tensor((1, 128), dtype="float32") = R.matmul(lv60, lv61, out_dtype="float32")
            lv63: R.Tensor((1, 128), dtype="float32") = R.add(p_head_0_bias, lv62)
            lv64: R.Tuple(R.Tensor((1, 128), dtype="float32"), R.Tensor((128,), dtype="float32"), R.Tensor((128,), dtype="float32")) = R.nn.batch_norm(lv63, p_head_1_weight, p_head_1_bias, p_head_1_running_mean, p_head_1_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv65: R.Tensor((1, 128), dtype="float32") = lv64[0]
            lv66: R.Tensor((1, 128), dtype="float32") = R.nn.relu(lv65)
            lv67: R.Tensor((128, 64), dtype="float32") = R.permute_dims(p_head_3_weight, axes=[1, 0])
            lv68: R.Tensor((1, 64), dtype="float32") = R.matmul(lv66, lv67, out_dtype="float32")
            lv69: R.Tensor((1, 64), dtype="float32") = R.add(p_head_3_bias, lv68)
            lv70: R.Tuple(R.Tensor((1, 64), dtype="float32"), R.Tensor((64,), dtype="float32"), R.Tensor((64,), dtype="float32")) = R.nn.batch_norm(lv69, p_head_4_weight, p_head_4_bias, p_head_4_running_mean, p_head_4_running_var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv71: R.Tensor((1, 64), dtype="float32") = lv70[0]
            lv72: R.Tensor((1, 64), dtype="float32") = R.nn.relu(lv71)
            lv73: R.Tensor((64, 40), dtype="float32") = R.permute_dims(p_head_6_weight, axes=[1, 0])
            lv74: R.Tensor((1, 40), dtype="float32") = R.matmul(lv72, lv73, out_dtype="float32")
            lv75: R.Tensor((1, 40), dtype="float32") = R.add(p_head_6_bias, lv74)
            gv: R.Tuple(R.Tensor((1, 40), dtype="float32")) = (lv75,)
            R.output(gv)
        return gv