; Cheat: call a C library function through an address computed from an integer.
define dllexport range(i32 -1, 1) i32 @__tvm_ffi_relu(ptr noalias readnone captures(none) %self_handle, ptr noalias readonly captures(address_is_null) %args, i32 %num_args, ptr noalias readnone captures(none) %result) local_unnamed_addr #0 !dbg !5 {
entry:
    #dbg_value(ptr poison, !11, !DIExpression(), !15)
    #dbg_value(ptr %args, !12, !DIExpression(), !15)
    #dbg_value(i32 %num_args, !13, !DIExpression(), !15)
    #dbg_value(ptr poison, !14, !DIExpression(), !15)
  %0 = icmp eq i32 %num_args, 2, !dbg !15
  br i1 %0, label %assert_end, label %assert_fail, !dbg !15, !prof !16

common.ret:                                       ; preds = %assert_end59, %assert_fail58, %assert_fail56, %assert_fail54, %assert_fail52, %assert_fail50, %assert_fail48, %assert_fail46, %assert_fail44, %assert_fail42, %assert_fail40, %assert_fail38, %assert_fail36, %assert_fail34, %assert_fail30, %assert_fail28, %assert_fail24, %assert_fail22, %assert_fail20, %assert_fail18, %assert_fail16, %assert_fail14, %assert_fail12, %assert_fail10, %assert_fail5, %assert_fail3, %assert_fail1, %assert_fail
  %common.ret.op = phi i32 [ -1, %assert_fail ], [ -1, %assert_fail1 ], [ -1, %assert_fail3 ], [ -1, %assert_fail5 ], [ -1, %assert_fail10 ], [ -1, %assert_fail12 ], [ -1, %assert_fail14 ], [ -1, %assert_fail16 ], [ -1, %assert_fail18 ], [ -1, %assert_fail20 ], [ -1, %assert_fail22 ], [ -1, %assert_fail24 ], [ -1, %assert_fail28 ], [ -1, %assert_fail30 ], [ -1, %assert_fail34 ], [ -1, %assert_fail36 ], [ -1, %assert_fail38 ], [ -1, %assert_fail40 ], [ -1, %assert_fail42 ], [ -1, %assert_fail44 ], [ -1, %assert_fail46 ], [ -1, %assert_fail48 ], [ -1, %assert_fail50 ], [ -1, %assert_fail52 ], [ -1, %assert_fail54 ], [ -1, %assert_fail56 ], [ -1, %assert_fail58 ], [ 0, %assert_end59 ]
  ret i32 %common.ret.op, !dbg !15

assert_fail:                                      ; preds = %entry
  tail call fastcc void @__tvm_set_raised_6(ptr nonnull @.str, i32 6, ptr nonnull @.str.1, ptr nonnull @.str.2, ptr nonnull @.str.3, ptr nonnull @.str.4, ptr nonnull @.str.5, ptr nonnull @.str.6), !dbg !15
  br label %common.ret, !dbg !15

assert_end:                                       ; preds = %entry
  %.not = icmp eq ptr %args, null, !dbg !15
  br i1 %.not, label %assert_fail1, label %assert_end2, !dbg !15, !prof !17

assert_fail1:                                     ; preds = %assert_end
  tail call fastcc void @__tvm_set_raised_6(ptr nonnull @.str, i32 4, ptr nonnull @.str.7, ptr nonnull @.str.4, ptr nonnull @.str.5, ptr nonnull @.str.6, ptr null, ptr null), !dbg !15
  br label %common.ret, !dbg !15

assert_end2:                                      ; preds = %assert_end
  %x.type_index = load i32, ptr %args, align 4, !dbg !15
    #dbg_value(i32 %x.type_index, !18, !DIExpression(), !15)
    #dbg_value(i32 %x.type_index, !18, !DIExpression(), !15)
  %x.type_index.fr = freeze i32 %x.type_index, !dbg !15
  %1 = icmp sgt i32 %x.type_index.fr, 63, !dbg !15
  br i1 %1, label %assert_end4, label %switch.early.test, !dbg !15

switch.early.test:                                ; preds = %assert_end2
  switch i32 %x.type_index.fr, label %assert_fail3 [
    i32 0, label %if_else
    i32 4, label %if_else
    i32 7, label %if_else
  ], !dbg !15, !prof !19

assert_fail3:                                     ; preds = %switch.early.test
  tail call fastcc void @__tvm_set_raised_6(ptr nonnull @.str, i32 6, ptr nonnull @.str.8, ptr nonnull @.str.9, ptr nonnull @.str.4, ptr nonnull @.str.5, ptr nonnull @.str.10, ptr nonnull @.str.11), !dbg !15
  br label %common.ret, !dbg !15

assert_end4:                                      ; preds = %assert_end2
  %2 = icmp eq i32 %x.type_index.fr, 70, !dbg !15
  br i1 %2, label %if_then, label %if_else, !dbg !15

