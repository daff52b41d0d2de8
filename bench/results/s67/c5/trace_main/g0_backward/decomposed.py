# after AOTAutograd with kiln's decompositions: functionalized, partitioned, core ATen; identical computations merged



def forward(self, primals_5, primals_6, primals_12, primals_18, primals_24, primals_30, primals_36, primals_42, primals_48, primals_54, primals_60, primals_66, primals_72, primals_78, primals_84, primals_90, primals_96, primals_102, primals_108, primals_114, primals_120, primals_126, primals_132, primals_138, primals_144, primals_150, _to_copy_1, _to_copy_2, cat, getitem_1, rsqrt, view_1, squeeze, squeeze_1, squeeze_2, getitem_3, getitem_8, getitem_9, view_5, mul_2, view_7, addmm_2, view_9, mul_7, view_11, squeeze_3, squeeze_4, squeeze_5, getitem_16, getitem_21, getitem_22, view_15, mul_9, view_17, addmm_6, view_19, mul_14, view_21, squeeze_6, squeeze_7, squeeze_8, getitem_29, getitem_34, getitem_35, view_25, mul_16, view_27, addmm_10, view_29, mul_21, view_31, squeeze_9, squeeze_10, squeeze_11, getitem_42, getitem_47, getitem_48, view_35, mul_23, view_37, addmm_14, view_39, mul_28, view_41, squeeze_12, squeeze_13, squeeze_14, getitem_55, getitem_60, getitem_61, view_45, mul_30, view_47, addmm_18, view_49, mul_35, view_51, squeeze_15, squeeze_16, squeeze_17, getitem_68, getitem_73, getitem_74, view_55, mul_37, view_57, addmm_22, view_59, mul_42, view_61, squeeze_18, squeeze_19, squeeze_20, getitem_81, getitem_86, getitem_87, view_65, mul_44, view_67, addmm_26, view_69, mul_49, view_71, squeeze_21, squeeze_22, squeeze_23, getitem_94, getitem_99, getitem_100, view_75, mul_51, view_77, addmm_30, view_79, mul_56, view_81, squeeze_24, squeeze_25, squeeze_26, getitem_107, getitem_112, getitem_113, view_85, mul_58, view_87, addmm_34, view_89, mul_63, view_91, squeeze_27, squeeze_28, squeeze_29, getitem_120, getitem_125, getitem_126, view_95, mul_65, view_97, addmm_38, view_99, mul_70, view_101, squeeze_30, squeeze_31, squeeze_32, getitem_133, getitem_138, getitem_139, view_105, mul_72, view_107, addmm_42, view_109, mul_77, view_111, squeeze_33, squeeze_34, squeeze_35, getitem_146, getitem_151, getitem_152, view_115, mul_79, view_117, addmm_46, view_119, mul_84, _to_copy_149, permute_74, div, permute_78, permute_82, div_1, permute_86, alias_12, permute_92, div_2, permute_96, permute_100, div_3, permute_104, alias_13, permute_110, div_4, permute_114, permute_118, div_5, permute_122, alias_14, permute_128, div_6, permute_132, permute_136, div_7, permute_140, alias_15, permute_146, div_8, permute_150, permute_154, div_9, permute_158, alias_16, permute_164, div_10, permute_168, permute_172, div_11, permute_176, alias_17, permute_182, div_12, permute_186, permute_190, div_13, permute_194, alias_18, permute_200, div_14, permute_204, permute_208, div_15, permute_212, alias_19, permute_218, div_16, permute_222, permute_226, div_17, permute_230, alias_20, permute_236, div_18, permute_240, permute_244, div_19, permute_248, alias_21, permute_254, div_20, permute_258, permute_262, div_21, permute_266, alias_22, permute_272, div_22, permute_276, permute_280, div_23, permute_284, alias_23, permute_290, tangents_1):
    expand_1 = torch.ops.aten.expand.default(tangents_1, [32, 1000]);  tangents_1 = None
    _to_copy_150 = torch.ops.aten._to_copy.default(expand_1, dtype = torch.bfloat16);  expand_1 = None
    mm = torch.ops.aten.mm.default(_to_copy_150, permute_74);  permute_74 = None
    permute_75 = torch.ops.aten.permute.default(_to_copy_150, [1, 0])
    mm_1 = torch.ops.aten.mm.default(permute_75, _to_copy_149);  permute_75 = _to_copy_149 = None
    permute_76 = torch.ops.aten.permute.default(mm_1, [1, 0]);  mm_1 = None
    sum_2 = torch.ops.aten.sum.dim_IntList(_to_copy_150, [0], True, dtype = torch.float32);  _to_copy_150 = None
    view_121 = torch.ops.aten.view.default(sum_2, [1000]);  sum_2 = None
    _to_copy_151 = torch.ops.aten._to_copy.default(view_121, dtype = torch.bfloat16);  view_121 = None
    permute_77 = torch.ops.aten.permute.default(permute_76, [1, 0]);  permute_76 = None
    _to_copy_152 = torch.ops.aten._to_copy.default(mm, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  mm = None
    _to_copy_153 = torch.ops.aten._to_copy.default(permute_77, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_77 = None
    _to_copy_154 = torch.ops.aten._to_copy.default(_to_copy_151, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_151 = None
    full = torch.ops.aten.full.default([32, 197, 192], 0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
    iota = torch.ops.prims.iota.default(197, start = 0, step = 1, dtype = torch.int64, device = device(type='cuda', index=0), requires_grad = False)
    view_122 = torch.ops.aten.view.default(iota, [1, -1, 1]);  iota = None
    eq = torch.ops.aten.eq.Scalar(view_122, 0);  view_122 = None
    unsqueeze = torch.ops.aten.unsqueeze.default(_to_copy_152, 1);  _to_copy_152 = None
    expand_2 = torch.ops.aten.expand.default(unsqueeze, [32, 197, 192]);  unsqueeze = None
    where = torch.ops.aten.where.self(eq, expand_2, full);  eq = expand_2 = full = None
    mul_87 = torch.ops.aten.mul.Tensor(where, primals_150);  primals_150 = None
    mul_88 = torch.ops.aten.mul.Tensor(mul_87, 192)
    sum_3 = torch.ops.aten.sum.dim_IntList(mul_87, [2], True)
    mul_89 = torch.ops.aten.mul.Tensor(mul_87, mul_84);  mul_87 = None
    sum_4 = torch.ops.aten.sum.dim_IntList(mul_89, [2], True);  mul_89 = None
    mul_90 = torch.ops.aten.mul.Tensor(mul_84, sum_4);  sum_4 = None
    sub_26 = torch.ops.aten.sub.Tensor(mul_88, sum_3);  mul_88 = sum_3 = None
    sub_27 = torch.ops.aten.sub.Tensor(sub_26, mul_90);  sub_26 = mul_90 = None
    mul_91 = torch.ops.aten.mul.Tensor(div, sub_27);  div = sub_27 = None
    mul_92 = torch.ops.aten.mul.Tensor(where, mul_84);  mul_84 = None
    sum_5 = torch.ops.aten.sum.dim_IntList(mul_92, [0, 1]);  mul_92 = None
    sum_6 = torch.ops.aten.sum.dim_IntList(where, [0, 1]);  where = None
    _to_copy_155 = torch.ops.aten._to_copy.default(mul_91, dtype = torch.bfloat16)
    view_123 = torch.ops.aten.view.default(_to_copy_155, [6304, 192]);  _to_copy_155 = None
    mm_2 = torch.ops.aten.mm.default(view_123, permute_78);  permute_78 = None
    permute_79 = torch.ops.aten.permute.default(view_123, [1, 0])
    mm_3 = torch.ops.aten.mm.default(permute_79, view_119);  permute_79 = view_119 = None
    permute_80 = torch.ops.aten.permute.default(mm_3, [1, 0]);  mm_3 = None
    sum_7 = torch.ops.aten.sum.dim_IntList(view_123, [0], True, dtype = torch.float32);  view_123 = None
    view_124 = torch.ops.aten.view.default(sum_7, [192]);  sum_7 = None
    _to_copy_156 = torch.ops.aten._to_copy.default(view_124, dtype = torch.bfloat16);  view_124 = None
    permute_81 = torch.ops.aten.permute.default(permute_80, [1, 0]);  permute_80 = None
    view_125 = torch.ops.aten.view.default(mm_2, [32, 197, 768]);  mm_2 = None
    _to_copy_157 = torch.ops.aten._to_copy.default(permute_81, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_81 = None
    _to_copy_158 = torch.ops.aten._to_copy.default(_to_copy_156, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_156 = None
    _to_copy_159 = torch.ops.aten._to_copy.default(view_125, dtype = torch.float32);  view_125 = None
    view_118 = torch.ops.aten.view.default(addmm_46, [32, 197, 768]);  addmm_46 = None
    _to_copy_143 = torch.ops.aten._to_copy.default(view_118, dtype = torch.float32);  view_118 = None
    mul_82 = torch.ops.aten.mul.Tensor(_to_copy_143, 0.7071067811865476)
    erf_11 = torch.ops.aten.erf.default(mul_82);  mul_82 = None
    add_83 = torch.ops.aten.add.Tensor(erf_11, 1);  erf_11 = None
    mul_94 = torch.ops.aten.mul.Tensor(add_83, 0.5);  add_83 = None
    mul_95 = torch.ops.aten.mul.Tensor(_to_copy_143, _to_copy_143)
    mul_96 = torch.ops.aten.mul.Tensor(mul_95, -0.5);  mul_95 = None
    exp = torch.ops.aten.exp.default(mul_96);  mul_96 = None
    mul_97 = torch.ops.aten.mul.Tensor(exp, 0.3989422804014327);  exp = None
    mul_98 = torch.ops.aten.mul.Tensor(_to_copy_143, mul_97);  _to_copy_143 = mul_97 = None
    add_88 = torch.ops.aten.add.Tensor(mul_94, mul_98);  mul_94 = mul_98 = None
    mul_99 = torch.ops.aten.mul.Tensor(_to_copy_159, add_88);  _to_copy_159 = add_88 = None
    _to_copy_161 = torch.ops.aten._to_copy.default(mul_99, dtype = torch.bfloat16);  mul_99 = None
    view_126 = torch.ops.aten.view.default(_to_copy_161, [6304, 768]);  _to_copy_161 = None
    mm_4 = torch.ops.aten.mm.default(view_126, permute_82);  permute_82 = None
    permute_83 = torch.ops.aten.permute.default(view_126, [1, 0])
    mm_5 = torch.ops.aten.mm.default(permute_83, view_117);  permute_83 = view_117 = None
    permute_84 = torch.ops.aten.permute.default(mm_5, [1, 0]);  mm_5 = None
    sum_8 = torch.ops.aten.sum.dim_IntList(view_126, [0], True, dtype = torch.float32);  view_126 = None
    view_127 = torch.ops.aten.view.default(sum_8, [768]);  sum_8 = None
    _to_copy_162 = torch.ops.aten._to_copy.default(view_127, dtype = torch.bfloat16);  view_127 = None
    permute_85 = torch.ops.aten.permute.default(permute_84, [1, 0]);  permute_84 = None
    view_128 = torch.ops.aten.view.default(mm_4, [32, 197, 192]);  mm_4 = None
    _to_copy_163 = torch.ops.aten._to_copy.default(view_128, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_128 = None
    _to_copy_164 = torch.ops.aten._to_copy.default(permute_85, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_85 = None
    _to_copy_165 = torch.ops.aten._to_copy.default(_to_copy_162, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_162 = None
    mul_101 = torch.ops.aten.mul.Tensor(_to_copy_163, primals_144);  primals_144 = None
    mul_102 = torch.ops.aten.mul.Tensor(mul_101, 192)
    sum_9 = torch.ops.aten.sum.dim_IntList(mul_101, [2], True)
    mul_103 = torch.ops.aten.mul.Tensor(mul_101, mul_79);  mul_101 = None
    sum_10 = torch.ops.aten.sum.dim_IntList(mul_103, [2], True);  mul_103 = None
    mul_104 = torch.ops.aten.mul.Tensor(mul_79, sum_10);  sum_10 = None
    sub_29 = torch.ops.aten.sub.Tensor(mul_102, sum_9);  mul_102 = sum_9 = None
    sub_30 = torch.ops.aten.sub.Tensor(sub_29, mul_104);  sub_29 = mul_104 = None
    mul_105 = torch.ops.aten.mul.Tensor(div_1, sub_30);  div_1 = sub_30 = None
    mul_106 = torch.ops.aten.mul.Tensor(_to_copy_163, mul_79);  mul_79 = None
    sum_11 = torch.ops.aten.sum.dim_IntList(mul_106, [0, 1]);  mul_106 = None
    sum_12 = torch.ops.aten.sum.dim_IntList(_to_copy_163, [0, 1]);  _to_copy_163 = None
    add_89 = torch.ops.aten.add.Tensor(mul_91, mul_105);  mul_91 = mul_105 = None
    _to_copy_166 = torch.ops.aten._to_copy.default(add_89, dtype = torch.bfloat16)
    view_129 = torch.ops.aten.view.default(_to_copy_166, [6304, 192]);  _to_copy_166 = None
    mm_6 = torch.ops.aten.mm.default(view_129, permute_86);  permute_86 = None
    permute_87 = torch.ops.aten.permute.default(view_129, [1, 0])
    mm_7 = torch.ops.aten.mm.default(permute_87, view_115);  permute_87 = view_115 = None
    permute_88 = torch.ops.aten.permute.default(mm_7, [1, 0]);  mm_7 = None
    sum_13 = torch.ops.aten.sum.dim_IntList(view_129, [0], True, dtype = torch.float32);  view_129 = None
    view_130 = torch.ops.aten.view.default(sum_13, [192]);  sum_13 = None
    _to_copy_167 = torch.ops.aten._to_copy.default(view_130, dtype = torch.bfloat16);  view_130 = None
    permute_89 = torch.ops.aten.permute.default(permute_88, [1, 0]);  permute_88 = None
    view_131 = torch.ops.aten.view.default(mm_6, [32, 197, 192]);  mm_6 = None
    _to_copy_168 = torch.ops.aten._to_copy.default(permute_89, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_89 = None
    _to_copy_169 = torch.ops.aten._to_copy.default(_to_copy_167, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_167 = None
    view_132 = torch.ops.aten.view.default(view_131, [32, 197, 3, 64]);  view_131 = None
    permute_90 = torch.ops.aten.permute.default(view_132, [0, 2, 1, 3]);  view_132 = None
    _scaled_dot_product_cudnn_attention_backward = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_90, squeeze_33, squeeze_34, squeeze_35, alias_12, getitem_146, getitem_151, getitem_152, None, None, None, 197, 197, 0.0, False);  permute_90 = squeeze_33 = squeeze_34 = squeeze_35 = alias_12 = getitem_146 = getitem_151 = getitem_152 = None
    getitem_158 = _scaled_dot_product_cudnn_attention_backward[0]
    getitem_159 = _scaled_dot_product_cudnn_attention_backward[1]
    getitem_160 = _scaled_dot_product_cudnn_attention_backward[2];  _scaled_dot_product_cudnn_attention_backward = None
    cat_1 = torch.ops.aten.cat.default([getitem_158, getitem_159, getitem_160]);  getitem_158 = getitem_159 = getitem_160 = None
    view_133 = torch.ops.aten.view.default(cat_1, [3, 32, 3, 197, 64]);  cat_1 = None
    permute_91 = torch.ops.aten.permute.default(view_133, [1, 3, 0, 2, 4]);  view_133 = None
    clone = torch.ops.aten.clone.default(permute_91, memory_format = torch.contiguous_format);  permute_91 = None
    view_134 = torch.ops.aten.view.default(clone, [32, 197, 576]);  clone = None
    view_135 = torch.ops.aten.view.default(view_134, [6304, 576]);  view_134 = None
    mm_8 = torch.ops.aten.mm.default(view_135, permute_92);  permute_92 = None
    permute_93 = torch.ops.aten.permute.default(view_135, [1, 0])
    mm_9 = torch.ops.aten.mm.default(permute_93, view_111);  permute_93 = view_111 = None
    permute_94 = torch.ops.aten.permute.default(mm_9, [1, 0]);  mm_9 = None
    sum_14 = torch.ops.aten.sum.dim_IntList(view_135, [0], True, dtype = torch.float32);  view_135 = None
    view_136 = torch.ops.aten.view.default(sum_14, [576]);  sum_14 = None
    _to_copy_170 = torch.ops.aten._to_copy.default(view_136, dtype = torch.bfloat16);  view_136 = None
    permute_95 = torch.ops.aten.permute.default(permute_94, [1, 0]);  permute_94 = None
    view_137 = torch.ops.aten.view.default(mm_8, [32, 197, 192]);  mm_8 = None
    _to_copy_171 = torch.ops.aten._to_copy.default(view_137, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_137 = None
    _to_copy_172 = torch.ops.aten._to_copy.default(permute_95, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_95 = None
    _to_copy_173 = torch.ops.aten._to_copy.default(_to_copy_170, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_170 = None
    mul_108 = torch.ops.aten.mul.Tensor(_to_copy_171, primals_138);  primals_138 = None
    mul_109 = torch.ops.aten.mul.Tensor(mul_108, 192)
    sum_15 = torch.ops.aten.sum.dim_IntList(mul_108, [2], True)
    mul_110 = torch.ops.aten.mul.Tensor(mul_108, mul_77);  mul_108 = None
    sum_16 = torch.ops.aten.sum.dim_IntList(mul_110, [2], True);  mul_110 = None
    mul_111 = torch.ops.aten.mul.Tensor(mul_77, sum_16);  sum_16 = None
    sub_32 = torch.ops.aten.sub.Tensor(mul_109, sum_15);  mul_109 = sum_15 = None
    sub_33 = torch.ops.aten.sub.Tensor(sub_32, mul_111);  sub_32 = mul_111 = None
    mul_112 = torch.ops.aten.mul.Tensor(div_2, sub_33);  div_2 = sub_33 = None
    mul_113 = torch.ops.aten.mul.Tensor(_to_copy_171, mul_77);  mul_77 = None
    sum_17 = torch.ops.aten.sum.dim_IntList(mul_113, [0, 1]);  mul_113 = None
    sum_18 = torch.ops.aten.sum.dim_IntList(_to_copy_171, [0, 1]);  _to_copy_171 = None
    add_90 = torch.ops.aten.add.Tensor(add_89, mul_112);  add_89 = mul_112 = None
    _to_copy_174 = torch.ops.aten._to_copy.default(add_90, dtype = torch.bfloat16)
    view_138 = torch.ops.aten.view.default(_to_copy_174, [6304, 192]);  _to_copy_174 = None
    mm_10 = torch.ops.aten.mm.default(view_138, permute_96);  permute_96 = None
    permute_97 = torch.ops.aten.permute.default(view_138, [1, 0])
    mm_11 = torch.ops.aten.mm.default(permute_97, view_109);  permute_97 = view_109 = None
    permute_98 = torch.ops.aten.permute.default(mm_11, [1, 0]);  mm_11 = None
    sum_19 = torch.ops.aten.sum.dim_IntList(view_138, [0], True, dtype = torch.float32);  view_138 = None
    view_139 = torch.ops.aten.view.default(sum_19, [192]);  sum_19 = None
    _to_copy_175 = torch.ops.aten._to_copy.default(view_139, dtype = torch.bfloat16);  view_139 = None
    permute_99 = torch.ops.aten.permute.default(permute_98, [1, 0]);  permute_98 = None
    view_140 = torch.ops.aten.view.default(mm_10, [32, 197, 768]);  mm_10 = None
    _to_copy_176 = torch.ops.aten._to_copy.default(permute_99, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_99 = None
    _to_copy_177 = torch.ops.aten._to_copy.default(_to_copy_175, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_175 = None
    _to_copy_178 = torch.ops.aten._to_copy.default(view_140, dtype = torch.float32);  view_140 = None
    view_108 = torch.ops.aten.view.default(addmm_42, [32, 197, 768]);  addmm_42 = None
    _to_copy_131 = torch.ops.aten._to_copy.default(view_108, dtype = torch.float32);  view_108 = None
    mul_75 = torch.ops.aten.mul.Tensor(_to_copy_131, 0.7071067811865476)
    erf_10 = torch.ops.aten.erf.default(mul_75);  mul_75 = None
    add_76 = torch.ops.aten.add.Tensor(erf_10, 1);  erf_10 = None
    mul_115 = torch.ops.aten.mul.Tensor(add_76, 0.5);  add_76 = None
    mul_116 = torch.ops.aten.mul.Tensor(_to_copy_131, _to_copy_131)
    mul_117 = torch.ops.aten.mul.Tensor(mul_116, -0.5);  mul_116 = None
    exp_1 = torch.ops.aten.exp.default(mul_117);  mul_117 = None
    mul_118 = torch.ops.aten.mul.Tensor(exp_1, 0.3989422804014327);  exp_1 = None
    mul_119 = torch.ops.aten.mul.Tensor(_to_copy_131, mul_118);  _to_copy_131 = mul_118 = None
    add_92 = torch.ops.aten.add.Tensor(mul_115, mul_119);  mul_115 = mul_119 = None
    mul_120 = torch.ops.aten.mul.Tensor(_to_copy_178, add_92);  _to_copy_178 = add_92 = None
    _to_copy_180 = torch.ops.aten._to_copy.default(mul_120, dtype = torch.bfloat16);  mul_120 = None
    view_141 = torch.ops.aten.view.default(_to_copy_180, [6304, 768]);  _to_copy_180 = None
    mm_12 = torch.ops.aten.mm.default(view_141, permute_100);  permute_100 = None
    permute_101 = torch.ops.aten.permute.default(view_141, [1, 0])
    mm_13 = torch.ops.aten.mm.default(permute_101, view_107);  permute_101 = view_107 = None
    permute_102 = torch.ops.aten.permute.default(mm_13, [1, 0]);  mm_13 = None
    sum_20 = torch.ops.aten.sum.dim_IntList(view_141, [0], True, dtype = torch.float32);  view_141 = None
    view_142 = torch.ops.aten.view.default(sum_20, [768]);  sum_20 = None
    _to_copy_181 = torch.ops.aten._to_copy.default(view_142, dtype = torch.bfloat16);  view_142 = None
    permute_103 = torch.ops.aten.permute.default(permute_102, [1, 0]);  permute_102 = None
    view_143 = torch.ops.aten.view.default(mm_12, [32, 197, 192]);  mm_12 = None
    _to_copy_182 = torch.ops.aten._to_copy.default(view_143, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_143 = None
    _to_copy_183 = torch.ops.aten._to_copy.default(permute_103, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_103 = None
    _to_copy_184 = torch.ops.aten._to_copy.default(_to_copy_181, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_181 = None
    mul_122 = torch.ops.aten.mul.Tensor(_to_copy_182, primals_132);  primals_132 = None
    mul_123 = torch.ops.aten.mul.Tensor(mul_122, 192)
    sum_21 = torch.ops.aten.sum.dim_IntList(mul_122, [2], True)
    mul_124 = torch.ops.aten.mul.Tensor(mul_122, mul_72);  mul_122 = None
    sum_22 = torch.ops.aten.sum.dim_IntList(mul_124, [2], True);  mul_124 = None
    mul_125 = torch.ops.aten.mul.Tensor(mul_72, sum_22);  sum_22 = None
    sub_35 = torch.ops.aten.sub.Tensor(mul_123, sum_21);  mul_123 = sum_21 = None
    sub_36 = torch.ops.aten.sub.Tensor(sub_35, mul_125);  sub_35 = mul_125 = None
    mul_126 = torch.ops.aten.mul.Tensor(div_3, sub_36);  div_3 = sub_36 = None
    mul_127 = torch.ops.aten.mul.Tensor(_to_copy_182, mul_72);  mul_72 = None
    sum_23 = torch.ops.aten.sum.dim_IntList(mul_127, [0, 1]);  mul_127 = None
    sum_24 = torch.ops.aten.sum.dim_IntList(_to_copy_182, [0, 1]);  _to_copy_182 = None
    add_93 = torch.ops.aten.add.Tensor(add_90, mul_126);  add_90 = mul_126 = None
    _to_copy_185 = torch.ops.aten._to_copy.default(add_93, dtype = torch.bfloat16)
    view_144 = torch.ops.aten.view.default(_to_copy_185, [6304, 192]);  _to_copy_185 = None
    mm_14 = torch.ops.aten.mm.default(view_144, permute_104);  permute_104 = None
    permute_105 = torch.ops.aten.permute.default(view_144, [1, 0])
    mm_15 = torch.ops.aten.mm.default(permute_105, view_105);  permute_105 = view_105 = None
    permute_106 = torch.ops.aten.permute.default(mm_15, [1, 0]);  mm_15 = None
    sum_25 = torch.ops.aten.sum.dim_IntList(view_144, [0], True, dtype = torch.float32);  view_144 = None
    view_145 = torch.ops.aten.view.default(sum_25, [192]);  sum_25 = None
    _to_copy_186 = torch.ops.aten._to_copy.default(view_145, dtype = torch.bfloat16);  view_145 = None
    permute_107 = torch.ops.aten.permute.default(permute_106, [1, 0]);  permute_106 = None
    view_146 = torch.ops.aten.view.default(mm_14, [32, 197, 192]);  mm_14 = None
    _to_copy_187 = torch.ops.aten._to_copy.default(permute_107, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_107 = None
    _to_copy_188 = torch.ops.aten._to_copy.default(_to_copy_186, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_186 = None
    view_147 = torch.ops.aten.view.default(view_146, [32, 197, 3, 64]);  view_146 = None
    permute_108 = torch.ops.aten.permute.default(view_147, [0, 2, 1, 3]);  view_147 = None
    _scaled_dot_product_cudnn_attention_backward_1 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_108, squeeze_30, squeeze_31, squeeze_32, alias_13, getitem_133, getitem_138, getitem_139, None, None, None, 197, 197, 0.0, False);  permute_108 = squeeze_30 = squeeze_31 = squeeze_32 = alias_13 = getitem_133 = getitem_138 = getitem_139 = None
    getitem_161 = _scaled_dot_product_cudnn_attention_backward_1[0]
    getitem_162 = _scaled_dot_product_cudnn_attention_backward_1[1]
    getitem_163 = _scaled_dot_product_cudnn_attention_backward_1[2];  _scaled_dot_product_cudnn_attention_backward_1 = None
    cat_2 = torch.ops.aten.cat.default([getitem_161, getitem_162, getitem_163]);  getitem_161 = getitem_162 = getitem_163 = None
    view_148 = torch.ops.aten.view.default(cat_2, [3, 32, 3, 197, 64]);  cat_2 = None
    permute_109 = torch.ops.aten.permute.default(view_148, [1, 3, 0, 2, 4]);  view_148 = None
    clone_1 = torch.ops.aten.clone.default(permute_109, memory_format = torch.contiguous_format);  permute_109 = None
    view_149 = torch.ops.aten.view.default(clone_1, [32, 197, 576]);  clone_1 = None
    view_150 = torch.ops.aten.view.default(view_149, [6304, 576]);  view_149 = None
    mm_16 = torch.ops.aten.mm.default(view_150, permute_110);  permute_110 = None
    permute_111 = torch.ops.aten.permute.default(view_150, [1, 0])
    mm_17 = torch.ops.aten.mm.default(permute_111, view_101);  permute_111 = view_101 = None
    permute_112 = torch.ops.aten.permute.default(mm_17, [1, 0]);  mm_17 = None
    sum_26 = torch.ops.aten.sum.dim_IntList(view_150, [0], True, dtype = torch.float32);  view_150 = None
    view_151 = torch.ops.aten.view.default(sum_26, [576]);  sum_26 = None
    _to_copy_189 = torch.ops.aten._to_copy.default(view_151, dtype = torch.bfloat16);  view_151 = None
    permute_113 = torch.ops.aten.permute.default(permute_112, [1, 0]);  permute_112 = None
    view_152 = torch.ops.aten.view.default(mm_16, [32, 197, 192]);  mm_16 = None
    _to_copy_190 = torch.ops.aten._to_copy.default(view_152, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_152 = None
    _to_copy_191 = torch.ops.aten._to_copy.default(permute_113, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_113 = None
    _to_copy_192 = torch.ops.aten._to_copy.default(_to_copy_189, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_189 = None
    mul_129 = torch.ops.aten.mul.Tensor(_to_copy_190, primals_126);  primals_126 = None
    mul_130 = torch.ops.aten.mul.Tensor(mul_129, 192)
    sum_27 = torch.ops.aten.sum.dim_IntList(mul_129, [2], True)
    mul_131 = torch.ops.aten.mul.Tensor(mul_129, mul_70);  mul_129 = None
    sum_28 = torch.ops.aten.sum.dim_IntList(mul_131, [2], True);  mul_131 = None
    mul_132 = torch.ops.aten.mul.Tensor(mul_70, sum_28);  sum_28 = None
    sub_38 = torch.ops.aten.sub.Tensor(mul_130, sum_27);  mul_130 = sum_27 = None
    sub_39 = torch.ops.aten.sub.Tensor(sub_38, mul_132);  sub_38 = mul_132 = None
    mul_133 = torch.ops.aten.mul.Tensor(div_4, sub_39);  div_4 = sub_39 = None
    mul_134 = torch.ops.aten.mul.Tensor(_to_copy_190, mul_70);  mul_70 = None
    sum_29 = torch.ops.aten.sum.dim_IntList(mul_134, [0, 1]);  mul_134 = None
    sum_30 = torch.ops.aten.sum.dim_IntList(_to_copy_190, [0, 1]);  _to_copy_190 = None
    add_94 = torch.ops.aten.add.Tensor(add_93, mul_133);  add_93 = mul_133 = None
    _to_copy_193 = torch.ops.aten._to_copy.default(add_94, dtype = torch.bfloat16)
    view_153 = torch.ops.aten.view.default(_to_copy_193, [6304, 192]);  _to_copy_193 = None
    mm_18 = torch.ops.aten.mm.default(view_153, permute_114);  permute_114 = None
    permute_115 = torch.ops.aten.permute.default(view_153, [1, 0])
    mm_19 = torch.ops.aten.mm.default(permute_115, view_99);  permute_115 = view_99 = None
    permute_116 = torch.ops.aten.permute.default(mm_19, [1, 0]);  mm_19 = None
    sum_31 = torch.ops.aten.sum.dim_IntList(view_153, [0], True, dtype = torch.float32);  view_153 = None
    view_154 = torch.ops.aten.view.default(sum_31, [192]);  sum_31 = None
    _to_copy_194 = torch.ops.aten._to_copy.default(view_154, dtype = torch.bfloat16);  view_154 = None
    permute_117 = torch.ops.aten.permute.default(permute_116, [1, 0]);  permute_116 = None
    view_155 = torch.ops.aten.view.default(mm_18, [32, 197, 768]);  mm_18 = None
    _to_copy_195 = torch.ops.aten._to_copy.default(permute_117, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_117 = None
    _to_copy_196 = torch.ops.aten._to_copy.default(_to_copy_194, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_194 = None
    _to_copy_197 = torch.ops.aten._to_copy.default(view_155, dtype = torch.float32);  view_155 = None
    view_98 = torch.ops.aten.view.default(addmm_38, [32, 197, 768]);  addmm_38 = None
    _to_copy_119 = torch.ops.aten._to_copy.default(view_98, dtype = torch.float32);  view_98 = None
    mul_68 = torch.ops.aten.mul.Tensor(_to_copy_119, 0.7071067811865476)
    erf_9 = torch.ops.aten.erf.default(mul_68);  mul_68 = None
    add_69 = torch.ops.aten.add.Tensor(erf_9, 1);  erf_9 = None
    mul_136 = torch.ops.aten.mul.Tensor(add_69, 0.5);  add_69 = None
    mul_137 = torch.ops.aten.mul.Tensor(_to_copy_119, _to_copy_119)
    mul_138 = torch.ops.aten.mul.Tensor(mul_137, -0.5);  mul_137 = None
    exp_2 = torch.ops.aten.exp.default(mul_138);  mul_138 = None
    mul_139 = torch.ops.aten.mul.Tensor(exp_2, 0.3989422804014327);  exp_2 = None
    mul_140 = torch.ops.aten.mul.Tensor(_to_copy_119, mul_139);  _to_copy_119 = mul_139 = None
    add_96 = torch.ops.aten.add.Tensor(mul_136, mul_140);  mul_136 = mul_140 = None
    mul_141 = torch.ops.aten.mul.Tensor(_to_copy_197, add_96);  _to_copy_197 = add_96 = None
    _to_copy_199 = torch.ops.aten._to_copy.default(mul_141, dtype = torch.bfloat16);  mul_141 = None
    view_156 = torch.ops.aten.view.default(_to_copy_199, [6304, 768]);  _to_copy_199 = None
    mm_20 = torch.ops.aten.mm.default(view_156, permute_118);  permute_118 = None
    permute_119 = torch.ops.aten.permute.default(view_156, [1, 0])
    mm_21 = torch.ops.aten.mm.default(permute_119, view_97);  permute_119 = view_97 = None
    permute_120 = torch.ops.aten.permute.default(mm_21, [1, 0]);  mm_21 = None
    sum_32 = torch.ops.aten.sum.dim_IntList(view_156, [0], True, dtype = torch.float32);  view_156 = None
    view_157 = torch.ops.aten.view.default(sum_32, [768]);  sum_32 = None
    _to_copy_200 = torch.ops.aten._to_copy.default(view_157, dtype = torch.bfloat16);  view_157 = None
    permute_121 = torch.ops.aten.permute.default(permute_120, [1, 0]);  permute_120 = None
    view_158 = torch.ops.aten.view.default(mm_20, [32, 197, 192]);  mm_20 = None
    _to_copy_201 = torch.ops.aten._to_copy.default(view_158, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_158 = None
    _to_copy_202 = torch.ops.aten._to_copy.default(permute_121, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_121 = None
    _to_copy_203 = torch.ops.aten._to_copy.default(_to_copy_200, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_200 = None
    mul_143 = torch.ops.aten.mul.Tensor(_to_copy_201, primals_120);  primals_120 = None
    mul_144 = torch.ops.aten.mul.Tensor(mul_143, 192)
    sum_33 = torch.ops.aten.sum.dim_IntList(mul_143, [2], True)
    mul_145 = torch.ops.aten.mul.Tensor(mul_143, mul_65);  mul_143 = None
    sum_34 = torch.ops.aten.sum.dim_IntList(mul_145, [2], True);  mul_145 = None
    mul_146 = torch.ops.aten.mul.Tensor(mul_65, sum_34);  sum_34 = None
    sub_41 = torch.ops.aten.sub.Tensor(mul_144, sum_33);  mul_144 = sum_33 = None
    sub_42 = torch.ops.aten.sub.Tensor(sub_41, mul_146);  sub_41 = mul_146 = None
    mul_147 = torch.ops.aten.mul.Tensor(div_5, sub_42);  div_5 = sub_42 = None
    mul_148 = torch.ops.aten.mul.Tensor(_to_copy_201, mul_65);  mul_65 = None
    sum_35 = torch.ops.aten.sum.dim_IntList(mul_148, [0, 1]);  mul_148 = None
    sum_36 = torch.ops.aten.sum.dim_IntList(_to_copy_201, [0, 1]);  _to_copy_201 = None
    add_97 = torch.ops.aten.add.Tensor(add_94, mul_147);  add_94 = mul_147 = None
    _to_copy_204 = torch.ops.aten._to_copy.default(add_97, dtype = torch.bfloat16)
    view_159 = torch.ops.aten.view.default(_to_copy_204, [6304, 192]);  _to_copy_204 = None
    mm_22 = torch.ops.aten.mm.default(view_159, permute_122);  permute_122 = None
    permute_123 = torch.ops.aten.permute.default(view_159, [1, 0])
    mm_23 = torch.ops.aten.mm.default(permute_123, view_95);  permute_123 = view_95 = None
    permute_124 = torch.ops.aten.permute.default(mm_23, [1, 0]);  mm_23 = None
    sum_37 = torch.ops.aten.sum.dim_IntList(view_159, [0], True, dtype = torch.float32);  view_159 = None
    view_160 = torch.ops.aten.view.default(sum_37, [192]);  sum_37 = None
    _to_copy_205 = torch.ops.aten._to_copy.default(view_160, dtype = torch.bfloat16);  view_160 = None
    permute_125 = torch.ops.aten.permute.default(permute_124, [1, 0]);  permute_124 = None
    view_161 = torch.ops.aten.view.default(mm_22, [32, 197, 192]);  mm_22 = None
    _to_copy_206 = torch.ops.aten._to_copy.default(permute_125, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_125 = None
    _to_copy_207 = torch.ops.aten._to_copy.default(_to_copy_205, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_205 = None
    view_162 = torch.ops.aten.view.default(view_161, [32, 197, 3, 64]);  view_161 = None
    permute_126 = torch.ops.aten.permute.default(view_162, [0, 2, 1, 3]);  view_162 = None
    _scaled_dot_product_cudnn_attention_backward_2 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_126, squeeze_27, squeeze_28, squeeze_29, alias_14, getitem_120, getitem_125, getitem_126, None, None, None, 197, 197, 0.0, False);  permute_126 = squeeze_27 = squeeze_28 = squeeze_29 = alias_14 = getitem_120 = getitem_125 = getitem_126 = None
    getitem_164 = _scaled_dot_product_cudnn_attention_backward_2[0]
    getitem_165 = _scaled_dot_product_cudnn_attention_backward_2[1]
    getitem_166 = _scaled_dot_product_cudnn_attention_backward_2[2];  _scaled_dot_product_cudnn_attention_backward_2 = None
    cat_3 = torch.ops.aten.cat.default([getitem_164, getitem_165, getitem_166]);  getitem_164 = getitem_165 = getitem_166 = None
    view_163 = torch.ops.aten.view.default(cat_3, [3, 32, 3, 197, 64]);  cat_3 = None
    permute_127 = torch.ops.aten.permute.default(view_163, [1, 3, 0, 2, 4]);  view_163 = None
    clone_2 = torch.ops.aten.clone.default(permute_127, memory_format = torch.contiguous_format);  permute_127 = None
    view_164 = torch.ops.aten.view.default(clone_2, [32, 197, 576]);  clone_2 = None
    view_165 = torch.ops.aten.view.default(view_164, [6304, 576]);  view_164 = None
    mm_24 = torch.ops.aten.mm.default(view_165, permute_128);  permute_128 = None
    permute_129 = torch.ops.aten.permute.default(view_165, [1, 0])
    mm_25 = torch.ops.aten.mm.default(permute_129, view_91);  permute_129 = view_91 = None
    permute_130 = torch.ops.aten.permute.default(mm_25, [1, 0]);  mm_25 = None
    sum_38 = torch.ops.aten.sum.dim_IntList(view_165, [0], True, dtype = torch.float32);  view_165 = None
    view_166 = torch.ops.aten.view.default(sum_38, [576]);  sum_38 = None
    _to_copy_208 = torch.ops.aten._to_copy.default(view_166, dtype = torch.bfloat16);  view_166 = None
    permute_131 = torch.ops.aten.permute.default(permute_130, [1, 0]);  permute_130 = None
    view_167 = torch.ops.aten.view.default(mm_24, [32, 197, 192]);  mm_24 = None
    _to_copy_209 = torch.ops.aten._to_copy.default(view_167, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_167 = None
    _to_copy_210 = torch.ops.aten._to_copy.default(permute_131, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_131 = None
    _to_copy_211 = torch.ops.aten._to_copy.default(_to_copy_208, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_208 = None
    mul_150 = torch.ops.aten.mul.Tensor(_to_copy_209, primals_114);  primals_114 = None
    mul_151 = torch.ops.aten.mul.Tensor(mul_150, 192)
    sum_39 = torch.ops.aten.sum.dim_IntList(mul_150, [2], True)
    mul_152 = torch.ops.aten.mul.Tensor(mul_150, mul_63);  mul_150 = None
    sum_40 = torch.ops.aten.sum.dim_IntList(mul_152, [2], True);  mul_152 = None
    mul_153 = torch.ops.aten.mul.Tensor(mul_63, sum_40);  sum_40 = None
    sub_44 = torch.ops.aten.sub.Tensor(mul_151, sum_39);  mul_151 = sum_39 = None
    sub_45 = torch.ops.aten.sub.Tensor(sub_44, mul_153);  sub_44 = mul_153 = None
    mul_154 = torch.ops.aten.mul.Tensor(div_6, sub_45);  div_6 = sub_45 = None
    mul_155 = torch.ops.aten.mul.Tensor(_to_copy_209, mul_63);  mul_63 = None
    sum_41 = torch.ops.aten.sum.dim_IntList(mul_155, [0, 1]);  mul_155 = None
    sum_42 = torch.ops.aten.sum.dim_IntList(_to_copy_209, [0, 1]);  _to_copy_209 = None
    add_98 = torch.ops.aten.add.Tensor(add_97, mul_154);  add_97 = mul_154 = None
    _to_copy_212 = torch.ops.aten._to_copy.default(add_98, dtype = torch.bfloat16)
    view_168 = torch.ops.aten.view.default(_to_copy_212, [6304, 192]);  _to_copy_212 = None
    mm_26 = torch.ops.aten.mm.default(view_168, permute_132);  permute_132 = None
    permute_133 = torch.ops.aten.permute.default(view_168, [1, 0])
    mm_27 = torch.ops.aten.mm.default(permute_133, view_89);  permute_133 = view_89 = None
    permute_134 = torch.ops.aten.permute.default(mm_27, [1, 0]);  mm_27 = None
    sum_43 = torch.ops.aten.sum.dim_IntList(view_168, [0], True, dtype = torch.float32);  view_168 = None
    view_169 = torch.ops.aten.view.default(sum_43, [192]);  sum_43 = None
    _to_copy_213 = torch.ops.aten._to_copy.default(view_169, dtype = torch.bfloat16);  view_169 = None
    permute_135 = torch.ops.aten.permute.default(permute_134, [1, 0]);  permute_134 = None
    view_170 = torch.ops.aten.view.default(mm_26, [32, 197, 768]);  mm_26 = None
    _to_copy_214 = torch.ops.aten._to_copy.default(permute_135, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_135 = None
    _to_copy_215 = torch.ops.aten._to_copy.default(_to_copy_213, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_213 = None
    _to_copy_216 = torch.ops.aten._to_copy.default(view_170, dtype = torch.float32);  view_170 = None
    view_88 = torch.ops.aten.view.default(addmm_34, [32, 197, 768]);  addmm_34 = None
    _to_copy_107 = torch.ops.aten._to_copy.default(view_88, dtype = torch.float32);  view_88 = None
    mul_61 = torch.ops.aten.mul.Tensor(_to_copy_107, 0.7071067811865476)
    erf_8 = torch.ops.aten.erf.default(mul_61);  mul_61 = None
    add_62 = torch.ops.aten.add.Tensor(erf_8, 1);  erf_8 = None
    mul_157 = torch.ops.aten.mul.Tensor(add_62, 0.5);  add_62 = None
    mul_158 = torch.ops.aten.mul.Tensor(_to_copy_107, _to_copy_107)
    mul_159 = torch.ops.aten.mul.Tensor(mul_158, -0.5);  mul_158 = None
    exp_3 = torch.ops.aten.exp.default(mul_159);  mul_159 = None
    mul_160 = torch.ops.aten.mul.Tensor(exp_3, 0.3989422804014327);  exp_3 = None
    mul_161 = torch.ops.aten.mul.Tensor(_to_copy_107, mul_160);  _to_copy_107 = mul_160 = None
    add_100 = torch.ops.aten.add.Tensor(mul_157, mul_161);  mul_157 = mul_161 = None
    mul_162 = torch.ops.aten.mul.Tensor(_to_copy_216, add_100);  _to_copy_216 = add_100 = None
    _to_copy_218 = torch.ops.aten._to_copy.default(mul_162, dtype = torch.bfloat16);  mul_162 = None
    view_171 = torch.ops.aten.view.default(_to_copy_218, [6304, 768]);  _to_copy_218 = None
    mm_28 = torch.ops.aten.mm.default(view_171, permute_136);  permute_136 = None
    permute_137 = torch.ops.aten.permute.default(view_171, [1, 0])
    mm_29 = torch.ops.aten.mm.default(permute_137, view_87);  permute_137 = view_87 = None
    permute_138 = torch.ops.aten.permute.default(mm_29, [1, 0]);  mm_29 = None
    sum_44 = torch.ops.aten.sum.dim_IntList(view_171, [0], True, dtype = torch.float32);  view_171 = None
    view_172 = torch.ops.aten.view.default(sum_44, [768]);  sum_44 = None
    _to_copy_219 = torch.ops.aten._to_copy.default(view_172, dtype = torch.bfloat16);  view_172 = None
    permute_139 = torch.ops.aten.permute.default(permute_138, [1, 0]);  permute_138 = None
    view_173 = torch.ops.aten.view.default(mm_28, [32, 197, 192]);  mm_28 = None
    _to_copy_220 = torch.ops.aten._to_copy.default(view_173, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_173 = None
    _to_copy_221 = torch.ops.aten._to_copy.default(permute_139, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_139 = None
    _to_copy_222 = torch.ops.aten._to_copy.default(_to_copy_219, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_219 = None
    mul_164 = torch.ops.aten.mul.Tensor(_to_copy_220, primals_108);  primals_108 = None
    mul_165 = torch.ops.aten.mul.Tensor(mul_164, 192)
    sum_45 = torch.ops.aten.sum.dim_IntList(mul_164, [2], True)
    mul_166 = torch.ops.aten.mul.Tensor(mul_164, mul_58);  mul_164 = None
    sum_46 = torch.ops.aten.sum.dim_IntList(mul_166, [2], True);  mul_166 = None
    mul_167 = torch.ops.aten.mul.Tensor(mul_58, sum_46);  sum_46 = None
    sub_47 = torch.ops.aten.sub.Tensor(mul_165, sum_45);  mul_165 = sum_45 = None
    sub_48 = torch.ops.aten.sub.Tensor(sub_47, mul_167);  sub_47 = mul_167 = None
    mul_168 = torch.ops.aten.mul.Tensor(div_7, sub_48);  div_7 = sub_48 = None
    mul_169 = torch.ops.aten.mul.Tensor(_to_copy_220, mul_58);  mul_58 = None
    sum_47 = torch.ops.aten.sum.dim_IntList(mul_169, [0, 1]);  mul_169 = None
    sum_48 = torch.ops.aten.sum.dim_IntList(_to_copy_220, [0, 1]);  _to_copy_220 = None
    add_101 = torch.ops.aten.add.Tensor(add_98, mul_168);  add_98 = mul_168 = None
    _to_copy_223 = torch.ops.aten._to_copy.default(add_101, dtype = torch.bfloat16)
    view_174 = torch.ops.aten.view.default(_to_copy_223, [6304, 192]);  _to_copy_223 = None
    mm_30 = torch.ops.aten.mm.default(view_174, permute_140);  permute_140 = None
    permute_141 = torch.ops.aten.permute.default(view_174, [1, 0])
    mm_31 = torch.ops.aten.mm.default(permute_141, view_85);  permute_141 = view_85 = None
    permute_142 = torch.ops.aten.permute.default(mm_31, [1, 0]);  mm_31 = None
    sum_49 = torch.ops.aten.sum.dim_IntList(view_174, [0], True, dtype = torch.float32);  view_174 = None
    view_175 = torch.ops.aten.view.default(sum_49, [192]);  sum_49 = None
    _to_copy_224 = torch.ops.aten._to_copy.default(view_175, dtype = torch.bfloat16);  view_175 = None
    permute_143 = torch.ops.aten.permute.default(permute_142, [1, 0]);  permute_142 = None
    view_176 = torch.ops.aten.view.default(mm_30, [32, 197, 192]);  mm_30 = None
    _to_copy_225 = torch.ops.aten._to_copy.default(permute_143, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_143 = None
    _to_copy_226 = torch.ops.aten._to_copy.default(_to_copy_224, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_224 = None
    view_177 = torch.ops.aten.view.default(view_176, [32, 197, 3, 64]);  view_176 = None
    permute_144 = torch.ops.aten.permute.default(view_177, [0, 2, 1, 3]);  view_177 = None
    _scaled_dot_product_cudnn_attention_backward_3 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_144, squeeze_24, squeeze_25, squeeze_26, alias_15, getitem_107, getitem_112, getitem_113, None, None, None, 197, 197, 0.0, False);  permute_144 = squeeze_24 = squeeze_25 = squeeze_26 = alias_15 = getitem_107 = getitem_112 = getitem_113 = None
    getitem_167 = _scaled_dot_product_cudnn_attention_backward_3[0]
    getitem_168 = _scaled_dot_product_cudnn_attention_backward_3[1]
    getitem_169 = _scaled_dot_product_cudnn_attention_backward_3[2];  _scaled_dot_product_cudnn_attention_backward_3 = None
    cat_4 = torch.ops.aten.cat.default([getitem_167, getitem_168, getitem_169]);  getitem_167 = getitem_168 = getitem_169 = None
    view_178 = torch.ops.aten.view.default(cat_4, [3, 32, 3, 197, 64]);  cat_4 = None
    permute_145 = torch.ops.aten.permute.default(view_178, [1, 3, 0, 2, 4]);  view_178 = None
    clone_3 = torch.ops.aten.clone.default(permute_145, memory_format = torch.contiguous_format);  permute_145 = None
    view_179 = torch.ops.aten.view.default(clone_3, [32, 197, 576]);  clone_3 = None
    view_180 = torch.ops.aten.view.default(view_179, [6304, 576]);  view_179 = None
    mm_32 = torch.ops.aten.mm.default(view_180, permute_146);  permute_146 = None
    permute_147 = torch.ops.aten.permute.default(view_180, [1, 0])
    mm_33 = torch.ops.aten.mm.default(permute_147, view_81);  permute_147 = view_81 = None
    permute_148 = torch.ops.aten.permute.default(mm_33, [1, 0]);  mm_33 = None
    sum_50 = torch.ops.aten.sum.dim_IntList(view_180, [0], True, dtype = torch.float32);  view_180 = None
    view_181 = torch.ops.aten.view.default(sum_50, [576]);  sum_50 = None
    _to_copy_227 = torch.ops.aten._to_copy.default(view_181, dtype = torch.bfloat16);  view_181 = None
    permute_149 = torch.ops.aten.permute.default(permute_148, [1, 0]);  permute_148 = None
    view_182 = torch.ops.aten.view.default(mm_32, [32, 197, 192]);  mm_32 = None
    _to_copy_228 = torch.ops.aten._to_copy.default(view_182, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_182 = None
    _to_copy_229 = torch.ops.aten._to_copy.default(permute_149, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_149 = None
    _to_copy_230 = torch.ops.aten._to_copy.default(_to_copy_227, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_227 = None
    mul_171 = torch.ops.aten.mul.Tensor(_to_copy_228, primals_102);  primals_102 = None
    mul_172 = torch.ops.aten.mul.Tensor(mul_171, 192)
    sum_51 = torch.ops.aten.sum.dim_IntList(mul_171, [2], True)
    mul_173 = torch.ops.aten.mul.Tensor(mul_171, mul_56);  mul_171 = None
    sum_52 = torch.ops.aten.sum.dim_IntList(mul_173, [2], True);  mul_173 = None
    mul_174 = torch.ops.aten.mul.Tensor(mul_56, sum_52);  sum_52 = None
    sub_50 = torch.ops.aten.sub.Tensor(mul_172, sum_51);  mul_172 = sum_51 = None
    sub_51 = torch.ops.aten.sub.Tensor(sub_50, mul_174);  sub_50 = mul_174 = None
    mul_175 = torch.ops.aten.mul.Tensor(div_8, sub_51);  div_8 = sub_51 = None
    mul_176 = torch.ops.aten.mul.Tensor(_to_copy_228, mul_56);  mul_56 = None
    sum_53 = torch.ops.aten.sum.dim_IntList(mul_176, [0, 1]);  mul_176 = None
    sum_54 = torch.ops.aten.sum.dim_IntList(_to_copy_228, [0, 1]);  _to_copy_228 = None
    add_102 = torch.ops.aten.add.Tensor(add_101, mul_175);  add_101 = mul_175 = None
    _to_copy_231 = torch.ops.aten._to_copy.default(add_102, dtype = torch.bfloat16)
    view_183 = torch.ops.aten.view.default(_to_copy_231, [6304, 192]);  _to_copy_231 = None
    mm_34 = torch.ops.aten.mm.default(view_183, permute_150);  permute_150 = None
    permute_151 = torch.ops.aten.permute.default(view_183, [1, 0])
    mm_35 = torch.ops.aten.mm.default(permute_151, view_79);  permute_151 = view_79 = None
    permute_152 = torch.ops.aten.permute.default(mm_35, [1, 0]);  mm_35 = None
    sum_55 = torch.ops.aten.sum.dim_IntList(view_183, [0], True, dtype = torch.float32);  view_183 = None
    view_184 = torch.ops.aten.view.default(sum_55, [192]);  sum_55 = None
    _to_copy_232 = torch.ops.aten._to_copy.default(view_184, dtype = torch.bfloat16);  view_184 = None
    permute_153 = torch.ops.aten.permute.default(permute_152, [1, 0]);  permute_152 = None
    view_185 = torch.ops.aten.view.default(mm_34, [32, 197, 768]);  mm_34 = None
    _to_copy_233 = torch.ops.aten._to_copy.default(permute_153, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_153 = None
    _to_copy_234 = torch.ops.aten._to_copy.default(_to_copy_232, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_232 = None
    _to_copy_235 = torch.ops.aten._to_copy.default(view_185, dtype = torch.float32);  view_185 = None
    view_78 = torch.ops.aten.view.default(addmm_30, [32, 197, 768]);  addmm_30 = None
    _to_copy_95 = torch.ops.aten._to_copy.default(view_78, dtype = torch.float32);  view_78 = None
    mul_54 = torch.ops.aten.mul.Tensor(_to_copy_95, 0.7071067811865476)
    erf_7 = torch.ops.aten.erf.default(mul_54);  mul_54 = None
    add_55 = torch.ops.aten.add.Tensor(erf_7, 1);  erf_7 = None
    mul_178 = torch.ops.aten.mul.Tensor(add_55, 0.5);  add_55 = None
    mul_179 = torch.ops.aten.mul.Tensor(_to_copy_95, _to_copy_95)
    mul_180 = torch.ops.aten.mul.Tensor(mul_179, -0.5);  mul_179 = None
    exp_4 = torch.ops.aten.exp.default(mul_180);  mul_180 = None
    mul_181 = torch.ops.aten.mul.Tensor(exp_4, 0.3989422804014327);  exp_4 = None
    mul_182 = torch.ops.aten.mul.Tensor(_to_copy_95, mul_181);  _to_copy_95 = mul_181 = None
    add_104 = torch.ops.aten.add.Tensor(mul_178, mul_182);  mul_178 = mul_182 = None
    mul_183 = torch.ops.aten.mul.Tensor(_to_copy_235, add_104);  _to_copy_235 = add_104 = None
    _to_copy_237 = torch.ops.aten._to_copy.default(mul_183, dtype = torch.bfloat16);  mul_183 = None
    view_186 = torch.ops.aten.view.default(_to_copy_237, [6304, 768]);  _to_copy_237 = None
    mm_36 = torch.ops.aten.mm.default(view_186, permute_154);  permute_154 = None
    permute_155 = torch.ops.aten.permute.default(view_186, [1, 0])
    mm_37 = torch.ops.aten.mm.default(permute_155, view_77);  permute_155 = view_77 = None
    permute_156 = torch.ops.aten.permute.default(mm_37, [1, 0]);  mm_37 = None
    sum_56 = torch.ops.aten.sum.dim_IntList(view_186, [0], True, dtype = torch.float32);  view_186 = None
    view_187 = torch.ops.aten.view.default(sum_56, [768]);  sum_56 = None
    _to_copy_238 = torch.ops.aten._to_copy.default(view_187, dtype = torch.bfloat16);  view_187 = None
    permute_157 = torch.ops.aten.permute.default(permute_156, [1, 0]);  permute_156 = None
    view_188 = torch.ops.aten.view.default(mm_36, [32, 197, 192]);  mm_36 = None
    _to_copy_239 = torch.ops.aten._to_copy.default(view_188, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_188 = None
    _to_copy_240 = torch.ops.aten._to_copy.default(permute_157, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_157 = None
    _to_copy_241 = torch.ops.aten._to_copy.default(_to_copy_238, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_238 = None
    mul_185 = torch.ops.aten.mul.Tensor(_to_copy_239, primals_96);  primals_96 = None
    mul_186 = torch.ops.aten.mul.Tensor(mul_185, 192)
    sum_57 = torch.ops.aten.sum.dim_IntList(mul_185, [2], True)
    mul_187 = torch.ops.aten.mul.Tensor(mul_185, mul_51);  mul_185 = None
    sum_58 = torch.ops.aten.sum.dim_IntList(mul_187, [2], True);  mul_187 = None
    mul_188 = torch.ops.aten.mul.Tensor(mul_51, sum_58);  sum_58 = None
    sub_53 = torch.ops.aten.sub.Tensor(mul_186, sum_57);  mul_186 = sum_57 = None
    sub_54 = torch.ops.aten.sub.Tensor(sub_53, mul_188);  sub_53 = mul_188 = None
    mul_189 = torch.ops.aten.mul.Tensor(div_9, sub_54);  div_9 = sub_54 = None
    mul_190 = torch.ops.aten.mul.Tensor(_to_copy_239, mul_51);  mul_51 = None
    sum_59 = torch.ops.aten.sum.dim_IntList(mul_190, [0, 1]);  mul_190 = None
    sum_60 = torch.ops.aten.sum.dim_IntList(_to_copy_239, [0, 1]);  _to_copy_239 = None
    add_105 = torch.ops.aten.add.Tensor(add_102, mul_189);  add_102 = mul_189 = None
    _to_copy_242 = torch.ops.aten._to_copy.default(add_105, dtype = torch.bfloat16)
    view_189 = torch.ops.aten.view.default(_to_copy_242, [6304, 192]);  _to_copy_242 = None
    mm_38 = torch.ops.aten.mm.default(view_189, permute_158);  permute_158 = None
    permute_159 = torch.ops.aten.permute.default(view_189, [1, 0])
    mm_39 = torch.ops.aten.mm.default(permute_159, view_75);  permute_159 = view_75 = None
    permute_160 = torch.ops.aten.permute.default(mm_39, [1, 0]);  mm_39 = None
    sum_61 = torch.ops.aten.sum.dim_IntList(view_189, [0], True, dtype = torch.float32);  view_189 = None
    view_190 = torch.ops.aten.view.default(sum_61, [192]);  sum_61 = None
    _to_copy_243 = torch.ops.aten._to_copy.default(view_190, dtype = torch.bfloat16);  view_190 = None
    permute_161 = torch.ops.aten.permute.default(permute_160, [1, 0]);  permute_160 = None
    view_191 = torch.ops.aten.view.default(mm_38, [32, 197, 192]);  mm_38 = None
    _to_copy_244 = torch.ops.aten._to_copy.default(permute_161, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_161 = None
    _to_copy_245 = torch.ops.aten._to_copy.default(_to_copy_243, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_243 = None
    view_192 = torch.ops.aten.view.default(view_191, [32, 197, 3, 64]);  view_191 = None
    permute_162 = torch.ops.aten.permute.default(view_192, [0, 2, 1, 3]);  view_192 = None
    _scaled_dot_product_cudnn_attention_backward_4 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_162, squeeze_21, squeeze_22, squeeze_23, alias_16, getitem_94, getitem_99, getitem_100, None, None, None, 197, 197, 0.0, False);  permute_162 = squeeze_21 = squeeze_22 = squeeze_23 = alias_16 = getitem_94 = getitem_99 = getitem_100 = None
    getitem_170 = _scaled_dot_product_cudnn_attention_backward_4[0]
    getitem_171 = _scaled_dot_product_cudnn_attention_backward_4[1]
    getitem_172 = _scaled_dot_product_cudnn_attention_backward_4[2];  _scaled_dot_product_cudnn_attention_backward_4 = None
    cat_5 = torch.ops.aten.cat.default([getitem_170, getitem_171, getitem_172]);  getitem_170 = getitem_171 = getitem_172 = None
    view_193 = torch.ops.aten.view.default(cat_5, [3, 32, 3, 197, 64]);  cat_5 = None
    permute_163 = torch.ops.aten.permute.default(view_193, [1, 3, 0, 2, 4]);  view_193 = None
    clone_4 = torch.ops.aten.clone.default(permute_163, memory_format = torch.contiguous_format);  permute_163 = None
    view_194 = torch.ops.aten.view.default(clone_4, [32, 197, 576]);  clone_4 = None
    view_195 = torch.ops.aten.view.default(view_194, [6304, 576]);  view_194 = None
    mm_40 = torch.ops.aten.mm.default(view_195, permute_164);  permute_164 = None
    permute_165 = torch.ops.aten.permute.default(view_195, [1, 0])
    mm_41 = torch.ops.aten.mm.default(permute_165, view_71);  permute_165 = view_71 = None
    permute_166 = torch.ops.aten.permute.default(mm_41, [1, 0]);  mm_41 = None
    sum_62 = torch.ops.aten.sum.dim_IntList(view_195, [0], True, dtype = torch.float32);  view_195 = None
    view_196 = torch.ops.aten.view.default(sum_62, [576]);  sum_62 = None
    _to_copy_246 = torch.ops.aten._to_copy.default(view_196, dtype = torch.bfloat16);  view_196 = None
    permute_167 = torch.ops.aten.permute.default(permute_166, [1, 0]);  permute_166 = None
    view_197 = torch.ops.aten.view.default(mm_40, [32, 197, 192]);  mm_40 = None
    _to_copy_247 = torch.ops.aten._to_copy.default(view_197, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_197 = None
    _to_copy_248 = torch.ops.aten._to_copy.default(permute_167, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_167 = None
    _to_copy_249 = torch.ops.aten._to_copy.default(_to_copy_246, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_246 = None
    mul_192 = torch.ops.aten.mul.Tensor(_to_copy_247, primals_90);  primals_90 = None
    mul_193 = torch.ops.aten.mul.Tensor(mul_192, 192)
    sum_63 = torch.ops.aten.sum.dim_IntList(mul_192, [2], True)
    mul_194 = torch.ops.aten.mul.Tensor(mul_192, mul_49);  mul_192 = None
    sum_64 = torch.ops.aten.sum.dim_IntList(mul_194, [2], True);  mul_194 = None
    mul_195 = torch.ops.aten.mul.Tensor(mul_49, sum_64);  sum_64 = None
    sub_56 = torch.ops.aten.sub.Tensor(mul_193, sum_63);  mul_193 = sum_63 = None
    sub_57 = torch.ops.aten.sub.Tensor(sub_56, mul_195);  sub_56 = mul_195 = None
    mul_196 = torch.ops.aten.mul.Tensor(div_10, sub_57);  div_10 = sub_57 = None
    mul_197 = torch.ops.aten.mul.Tensor(_to_copy_247, mul_49);  mul_49 = None
    sum_65 = torch.ops.aten.sum.dim_IntList(mul_197, [0, 1]);  mul_197 = None
    sum_66 = torch.ops.aten.sum.dim_IntList(_to_copy_247, [0, 1]);  _to_copy_247 = None
    add_106 = torch.ops.aten.add.Tensor(add_105, mul_196);  add_105 = mul_196 = None
    _to_copy_250 = torch.ops.aten._to_copy.default(add_106, dtype = torch.bfloat16)
    view_198 = torch.ops.aten.view.default(_to_copy_250, [6304, 192]);  _to_copy_250 = None
    mm_42 = torch.ops.aten.mm.default(view_198, permute_168);  permute_168 = None
    permute_169 = torch.ops.aten.permute.default(view_198, [1, 0])
    mm_43 = torch.ops.aten.mm.default(permute_169, view_69);  permute_169 = view_69 = None
    permute_170 = torch.ops.aten.permute.default(mm_43, [1, 0]);  mm_43 = None
    sum_67 = torch.ops.aten.sum.dim_IntList(view_198, [0], True, dtype = torch.float32);  view_198 = None
    view_199 = torch.ops.aten.view.default(sum_67, [192]);  sum_67 = None
    _to_copy_251 = torch.ops.aten._to_copy.default(view_199, dtype = torch.bfloat16);  view_199 = None
    permute_171 = torch.ops.aten.permute.default(permute_170, [1, 0]);  permute_170 = None
    view_200 = torch.ops.aten.view.default(mm_42, [32, 197, 768]);  mm_42 = None
    _to_copy_252 = torch.ops.aten._to_copy.default(permute_171, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_171 = None
    _to_copy_253 = torch.ops.aten._to_copy.default(_to_copy_251, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_251 = None
    _to_copy_254 = torch.ops.aten._to_copy.default(view_200, dtype = torch.float32);  view_200 = None
    view_68 = torch.ops.aten.view.default(addmm_26, [32, 197, 768]);  addmm_26 = None
    _to_copy_83 = torch.ops.aten._to_copy.default(view_68, dtype = torch.float32);  view_68 = None
    mul_47 = torch.ops.aten.mul.Tensor(_to_copy_83, 0.7071067811865476)
    erf_6 = torch.ops.aten.erf.default(mul_47);  mul_47 = None
    add_48 = torch.ops.aten.add.Tensor(erf_6, 1);  erf_6 = None
    mul_199 = torch.ops.aten.mul.Tensor(add_48, 0.5);  add_48 = None
    mul_200 = torch.ops.aten.mul.Tensor(_to_copy_83, _to_copy_83)
    mul_201 = torch.ops.aten.mul.Tensor(mul_200, -0.5);  mul_200 = None
    exp_5 = torch.ops.aten.exp.default(mul_201);  mul_201 = None
    mul_202 = torch.ops.aten.mul.Tensor(exp_5, 0.3989422804014327);  exp_5 = None
    mul_203 = torch.ops.aten.mul.Tensor(_to_copy_83, mul_202);  _to_copy_83 = mul_202 = None
    add_108 = torch.ops.aten.add.Tensor(mul_199, mul_203);  mul_199 = mul_203 = None
    mul_204 = torch.ops.aten.mul.Tensor(_to_copy_254, add_108);  _to_copy_254 = add_108 = None
    _to_copy_256 = torch.ops.aten._to_copy.default(mul_204, dtype = torch.bfloat16);  mul_204 = None
    view_201 = torch.ops.aten.view.default(_to_copy_256, [6304, 768]);  _to_copy_256 = None
    mm_44 = torch.ops.aten.mm.default(view_201, permute_172);  permute_172 = None
    permute_173 = torch.ops.aten.permute.default(view_201, [1, 0])
    mm_45 = torch.ops.aten.mm.default(permute_173, view_67);  permute_173 = view_67 = None
    permute_174 = torch.ops.aten.permute.default(mm_45, [1, 0]);  mm_45 = None
    sum_68 = torch.ops.aten.sum.dim_IntList(view_201, [0], True, dtype = torch.float32);  view_201 = None
    view_202 = torch.ops.aten.view.default(sum_68, [768]);  sum_68 = None
    _to_copy_257 = torch.ops.aten._to_copy.default(view_202, dtype = torch.bfloat16);  view_202 = None
    permute_175 = torch.ops.aten.permute.default(permute_174, [1, 0]);  permute_174 = None
    view_203 = torch.ops.aten.view.default(mm_44, [32, 197, 192]);  mm_44 = None
    _to_copy_258 = torch.ops.aten._to_copy.default(view_203, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_203 = None
    _to_copy_259 = torch.ops.aten._to_copy.default(permute_175, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_175 = None
    _to_copy_260 = torch.ops.aten._to_copy.default(_to_copy_257, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_257 = None
    mul_206 = torch.ops.aten.mul.Tensor(_to_copy_258, primals_84);  primals_84 = None
    mul_207 = torch.ops.aten.mul.Tensor(mul_206, 192)
    sum_69 = torch.ops.aten.sum.dim_IntList(mul_206, [2], True)
    mul_208 = torch.ops.aten.mul.Tensor(mul_206, mul_44);  mul_206 = None
    sum_70 = torch.ops.aten.sum.dim_IntList(mul_208, [2], True);  mul_208 = None
    mul_209 = torch.ops.aten.mul.Tensor(mul_44, sum_70);  sum_70 = None
    sub_59 = torch.ops.aten.sub.Tensor(mul_207, sum_69);  mul_207 = sum_69 = None
    sub_60 = torch.ops.aten.sub.Tensor(sub_59, mul_209);  sub_59 = mul_209 = None
    mul_210 = torch.ops.aten.mul.Tensor(div_11, sub_60);  div_11 = sub_60 = None
    mul_211 = torch.ops.aten.mul.Tensor(_to_copy_258, mul_44);  mul_44 = None
    sum_71 = torch.ops.aten.sum.dim_IntList(mul_211, [0, 1]);  mul_211 = None
    sum_72 = torch.ops.aten.sum.dim_IntList(_to_copy_258, [0, 1]);  _to_copy_258 = None
    add_109 = torch.ops.aten.add.Tensor(add_106, mul_210);  add_106 = mul_210 = None
    _to_copy_261 = torch.ops.aten._to_copy.default(add_109, dtype = torch.bfloat16)
    view_204 = torch.ops.aten.view.default(_to_copy_261, [6304, 192]);  _to_copy_261 = None
    mm_46 = torch.ops.aten.mm.default(view_204, permute_176);  permute_176 = None
    permute_177 = torch.ops.aten.permute.default(view_204, [1, 0])
    mm_47 = torch.ops.aten.mm.default(permute_177, view_65);  permute_177 = view_65 = None
    permute_178 = torch.ops.aten.permute.default(mm_47, [1, 0]);  mm_47 = None
    sum_73 = torch.ops.aten.sum.dim_IntList(view_204, [0], True, dtype = torch.float32);  view_204 = None
    view_205 = torch.ops.aten.view.default(sum_73, [192]);  sum_73 = None
    _to_copy_262 = torch.ops.aten._to_copy.default(view_205, dtype = torch.bfloat16);  view_205 = None
    permute_179 = torch.ops.aten.permute.default(permute_178, [1, 0]);  permute_178 = None
    view_206 = torch.ops.aten.view.default(mm_46, [32, 197, 192]);  mm_46 = None
    _to_copy_263 = torch.ops.aten._to_copy.default(permute_179, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_179 = None
    _to_copy_264 = torch.ops.aten._to_copy.default(_to_copy_262, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_262 = None
    view_207 = torch.ops.aten.view.default(view_206, [32, 197, 3, 64]);  view_206 = None
    permute_180 = torch.ops.aten.permute.default(view_207, [0, 2, 1, 3]);  view_207 = None
    _scaled_dot_product_cudnn_attention_backward_5 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_180, squeeze_18, squeeze_19, squeeze_20, alias_17, getitem_81, getitem_86, getitem_87, None, None, None, 197, 197, 0.0, False);  permute_180 = squeeze_18 = squeeze_19 = squeeze_20 = alias_17 = getitem_81 = getitem_86 = getitem_87 = None
    getitem_173 = _scaled_dot_product_cudnn_attention_backward_5[0]
    getitem_174 = _scaled_dot_product_cudnn_attention_backward_5[1]
    getitem_175 = _scaled_dot_product_cudnn_attention_backward_5[2];  _scaled_dot_product_cudnn_attention_backward_5 = None
    cat_6 = torch.ops.aten.cat.default([getitem_173, getitem_174, getitem_175]);  getitem_173 = getitem_174 = getitem_175 = None
    view_208 = torch.ops.aten.view.default(cat_6, [3, 32, 3, 197, 64]);  cat_6 = None
    permute_181 = torch.ops.aten.permute.default(view_208, [1, 3, 0, 2, 4]);  view_208 = None
    clone_5 = torch.ops.aten.clone.default(permute_181, memory_format = torch.contiguous_format);  permute_181 = None
    view_209 = torch.ops.aten.view.default(clone_5, [32, 197, 576]);  clone_5 = None
    view_210 = torch.ops.aten.view.default(view_209, [6304, 576]);  view_209 = None
    mm_48 = torch.ops.aten.mm.default(view_210, permute_182);  permute_182 = None
    permute_183 = torch.ops.aten.permute.default(view_210, [1, 0])
    mm_49 = torch.ops.aten.mm.default(permute_183, view_61);  permute_183 = view_61 = None
    permute_184 = torch.ops.aten.permute.default(mm_49, [1, 0]);  mm_49 = None
    sum_74 = torch.ops.aten.sum.dim_IntList(view_210, [0], True, dtype = torch.float32);  view_210 = None
    view_211 = torch.ops.aten.view.default(sum_74, [576]);  sum_74 = None
    _to_copy_265 = torch.ops.aten._to_copy.default(view_211, dtype = torch.bfloat16);  view_211 = None
    permute_185 = torch.ops.aten.permute.default(permute_184, [1, 0]);  permute_184 = None
    view_212 = torch.ops.aten.view.default(mm_48, [32, 197, 192]);  mm_48 = None
    _to_copy_266 = torch.ops.aten._to_copy.default(view_212, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_212 = None
    _to_copy_267 = torch.ops.aten._to_copy.default(permute_185, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_185 = None
    _to_copy_268 = torch.ops.aten._to_copy.default(_to_copy_265, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_265 = None
    mul_213 = torch.ops.aten.mul.Tensor(_to_copy_266, primals_78);  primals_78 = None
    mul_214 = torch.ops.aten.mul.Tensor(mul_213, 192)
    sum_75 = torch.ops.aten.sum.dim_IntList(mul_213, [2], True)
    mul_215 = torch.ops.aten.mul.Tensor(mul_213, mul_42);  mul_213 = None
    sum_76 = torch.ops.aten.sum.dim_IntList(mul_215, [2], True);  mul_215 = None
    mul_216 = torch.ops.aten.mul.Tensor(mul_42, sum_76);  sum_76 = None
    sub_62 = torch.ops.aten.sub.Tensor(mul_214, sum_75);  mul_214 = sum_75 = None
    sub_63 = torch.ops.aten.sub.Tensor(sub_62, mul_216);  sub_62 = mul_216 = None
    mul_217 = torch.ops.aten.mul.Tensor(div_12, sub_63);  div_12 = sub_63 = None
    mul_218 = torch.ops.aten.mul.Tensor(_to_copy_266, mul_42);  mul_42 = None
    sum_77 = torch.ops.aten.sum.dim_IntList(mul_218, [0, 1]);  mul_218 = None
    sum_78 = torch.ops.aten.sum.dim_IntList(_to_copy_266, [0, 1]);  _to_copy_266 = None
    add_110 = torch.ops.aten.add.Tensor(add_109, mul_217);  add_109 = mul_217 = None
    _to_copy_269 = torch.ops.aten._to_copy.default(add_110, dtype = torch.bfloat16)
    view_213 = torch.ops.aten.view.default(_to_copy_269, [6304, 192]);  _to_copy_269 = None
    mm_50 = torch.ops.aten.mm.default(view_213, permute_186);  permute_186 = None
    permute_187 = torch.ops.aten.permute.default(view_213, [1, 0])
    mm_51 = torch.ops.aten.mm.default(permute_187, view_59);  permute_187 = view_59 = None
    permute_188 = torch.ops.aten.permute.default(mm_51, [1, 0]);  mm_51 = None
    sum_79 = torch.ops.aten.sum.dim_IntList(view_213, [0], True, dtype = torch.float32);  view_213 = None
    view_214 = torch.ops.aten.view.default(sum_79, [192]);  sum_79 = None
    _to_copy_270 = torch.ops.aten._to_copy.default(view_214, dtype = torch.bfloat16);  view_214 = None
    permute_189 = torch.ops.aten.permute.default(permute_188, [1, 0]);  permute_188 = None
    view_215 = torch.ops.aten.view.default(mm_50, [32, 197, 768]);  mm_50 = None
    _to_copy_271 = torch.ops.aten._to_copy.default(permute_189, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_189 = None
    _to_copy_272 = torch.ops.aten._to_copy.default(_to_copy_270, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_270 = None
    _to_copy_273 = torch.ops.aten._to_copy.default(view_215, dtype = torch.float32);  view_215 = None
    view_58 = torch.ops.aten.view.default(addmm_22, [32, 197, 768]);  addmm_22 = None
    _to_copy_71 = torch.ops.aten._to_copy.default(view_58, dtype = torch.float32);  view_58 = None
    mul_40 = torch.ops.aten.mul.Tensor(_to_copy_71, 0.7071067811865476)
    erf_5 = torch.ops.aten.erf.default(mul_40);  mul_40 = None
    add_41 = torch.ops.aten.add.Tensor(erf_5, 1);  erf_5 = None
    mul_220 = torch.ops.aten.mul.Tensor(add_41, 0.5);  add_41 = None
    mul_221 = torch.ops.aten.mul.Tensor(_to_copy_71, _to_copy_71)
    mul_222 = torch.ops.aten.mul.Tensor(mul_221, -0.5);  mul_221 = None
    exp_6 = torch.ops.aten.exp.default(mul_222);  mul_222 = None
    mul_223 = torch.ops.aten.mul.Tensor(exp_6, 0.3989422804014327);  exp_6 = None
    mul_224 = torch.ops.aten.mul.Tensor(_to_copy_71, mul_223);  _to_copy_71 = mul_223 = None
    add_112 = torch.ops.aten.add.Tensor(mul_220, mul_224);  mul_220 = mul_224 = None
    mul_225 = torch.ops.aten.mul.Tensor(_to_copy_273, add_112);  _to_copy_273 = add_112 = None
    _to_copy_275 = torch.ops.aten._to_copy.default(mul_225, dtype = torch.bfloat16);  mul_225 = None
    view_216 = torch.ops.aten.view.default(_to_copy_275, [6304, 768]);  _to_copy_275 = None
    mm_52 = torch.ops.aten.mm.default(view_216, permute_190);  permute_190 = None
    permute_191 = torch.ops.aten.permute.default(view_216, [1, 0])
    mm_53 = torch.ops.aten.mm.default(permute_191, view_57);  permute_191 = view_57 = None
    permute_192 = torch.ops.aten.permute.default(mm_53, [1, 0]);  mm_53 = None
    sum_80 = torch.ops.aten.sum.dim_IntList(view_216, [0], True, dtype = torch.float32);  view_216 = None
    view_217 = torch.ops.aten.view.default(sum_80, [768]);  sum_80 = None
    _to_copy_276 = torch.ops.aten._to_copy.default(view_217, dtype = torch.bfloat16);  view_217 = None
    permute_193 = torch.ops.aten.permute.default(permute_192, [1, 0]);  permute_192 = None
    view_218 = torch.ops.aten.view.default(mm_52, [32, 197, 192]);  mm_52 = None
    _to_copy_277 = torch.ops.aten._to_copy.default(view_218, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_218 = None
    _to_copy_278 = torch.ops.aten._to_copy.default(permute_193, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_193 = None
    _to_copy_279 = torch.ops.aten._to_copy.default(_to_copy_276, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_276 = None
    mul_227 = torch.ops.aten.mul.Tensor(_to_copy_277, primals_72);  primals_72 = None
    mul_228 = torch.ops.aten.mul.Tensor(mul_227, 192)
    sum_81 = torch.ops.aten.sum.dim_IntList(mul_227, [2], True)
    mul_229 = torch.ops.aten.mul.Tensor(mul_227, mul_37);  mul_227 = None
    sum_82 = torch.ops.aten.sum.dim_IntList(mul_229, [2], True);  mul_229 = None
    mul_230 = torch.ops.aten.mul.Tensor(mul_37, sum_82);  sum_82 = None
    sub_65 = torch.ops.aten.sub.Tensor(mul_228, sum_81);  mul_228 = sum_81 = None
    sub_66 = torch.ops.aten.sub.Tensor(sub_65, mul_230);  sub_65 = mul_230 = None
    mul_231 = torch.ops.aten.mul.Tensor(div_13, sub_66);  div_13 = sub_66 = None
    mul_232 = torch.ops.aten.mul.Tensor(_to_copy_277, mul_37);  mul_37 = None
    sum_83 = torch.ops.aten.sum.dim_IntList(mul_232, [0, 1]);  mul_232 = None
    sum_84 = torch.ops.aten.sum.dim_IntList(_to_copy_277, [0, 1]);  _to_copy_277 = None
    add_113 = torch.ops.aten.add.Tensor(add_110, mul_231);  add_110 = mul_231 = None
    _to_copy_280 = torch.ops.aten._to_copy.default(add_113, dtype = torch.bfloat16)
    view_219 = torch.ops.aten.view.default(_to_copy_280, [6304, 192]);  _to_copy_280 = None
    mm_54 = torch.ops.aten.mm.default(view_219, permute_194);  permute_194 = None
    permute_195 = torch.ops.aten.permute.default(view_219, [1, 0])
    mm_55 = torch.ops.aten.mm.default(permute_195, view_55);  permute_195 = view_55 = None
    permute_196 = torch.ops.aten.permute.default(mm_55, [1, 0]);  mm_55 = None
    sum_85 = torch.ops.aten.sum.dim_IntList(view_219, [0], True, dtype = torch.float32);  view_219 = None
    view_220 = torch.ops.aten.view.default(sum_85, [192]);  sum_85 = None
    _to_copy_281 = torch.ops.aten._to_copy.default(view_220, dtype = torch.bfloat16);  view_220 = None
    permute_197 = torch.ops.aten.permute.default(permute_196, [1, 0]);  permute_196 = None
    view_221 = torch.ops.aten.view.default(mm_54, [32, 197, 192]);  mm_54 = None
    _to_copy_282 = torch.ops.aten._to_copy.default(permute_197, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_197 = None
    _to_copy_283 = torch.ops.aten._to_copy.default(_to_copy_281, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_281 = None
    view_222 = torch.ops.aten.view.default(view_221, [32, 197, 3, 64]);  view_221 = None
    permute_198 = torch.ops.aten.permute.default(view_222, [0, 2, 1, 3]);  view_222 = None
    _scaled_dot_product_cudnn_attention_backward_6 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_198, squeeze_15, squeeze_16, squeeze_17, alias_18, getitem_68, getitem_73, getitem_74, None, None, None, 197, 197, 0.0, False);  permute_198 = squeeze_15 = squeeze_16 = squeeze_17 = alias_18 = getitem_68 = getitem_73 = getitem_74 = None
    getitem_176 = _scaled_dot_product_cudnn_attention_backward_6[0]
    getitem_177 = _scaled_dot_product_cudnn_attention_backward_6[1]
    getitem_178 = _scaled_dot_product_cudnn_attention_backward_6[2];  _scaled_dot_product_cudnn_attention_backward_6 = None
    cat_7 = torch.ops.aten.cat.default([getitem_176, getitem_177, getitem_178]);  getitem_176 = getitem_177 = getitem_178 = None
    view_223 = torch.ops.aten.view.default(cat_7, [3, 32, 3, 197, 64]);  cat_7 = None
    permute_199 = torch.ops.aten.permute.default(view_223, [1, 3, 0, 2, 4]);  view_223 = None
    clone_6 = torch.ops.aten.clone.default(permute_199, memory_format = torch.contiguous_format);  permute_199 = None
    view_224 = torch.ops.aten.view.default(clone_6, [32, 197, 576]);  clone_6 = None
    view_225 = torch.ops.aten.view.default(view_224, [6304, 576]);  view_224 = None
    mm_56 = torch.ops.aten.mm.default(view_225, permute_200);  permute_200 = None
    permute_201 = torch.ops.aten.permute.default(view_225, [1, 0])
    mm_57 = torch.ops.aten.mm.default(permute_201, view_51);  permute_201 = view_51 = None
    permute_202 = torch.ops.aten.permute.default(mm_57, [1, 0]);  mm_57 = None
    sum_86 = torch.ops.aten.sum.dim_IntList(view_225, [0], True, dtype = torch.float32);  view_225 = None
    view_226 = torch.ops.aten.view.default(sum_86, [576]);  sum_86 = None
    _to_copy_284 = torch.ops.aten._to_copy.default(view_226, dtype = torch.bfloat16);  view_226 = None
    permute_203 = torch.ops.aten.permute.default(permute_202, [1, 0]);  permute_202 = None
    view_227 = torch.ops.aten.view.default(mm_56, [32, 197, 192]);  mm_56 = None
    _to_copy_285 = torch.ops.aten._to_copy.default(view_227, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_227 = None
    _to_copy_286 = torch.ops.aten._to_copy.default(permute_203, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_203 = None
    _to_copy_287 = torch.ops.aten._to_copy.default(_to_copy_284, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_284 = None
    mul_234 = torch.ops.aten.mul.Tensor(_to_copy_285, primals_66);  primals_66 = None
    mul_235 = torch.ops.aten.mul.Tensor(mul_234, 192)
    sum_87 = torch.ops.aten.sum.dim_IntList(mul_234, [2], True)
    mul_236 = torch.ops.aten.mul.Tensor(mul_234, mul_35);  mul_234 = None
    sum_88 = torch.ops.aten.sum.dim_IntList(mul_236, [2], True);  mul_236 = None
    mul_237 = torch.ops.aten.mul.Tensor(mul_35, sum_88);  sum_88 = None
    sub_68 = torch.ops.aten.sub.Tensor(mul_235, sum_87);  mul_235 = sum_87 = None
    sub_69 = torch.ops.aten.sub.Tensor(sub_68, mul_237);  sub_68 = mul_237 = None
    mul_238 = torch.ops.aten.mul.Tensor(div_14, sub_69);  div_14 = sub_69 = None
    mul_239 = torch.ops.aten.mul.Tensor(_to_copy_285, mul_35);  mul_35 = None
    sum_89 = torch.ops.aten.sum.dim_IntList(mul_239, [0, 1]);  mul_239 = None
    sum_90 = torch.ops.aten.sum.dim_IntList(_to_copy_285, [0, 1]);  _to_copy_285 = None
    add_114 = torch.ops.aten.add.Tensor(add_113, mul_238);  add_113 = mul_238 = None
    _to_copy_288 = torch.ops.aten._to_copy.default(add_114, dtype = torch.bfloat16)
    view_228 = torch.ops.aten.view.default(_to_copy_288, [6304, 192]);  _to_copy_288 = None
    mm_58 = torch.ops.aten.mm.default(view_228, permute_204);  permute_204 = None
    permute_205 = torch.ops.aten.permute.default(view_228, [1, 0])
    mm_59 = torch.ops.aten.mm.default(permute_205, view_49);  permute_205 = view_49 = None
    permute_206 = torch.ops.aten.permute.default(mm_59, [1, 0]);  mm_59 = None
    sum_91 = torch.ops.aten.sum.dim_IntList(view_228, [0], True, dtype = torch.float32);  view_228 = None
    view_229 = torch.ops.aten.view.default(sum_91, [192]);  sum_91 = None
    _to_copy_289 = torch.ops.aten._to_copy.default(view_229, dtype = torch.bfloat16);  view_229 = None
    permute_207 = torch.ops.aten.permute.default(permute_206, [1, 0]);  permute_206 = None
    view_230 = torch.ops.aten.view.default(mm_58, [32, 197, 768]);  mm_58 = None
    _to_copy_290 = torch.ops.aten._to_copy.default(permute_207, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_207 = None
    _to_copy_291 = torch.ops.aten._to_copy.default(_to_copy_289, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_289 = None
    _to_copy_292 = torch.ops.aten._to_copy.default(view_230, dtype = torch.float32);  view_230 = None
    view_48 = torch.ops.aten.view.default(addmm_18, [32, 197, 768]);  addmm_18 = None
    _to_copy_59 = torch.ops.aten._to_copy.default(view_48, dtype = torch.float32);  view_48 = None
    mul_33 = torch.ops.aten.mul.Tensor(_to_copy_59, 0.7071067811865476)
    erf_4 = torch.ops.aten.erf.default(mul_33);  mul_33 = None
    add_34 = torch.ops.aten.add.Tensor(erf_4, 1);  erf_4 = None
    mul_241 = torch.ops.aten.mul.Tensor(add_34, 0.5);  add_34 = None
    mul_242 = torch.ops.aten.mul.Tensor(_to_copy_59, _to_copy_59)
    mul_243 = torch.ops.aten.mul.Tensor(mul_242, -0.5);  mul_242 = None
    exp_7 = torch.ops.aten.exp.default(mul_243);  mul_243 = None
    mul_244 = torch.ops.aten.mul.Tensor(exp_7, 0.3989422804014327);  exp_7 = None
    mul_245 = torch.ops.aten.mul.Tensor(_to_copy_59, mul_244);  _to_copy_59 = mul_244 = None
    add_116 = torch.ops.aten.add.Tensor(mul_241, mul_245);  mul_241 = mul_245 = None
    mul_246 = torch.ops.aten.mul.Tensor(_to_copy_292, add_116);  _to_copy_292 = add_116 = None
    _to_copy_294 = torch.ops.aten._to_copy.default(mul_246, dtype = torch.bfloat16);  mul_246 = None
    view_231 = torch.ops.aten.view.default(_to_copy_294, [6304, 768]);  _to_copy_294 = None
    mm_60 = torch.ops.aten.mm.default(view_231, permute_208);  permute_208 = None
    permute_209 = torch.ops.aten.permute.default(view_231, [1, 0])
    mm_61 = torch.ops.aten.mm.default(permute_209, view_47);  permute_209 = view_47 = None
    permute_210 = torch.ops.aten.permute.default(mm_61, [1, 0]);  mm_61 = None
    sum_92 = torch.ops.aten.sum.dim_IntList(view_231, [0], True, dtype = torch.float32);  view_231 = None
    view_232 = torch.ops.aten.view.default(sum_92, [768]);  sum_92 = None
    _to_copy_295 = torch.ops.aten._to_copy.default(view_232, dtype = torch.bfloat16);  view_232 = None
    permute_211 = torch.ops.aten.permute.default(permute_210, [1, 0]);  permute_210 = None
    view_233 = torch.ops.aten.view.default(mm_60, [32, 197, 192]);  mm_60 = None
    _to_copy_296 = torch.ops.aten._to_copy.default(view_233, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_233 = None
    _to_copy_297 = torch.ops.aten._to_copy.default(permute_211, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_211 = None
    _to_copy_298 = torch.ops.aten._to_copy.default(_to_copy_295, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_295 = None
    mul_248 = torch.ops.aten.mul.Tensor(_to_copy_296, primals_60);  primals_60 = None
    mul_249 = torch.ops.aten.mul.Tensor(mul_248, 192)
    sum_93 = torch.ops.aten.sum.dim_IntList(mul_248, [2], True)
    mul_250 = torch.ops.aten.mul.Tensor(mul_248, mul_30);  mul_248 = None
    sum_94 = torch.ops.aten.sum.dim_IntList(mul_250, [2], True);  mul_250 = None
    mul_251 = torch.ops.aten.mul.Tensor(mul_30, sum_94);  sum_94 = None
    sub_71 = torch.ops.aten.sub.Tensor(mul_249, sum_93);  mul_249 = sum_93 = None
    sub_72 = torch.ops.aten.sub.Tensor(sub_71, mul_251);  sub_71 = mul_251 = None
    mul_252 = torch.ops.aten.mul.Tensor(div_15, sub_72);  div_15 = sub_72 = None
    mul_253 = torch.ops.aten.mul.Tensor(_to_copy_296, mul_30);  mul_30 = None
    sum_95 = torch.ops.aten.sum.dim_IntList(mul_253, [0, 1]);  mul_253 = None
    sum_96 = torch.ops.aten.sum.dim_IntList(_to_copy_296, [0, 1]);  _to_copy_296 = None
    add_117 = torch.ops.aten.add.Tensor(add_114, mul_252);  add_114 = mul_252 = None
    _to_copy_299 = torch.ops.aten._to_copy.default(add_117, dtype = torch.bfloat16)
    view_234 = torch.ops.aten.view.default(_to_copy_299, [6304, 192]);  _to_copy_299 = None
    mm_62 = torch.ops.aten.mm.default(view_234, permute_212);  permute_212 = None
    permute_213 = torch.ops.aten.permute.default(view_234, [1, 0])
    mm_63 = torch.ops.aten.mm.default(permute_213, view_45);  permute_213 = view_45 = None
    permute_214 = torch.ops.aten.permute.default(mm_63, [1, 0]);  mm_63 = None
    sum_97 = torch.ops.aten.sum.dim_IntList(view_234, [0], True, dtype = torch.float32);  view_234 = None
    view_235 = torch.ops.aten.view.default(sum_97, [192]);  sum_97 = None
    _to_copy_300 = torch.ops.aten._to_copy.default(view_235, dtype = torch.bfloat16);  view_235 = None
    permute_215 = torch.ops.aten.permute.default(permute_214, [1, 0]);  permute_214 = None
    view_236 = torch.ops.aten.view.default(mm_62, [32, 197, 192]);  mm_62 = None
    _to_copy_301 = torch.ops.aten._to_copy.default(permute_215, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_215 = None
    _to_copy_302 = torch.ops.aten._to_copy.default(_to_copy_300, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_300 = None
    view_237 = torch.ops.aten.view.default(view_236, [32, 197, 3, 64]);  view_236 = None
    permute_216 = torch.ops.aten.permute.default(view_237, [0, 2, 1, 3]);  view_237 = None
    _scaled_dot_product_cudnn_attention_backward_7 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_216, squeeze_12, squeeze_13, squeeze_14, alias_19, getitem_55, getitem_60, getitem_61, None, None, None, 197, 197, 0.0, False);  permute_216 = squeeze_12 = squeeze_13 = squeeze_14 = alias_19 = getitem_55 = getitem_60 = getitem_61 = None
    getitem_179 = _scaled_dot_product_cudnn_attention_backward_7[0]
    getitem_180 = _scaled_dot_product_cudnn_attention_backward_7[1]
    getitem_181 = _scaled_dot_product_cudnn_attention_backward_7[2];  _scaled_dot_product_cudnn_attention_backward_7 = None
    cat_8 = torch.ops.aten.cat.default([getitem_179, getitem_180, getitem_181]);  getitem_179 = getitem_180 = getitem_181 = None
    view_238 = torch.ops.aten.view.default(cat_8, [3, 32, 3, 197, 64]);  cat_8 = None
    permute_217 = torch.ops.aten.permute.default(view_238, [1, 3, 0, 2, 4]);  view_238 = None
    clone_7 = torch.ops.aten.clone.default(permute_217, memory_format = torch.contiguous_format);  permute_217 = None
    view_239 = torch.ops.aten.view.default(clone_7, [32, 197, 576]);  clone_7 = None
    view_240 = torch.ops.aten.view.default(view_239, [6304, 576]);  view_239 = None
    mm_64 = torch.ops.aten.mm.default(view_240, permute_218);  permute_218 = None
    permute_219 = torch.ops.aten.permute.default(view_240, [1, 0])
    mm_65 = torch.ops.aten.mm.default(permute_219, view_41);  permute_219 = view_41 = None
    permute_220 = torch.ops.aten.permute.default(mm_65, [1, 0]);  mm_65 = None
    sum_98 = torch.ops.aten.sum.dim_IntList(view_240, [0], True, dtype = torch.float32);  view_240 = None
    view_241 = torch.ops.aten.view.default(sum_98, [576]);  sum_98 = None
    _to_copy_303 = torch.ops.aten._to_copy.default(view_241, dtype = torch.bfloat16);  view_241 = None
    permute_221 = torch.ops.aten.permute.default(permute_220, [1, 0]);  permute_220 = None
    view_242 = torch.ops.aten.view.default(mm_64, [32, 197, 192]);  mm_64 = None
    _to_copy_304 = torch.ops.aten._to_copy.default(view_242, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_242 = None
    _to_copy_305 = torch.ops.aten._to_copy.default(permute_221, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_221 = None
    _to_copy_306 = torch.ops.aten._to_copy.default(_to_copy_303, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_303 = None
    mul_255 = torch.ops.aten.mul.Tensor(_to_copy_304, primals_54);  primals_54 = None
    mul_256 = torch.ops.aten.mul.Tensor(mul_255, 192)
    sum_99 = torch.ops.aten.sum.dim_IntList(mul_255, [2], True)
    mul_257 = torch.ops.aten.mul.Tensor(mul_255, mul_28);  mul_255 = None
    sum_100 = torch.ops.aten.sum.dim_IntList(mul_257, [2], True);  mul_257 = None
    mul_258 = torch.ops.aten.mul.Tensor(mul_28, sum_100);  sum_100 = None
    sub_74 = torch.ops.aten.sub.Tensor(mul_256, sum_99);  mul_256 = sum_99 = None
    sub_75 = torch.ops.aten.sub.Tensor(sub_74, mul_258);  sub_74 = mul_258 = None
    mul_259 = torch.ops.aten.mul.Tensor(div_16, sub_75);  div_16 = sub_75 = None
    mul_260 = torch.ops.aten.mul.Tensor(_to_copy_304, mul_28);  mul_28 = None
    sum_101 = torch.ops.aten.sum.dim_IntList(mul_260, [0, 1]);  mul_260 = None
    sum_102 = torch.ops.aten.sum.dim_IntList(_to_copy_304, [0, 1]);  _to_copy_304 = None
    add_118 = torch.ops.aten.add.Tensor(add_117, mul_259);  add_117 = mul_259 = None
    _to_copy_307 = torch.ops.aten._to_copy.default(add_118, dtype = torch.bfloat16)
    view_243 = torch.ops.aten.view.default(_to_copy_307, [6304, 192]);  _to_copy_307 = None
    mm_66 = torch.ops.aten.mm.default(view_243, permute_222);  permute_222 = None
    permute_223 = torch.ops.aten.permute.default(view_243, [1, 0])
    mm_67 = torch.ops.aten.mm.default(permute_223, view_39);  permute_223 = view_39 = None
    permute_224 = torch.ops.aten.permute.default(mm_67, [1, 0]);  mm_67 = None
    sum_103 = torch.ops.aten.sum.dim_IntList(view_243, [0], True, dtype = torch.float32);  view_243 = None
    view_244 = torch.ops.aten.view.default(sum_103, [192]);  sum_103 = None
    _to_copy_308 = torch.ops.aten._to_copy.default(view_244, dtype = torch.bfloat16);  view_244 = None
    permute_225 = torch.ops.aten.permute.default(permute_224, [1, 0]);  permute_224 = None
    view_245 = torch.ops.aten.view.default(mm_66, [32, 197, 768]);  mm_66 = None
    _to_copy_309 = torch.ops.aten._to_copy.default(permute_225, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_225 = None
    _to_copy_310 = torch.ops.aten._to_copy.default(_to_copy_308, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_308 = None
    _to_copy_311 = torch.ops.aten._to_copy.default(view_245, dtype = torch.float32);  view_245 = None
    view_38 = torch.ops.aten.view.default(addmm_14, [32, 197, 768]);  addmm_14 = None
    _to_copy_47 = torch.ops.aten._to_copy.default(view_38, dtype = torch.float32);  view_38 = None
    mul_26 = torch.ops.aten.mul.Tensor(_to_copy_47, 0.7071067811865476)
    erf_3 = torch.ops.aten.erf.default(mul_26);  mul_26 = None
    add_27 = torch.ops.aten.add.Tensor(erf_3, 1);  erf_3 = None
    mul_262 = torch.ops.aten.mul.Tensor(add_27, 0.5);  add_27 = None
    mul_263 = torch.ops.aten.mul.Tensor(_to_copy_47, _to_copy_47)
    mul_264 = torch.ops.aten.mul.Tensor(mul_263, -0.5);  mul_263 = None
    exp_8 = torch.ops.aten.exp.default(mul_264);  mul_264 = None
    mul_265 = torch.ops.aten.mul.Tensor(exp_8, 0.3989422804014327);  exp_8 = None
    mul_266 = torch.ops.aten.mul.Tensor(_to_copy_47, mul_265);  _to_copy_47 = mul_265 = None
    add_120 = torch.ops.aten.add.Tensor(mul_262, mul_266);  mul_262 = mul_266 = None
    mul_267 = torch.ops.aten.mul.Tensor(_to_copy_311, add_120);  _to_copy_311 = add_120 = None
    _to_copy_313 = torch.ops.aten._to_copy.default(mul_267, dtype = torch.bfloat16);  mul_267 = None
    view_246 = torch.ops.aten.view.default(_to_copy_313, [6304, 768]);  _to_copy_313 = None
    mm_68 = torch.ops.aten.mm.default(view_246, permute_226);  permute_226 = None
    permute_227 = torch.ops.aten.permute.default(view_246, [1, 0])
    mm_69 = torch.ops.aten.mm.default(permute_227, view_37);  permute_227 = view_37 = None
    permute_228 = torch.ops.aten.permute.default(mm_69, [1, 0]);  mm_69 = None
    sum_104 = torch.ops.aten.sum.dim_IntList(view_246, [0], True, dtype = torch.float32);  view_246 = None
    view_247 = torch.ops.aten.view.default(sum_104, [768]);  sum_104 = None
    _to_copy_314 = torch.ops.aten._to_copy.default(view_247, dtype = torch.bfloat16);  view_247 = None
    permute_229 = torch.ops.aten.permute.default(permute_228, [1, 0]);  permute_228 = None
    view_248 = torch.ops.aten.view.default(mm_68, [32, 197, 192]);  mm_68 = None
    _to_copy_315 = torch.ops.aten._to_copy.default(view_248, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_248 = None
    _to_copy_316 = torch.ops.aten._to_copy.default(permute_229, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_229 = None
    _to_copy_317 = torch.ops.aten._to_copy.default(_to_copy_314, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_314 = None
    mul_269 = torch.ops.aten.mul.Tensor(_to_copy_315, primals_48);  primals_48 = None
    mul_270 = torch.ops.aten.mul.Tensor(mul_269, 192)
    sum_105 = torch.ops.aten.sum.dim_IntList(mul_269, [2], True)
    mul_271 = torch.ops.aten.mul.Tensor(mul_269, mul_23);  mul_269 = None
    sum_106 = torch.ops.aten.sum.dim_IntList(mul_271, [2], True);  mul_271 = None
    mul_272 = torch.ops.aten.mul.Tensor(mul_23, sum_106);  sum_106 = None
    sub_77 = torch.ops.aten.sub.Tensor(mul_270, sum_105);  mul_270 = sum_105 = None
    sub_78 = torch.ops.aten.sub.Tensor(sub_77, mul_272);  sub_77 = mul_272 = None
    mul_273 = torch.ops.aten.mul.Tensor(div_17, sub_78);  div_17 = sub_78 = None
    mul_274 = torch.ops.aten.mul.Tensor(_to_copy_315, mul_23);  mul_23 = None
    sum_107 = torch.ops.aten.sum.dim_IntList(mul_274, [0, 1]);  mul_274 = None
    sum_108 = torch.ops.aten.sum.dim_IntList(_to_copy_315, [0, 1]);  _to_copy_315 = None
    add_121 = torch.ops.aten.add.Tensor(add_118, mul_273);  add_118 = mul_273 = None
    _to_copy_318 = torch.ops.aten._to_copy.default(add_121, dtype = torch.bfloat16)
    view_249 = torch.ops.aten.view.default(_to_copy_318, [6304, 192]);  _to_copy_318 = None
    mm_70 = torch.ops.aten.mm.default(view_249, permute_230);  permute_230 = None
    permute_231 = torch.ops.aten.permute.default(view_249, [1, 0])
    mm_71 = torch.ops.aten.mm.default(permute_231, view_35);  permute_231 = view_35 = None
    permute_232 = torch.ops.aten.permute.default(mm_71, [1, 0]);  mm_71 = None
    sum_109 = torch.ops.aten.sum.dim_IntList(view_249, [0], True, dtype = torch.float32);  view_249 = None
    view_250 = torch.ops.aten.view.default(sum_109, [192]);  sum_109 = None
    _to_copy_319 = torch.ops.aten._to_copy.default(view_250, dtype = torch.bfloat16);  view_250 = None
    permute_233 = torch.ops.aten.permute.default(permute_232, [1, 0]);  permute_232 = None
    view_251 = torch.ops.aten.view.default(mm_70, [32, 197, 192]);  mm_70 = None
    _to_copy_320 = torch.ops.aten._to_copy.default(permute_233, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_233 = None
    _to_copy_321 = torch.ops.aten._to_copy.default(_to_copy_319, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_319 = None
    view_252 = torch.ops.aten.view.default(view_251, [32, 197, 3, 64]);  view_251 = None
    permute_234 = torch.ops.aten.permute.default(view_252, [0, 2, 1, 3]);  view_252 = None
    _scaled_dot_product_cudnn_attention_backward_8 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_234, squeeze_9, squeeze_10, squeeze_11, alias_20, getitem_42, getitem_47, getitem_48, None, None, None, 197, 197, 0.0, False);  permute_234 = squeeze_9 = squeeze_10 = squeeze_11 = alias_20 = getitem_42 = getitem_47 = getitem_48 = None
    getitem_182 = _scaled_dot_product_cudnn_attention_backward_8[0]
    getitem_183 = _scaled_dot_product_cudnn_attention_backward_8[1]
    getitem_184 = _scaled_dot_product_cudnn_attention_backward_8[2];  _scaled_dot_product_cudnn_attention_backward_8 = None
    cat_9 = torch.ops.aten.cat.default([getitem_182, getitem_183, getitem_184]);  getitem_182 = getitem_183 = getitem_184 = None
    view_253 = torch.ops.aten.view.default(cat_9, [3, 32, 3, 197, 64]);  cat_9 = None
    permute_235 = torch.ops.aten.permute.default(view_253, [1, 3, 0, 2, 4]);  view_253 = None
    clone_8 = torch.ops.aten.clone.default(permute_235, memory_format = torch.contiguous_format);  permute_235 = None
    view_254 = torch.ops.aten.view.default(clone_8, [32, 197, 576]);  clone_8 = None
    view_255 = torch.ops.aten.view.default(view_254, [6304, 576]);  view_254 = None
    mm_72 = torch.ops.aten.mm.default(view_255, permute_236);  permute_236 = None
    permute_237 = torch.ops.aten.permute.default(view_255, [1, 0])
    mm_73 = torch.ops.aten.mm.default(permute_237, view_31);  permute_237 = view_31 = None
    permute_238 = torch.ops.aten.permute.default(mm_73, [1, 0]);  mm_73 = None
    sum_110 = torch.ops.aten.sum.dim_IntList(view_255, [0], True, dtype = torch.float32);  view_255 = None
    view_256 = torch.ops.aten.view.default(sum_110, [576]);  sum_110 = None
    _to_copy_322 = torch.ops.aten._to_copy.default(view_256, dtype = torch.bfloat16);  view_256 = None
    permute_239 = torch.ops.aten.permute.default(permute_238, [1, 0]);  permute_238 = None
    view_257 = torch.ops.aten.view.default(mm_72, [32, 197, 192]);  mm_72 = None
    _to_copy_323 = torch.ops.aten._to_copy.default(view_257, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_257 = None
    _to_copy_324 = torch.ops.aten._to_copy.default(permute_239, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_239 = None
    _to_copy_325 = torch.ops.aten._to_copy.default(_to_copy_322, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_322 = None
    mul_276 = torch.ops.aten.mul.Tensor(_to_copy_323, primals_42);  primals_42 = None
    mul_277 = torch.ops.aten.mul.Tensor(mul_276, 192)
    sum_111 = torch.ops.aten.sum.dim_IntList(mul_276, [2], True)
    mul_278 = torch.ops.aten.mul.Tensor(mul_276, mul_21);  mul_276 = None
    sum_112 = torch.ops.aten.sum.dim_IntList(mul_278, [2], True);  mul_278 = None
    mul_279 = torch.ops.aten.mul.Tensor(mul_21, sum_112);  sum_112 = None
    sub_80 = torch.ops.aten.sub.Tensor(mul_277, sum_111);  mul_277 = sum_111 = None
    sub_81 = torch.ops.aten.sub.Tensor(sub_80, mul_279);  sub_80 = mul_279 = None
    mul_280 = torch.ops.aten.mul.Tensor(div_18, sub_81);  div_18 = sub_81 = None
    mul_281 = torch.ops.aten.mul.Tensor(_to_copy_323, mul_21);  mul_21 = None
    sum_113 = torch.ops.aten.sum.dim_IntList(mul_281, [0, 1]);  mul_281 = None
    sum_114 = torch.ops.aten.sum.dim_IntList(_to_copy_323, [0, 1]);  _to_copy_323 = None
    add_122 = torch.ops.aten.add.Tensor(add_121, mul_280);  add_121 = mul_280 = None
    _to_copy_326 = torch.ops.aten._to_copy.default(add_122, dtype = torch.bfloat16)
    view_258 = torch.ops.aten.view.default(_to_copy_326, [6304, 192]);  _to_copy_326 = None
    mm_74 = torch.ops.aten.mm.default(view_258, permute_240);  permute_240 = None
    permute_241 = torch.ops.aten.permute.default(view_258, [1, 0])
    mm_75 = torch.ops.aten.mm.default(permute_241, view_29);  permute_241 = view_29 = None
    permute_242 = torch.ops.aten.permute.default(mm_75, [1, 0]);  mm_75 = None
    sum_115 = torch.ops.aten.sum.dim_IntList(view_258, [0], True, dtype = torch.float32);  view_258 = None
    view_259 = torch.ops.aten.view.default(sum_115, [192]);  sum_115 = None
    _to_copy_327 = torch.ops.aten._to_copy.default(view_259, dtype = torch.bfloat16);  view_259 = None
    permute_243 = torch.ops.aten.permute.default(permute_242, [1, 0]);  permute_242 = None
    view_260 = torch.ops.aten.view.default(mm_74, [32, 197, 768]);  mm_74 = None
    _to_copy_328 = torch.ops.aten._to_copy.default(permute_243, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_243 = None
    _to_copy_329 = torch.ops.aten._to_copy.default(_to_copy_327, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_327 = None
    _to_copy_330 = torch.ops.aten._to_copy.default(view_260, dtype = torch.float32);  view_260 = None
    view_28 = torch.ops.aten.view.default(addmm_10, [32, 197, 768]);  addmm_10 = None
    _to_copy_35 = torch.ops.aten._to_copy.default(view_28, dtype = torch.float32);  view_28 = None
    mul_19 = torch.ops.aten.mul.Tensor(_to_copy_35, 0.7071067811865476)
    erf_2 = torch.ops.aten.erf.default(mul_19);  mul_19 = None
    add_20 = torch.ops.aten.add.Tensor(erf_2, 1);  erf_2 = None
    mul_283 = torch.ops.aten.mul.Tensor(add_20, 0.5);  add_20 = None
    mul_284 = torch.ops.aten.mul.Tensor(_to_copy_35, _to_copy_35)
    mul_285 = torch.ops.aten.mul.Tensor(mul_284, -0.5);  mul_284 = None
    exp_9 = torch.ops.aten.exp.default(mul_285);  mul_285 = None
    mul_286 = torch.ops.aten.mul.Tensor(exp_9, 0.3989422804014327);  exp_9 = None
    mul_287 = torch.ops.aten.mul.Tensor(_to_copy_35, mul_286);  _to_copy_35 = mul_286 = None
    add_124 = torch.ops.aten.add.Tensor(mul_283, mul_287);  mul_283 = mul_287 = None
    mul_288 = torch.ops.aten.mul.Tensor(_to_copy_330, add_124);  _to_copy_330 = add_124 = None
    _to_copy_332 = torch.ops.aten._to_copy.default(mul_288, dtype = torch.bfloat16);  mul_288 = None
    view_261 = torch.ops.aten.view.default(_to_copy_332, [6304, 768]);  _to_copy_332 = None
    mm_76 = torch.ops.aten.mm.default(view_261, permute_244);  permute_244 = None
    permute_245 = torch.ops.aten.permute.default(view_261, [1, 0])
    mm_77 = torch.ops.aten.mm.default(permute_245, view_27);  permute_245 = view_27 = None
    permute_246 = torch.ops.aten.permute.default(mm_77, [1, 0]);  mm_77 = None
    sum_116 = torch.ops.aten.sum.dim_IntList(view_261, [0], True, dtype = torch.float32);  view_261 = None
    view_262 = torch.ops.aten.view.default(sum_116, [768]);  sum_116 = None
    _to_copy_333 = torch.ops.aten._to_copy.default(view_262, dtype = torch.bfloat16);  view_262 = None
    permute_247 = torch.ops.aten.permute.default(permute_246, [1, 0]);  permute_246 = None
    view_263 = torch.ops.aten.view.default(mm_76, [32, 197, 192]);  mm_76 = None
    _to_copy_334 = torch.ops.aten._to_copy.default(view_263, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_263 = None
    _to_copy_335 = torch.ops.aten._to_copy.default(permute_247, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_247 = None
    _to_copy_336 = torch.ops.aten._to_copy.default(_to_copy_333, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_333 = None
    mul_290 = torch.ops.aten.mul.Tensor(_to_copy_334, primals_36);  primals_36 = None
    mul_291 = torch.ops.aten.mul.Tensor(mul_290, 192)
    sum_117 = torch.ops.aten.sum.dim_IntList(mul_290, [2], True)
    mul_292 = torch.ops.aten.mul.Tensor(mul_290, mul_16);  mul_290 = None
    sum_118 = torch.ops.aten.sum.dim_IntList(mul_292, [2], True);  mul_292 = None
    mul_293 = torch.ops.aten.mul.Tensor(mul_16, sum_118);  sum_118 = None
    sub_83 = torch.ops.aten.sub.Tensor(mul_291, sum_117);  mul_291 = sum_117 = None
    sub_84 = torch.ops.aten.sub.Tensor(sub_83, mul_293);  sub_83 = mul_293 = None
    mul_294 = torch.ops.aten.mul.Tensor(div_19, sub_84);  div_19 = sub_84 = None
    mul_295 = torch.ops.aten.mul.Tensor(_to_copy_334, mul_16);  mul_16 = None
    sum_119 = torch.ops.aten.sum.dim_IntList(mul_295, [0, 1]);  mul_295 = None
    sum_120 = torch.ops.aten.sum.dim_IntList(_to_copy_334, [0, 1]);  _to_copy_334 = None
    add_125 = torch.ops.aten.add.Tensor(add_122, mul_294);  add_122 = mul_294 = None
    _to_copy_337 = torch.ops.aten._to_copy.default(add_125, dtype = torch.bfloat16)
    view_264 = torch.ops.aten.view.default(_to_copy_337, [6304, 192]);  _to_copy_337 = None
    mm_78 = torch.ops.aten.mm.default(view_264, permute_248);  permute_248 = None
    permute_249 = torch.ops.aten.permute.default(view_264, [1, 0])
    mm_79 = torch.ops.aten.mm.default(permute_249, view_25);  permute_249 = view_25 = None
    permute_250 = torch.ops.aten.permute.default(mm_79, [1, 0]);  mm_79 = None
    sum_121 = torch.ops.aten.sum.dim_IntList(view_264, [0], True, dtype = torch.float32);  view_264 = None
    view_265 = torch.ops.aten.view.default(sum_121, [192]);  sum_121 = None
    _to_copy_338 = torch.ops.aten._to_copy.default(view_265, dtype = torch.bfloat16);  view_265 = None
    permute_251 = torch.ops.aten.permute.default(permute_250, [1, 0]);  permute_250 = None
    view_266 = torch.ops.aten.view.default(mm_78, [32, 197, 192]);  mm_78 = None
    _to_copy_339 = torch.ops.aten._to_copy.default(permute_251, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_251 = None
    _to_copy_340 = torch.ops.aten._to_copy.default(_to_copy_338, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_338 = None
    view_267 = torch.ops.aten.view.default(view_266, [32, 197, 3, 64]);  view_266 = None
    permute_252 = torch.ops.aten.permute.default(view_267, [0, 2, 1, 3]);  view_267 = None
    _scaled_dot_product_cudnn_attention_backward_9 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_252, squeeze_6, squeeze_7, squeeze_8, alias_21, getitem_29, getitem_34, getitem_35, None, None, None, 197, 197, 0.0, False);  permute_252 = squeeze_6 = squeeze_7 = squeeze_8 = alias_21 = getitem_29 = getitem_34 = getitem_35 = None
    getitem_185 = _scaled_dot_product_cudnn_attention_backward_9[0]
    getitem_186 = _scaled_dot_product_cudnn_attention_backward_9[1]
    getitem_187 = _scaled_dot_product_cudnn_attention_backward_9[2];  _scaled_dot_product_cudnn_attention_backward_9 = None
    cat_10 = torch.ops.aten.cat.default([getitem_185, getitem_186, getitem_187]);  getitem_185 = getitem_186 = getitem_187 = None
    view_268 = torch.ops.aten.view.default(cat_10, [3, 32, 3, 197, 64]);  cat_10 = None
    permute_253 = torch.ops.aten.permute.default(view_268, [1, 3, 0, 2, 4]);  view_268 = None
    clone_9 = torch.ops.aten.clone.default(permute_253, memory_format = torch.contiguous_format);  permute_253 = None
    view_269 = torch.ops.aten.view.default(clone_9, [32, 197, 576]);  clone_9 = None
    view_270 = torch.ops.aten.view.default(view_269, [6304, 576]);  view_269 = None
    mm_80 = torch.ops.aten.mm.default(view_270, permute_254);  permute_254 = None
    permute_255 = torch.ops.aten.permute.default(view_270, [1, 0])
    mm_81 = torch.ops.aten.mm.default(permute_255, view_21);  permute_255 = view_21 = None
    permute_256 = torch.ops.aten.permute.default(mm_81, [1, 0]);  mm_81 = None
    sum_122 = torch.ops.aten.sum.dim_IntList(view_270, [0], True, dtype = torch.float32);  view_270 = None
    view_271 = torch.ops.aten.view.default(sum_122, [576]);  sum_122 = None
    _to_copy_341 = torch.ops.aten._to_copy.default(view_271, dtype = torch.bfloat16);  view_271 = None
    permute_257 = torch.ops.aten.permute.default(permute_256, [1, 0]);  permute_256 = None
    view_272 = torch.ops.aten.view.default(mm_80, [32, 197, 192]);  mm_80 = None
    _to_copy_342 = torch.ops.aten._to_copy.default(view_272, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_272 = None
    _to_copy_343 = torch.ops.aten._to_copy.default(permute_257, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_257 = None
    _to_copy_344 = torch.ops.aten._to_copy.default(_to_copy_341, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_341 = None
    mul_297 = torch.ops.aten.mul.Tensor(_to_copy_342, primals_30);  primals_30 = None
    mul_298 = torch.ops.aten.mul.Tensor(mul_297, 192)
    sum_123 = torch.ops.aten.sum.dim_IntList(mul_297, [2], True)
    mul_299 = torch.ops.aten.mul.Tensor(mul_297, mul_14);  mul_297 = None
    sum_124 = torch.ops.aten.sum.dim_IntList(mul_299, [2], True);  mul_299 = None
    mul_300 = torch.ops.aten.mul.Tensor(mul_14, sum_124);  sum_124 = None
    sub_86 = torch.ops.aten.sub.Tensor(mul_298, sum_123);  mul_298 = sum_123 = None
    sub_87 = torch.ops.aten.sub.Tensor(sub_86, mul_300);  sub_86 = mul_300 = None
    mul_301 = torch.ops.aten.mul.Tensor(div_20, sub_87);  div_20 = sub_87 = None
    mul_302 = torch.ops.aten.mul.Tensor(_to_copy_342, mul_14);  mul_14 = None
    sum_125 = torch.ops.aten.sum.dim_IntList(mul_302, [0, 1]);  mul_302 = None
    sum_126 = torch.ops.aten.sum.dim_IntList(_to_copy_342, [0, 1]);  _to_copy_342 = None
    add_126 = torch.ops.aten.add.Tensor(add_125, mul_301);  add_125 = mul_301 = None
    _to_copy_345 = torch.ops.aten._to_copy.default(add_126, dtype = torch.bfloat16)
    view_273 = torch.ops.aten.view.default(_to_copy_345, [6304, 192]);  _to_copy_345 = None
    mm_82 = torch.ops.aten.mm.default(view_273, permute_258);  permute_258 = None
    permute_259 = torch.ops.aten.permute.default(view_273, [1, 0])
    mm_83 = torch.ops.aten.mm.default(permute_259, view_19);  permute_259 = view_19 = None
    permute_260 = torch.ops.aten.permute.default(mm_83, [1, 0]);  mm_83 = None
    sum_127 = torch.ops.aten.sum.dim_IntList(view_273, [0], True, dtype = torch.float32);  view_273 = None
    view_274 = torch.ops.aten.view.default(sum_127, [192]);  sum_127 = None
    _to_copy_346 = torch.ops.aten._to_copy.default(view_274, dtype = torch.bfloat16);  view_274 = None
    permute_261 = torch.ops.aten.permute.default(permute_260, [1, 0]);  permute_260 = None
    view_275 = torch.ops.aten.view.default(mm_82, [32, 197, 768]);  mm_82 = None
    _to_copy_347 = torch.ops.aten._to_copy.default(permute_261, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_261 = None
    _to_copy_348 = torch.ops.aten._to_copy.default(_to_copy_346, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_346 = None
    _to_copy_349 = torch.ops.aten._to_copy.default(view_275, dtype = torch.float32);  view_275 = None
    view_18 = torch.ops.aten.view.default(addmm_6, [32, 197, 768]);  addmm_6 = None
    _to_copy_23 = torch.ops.aten._to_copy.default(view_18, dtype = torch.float32);  view_18 = None
    mul_12 = torch.ops.aten.mul.Tensor(_to_copy_23, 0.7071067811865476)
    erf_1 = torch.ops.aten.erf.default(mul_12);  mul_12 = None
    add_13 = torch.ops.aten.add.Tensor(erf_1, 1);  erf_1 = None
    mul_304 = torch.ops.aten.mul.Tensor(add_13, 0.5);  add_13 = None
    mul_305 = torch.ops.aten.mul.Tensor(_to_copy_23, _to_copy_23)
    mul_306 = torch.ops.aten.mul.Tensor(mul_305, -0.5);  mul_305 = None
    exp_10 = torch.ops.aten.exp.default(mul_306);  mul_306 = None
    mul_307 = torch.ops.aten.mul.Tensor(exp_10, 0.3989422804014327);  exp_10 = None
    mul_308 = torch.ops.aten.mul.Tensor(_to_copy_23, mul_307);  _to_copy_23 = mul_307 = None
    add_128 = torch.ops.aten.add.Tensor(mul_304, mul_308);  mul_304 = mul_308 = None
    mul_309 = torch.ops.aten.mul.Tensor(_to_copy_349, add_128);  _to_copy_349 = add_128 = None
    _to_copy_351 = torch.ops.aten._to_copy.default(mul_309, dtype = torch.bfloat16);  mul_309 = None
    view_276 = torch.ops.aten.view.default(_to_copy_351, [6304, 768]);  _to_copy_351 = None
    mm_84 = torch.ops.aten.mm.default(view_276, permute_262);  permute_262 = None
    permute_263 = torch.ops.aten.permute.default(view_276, [1, 0])
    mm_85 = torch.ops.aten.mm.default(permute_263, view_17);  permute_263 = view_17 = None
    permute_264 = torch.ops.aten.permute.default(mm_85, [1, 0]);  mm_85 = None
    sum_128 = torch.ops.aten.sum.dim_IntList(view_276, [0], True, dtype = torch.float32);  view_276 = None
    view_277 = torch.ops.aten.view.default(sum_128, [768]);  sum_128 = None
    _to_copy_352 = torch.ops.aten._to_copy.default(view_277, dtype = torch.bfloat16);  view_277 = None
    permute_265 = torch.ops.aten.permute.default(permute_264, [1, 0]);  permute_264 = None
    view_278 = torch.ops.aten.view.default(mm_84, [32, 197, 192]);  mm_84 = None
    _to_copy_353 = torch.ops.aten._to_copy.default(view_278, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_278 = None
    _to_copy_354 = torch.ops.aten._to_copy.default(permute_265, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_265 = None
    _to_copy_355 = torch.ops.aten._to_copy.default(_to_copy_352, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_352 = None
    mul_311 = torch.ops.aten.mul.Tensor(_to_copy_353, primals_24);  primals_24 = None
    mul_312 = torch.ops.aten.mul.Tensor(mul_311, 192)
    sum_129 = torch.ops.aten.sum.dim_IntList(mul_311, [2], True)
    mul_313 = torch.ops.aten.mul.Tensor(mul_311, mul_9);  mul_311 = None
    sum_130 = torch.ops.aten.sum.dim_IntList(mul_313, [2], True);  mul_313 = None
    mul_314 = torch.ops.aten.mul.Tensor(mul_9, sum_130);  sum_130 = None
    sub_89 = torch.ops.aten.sub.Tensor(mul_312, sum_129);  mul_312 = sum_129 = None
    sub_90 = torch.ops.aten.sub.Tensor(sub_89, mul_314);  sub_89 = mul_314 = None
    mul_315 = torch.ops.aten.mul.Tensor(div_21, sub_90);  div_21 = sub_90 = None
    mul_316 = torch.ops.aten.mul.Tensor(_to_copy_353, mul_9);  mul_9 = None
    sum_131 = torch.ops.aten.sum.dim_IntList(mul_316, [0, 1]);  mul_316 = None
    sum_132 = torch.ops.aten.sum.dim_IntList(_to_copy_353, [0, 1]);  _to_copy_353 = None
    add_129 = torch.ops.aten.add.Tensor(add_126, mul_315);  add_126 = mul_315 = None
    _to_copy_356 = torch.ops.aten._to_copy.default(add_129, dtype = torch.bfloat16)
    view_279 = torch.ops.aten.view.default(_to_copy_356, [6304, 192]);  _to_copy_356 = None
    mm_86 = torch.ops.aten.mm.default(view_279, permute_266);  permute_266 = None
    permute_267 = torch.ops.aten.permute.default(view_279, [1, 0])
    mm_87 = torch.ops.aten.mm.default(permute_267, view_15);  permute_267 = view_15 = None
    permute_268 = torch.ops.aten.permute.default(mm_87, [1, 0]);  mm_87 = None
    sum_133 = torch.ops.aten.sum.dim_IntList(view_279, [0], True, dtype = torch.float32);  view_279 = None
    view_280 = torch.ops.aten.view.default(sum_133, [192]);  sum_133 = None
    _to_copy_357 = torch.ops.aten._to_copy.default(view_280, dtype = torch.bfloat16);  view_280 = None
    permute_269 = torch.ops.aten.permute.default(permute_268, [1, 0]);  permute_268 = None
    view_281 = torch.ops.aten.view.default(mm_86, [32, 197, 192]);  mm_86 = None
    _to_copy_358 = torch.ops.aten._to_copy.default(permute_269, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_269 = None
    _to_copy_359 = torch.ops.aten._to_copy.default(_to_copy_357, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_357 = None
    view_282 = torch.ops.aten.view.default(view_281, [32, 197, 3, 64]);  view_281 = None
    permute_270 = torch.ops.aten.permute.default(view_282, [0, 2, 1, 3]);  view_282 = None
    _scaled_dot_product_cudnn_attention_backward_10 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_270, squeeze_3, squeeze_4, squeeze_5, alias_22, getitem_16, getitem_21, getitem_22, None, None, None, 197, 197, 0.0, False);  permute_270 = squeeze_3 = squeeze_4 = squeeze_5 = alias_22 = getitem_16 = getitem_21 = getitem_22 = None
    getitem_188 = _scaled_dot_product_cudnn_attention_backward_10[0]
    getitem_189 = _scaled_dot_product_cudnn_attention_backward_10[1]
    getitem_190 = _scaled_dot_product_cudnn_attention_backward_10[2];  _scaled_dot_product_cudnn_attention_backward_10 = None
    cat_11 = torch.ops.aten.cat.default([getitem_188, getitem_189, getitem_190]);  getitem_188 = getitem_189 = getitem_190 = None
    view_283 = torch.ops.aten.view.default(cat_11, [3, 32, 3, 197, 64]);  cat_11 = None
    permute_271 = torch.ops.aten.permute.default(view_283, [1, 3, 0, 2, 4]);  view_283 = None
    clone_10 = torch.ops.aten.clone.default(permute_271, memory_format = torch.contiguous_format);  permute_271 = None
    view_284 = torch.ops.aten.view.default(clone_10, [32, 197, 576]);  clone_10 = None
    view_285 = torch.ops.aten.view.default(view_284, [6304, 576]);  view_284 = None
    mm_88 = torch.ops.aten.mm.default(view_285, permute_272);  permute_272 = None
    permute_273 = torch.ops.aten.permute.default(view_285, [1, 0])
    mm_89 = torch.ops.aten.mm.default(permute_273, view_11);  permute_273 = view_11 = None
    permute_274 = torch.ops.aten.permute.default(mm_89, [1, 0]);  mm_89 = None
    sum_134 = torch.ops.aten.sum.dim_IntList(view_285, [0], True, dtype = torch.float32);  view_285 = None
    view_286 = torch.ops.aten.view.default(sum_134, [576]);  sum_134 = None
    _to_copy_360 = torch.ops.aten._to_copy.default(view_286, dtype = torch.bfloat16);  view_286 = None
    permute_275 = torch.ops.aten.permute.default(permute_274, [1, 0]);  permute_274 = None
    view_287 = torch.ops.aten.view.default(mm_88, [32, 197, 192]);  mm_88 = None
    _to_copy_361 = torch.ops.aten._to_copy.default(view_287, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_287 = None
    _to_copy_362 = torch.ops.aten._to_copy.default(permute_275, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_275 = None
    _to_copy_363 = torch.ops.aten._to_copy.default(_to_copy_360, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_360 = None
    mul_318 = torch.ops.aten.mul.Tensor(_to_copy_361, primals_18);  primals_18 = None
    mul_319 = torch.ops.aten.mul.Tensor(mul_318, 192)
    sum_135 = torch.ops.aten.sum.dim_IntList(mul_318, [2], True)
    mul_320 = torch.ops.aten.mul.Tensor(mul_318, mul_7);  mul_318 = None
    sum_136 = torch.ops.aten.sum.dim_IntList(mul_320, [2], True);  mul_320 = None
    mul_321 = torch.ops.aten.mul.Tensor(mul_7, sum_136);  sum_136 = None
    sub_92 = torch.ops.aten.sub.Tensor(mul_319, sum_135);  mul_319 = sum_135 = None
    sub_93 = torch.ops.aten.sub.Tensor(sub_92, mul_321);  sub_92 = mul_321 = None
    mul_322 = torch.ops.aten.mul.Tensor(div_22, sub_93);  div_22 = sub_93 = None
    mul_323 = torch.ops.aten.mul.Tensor(_to_copy_361, mul_7);  mul_7 = None
    sum_137 = torch.ops.aten.sum.dim_IntList(mul_323, [0, 1]);  mul_323 = None
    sum_138 = torch.ops.aten.sum.dim_IntList(_to_copy_361, [0, 1]);  _to_copy_361 = None
    add_130 = torch.ops.aten.add.Tensor(add_129, mul_322);  add_129 = mul_322 = None
    _to_copy_364 = torch.ops.aten._to_copy.default(add_130, dtype = torch.bfloat16)
    view_288 = torch.ops.aten.view.default(_to_copy_364, [6304, 192]);  _to_copy_364 = None
    mm_90 = torch.ops.aten.mm.default(view_288, permute_276);  permute_276 = None
    permute_277 = torch.ops.aten.permute.default(view_288, [1, 0])
    mm_91 = torch.ops.aten.mm.default(permute_277, view_9);  permute_277 = view_9 = None
    permute_278 = torch.ops.aten.permute.default(mm_91, [1, 0]);  mm_91 = None
    sum_139 = torch.ops.aten.sum.dim_IntList(view_288, [0], True, dtype = torch.float32);  view_288 = None
    view_289 = torch.ops.aten.view.default(sum_139, [192]);  sum_139 = None
    _to_copy_365 = torch.ops.aten._to_copy.default(view_289, dtype = torch.bfloat16);  view_289 = None
    permute_279 = torch.ops.aten.permute.default(permute_278, [1, 0]);  permute_278 = None
    view_290 = torch.ops.aten.view.default(mm_90, [32, 197, 768]);  mm_90 = None
    _to_copy_366 = torch.ops.aten._to_copy.default(permute_279, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_279 = None
    _to_copy_367 = torch.ops.aten._to_copy.default(_to_copy_365, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_365 = None
    _to_copy_368 = torch.ops.aten._to_copy.default(view_290, dtype = torch.float32);  view_290 = None
    view_8 = torch.ops.aten.view.default(addmm_2, [32, 197, 768]);  addmm_2 = None
    _to_copy_11 = torch.ops.aten._to_copy.default(view_8, dtype = torch.float32);  view_8 = None
    mul_5 = torch.ops.aten.mul.Tensor(_to_copy_11, 0.7071067811865476)
    erf = torch.ops.aten.erf.default(mul_5);  mul_5 = None
    add_6 = torch.ops.aten.add.Tensor(erf, 1);  erf = None
    mul_325 = torch.ops.aten.mul.Tensor(add_6, 0.5);  add_6 = None
    mul_326 = torch.ops.aten.mul.Tensor(_to_copy_11, _to_copy_11)
    mul_327 = torch.ops.aten.mul.Tensor(mul_326, -0.5);  mul_326 = None
    exp_11 = torch.ops.aten.exp.default(mul_327);  mul_327 = None
    mul_328 = torch.ops.aten.mul.Tensor(exp_11, 0.3989422804014327);  exp_11 = None
    mul_329 = torch.ops.aten.mul.Tensor(_to_copy_11, mul_328);  _to_copy_11 = mul_328 = None
    add_132 = torch.ops.aten.add.Tensor(mul_325, mul_329);  mul_325 = mul_329 = None
    mul_330 = torch.ops.aten.mul.Tensor(_to_copy_368, add_132);  _to_copy_368 = add_132 = None
    _to_copy_370 = torch.ops.aten._to_copy.default(mul_330, dtype = torch.bfloat16);  mul_330 = None
    view_291 = torch.ops.aten.view.default(_to_copy_370, [6304, 768]);  _to_copy_370 = None
    mm_92 = torch.ops.aten.mm.default(view_291, permute_280);  permute_280 = None
    permute_281 = torch.ops.aten.permute.default(view_291, [1, 0])
    mm_93 = torch.ops.aten.mm.default(permute_281, view_7);  permute_281 = view_7 = None
    permute_282 = torch.ops.aten.permute.default(mm_93, [1, 0]);  mm_93 = None
    sum_140 = torch.ops.aten.sum.dim_IntList(view_291, [0], True, dtype = torch.float32);  view_291 = None
    view_292 = torch.ops.aten.view.default(sum_140, [768]);  sum_140 = None
    _to_copy_371 = torch.ops.aten._to_copy.default(view_292, dtype = torch.bfloat16);  view_292 = None
    permute_283 = torch.ops.aten.permute.default(permute_282, [1, 0]);  permute_282 = None
    view_293 = torch.ops.aten.view.default(mm_92, [32, 197, 192]);  mm_92 = None
    _to_copy_372 = torch.ops.aten._to_copy.default(view_293, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_293 = None
    _to_copy_373 = torch.ops.aten._to_copy.default(permute_283, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_283 = None
    _to_copy_374 = torch.ops.aten._to_copy.default(_to_copy_371, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_371 = None
    mul_332 = torch.ops.aten.mul.Tensor(_to_copy_372, primals_12);  primals_12 = None
    mul_333 = torch.ops.aten.mul.Tensor(mul_332, 192)
    sum_141 = torch.ops.aten.sum.dim_IntList(mul_332, [2], True)
    mul_334 = torch.ops.aten.mul.Tensor(mul_332, mul_2);  mul_332 = None
    sum_142 = torch.ops.aten.sum.dim_IntList(mul_334, [2], True);  mul_334 = None
    mul_335 = torch.ops.aten.mul.Tensor(mul_2, sum_142);  sum_142 = None
    sub_95 = torch.ops.aten.sub.Tensor(mul_333, sum_141);  mul_333 = sum_141 = None
    sub_96 = torch.ops.aten.sub.Tensor(sub_95, mul_335);  sub_95 = mul_335 = None
    mul_336 = torch.ops.aten.mul.Tensor(div_23, sub_96);  div_23 = sub_96 = None
    mul_337 = torch.ops.aten.mul.Tensor(_to_copy_372, mul_2);  mul_2 = None
    sum_143 = torch.ops.aten.sum.dim_IntList(mul_337, [0, 1]);  mul_337 = None
    sum_144 = torch.ops.aten.sum.dim_IntList(_to_copy_372, [0, 1]);  _to_copy_372 = None
    add_133 = torch.ops.aten.add.Tensor(add_130, mul_336);  add_130 = mul_336 = None
    _to_copy_375 = torch.ops.aten._to_copy.default(add_133, dtype = torch.bfloat16)
    view_294 = torch.ops.aten.view.default(_to_copy_375, [6304, 192]);  _to_copy_375 = None
    mm_94 = torch.ops.aten.mm.default(view_294, permute_284);  permute_284 = None
    permute_285 = torch.ops.aten.permute.default(view_294, [1, 0])
    mm_95 = torch.ops.aten.mm.default(permute_285, view_5);  permute_285 = view_5 = None
    permute_286 = torch.ops.aten.permute.default(mm_95, [1, 0]);  mm_95 = None
    sum_145 = torch.ops.aten.sum.dim_IntList(view_294, [0], True, dtype = torch.float32);  view_294 = None
    view_295 = torch.ops.aten.view.default(sum_145, [192]);  sum_145 = None
    _to_copy_376 = torch.ops.aten._to_copy.default(view_295, dtype = torch.bfloat16);  view_295 = None
    permute_287 = torch.ops.aten.permute.default(permute_286, [1, 0]);  permute_286 = None
    view_296 = torch.ops.aten.view.default(mm_94, [32, 197, 192]);  mm_94 = None
    _to_copy_377 = torch.ops.aten._to_copy.default(permute_287, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_287 = None
    _to_copy_378 = torch.ops.aten._to_copy.default(_to_copy_376, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_376 = None
    view_297 = torch.ops.aten.view.default(view_296, [32, 197, 3, 64]);  view_296 = None
    permute_288 = torch.ops.aten.permute.default(view_297, [0, 2, 1, 3]);  view_297 = None
    _scaled_dot_product_cudnn_attention_backward_11 = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(permute_288, squeeze, squeeze_1, squeeze_2, alias_23, getitem_3, getitem_8, getitem_9, None, None, None, 197, 197, 0.0, False);  permute_288 = squeeze = squeeze_1 = squeeze_2 = alias_23 = getitem_3 = getitem_8 = getitem_9 = None
    getitem_191 = _scaled_dot_product_cudnn_attention_backward_11[0]
    getitem_192 = _scaled_dot_product_cudnn_attention_backward_11[1]
    getitem_193 = _scaled_dot_product_cudnn_attention_backward_11[2];  _scaled_dot_product_cudnn_attention_backward_11 = None
    cat_12 = torch.ops.aten.cat.default([getitem_191, getitem_192, getitem_193]);  getitem_191 = getitem_192 = getitem_193 = None
    view_298 = torch.ops.aten.view.default(cat_12, [3, 32, 3, 197, 64]);  cat_12 = None
    permute_289 = torch.ops.aten.permute.default(view_298, [1, 3, 0, 2, 4]);  view_298 = None
    clone_11 = torch.ops.aten.clone.default(permute_289, memory_format = torch.contiguous_format);  permute_289 = None
    view_299 = torch.ops.aten.view.default(clone_11, [32, 197, 576]);  clone_11 = None
    view_300 = torch.ops.aten.view.default(view_299, [6304, 576]);  view_299 = None
    mm_96 = torch.ops.aten.mm.default(view_300, permute_290);  permute_290 = None
    permute_291 = torch.ops.aten.permute.default(view_300, [1, 0])
    mm_97 = torch.ops.aten.mm.default(permute_291, view_1);  permute_291 = view_1 = None
    permute_292 = torch.ops.aten.permute.default(mm_97, [1, 0]);  mm_97 = None
    sum_146 = torch.ops.aten.sum.dim_IntList(view_300, [0], True, dtype = torch.float32);  view_300 = None
    view_301 = torch.ops.aten.view.default(sum_146, [576]);  sum_146 = None
    _to_copy_379 = torch.ops.aten._to_copy.default(view_301, dtype = torch.bfloat16);  view_301 = None
    permute_293 = torch.ops.aten.permute.default(permute_292, [1, 0]);  permute_292 = None
    view_302 = torch.ops.aten.view.default(mm_96, [32, 197, 192]);  mm_96 = None
    _to_copy_380 = torch.ops.aten._to_copy.default(view_302, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  view_302 = None
    _to_copy_381 = torch.ops.aten._to_copy.default(permute_293, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  permute_293 = None
    _to_copy_382 = torch.ops.aten._to_copy.default(_to_copy_379, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  _to_copy_379 = None
    mul_339 = torch.ops.aten.mul.Tensor(_to_copy_380, primals_6);  primals_6 = None
    mul_340 = torch.ops.aten.mul.Tensor(mul_339, 192)
    sum_147 = torch.ops.aten.sum.dim_IntList(mul_339, [2], True)
    add = torch.ops.aten.add.Tensor(cat, primals_5);  cat = primals_5 = None
    sub = torch.ops.aten.sub.Tensor(add, getitem_1);  add = getitem_1 = None
    mul = torch.ops.aten.mul.Tensor(sub, rsqrt);  sub = None
    mul_341 = torch.ops.aten.mul.Tensor(mul_339, mul);  mul_339 = None
    sum_148 = torch.ops.aten.sum.dim_IntList(mul_341, [2], True);  mul_341 = None
    mul_342 = torch.ops.aten.mul.Tensor(mul, sum_148);  sum_148 = None
    sub_98 = torch.ops.aten.sub.Tensor(mul_340, sum_147);  mul_340 = sum_147 = None
    sub_99 = torch.ops.aten.sub.Tensor(sub_98, mul_342);  sub_98 = mul_342 = None
    div_24 = torch.ops.aten.div.Tensor(rsqrt, 192);  rsqrt = None
    mul_343 = torch.ops.aten.mul.Tensor(div_24, sub_99);  div_24 = sub_99 = None
    mul_344 = torch.ops.aten.mul.Tensor(_to_copy_380, mul);  mul = None
    sum_149 = torch.ops.aten.sum.dim_IntList(mul_344, [0, 1]);  mul_344 = None
    sum_150 = torch.ops.aten.sum.dim_IntList(_to_copy_380, [0, 1]);  _to_copy_380 = None
    add_134 = torch.ops.aten.add.Tensor(add_133, mul_343);  add_133 = mul_343 = None
    sum_151 = torch.ops.aten.sum.dim_IntList(add_134, [0], True, dtype = torch.float32)
    slice_37 = torch.ops.aten.slice.Tensor(add_134, 1, 0, 1)
    slice_38 = torch.ops.aten.slice.Tensor(add_134, 1, 1, 197);  add_134 = None
    _to_copy_383 = torch.ops.aten._to_copy.default(slice_38, dtype = torch.bfloat16);  slice_38 = None
    sum_152 = torch.ops.aten.sum.dim_IntList(slice_37, [0], True, dtype = torch.float32);  slice_37 = None
    permute_294 = torch.ops.aten.permute.default(_to_copy_383, [0, 2, 1]);  _to_copy_383 = None
    view_303 = torch.ops.aten.view.default(permute_294, [32, 192, 14, 14]);  permute_294 = None
    convolution_backward = torch.ops.aten.convolution_backward.default(view_303, _to_copy_2, _to_copy_1, [192], [16, 16], [0, 0], [1, 1], False, [0, 0], 1, [False, True, True]);  view_303 = _to_copy_2 = _to_copy_1 = None
    getitem_195 = convolution_backward[1]
    getitem_196 = convolution_backward[2];  convolution_backward = None
    _to_copy_384 = torch.ops.aten._to_copy.default(getitem_195, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  getitem_195 = None
    _to_copy_385 = torch.ops.aten._to_copy.default(getitem_196, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  getitem_196 = None
    return (None, _to_copy_384, _to_copy_385, sum_152, sum_151, sum_149, sum_150, _to_copy_381, _to_copy_382, _to_copy_377, _to_copy_378, sum_143, sum_144, _to_copy_373, _to_copy_374, _to_copy_366, _to_copy_367, sum_137, sum_138, _to_copy_362, _to_copy_363, _to_copy_358, _to_copy_359, sum_131, sum_132, _to_copy_354, _to_copy_355, _to_copy_347, _to_copy_348, sum_125, sum_126, _to_copy_343, _to_copy_344, _to_copy_339, _to_copy_340, sum_119, sum_120, _to_copy_335, _to_copy_336, _to_copy_328, _to_copy_329, sum_113, sum_114, _to_copy_324, _to_copy_325, _to_copy_320, _to_copy_321, sum_107, sum_108, _to_copy_316, _to_copy_317, _to_copy_309, _to_copy_310, sum_101, sum_102, _to_copy_305, _to_copy_306, _to_copy_301, _to_copy_302, sum_95, sum_96, _to_copy_297, _to_copy_298, _to_copy_290, _to_copy_291, sum_89, sum_90, _to_copy_286, _to_copy_287, _to_copy_282, _to_copy_283, sum_83, sum_84, _to_copy_278, _to_copy_279, _to_copy_271, _to_copy_272, sum_77, sum_78, _to_copy_267, _to_copy_268, _to_copy_263, _to_copy_264, sum_71, sum_72, _to_copy_259, _to_copy_260, _to_copy_252, _to_copy_253, sum_65, sum_66, _to_copy_248, _to_copy_249, _to_copy_244, _to_copy_245, sum_59, sum_60, _to_copy_240, _to_copy_241, _to_copy_233, _to_copy_234, sum_53, sum_54, _to_copy_229, _to_copy_230, _to_copy_225, _to_copy_226, sum_47, sum_48, _to_copy_221, _to_copy_222, _to_copy_214, _to_copy_215, sum_41, sum_42, _to_copy_210, _to_copy_211, _to_copy_206, _to_copy_207, sum_35, sum_36, _to_copy_202, _to_copy_203, _to_copy_195, _to_copy_196, sum_29, sum_30, _to_copy_191, _to_copy_192, _to_copy_187, _to_copy_188, sum_23, sum_24, _to_copy_183, _to_copy_184, _to_copy_176, _to_copy_177, sum_17, sum_18, _to_copy_172, _to_copy_173, _to_copy_168, _to_copy_169, sum_11, sum_12, _to_copy_164, _to_copy_165, _to_copy_157, _to_copy_158, sum_5, sum_6, _to_copy_153, _to_copy_154)
    