define dllexport i32 @__tvm_ffi_relu(ptr noalias readnone captures(none) %self_handle, ptr noalias readonly captures(address_is_null) %args, i32 %num_args, ptr noalias readnone captures(none) %result) local_unnamed_addr #0 !dbg !5 {
; reviewed by hand
entry:
    #dbg_value(ptr poison, !11, !DIExpression(), !15)
    #dbg_value(ptr %args, !12, !DIExpression(), !15)
    #dbg_value(i32 %num_args, !13, !DIExpression(), !15)
    #dbg_value(ptr poison, !14, !DIExpression(), !15)
  %0 = icmp eq i32 %num_args, 2, !dbg !15
  br i1 %0, label %assert_end, label %assert_fail, !dbg !15, !prof !16

common.ret:                                       ; preds = %assert_end59, %assert_fail58, %assert_fail56, %assert_fail54, %assert_fail52, %assert_fail50, %assert_fail48, %assert_fail46, %assert_fail44, %assert_fail42, %assert_fail40, %assert_fail38, %assert_fail36, %assert_fail34, %assert_fail30, %assert_fail28, %assert_fail24, %assert_fail22, %assert_fail20, %assert_fail18, %assert_fail16, %assert_fail14, %assert_fail12, %assert_fail10, %assert_fail5, %assert_fail3, %assert_fail1, %assert_fail
  %common.ret.op = phi i32 [ -1, %assert_fail ], [ -1, %assert_fail1 ], [ -1, %assert_fail3 ], [ -1, %assert_fail5 ], [ -1, %assert_fail10 ], [ -1, %assert_fail12 ], [ -1, %assert_fail14 ], [ -1, %assert_fail16 ], [ -1, %assert_fail18 ], [ -1, %assert_fail20 ], [ -1, %assert_fail22 ], [ -1, %assert_fail24 ], [ -1, %assert_fail28 ], [ -1, %assert_fail30 ], [ -1, %assert_fail34 ], [ -1, %assert_fail36 ], [ -1, %assert_fail38 ], [ -1, %assert_fail40 ], [ -1, %assert_fail42 ], [ -1, %assert_fail44 ], [ -1, %assert_fail46 ], [ -1, %assert_fail48 ], [ -1, %assert_fail50 ], [ -1, %assert_fail52 ], [ -1, %assert_fail54 ], [ -1, %assert_fail56 ], [ -1, %assert_fail58 ], [ %110, %assert_end59 ]
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
  %110 = tail call fastcc i32 @relu_compute_(ptr nonnull %66, ptr nonnull %81), !dbg !15
  br label %common.ret, !dbg !15
}
define internal fastcc i32 @relu_compute_(ptr noalias align 64 %x, ptr noalias align 64 %compute) unnamed_addr #3 !dbg !34 {
entry:
    #dbg_value(ptr %x, !38, !DIExpression(), !40)
    #dbg_value(ptr %compute, !39, !DIExpression(), !40)
  %0 = alloca %closure_loop_parallel_i0_i1_i2_i3_fused_0, align 8, !dbg !40
    #dbg_declare(ptr %x, !41, !DIExpression(), !40)
  call void @llvm.assume(i1 true) [ "align"(ptr %x, i64 64) ], !dbg !40
    #dbg_declare(ptr %compute, !42, !DIExpression(), !40)
  call void @llvm.assume(i1 true) [ "align"(ptr %compute, i64 64) ], !dbg !40
  store ptr %compute, ptr %0, align 8, !dbg !40
  %1 = getelementptr inbounds nuw i8, ptr %0, i64 8, !dbg !40
  store ptr %x, ptr %1, align 8, !dbg !40
  %2 = load ptr, ptr @__TVMBackendParallelLaunch, align 8, !dbg !40, !tbaa !43
  %3 = call i32 %2(ptr nonnull @__tvm_parallel_lambda, ptr nonnull %0, i32 0), !dbg !40
  ret i32 %3, !dbg !40
}
define private noundef i32 @__tvm_parallel_lambda(i32 %task_id, ptr readonly captures(none) %0, ptr readonly captures(none) %1) #4 {
parallel_closure_entry:
  %compute = load ptr, ptr %1, align 8, !dbg !40
  %2 = getelementptr inbounds nuw i8, ptr %1, i64 8, !dbg !40
  %x = load ptr, ptr %2, align 8, !dbg !40
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 8, !dbg !40
  %num_task = load i32, ptr %3, align 4, !dbg !40
  %4 = add nsw i32 %num_task, 12543, !dbg !40
  %5 = sdiv i32 %4, %num_task, !dbg !40
  %6 = add nsw i32 %task_id, 1, !dbg !40
  %7 = mul nsw i32 %5, %6, !dbg !40
  %8 = tail call i32 @llvm.smin.i32(i32 %7, i32 12544), !dbg !40
  %9 = mul nsw i32 %5, %task_id, !dbg !40
    #dbg_value(i32 poison, !46, !DIExpression(), !40)
  %10 = icmp slt i32 %9, %8, !dbg !40
  br i1 %10, label %for_body_i0_i1_i2_i3_fused_0, label %for_end_i0_i1_i2_i3_fused_0, !dbg !40, !prof !47