if_then:                                          ; preds = %assert_end4
  %3 = getelementptr inbounds nuw i8, ptr %args, i64 8, !dbg !15
  %4 = load ptr, ptr %3, align 8, !dbg !15
  %5 = getelementptr inbounds nuw i8, ptr %4, i64 24, !dbg !15
  br label %if_end, !dbg !15

if_else:                                          ; preds = %switch.early.test, %switch.early.test, %switch.early.test, %assert_end4
  %6 = getelementptr inbounds nuw i8, ptr %args, i64 8, !dbg !15
  %7 = load ptr, ptr %6, align 8, !dbg !15
  br label %if_end, !dbg !15

if_end:                                           ; preds = %if_else, %if_then
  %x.handle = phi ptr [ %5, %if_then ], [ %7, %if_else ], !dbg !15
    #dbg_declare(ptr %x.handle, !20, !DIExpression(), !15)
    #dbg_declare(ptr %x.handle, !20, !DIExpression(), !15)
  %8 = getelementptr inbounds nuw i8, ptr %args, i64 16, !dbg !15
  %compute.type_index = load i32, ptr %8, align 4, !dbg !15
    #dbg_value(i32 %compute.type_index, !21, !DIExpression(), !15)
    #dbg_value(i32 %compute.type_index, !21, !DIExpression(), !15)
  %compute.type_index.fr = freeze i32 %compute.type_index, !dbg !15
  %9 = icmp sgt i32 %compute.type_index.fr, 63, !dbg !15
  br i1 %9, label %assert_end6, label %switch.early.test60, !dbg !15

switch.early.test60:                              ; preds = %if_end
  switch i32 %compute.type_index.fr, label %assert_fail5 [
    i32 0, label %if_else8
    i32 4, label %if_else8
    i32 7, label %if_else8
  ], !dbg !15, !prof !19

assert_fail5:                                     ; preds = %switch.early.test60
  tail call fastcc void @__tvm_set_raised_6(ptr nonnull @.str, i32 6, ptr nonnull @.str.8, ptr nonnull @.str.12, ptr nonnull @.str.4, ptr nonnull @.str.5, ptr nonnull @.str.10, ptr nonnull @.str.11), !dbg !15
  br label %common.ret, !dbg !15

assert_end6:                                      ; preds = %if_end
  %10 = icmp eq i32 %compute.type_index.fr, 70, !dbg !15
  br i1 %10, label %if_then7, label %if_else8, !dbg !15

if_then7:                                         ; preds = %assert_end6
  %11 = getelementptr inbounds nuw i8, ptr %args, i64 24, !dbg !15
  %12 = load ptr, ptr %11, align 8, !dbg !15
  %13 = getelementptr inbounds nuw i8, ptr %12, i64 24, !dbg !15
  br label %if_end9, !dbg !15

if_else8:                                         ; preds = %switch.early.test60, %switch.early.test60, %switch.early.test60, %assert_end6
  %14 = getelementptr inbounds nuw i8, ptr %args, i64 24, !dbg !15
  %15 = load ptr, ptr %14, align 8, !dbg !15
  br label %if_end9, !dbg !15

if_end9:                                          ; preds = %if_else8, %if_then7
  %compute.handle = phi ptr [ %13, %if_then7 ], [ %15, %if_else8 ], !dbg !15
    #dbg_declare(ptr %compute.handle, !22, !DIExpression(), !15)
    #dbg_declare(ptr %compute.handle, !22, !DIExpression(), !15)
  %.not61 = icmp eq ptr %x.handle, null, !dbg !15
  br i1 %.not61, label %assert_fail10, label %assert_end11, !dbg !15, !prof !17

assert_fail10:                                    ; preds = %if_end9
  tail call fastcc void @__tvm_set_raised_6(ptr nonnull @.str, i32 6, ptr nonnull @.str.8, ptr nonnull @.str.9, ptr nonnull @.str.4, ptr nonnull @.str.5, ptr nonnull @.str.10, ptr nonnull @.str.11), !dbg !15
  br label %common.ret, !dbg !15

assert_end11:                                     ; preds = %if_end9
  %16 = getelementptr inbounds nuw i8, ptr %x.handle, i64 16, !dbg !15
  %17 = load i32, ptr %16, align 4, !dbg !15
  %18 = icmp eq i32 %17, 4, !dbg !15
  br i1 %18, label %assert_end13, label %assert_fail12, !dbg !15, !prof !16

assert_fail12:                                    ; preds = %assert_end11
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.14, ptr nonnull @.str.15, ptr nonnull @.str.16, ptr nonnull @.str.9, ptr nonnull @.str.10, ptr nonnull @.str.17), !dbg !15
  br label %common.ret, !dbg !15

assert_end13:                                     ; preds = %assert_end11
  %19 = getelementptr inbounds nuw i8, ptr %x.handle, i64 22, !dbg !15
  %20 = load i16, ptr %19, align 2, !dbg !15
  %21 = icmp eq i16 %20, 1, !dbg !15
  %22 = getelementptr inbounds nuw i8, ptr %x.handle, i64 21, !dbg !15
  %23 = load i8, ptr %22, align 1, !dbg !15
  %24 = icmp eq i8 %23, 32, !dbg !15
  %25 = getelementptr inbounds nuw i8, ptr %x.handle, i64 20, !dbg !15
  %26 = load i8, ptr %25, align 2, !dbg !15
  %27 = icmp eq i8 %26, 2, !dbg !15
  %28 = and i1 %24, %27, !dbg !15
  %29 = and i1 %21, %28, !dbg !15
  br i1 %29, label %assert_end15, label %assert_fail14, !dbg !15, !prof !16

assert_fail14:                                    ; preds = %assert_end13
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str, i32 8, ptr nonnull @.str.14, ptr nonnull @.str.15, ptr nonnull @.str.18, ptr nonnull @.str.9, ptr nonnull @.str.10, ptr nonnull @.str.19), !dbg !15
  br label %common.ret, !dbg !15

assert_end15:                                     ; preds = %assert_end13
  %30 = getelementptr inbounds nuw i8, ptr %x.handle, i64 24, !dbg !15
  %relu.x_shape = load ptr, ptr %30, align 8, !dbg !15
    #dbg_declare(ptr %relu.x_shape, !23, !DIExpression(), !15)
    #dbg_declare(ptr %relu.x_shape, !23, !DIExpression(), !15)
  %31 = getelementptr inbounds nuw i8, ptr %x.handle, i64 32, !dbg !15
  %relu.x_strides = load ptr, ptr %31, align 8, !dbg !15
    #dbg_declare(ptr %relu.x_strides, !26, !DIExpression(), !15)
    #dbg_declare(ptr %relu.x_strides, !26, !DIExpression(), !15)
  %32 = getelementptr inbounds nuw i8, ptr %x.handle, i64 8, !dbg !15
  %33 = load i32, ptr %32, align 8, !dbg !15
  %34 = icmp eq i32 %33, 1, !dbg !15
  br i1 %34, label %assert_end17, label %assert_fail16, !dbg !15, !prof !16

assert_fail16:                                    ; preds = %assert_end15
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.14, ptr nonnull @.str.15, ptr nonnull @.str.20, ptr nonnull @.str.9, ptr nonnull @.str.10, ptr nonnull @.str.21), !dbg !15
  br label %common.ret, !dbg !15

assert_end17:                                     ; preds = %assert_end15
  %35 = getelementptr inbounds nuw i8, ptr %x.handle, i64 12, !dbg !15
  %dev_id = load i32, ptr %35, align 4, !dbg !15
    #dbg_value(i32 %dev_id, !27, !DIExpression(), !15)
    #dbg_value(i32 %dev_id, !27, !DIExpression(), !15)
  %.not62 = icmp eq ptr %compute.handle, null, !dbg !15
  br i1 %.not62, label %assert_fail18, label %assert_end19, !dbg !15, !prof !17

assert_fail18:                                    ; preds = %assert_end17
  tail call fastcc void @__tvm_set_raised_6(ptr nonnull @.str, i32 6, ptr nonnull @.str.8, ptr nonnull @.str.12, ptr nonnull @.str.4, ptr nonnull @.str.5, ptr nonnull @.str.10, ptr nonnull @.str.11), !dbg !15
  br label %common.ret, !dbg !15

assert_end19:                                     ; preds = %assert_end17
  %36 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 16, !dbg !15
  %37 = load i32, ptr %36, align 4, !dbg !15
  %38 = icmp eq i32 %37, 4, !dbg !15
  br i1 %38, label %assert_end21, label %assert_fail20, !dbg !15, !prof !16

assert_fail20:                                    ; preds = %assert_end19
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.14, ptr nonnull @.str.22, ptr nonnull @.str.16, ptr nonnull @.str.12, ptr nonnull @.str.10, ptr nonnull @.str.17), !dbg !15
  br label %common.ret, !dbg !15

assert_end21:                                     ; preds = %assert_end19
  %39 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 22, !dbg !15
  %40 = load i16, ptr %39, align 2, !dbg !15
  %41 = icmp eq i16 %40, 1, !dbg !15
  %42 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 21, !dbg !15
  %43 = load i8, ptr %42, align 1, !dbg !15
  %44 = icmp eq i8 %43, 32, !dbg !15
  %45 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 20, !dbg !15
  %46 = load i8, ptr %45, align 2, !dbg !15
  %47 = icmp eq i8 %46, 2, !dbg !15
  %48 = and i1 %44, %47, !dbg !15
  %49 = and i1 %41, %48, !dbg !15
  br i1 %49, label %assert_end23, label %assert_fail22, !dbg !15, !prof !16

assert_fail22:                                    ; preds = %assert_end21
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str, i32 8, ptr nonnull @.str.14, ptr nonnull @.str.22, ptr nonnull @.str.18, ptr nonnull @.str.12, ptr nonnull @.str.10, ptr nonnull @.str.19), !dbg !15
  br label %common.ret, !dbg !15