for_body_i0_i1_i2_i3_fused_0:                     ; preds = %parallel_closure_entry, %for_body_i0_i1_i2_i3_fused_0
  %i0_i1_i2_i3_fused_01 = phi i32 [ %169, %for_body_i0_i1_i2_i3_fused_0 ], [ %9, %parallel_closure_entry ]
    #dbg_value(i32 %i0_i1_i2_i3_fused_01, !46, !DIExpression(), !40)
  %cse_v1 = shl nsw i32 %i0_i1_i2_i3_fused_01, 4, !dbg !40
    #dbg_value(i32 %cse_v1, !48, !DIExpression(), !40)
  %11 = sdiv i32 %i0_i1_i2_i3_fused_01, 196, !dbg !40
  %cse_v2 = mul nsw i32 %11, 3136, !dbg !40
    #dbg_value(i32 %cse_v2, !49, !DIExpression(), !40)
  %12 = srem i32 %i0_i1_i2_i3_fused_01, 196, !dbg !40
  %cse_v3 = shl nsw i32 %12, 4, !dbg !40
    #dbg_value(i32 %cse_v3, !50, !DIExpression(), !40)
  %13 = insertelement <16 x i32> poison, i32 %cse_v1, i64 0, !dbg !40
  %14 = insertelement <8 x i32> poison, i32 %cse_v1, i64 0, !dbg !40
  %15 = shufflevector <8 x i32> %14, <8 x i32> poison, <8 x i32> zeroinitializer, !dbg !40
  %16 = or disjoint <8 x i32> %15, <i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8>, !dbg !40
  %17 = shufflevector <8 x i32> %16, <8 x i32> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !40
  %18 = shufflevector <16 x i32> %13, <16 x i32> %17, <16 x i32> <i32 0, i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !40
  %19 = insertelement <4 x i32> poison, i32 %cse_v1, i64 0, !dbg !40
  %20 = shufflevector <4 x i32> %19, <4 x i32> poison, <4 x i32> zeroinitializer, !dbg !40
  %21 = or disjoint <4 x i32> %20, <i32 9, i32 10, i32 11, i32 12>, !dbg !40
  %22 = shufflevector <4 x i32> %21, <4 x i32> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !40
  %23 = shufflevector <16 x i32> %18, <16 x i32> %22, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 16, i32 17, i32 18, i32 19, i32 poison, i32 poison, i32 poison>, !dbg !40
  %24 = or disjoint i32 %cse_v1, 13, !dbg !40
  %25 = insertelement <16 x i32> %23, i32 %24, i64 13, !dbg !40
  %26 = insertelement <2 x i32> poison, i32 %cse_v1, i64 0, !dbg !40
  %27 = shufflevector <2 x i32> %26, <2 x i32> poison, <2 x i32> zeroinitializer, !dbg !40
  %28 = or disjoint <2 x i32> %27, <i32 14, i32 15>, !dbg !40
  %29 = shufflevector <2 x i32> %28, <2 x i32> poison, <16 x i32> <i32 0, i32 1, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !40
  %30 = shufflevector <16 x i32> %25, <16 x i32> %29, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 16, i32 17>, !dbg !40
  %31 = srem <16 x i32> %30, splat (i32 56), !dbg !40
  %32 = insertelement <16 x i32> poison, i32 %cse_v3, i64 0, !dbg !40
  %33 = insertelement <8 x i32> poison, i32 %cse_v3, i64 0, !dbg !40
  %34 = shufflevector <8 x i32> %33, <8 x i32> poison, <8 x i32> zeroinitializer, !dbg !40
  %35 = or disjoint <8 x i32> %34, <i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8>, !dbg !40
  %36 = shufflevector <8 x i32> %35, <8 x i32> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !40
  %37 = shufflevector <16 x i32> %32, <16 x i32> %36, <16 x i32> <i32 0, i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !40
  %38 = insertelement <4 x i32> poison, i32 %cse_v3, i64 0, !dbg !40
  %39 = shufflevector <4 x i32> %38, <4 x i32> poison, <4 x i32> zeroinitializer, !dbg !40
  %40 = or disjoint <4 x i32> %39, <i32 9, i32 10, i32 11, i32 12>, !dbg !40
  %41 = shufflevector <4 x i32> %40, <4 x i32> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !40
  %42 = shufflevector <16 x i32> %37, <16 x i32> %41, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 16, i32 17, i32 18, i32 19, i32 poison, i32 poison, i32 poison>, !dbg !40
  %43 = or disjoint i32 %cse_v3, 13, !dbg !40
  %44 = insertelement <16 x i32> %42, i32 %43, i64 13, !dbg !40
  %45 = insertelement <2 x i32> poison, i32 %cse_v3, i64 0, !dbg !40
  %46 = shufflevector <2 x i32> %45, <2 x i32> poison, <2 x i32> zeroinitializer, !dbg !40
  %47 = or disjoint <2 x i32> %46, <i32 14, i32 15>, !dbg !40
  %48 = shufflevector <2 x i32> %47, <2 x i32> poison, <16 x i32> <i32 0, i32 1, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>, !dbg !40
  %49 = shufflevector <16 x i32> %44, <16 x i32> %48, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 16, i32 17>, !dbg !40
  %.fr = freeze <16 x i32> %49, !dbg !40
  %50 = srem <16 x i32> %.fr, splat (i32 56), !dbg !40
  %51 = insertelement <16 x i32> poison, i32 %cse_v2, i64 0, !dbg !40
  %52 = shufflevector <16 x i32> %51, <16 x i32> poison, <16 x i32> zeroinitializer, !dbg !40
  %53 = add <16 x i32> %31, %52, !dbg !40
  %54 = add <16 x i32> %53, %.fr, !dbg !40
  %cse_v4 = sub <16 x i32> %54, %50, !dbg !40
    #dbg_value(<16 x i32> %cse_v4, !51, !DIExpression(), !40)
  %55 = extractelement <16 x i32> %cse_v4, i64 0, !dbg !53
  %56 = sext i32 %55 to i64, !dbg !53
  %57 = getelementptr inbounds float, ptr %x, i64 %56, !dbg !53
  %58 = load float, ptr %57, align 4, !dbg !53, !tbaa !54
  %59 = extractelement <16 x i32> %cse_v4, i64 1, !dbg !53
  %60 = sext i32 %59 to i64, !dbg !53
  %61 = getelementptr inbounds float, ptr %x, i64 %60, !dbg !53
  %62 = load float, ptr %61, align 4, !dbg !53, !tbaa !54
  %63 = extractelement <16 x i32> %cse_v4, i64 2, !dbg !53
  %64 = sext i32 %63 to i64, !dbg !53
  %65 = getelementptr inbounds float, ptr %x, i64 %64, !dbg !53
  %66 = load float, ptr %65, align 4, !dbg !53, !tbaa !54
  %67 = extractelement <16 x i32> %cse_v4, i64 3, !dbg !53
  %68 = sext i32 %67 to i64, !dbg !53
  %69 = getelementptr inbounds float, ptr %x, i64 %68, !dbg !53
  %70 = load float, ptr %69, align 4, !dbg !53, !tbaa !54
  %71 = extractelement <16 x i32> %cse_v4, i64 4, !dbg !53
  %72 = sext i32 %71 to i64, !dbg !53
  %73 = getelementptr inbounds float, ptr %x, i64 %72, !dbg !53
  %74 = load float, ptr %73, align 4, !dbg !53, !tbaa !54
  %75 = extractelement <16 x i32> %cse_v4, i64 5, !dbg !53
  %76 = sext i32 %75 to i64, !dbg !53
  %77 = getelementptr inbounds float, ptr %x, i64 %76, !dbg !53
  %78 = load float, ptr %77, align 4, !dbg !53, !tbaa !54
  %79 = extractelement <16 x i32> %cse_v4, i64 6, !dbg !53
  %80 = sext i32 %79 to i64, !dbg !53
  %81 = getelementptr inbounds float, ptr %x, i64 %80, !dbg !53
  %82 = load float, ptr %81, align 4, !dbg !53, !tbaa !54
  %83 = extractelement <16 x i32> %cse_v4, i64 7, !dbg !53
  %84 = sext i32 %83 to i64, !dbg !53
  %85 = getelementptr inbounds float, ptr %x, i64 %84, !dbg !53
  %86 = load float, ptr %85, align 4, !dbg !53, !tbaa !54
  %87 = extractelement <16 x i32> %cse_v4, i64 8, !dbg !53
  %88 = sext i32 %87 to i64, !dbg !53
  %89 = getelementptr inbounds float, ptr %x, i64 %88, !dbg !53
  %90 = load float, ptr %89, align 4, !dbg !53, !tbaa !54
  %91 = extractelement <16 x i32> %cse_v4, i64 9, !dbg !53
  %92 = sext i32 %91 to i64, !dbg !53
  %93 = getelementptr inbounds float, ptr %x, i64 %92, !dbg !53
  %94 = load float, ptr %93, align 4, !dbg !53, !tbaa !54
  %95 = extractelement <16 x i32> %cse_v4, i64 10, !dbg !53
  %96 = sext i32 %95 to i64, !dbg !53
  %97 = getelementptr inbounds float, ptr %x, i64 %96, !dbg !53
  %98 = load float, ptr %97, align 4, !dbg !53, !tbaa !54
  %99 = extractelement <16 x i32> %cse_v4, i64 11, !dbg !53
  %100 = sext i32 %99 to i64, !dbg !53
  %101 = getelementptr inbounds float, ptr %x, i64 %100, !dbg !53
  %102 = load float, ptr %101, align 4, !dbg !53, !tbaa !54
  %103 = extractelement <16 x i32> %cse_v4, i64 12, !dbg !53
  %104 = sext i32 %103 to i64, !dbg !53
  %105 = getelementptr inbounds float, ptr %x, i64 %104, !dbg !53
  %106 = load float, ptr %105, align 4, !dbg !53, !tbaa !54
  %107 = extractelement <16 x i32> %cse_v4, i64 13, !dbg !53
  %108 = sext i32 %107 to i64, !dbg !53
  %109 = getelementptr inbounds float, ptr %x, i64 %108, !dbg !53
  %110 = load float, ptr %109, align 4, !dbg !53, !tbaa !54
  %111 = extractelement <16 x i32> %cse_v4, i64 14, !dbg !53
  %112 = sext i32 %111 to i64, !dbg !53
  %113 = getelementptr inbounds float, ptr %x, i64 %112, !dbg !53
  %114 = load float, ptr %113, align 4, !dbg !53, !tbaa !54
  %115 = extractelement <16 x i32> %cse_v4, i64 15, !dbg !53
  %116 = sext i32 %115 to i64, !dbg !53
  %117 = getelementptr inbounds float, ptr %x, i64 %116, !dbg !53
  %118 = load float, ptr %117, align 4, !dbg !53, !tbaa !54
  %119 = insertelement <16 x float> <float poison, float poison, float poison, float poison, float poison, float poison, float poison, float poison, float poison, float poison, float undef, float undef, float undef, float undef, float undef, float undef>, float %58, i64 0, !dbg !53
  %120 = insertelement <16 x float> %119, float %62, i64 1, !dbg !53
  %121 = insertelement <16 x float> %120, float %66, i64 2, !dbg !53
  %122 = insertelement <16 x float> %121, float %70, i64 3, !dbg !53
  %123 = insertelement <16 x float> %122, float %74, i64 4, !dbg !53
  %124 = insertelement <16 x float> %123, float %78, i64 5, !dbg !53
  %125 = insertelement <16 x float> %124, float %82, i64 6, !dbg !53
  %126 = insertelement <16 x float> %125, float %86, i64 7, !dbg !53
  %127 = insertelement <16 x float> %126, float %90, i64 8, !dbg !53
  %128 = insertelement <16 x float> %127, float %94, i64 9, !dbg !53
  %129 = insertelement <16 x float> %128, float %98, i64 10, !dbg !53
  %130 = insertelement <16 x float> %129, float %102, i64 11, !dbg !53
  %131 = insertelement <16 x float> %130, float %106, i64 12, !dbg !53
  %132 = insertelement <16 x float> %131, float %110, i64 13, !dbg !53
  %133 = insertelement <16 x float> %132, float %114, i64 14, !dbg !53
  %134 = insertelement <16 x float> %133, float %118, i64 15, !dbg !53
  %135 = fcmp ogt <16 x float> %134, zeroinitializer, !dbg !53
  %136 = select <16 x i1> %135, <16 x float> %134, <16 x float> zeroinitializer, !dbg !53
  %137 = getelementptr inbounds float, ptr %compute, i64 %56, !dbg !53
  %138 = extractelement <16 x float> %136, i64 0, !dbg !53
  store float %138, ptr %137, align 4, !dbg !53, !tbaa !56
  %139 = getelementptr inbounds float, ptr %compute, i64 %60, !dbg !53
  %140 = extractelement <16 x float> %136, i64 1, !dbg !53
  store float %140, ptr %139, align 4, !dbg !53, !tbaa !56
  %141 = getelementptr inbounds float, ptr %compute, i64 %64, !dbg !53
  %142 = extractelement <16 x float> %136, i64 2, !dbg !53
  store float %142, ptr %141, align 4, !dbg !53, !tbaa !56
  %143 = getelementptr inbounds float, ptr %compute, i64 %68, !dbg !53
  %144 = extractelement <16 x float> %136, i64 3, !dbg !53
  store float %144, ptr %143, align 4, !dbg !53, !tbaa !56
  %145 = getelementptr inbounds float, ptr %compute, i64 %72, !dbg !53
  %146 = extractelement <16 x float> %136, i64 4, !dbg !53
  store float %146, ptr %145, align 4, !dbg !53, !tbaa !56
  %147 = getelementptr inbounds float, ptr %compute, i64 %76, !dbg !53
  %148 = extractelement <16 x float> %136, i64 5, !dbg !53
  store float %148, ptr %147, align 4, !dbg !53, !tbaa !56
  %149 = getelementptr inbounds float, ptr %compute, i64 %80, !dbg !53
  %150 = extractelement <16 x float> %136, i64 6, !dbg !53
  store float %150, ptr %149, align 4, !dbg !53, !tbaa !56
  %151 = getelementptr inbounds float, ptr %compute, i64 %84, !dbg !53
  %152 = extractelement <16 x float> %136, i64 7, !dbg !53
  store float %152, ptr %151, align 4, !dbg !53, !tbaa !56
  %153 = getelementptr inbounds float, ptr %compute, i64 %88, !dbg !53
  %154 = extractelement <16 x float> %136, i64 8, !dbg !53
  store float %154, ptr %153, align 4, !dbg !53, !tbaa !56
  %155 = getelementptr inbounds float, ptr %compute, i64 %92, !dbg !53
  %156 = extractelement <16 x float> %136, i64 9, !dbg !53
  store float %156, ptr %155, align 4, !dbg !53, !tbaa !56
  %157 = getelementptr inbounds float, ptr %compute, i64 %96, !dbg !53
  %158 = extractelement <16 x float> %136, i64 10, !dbg !53
  store float %158, ptr %157, align 4, !dbg !53, !tbaa !56
  %159 = getelementptr inbounds float, ptr %compute, i64 %100, !dbg !53
  %160 = extractelement <16 x float> %136, i64 11, !dbg !53
  store float %160, ptr %159, align 4, !dbg !53, !tbaa !56
  %161 = getelementptr inbounds float, ptr %compute, i64 %104, !dbg !53
  %162 = extractelement <16 x float> %136, i64 12, !dbg !53
  store float %162, ptr %161, align 4, !dbg !53, !tbaa !56
  %163 = getelementptr inbounds float, ptr %compute, i64 %108, !dbg !53
  %164 = extractelement <16 x float> %136, i64 13, !dbg !53
  store float %164, ptr %163, align 4, !dbg !53, !tbaa !56
  %165 = getelementptr inbounds float, ptr %compute, i64 %112, !dbg !53
  %166 = extractelement <16 x float> %136, i64 14, !dbg !53
  store float %166, ptr %165, align 4, !dbg !53, !tbaa !56
  %167 = getelementptr inbounds float, ptr %compute, i64 %116, !dbg !53
  %168 = extractelement <16 x float> %136, i64 15, !dbg !53
  store float %168, ptr %167, align 4, !dbg !53, !tbaa !56
  %169 = add nsw i32 %i0_i1_i2_i3_fused_01, 1, !dbg !53
    #dbg_value(i32 %169, !46, !DIExpression(), !40)
  %exitcond.not = icmp eq i32 %169, %8, !dbg !40
  br i1 %exitcond.not, label %for_end_i0_i1_i2_i3_fused_0, label %for_body_i0_i1_i2_i3_fused_0, !dbg !40, !prof !58

for_end_i0_i1_i2_i3_fused_0:                      ; preds = %for_body_i0_i1_i2_i3_fused_0, %parallel_closure_entry
  ret i32 0, !dbg !53
}