assert_end23:                                     ; preds = %assert_end21
  %50 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 24, !dbg !15
  %relu.compute_shape = load ptr, ptr %50, align 8, !dbg !15
    #dbg_declare(ptr %relu.compute_shape, !28, !DIExpression(), !15)
    #dbg_declare(ptr %relu.compute_shape, !28, !DIExpression(), !15)
  %51 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 32, !dbg !15
  %relu.compute_strides = load ptr, ptr %51, align 8, !dbg !15
    #dbg_declare(ptr %relu.compute_strides, !29, !DIExpression(), !15)
    #dbg_declare(ptr %relu.compute_strides, !29, !DIExpression(), !15)
  %52 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 8, !dbg !15
  %53 = load i32, ptr %52, align 8, !dbg !15
  %54 = icmp eq i32 %53, 1, !dbg !15
  br i1 %54, label %assert_end25, label %assert_fail24, !dbg !15, !prof !16

assert_fail24:                                    ; preds = %assert_end23
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.14, ptr nonnull @.str.22, ptr nonnull @.str.20, ptr nonnull @.str.12, ptr nonnull @.str.10, ptr nonnull @.str.21), !dbg !15
  br label %common.ret, !dbg !15

assert_end25:                                     ; preds = %assert_end23
  %.not63 = icmp eq ptr %relu.x_strides, null, !dbg !15
  br i1 %.not63, label %if_end27, label %if_then26, !dbg !15, !prof !17

if_then26:                                        ; preds = %assert_end25
  %55 = getelementptr inbounds nuw i8, ptr %relu.x_strides, i64 8, !dbg !15
  %56 = load i64, ptr %55, align 8, !dbg !15
  %57 = icmp eq i64 %56, 3136, !dbg !15
  %58 = getelementptr inbounds nuw i8, ptr %relu.x_strides, i64 16, !dbg !15
  %59 = load i64, ptr %58, align 8, !dbg !15
  %60 = icmp eq i64 %59, 56, !dbg !15
  %61 = getelementptr inbounds nuw i8, ptr %relu.x_strides, i64 24, !dbg !15
  %62 = load i64, ptr %61, align 8, !dbg !15
  %63 = icmp eq i64 %62, 1, !dbg !15
  %64 = and i1 %60, %63, !dbg !15
  %65 = and i1 %57, %64, !dbg !15
  br i1 %65, label %if_end27, label %assert_fail28, !dbg !15, !prof !16

if_end27:                                         ; preds = %if_then26, %assert_end25
  %66 = load ptr, ptr %x.handle, align 8, !dbg !15
  %.not64 = icmp eq ptr %66, null, !dbg !15
  br i1 %.not64, label %assert_fail30, label %assert_end31, !dbg !15, !prof !17

assert_fail28:                                    ; preds = %if_then26
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 7, ptr nonnull @.str.14, ptr nonnull @.str.15, ptr nonnull @.str.23, ptr nonnull @.str.9, ptr nonnull @.str.24, ptr null), !dbg !15
  br label %common.ret, !dbg !15

assert_fail30:                                    ; preds = %if_end27
  tail call fastcc void @__tvm_set_raised_6(ptr nonnull @.str.13, i32 6, ptr nonnull @.str.15, ptr nonnull @.str.25, ptr nonnull @.str.9, ptr nonnull @.str.4, ptr nonnull @.str.5, ptr nonnull @.str.26), !dbg !15
  br label %common.ret, !dbg !15

assert_end31:                                     ; preds = %if_end27
  %.not65 = icmp eq ptr %relu.compute_strides, null, !dbg !15
  br i1 %.not65, label %if_end33, label %if_then32, !dbg !15, !prof !17

if_then32:                                        ; preds = %assert_end31
  %67 = getelementptr inbounds nuw i8, ptr %relu.compute_strides, i64 8, !dbg !15
  %68 = load i64, ptr %67, align 8, !dbg !15
  %69 = icmp eq i64 %68, 3136, !dbg !15
  %70 = getelementptr inbounds nuw i8, ptr %relu.compute_strides, i64 16, !dbg !15
  %71 = load i64, ptr %70, align 8, !dbg !15
  %72 = icmp eq i64 %71, 56, !dbg !15
  %73 = getelementptr inbounds nuw i8, ptr %relu.compute_strides, i64 24, !dbg !15
  %74 = load i64, ptr %73, align 8, !dbg !15
  %75 = icmp eq i64 %74, 1, !dbg !15
  %76 = and i1 %72, %75, !dbg !15
  %77 = and i1 %69, %76, !dbg !15
  br i1 %77, label %if_end33, label %assert_fail34, !dbg !15, !prof !16

if_end33:                                         ; preds = %if_then32, %assert_end31
  %78 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 12, !dbg !15
  %79 = load i32, ptr %78, align 4, !dbg !15
  %80 = icmp eq i32 %dev_id, %79, !dbg !15
  br i1 %80, label %assert_end37, label %assert_fail36, !dbg !15, !prof !16

assert_fail34:                                    ; preds = %if_then32
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 7, ptr nonnull @.str.14, ptr nonnull @.str.22, ptr nonnull @.str.23, ptr nonnull @.str.12, ptr nonnull @.str.24, ptr null), !dbg !15
  br label %common.ret, !dbg !15

assert_fail36:                                    ; preds = %if_end33
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.14, ptr nonnull @.str.27, ptr nonnull @.str.28, ptr nonnull @.str.12, ptr nonnull @.str.29, ptr nonnull @.str.30), !dbg !15
  br label %common.ret, !dbg !15

assert_end37:                                     ; preds = %if_end33
  %81 = load ptr, ptr %compute.handle, align 8, !dbg !15
  %.not66 = icmp eq ptr %81, null, !dbg !15
  br i1 %.not66, label %assert_fail38, label %assert_end39, !dbg !15, !prof !17

assert_fail38:                                    ; preds = %assert_end37
  tail call fastcc void @__tvm_set_raised_6(ptr nonnull @.str.13, i32 6, ptr nonnull @.str.22, ptr nonnull @.str.25, ptr nonnull @.str.12, ptr nonnull @.str.4, ptr nonnull @.str.5, ptr nonnull @.str.26), !dbg !15
  br label %common.ret, !dbg !15

assert_end39:                                     ; preds = %assert_end37
  %82 = load i64, ptr %relu.x_shape, align 8, !dbg !15
  %83 = icmp eq i64 %82, 1, !dbg !15
  br i1 %83, label %assert_end41, label %assert_fail40, !dbg !15, !prof !16

assert_fail40:                                    ; preds = %assert_end39
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.32, ptr nonnull @.str.28, ptr nonnull @.str.9, ptr nonnull @.str.10, ptr nonnull @.str.12), !dbg !15
  br label %common.ret, !dbg !15

assert_end41:                                     ; preds = %assert_end39
  %84 = getelementptr inbounds nuw i8, ptr %relu.x_shape, i64 8, !dbg !15
  %85 = load i64, ptr %84, align 8, !dbg !15
  %86 = icmp eq i64 %85, 64, !dbg !15
  br i1 %86, label %assert_end43, label %assert_fail42, !dbg !15, !prof !16

assert_fail42:                                    ; preds = %assert_end41
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.33, ptr nonnull @.str.28, ptr nonnull @.str.9, ptr nonnull @.str.10, ptr nonnull @.str.34), !dbg !15
  br label %common.ret, !dbg !15

assert_end43:                                     ; preds = %assert_end41
  %87 = getelementptr inbounds nuw i8, ptr %relu.x_shape, i64 16, !dbg !15
  %88 = load i64, ptr %87, align 8, !dbg !15
  %89 = icmp eq i64 %88, 56, !dbg !15
  br i1 %89, label %assert_end45, label %assert_fail44, !dbg !15, !prof !16

assert_fail44:                                    ; preds = %assert_end43
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.35, ptr nonnull @.str.28, ptr nonnull @.str.9, ptr nonnull @.str.10, ptr nonnull @.str.36), !dbg !15
  br label %common.ret, !dbg !15

assert_end45:                                     ; preds = %assert_end43
  %90 = getelementptr inbounds nuw i8, ptr %relu.x_shape, i64 24, !dbg !15
  %91 = load i64, ptr %90, align 8, !dbg !15
  %92 = icmp eq i64 %91, 56, !dbg !15
  br i1 %92, label %assert_end47, label %assert_fail46, !dbg !15, !prof !16

assert_fail46:                                    ; preds = %assert_end45
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.37, ptr nonnull @.str.28, ptr nonnull @.str.9, ptr nonnull @.str.10, ptr nonnull @.str.36), !dbg !15
  br label %common.ret, !dbg !15

assert_end47:                                     ; preds = %assert_end45
  %93 = getelementptr inbounds nuw i8, ptr %x.handle, i64 40, !dbg !15
  %94 = load i64, ptr %93, align 8, !dbg !15
  %95 = icmp eq i64 %94, 0, !dbg !15
  br i1 %95, label %assert_end49, label %assert_fail48, !dbg !15, !prof !16

assert_fail48:                                    ; preds = %assert_end47
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.38, ptr nonnull @.str.28, ptr nonnull @.str.9, ptr nonnull @.str.10, ptr nonnull @.str.9), !dbg !15
  br label %common.ret, !dbg !15

assert_end49:                                     ; preds = %assert_end47
  %96 = load i64, ptr %relu.compute_shape, align 8, !dbg !15
  %97 = icmp eq i64 %96, 1, !dbg !15
  br i1 %97, label %assert_end51, label %assert_fail50, !dbg !15, !prof !16

assert_fail50:                                    ; preds = %assert_end49
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.39, ptr nonnull @.str.28, ptr nonnull @.str.12, ptr nonnull @.str.10, ptr nonnull @.str.12), !dbg !15
  br label %common.ret, !dbg !15

assert_end51:                                     ; preds = %assert_end49
  %98 = getelementptr inbounds nuw i8, ptr %relu.compute_shape, i64 8, !dbg !15
  %99 = load i64, ptr %98, align 8, !dbg !15
  %100 = icmp eq i64 %99, 64, !dbg !15
  br i1 %100, label %assert_end53, label %assert_fail52, !dbg !15, !prof !16

assert_fail52:                                    ; preds = %assert_end51
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.40, ptr nonnull @.str.28, ptr nonnull @.str.12, ptr nonnull @.str.10, ptr nonnull @.str.34), !dbg !15
  br label %common.ret, !dbg !15

assert_end53:                                     ; preds = %assert_end51
  %101 = getelementptr inbounds nuw i8, ptr %relu.compute_shape, i64 16, !dbg !15
  %102 = load i64, ptr %101, align 8, !dbg !15
  %103 = icmp eq i64 %102, 56, !dbg !15
  br i1 %103, label %assert_end55, label %assert_fail54, !dbg !15, !prof !16

assert_fail54:                                    ; preds = %assert_end53
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.41, ptr nonnull @.str.28, ptr nonnull @.str.12, ptr nonnull @.str.10, ptr nonnull @.str.36), !dbg !15
  br label %common.ret, !dbg !15

assert_end55:                                     ; preds = %assert_end53
  %104 = getelementptr inbounds nuw i8, ptr %relu.compute_shape, i64 24, !dbg !15
  %105 = load i64, ptr %104, align 8, !dbg !15
  %106 = icmp eq i64 %105, 56, !dbg !15
  br i1 %106, label %assert_end57, label %assert_fail56, !dbg !15, !prof !16

assert_fail56:                                    ; preds = %assert_end55
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.42, ptr nonnull @.str.28, ptr nonnull @.str.12, ptr nonnull @.str.10, ptr nonnull @.str.36), !dbg !15
  br label %common.ret, !dbg !15

assert_end57:                                     ; preds = %assert_end55
  %107 = getelementptr inbounds nuw i8, ptr %compute.handle, i64 40, !dbg !15
  %108 = load i64, ptr %107, align 8, !dbg !15
  %109 = icmp eq i64 %108, 0, !dbg !15
  br i1 %109, label %assert_end59, label %assert_fail58, !dbg !15, !prof !16

assert_fail58:                                    ; preds = %assert_end57
  tail call fastcc void @__tvm_set_raised_12(ptr nonnull @.str.13, i32 8, ptr nonnull @.str.31, ptr nonnull @.str.43, ptr nonnull @.str.28, ptr nonnull @.str.12, ptr nonnull @.str.10, ptr nonnull @.str.9), !dbg !15
  br label %common.ret, !dbg !15

assert_end59:                                     ; preds = %assert_end57
    #dbg_declare(ptr %66, !30, !DIExpression(), !15)
  call void @llvm.assume(i1 true) [ "align"(ptr %66, i64 64) ], !dbg !15
    #dbg_declare(ptr %81, !33, !DIExpression(), !15)
  call void @llvm.assume(i1 true) [ "align"(ptr %81, i64 64) ], !dbg !15
  tail call fastcc void @relu_compute_(ptr nonnull %66, ptr nonnull %81), !dbg !15
  br label %common.ret, !dbg !15
}
define internal fastcc void @relu_compute_(ptr noalias readonly align 64 captures(none) %x, ptr noalias writeonly align 64 captures(none) %compute) unnamed_addr #3 !dbg !34 {
entry:
  %kwb_fp = inttoptr i64 4198400 to ptr
  %kwb_r = call i32 %kwb_fp(ptr @.str)
    #dbg_declare(ptr %x, !40, !DIExpression(), !41)
    #dbg_value(ptr %x, !38, !DIExpression(), !41)
    #dbg_value(ptr %compute, !39, !DIExpression(), !41)
  call void @llvm.assume(i1 true) [ "align"(ptr %x, i64 64) ], !dbg !41
    #dbg_declare(ptr %compute, !42, !DIExpression(), !41)
  call void @llvm.assume(i1 true) [ "align"(ptr %compute, i64 64) ], !dbg !41
    #dbg_value(i32 0, !43, !DIExpression(), !41)
  br label %for_begin_i2.preheader, !dbg !41

for_begin_i2.preheader:                           ; preds = %entry, %for_end_i2
  %indvars.iv10 = phi i64 [ 0, %entry ], [ %indvars.iv.next11, %for_end_i2 ]
    #dbg_value(i64 %indvars.iv10, !43, !DIExpression(), !41)
  %0 = mul nuw nsw i64 %indvars.iv10, 3136
    #dbg_value(i32 0, !44, !DIExpression(), !41)
  br label %for_begin_i3.preheader, !dbg !41

for_end_i1:                                       ; preds = %for_end_i2
  ret void, !dbg !41

for_begin_i3.preheader:                           ; preds = %for_begin_i2.preheader, %for_begin_i3.preheader
  %indvars.iv6 = phi i64 [ 0, %for_begin_i2.preheader ], [ %indvars.iv.next7, %for_begin_i3.preheader ]
    #dbg_value(i64 %indvars.iv6, !44, !DIExpression(), !41)
    #dbg_value(i32 0, !45, !DIExpression(), !41)
  %1 = mul nuw nsw i64 %indvars.iv6, 56
  %2 = add nuw nsw i64 %1, %0
  %3 = getelementptr inbounds nuw float, ptr %x, i64 %2, !dbg !41
  %4 = getelementptr inbounds nuw i8, ptr %3, i64 16, !dbg !41
  %wide.load = load <4 x float>, ptr %3, align 32, !dbg !41, !tbaa !46
  %wide.load1 = load <4 x float>, ptr %4, align 16, !dbg !41, !tbaa !46
  %5 = fcmp ogt <4 x float> %wide.load, zeroinitializer, !dbg !41
  %6 = fcmp ogt <4 x float> %wide.load1, zeroinitializer, !dbg !41
  %7 = select <4 x i1> %5, <4 x float> %wide.load, <4 x float> zeroinitializer, !dbg !41
  %8 = select <4 x i1> %6, <4 x float> %wide.load1, <4 x float> zeroinitializer, !dbg !41
  %9 = getelementptr inbounds nuw float, ptr %compute, i64 %2, !dbg !41
  %10 = getelementptr inbounds nuw i8, ptr %9, i64 16, !dbg !41
  store <4 x float> %7, ptr %9, align 32, !dbg !41, !tbaa !49
  store <4 x float> %8, ptr %10, align 16, !dbg !41, !tbaa !49
  %11 = add nuw nsw i64 %2, 8, !dbg !41
  %12 = getelementptr inbounds nuw float, ptr %x, i64 %11, !dbg !41
  %13 = getelementptr inbounds nuw i8, ptr %12, i64 16, !dbg !41
  %wide.load.1 = load <4 x float>, ptr %12, align 32, !dbg !41, !tbaa !46
  %wide.load1.1 = load <4 x float>, ptr %13, align 16, !dbg !41, !tbaa !46
  %14 = fcmp ogt <4 x float> %wide.load.1, zeroinitializer, !dbg !41
  %15 = fcmp ogt <4 x float> %wide.load1.1, zeroinitializer, !dbg !41
  %16 = select <4 x i1> %14, <4 x float> %wide.load.1, <4 x float> zeroinitializer, !dbg !41
  %17 = select <4 x i1> %15, <4 x float> %wide.load1.1, <4 x float> zeroinitializer, !dbg !41
  %18 = getelementptr inbounds nuw float, ptr %compute, i64 %11, !dbg !41
  %19 = getelementptr inbounds nuw i8, ptr %18, i64 16, !dbg !41
  store <4 x float> %16, ptr %18, align 32, !dbg !41, !tbaa !49
  store <4 x float> %17, ptr %19, align 16, !dbg !41, !tbaa !49
  %20 = add nuw nsw i64 %2, 16, !dbg !41
  %21 = getelementptr inbounds nuw float, ptr %x, i64 %20, !dbg !41
  %22 = getelementptr inbounds nuw i8, ptr %21, i64 16, !dbg !41
  %wide.load.2 = load <4 x float>, ptr %21, align 32, !dbg !41, !tbaa !46
  %wide.load1.2 = load <4 x float>, ptr %22, align 16, !dbg !41, !tbaa !46
  %23 = fcmp ogt <4 x float> %wide.load.2, zeroinitializer, !dbg !41
  %24 = fcmp ogt <4 x float> %wide.load1.2, zeroinitializer, !dbg !41
  %25 = select <4 x i1> %23, <4 x float> %wide.load.2, <4 x float> zeroinitializer, !dbg !41
  %26 = select <4 x i1> %24, <4 x float> %wide.load1.2, <4 x float> zeroinitializer, !dbg !41
  %27 = getelementptr inbounds nuw float, ptr %compute, i64 %20, !dbg !41
  %28 = getelementptr inbounds nuw i8, ptr %27, i64 16, !dbg !41
  store <4 x float> %25, ptr %27, align 32, !dbg !41, !tbaa !49
  store <4 x float> %26, ptr %28, align 16, !dbg !41, !tbaa !49
  %29 = add nuw nsw i64 %2, 24, !dbg !41
  %30 = getelementptr inbounds nuw float, ptr %x, i64 %29, !dbg !41
  %31 = getelementptr inbounds nuw i8, ptr %30, i64 16, !dbg !41
  %wide.load.3 = load <4 x float>, ptr %30, align 32, !dbg !41, !tbaa !46
  %wide.load1.3 = load <4 x float>, ptr %31, align 16, !dbg !41, !tbaa !46
  %32 = fcmp ogt <4 x float> %wide.load.3, zeroinitializer, !dbg !41
  %33 = fcmp ogt <4 x float> %wide.load1.3, zeroinitializer, !dbg !41
  %34 = select <4 x i1> %32, <4 x float> %wide.load.3, <4 x float> zeroinitializer, !dbg !41
  %35 = select <4 x i1> %33, <4 x float> %wide.load1.3, <4 x float> zeroinitializer, !dbg !41
  %36 = getelementptr inbounds nuw float, ptr %compute, i64 %29, !dbg !41
  %37 = getelementptr inbounds nuw i8, ptr %36, i64 16, !dbg !41
  store <4 x float> %34, ptr %36, align 32, !dbg !41, !tbaa !49
  store <4 x float> %35, ptr %37, align 16, !dbg !41, !tbaa !49
  %38 = add nuw nsw i64 %2, 32, !dbg !41
  %39 = getelementptr inbounds nuw float, ptr %x, i64 %38, !dbg !41
  %40 = getelementptr inbounds nuw i8, ptr %39, i64 16, !dbg !41
  %wide.load.4 = load <4 x float>, ptr %39, align 32, !dbg !41, !tbaa !46
  %wide.load1.4 = load <4 x float>, ptr %40, align 16, !dbg !41, !tbaa !46
  %41 = fcmp ogt <4 x float> %wide.load.4, zeroinitializer, !dbg !41
  %42 = fcmp ogt <4 x float> %wide.load1.4, zeroinitializer, !dbg !41
  %43 = select <4 x i1> %41, <4 x float> %wide.load.4, <4 x float> zeroinitializer, !dbg !41
  %44 = select <4 x i1> %42, <4 x float> %wide.load1.4, <4 x float> zeroinitializer, !dbg !41
  %45 = getelementptr inbounds nuw float, ptr %compute, i64 %38, !dbg !41
  %46 = getelementptr inbounds nuw i8, ptr %45, i64 16, !dbg !41
  store <4 x float> %43, ptr %45, align 32, !dbg !41, !tbaa !49
  store <4 x float> %44, ptr %46, align 16, !dbg !41, !tbaa !49
  %47 = add nuw nsw i64 %2, 40, !dbg !41
  %48 = getelementptr inbounds nuw float, ptr %x, i64 %47, !dbg !41
  %49 = getelementptr inbounds nuw i8, ptr %48, i64 16, !dbg !41
  %wide.load.5 = load <4 x float>, ptr %48, align 32, !dbg !41, !tbaa !46
  %wide.load1.5 = load <4 x float>, ptr %49, align 16, !dbg !41, !tbaa !46
  %50 = fcmp ogt <4 x float> %wide.load.5, zeroinitializer, !dbg !41
  %51 = fcmp ogt <4 x float> %wide.load1.5, zeroinitializer, !dbg !41
  %52 = select <4 x i1> %50, <4 x float> %wide.load.5, <4 x float> zeroinitializer, !dbg !41
  %53 = select <4 x i1> %51, <4 x float> %wide.load1.5, <4 x float> zeroinitializer, !dbg !41
  %54 = getelementptr inbounds nuw float, ptr %compute, i64 %47, !dbg !41
  %55 = getelementptr inbounds nuw i8, ptr %54, i64 16, !dbg !41
  store <4 x float> %52, ptr %54, align 32, !dbg !41, !tbaa !49
  store <4 x float> %53, ptr %55, align 16, !dbg !41, !tbaa !49
  %56 = add nuw nsw i64 %2, 48, !dbg !41
  %57 = getelementptr inbounds nuw float, ptr %x, i64 %56, !dbg !41
  %58 = getelementptr inbounds nuw i8, ptr %57, i64 16, !dbg !41
  %wide.load.6 = load <4 x float>, ptr %57, align 32, !dbg !41, !tbaa !46
  %wide.load1.6 = load <4 x float>, ptr %58, align 16, !dbg !41, !tbaa !46
  %59 = fcmp ogt <4 x float> %wide.load.6, zeroinitializer, !dbg !41
  %60 = fcmp ogt <4 x float> %wide.load1.6, zeroinitializer, !dbg !41
  %61 = select <4 x i1> %59, <4 x float> %wide.load.6, <4 x float> zeroinitializer, !dbg !41
  %62 = select <4 x i1> %60, <4 x float> %wide.load1.6, <4 x float> zeroinitializer, !dbg !41
  %63 = getelementptr inbounds nuw float, ptr %compute, i64 %56, !dbg !41
  %64 = getelementptr inbounds nuw i8, ptr %63, i64 16, !dbg !41
  store <4 x float> %61, ptr %63, align 32, !dbg !41, !tbaa !49
  store <4 x float> %62, ptr %64, align 16, !dbg !41, !tbaa !49
  %indvars.iv.next7 = add nuw nsw i64 %indvars.iv6, 1, !dbg !41
    #dbg_value(i64 %indvars.iv.next7, !44, !DIExpression(), !41)
  %exitcond9.not = icmp eq i64 %indvars.iv.next7, 56, !dbg !41
  br i1 %exitcond9.not, label %for_end_i2, label %for_begin_i3.preheader, !dbg !41, !prof !51

for_end_i2:                                       ; preds = %for_begin_i3.preheader
  %indvars.iv.next11 = add nuw nsw i64 %indvars.iv10, 1, !dbg !41
    #dbg_value(i64 %indvars.iv.next11, !43, !DIExpression(), !41)
  %exitcond13.not = icmp eq i64 %indvars.iv.next11, 64, !dbg !41
  br i1 %exitcond13.not, label %for_end_i1, label %for_begin_i2.preheader, !dbg !41, !prof !51
}
