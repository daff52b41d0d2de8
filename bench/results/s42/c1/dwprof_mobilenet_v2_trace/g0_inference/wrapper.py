# kiln wrapper for g0_inference
def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1, arg42_1, arg43_1, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, arg49_1, arg50_1, arg51_1, arg52_1, arg53_1, arg54_1, arg55_1, arg56_1, arg57_1, arg58_1, arg59_1, arg60_1, arg61_1, arg62_1, arg63_1, arg64_1, arg65_1, arg66_1, arg67_1, arg68_1, arg69_1, arg70_1, arg71_1, arg72_1, arg73_1, arg74_1, arg75_1, arg76_1, arg77_1, arg78_1, arg79_1, arg80_1, arg81_1, arg82_1, arg83_1, arg84_1, arg85_1, arg86_1, arg87_1, arg88_1, arg89_1, arg90_1, arg91_1, arg92_1, arg93_1, arg94_1, arg95_1, arg96_1, arg97_1, arg98_1, arg99_1, arg100_1, arg101_1, arg102_1, arg103_1, arg104_1, arg105_1, arg106_1, arg107_1, arg108_1, arg109_1, arg110_1, arg111_1, arg112_1, arg113_1, arg114_1, arg115_1, arg116_1, arg117_1, arg118_1, arg119_1, arg120_1, arg121_1, arg122_1, arg123_1, arg124_1, arg125_1, arg126_1, arg127_1, arg128_1, arg129_1, arg130_1, arg131_1, arg132_1, arg133_1, arg134_1, arg135_1, arg136_1, arg137_1, arg138_1, arg139_1, arg140_1, arg141_1, arg142_1, arg143_1, arg144_1, arg145_1, arg146_1, arg147_1, arg148_1, arg149_1, arg150_1, arg151_1, arg152_1, arg153_1, arg154_1, arg155_1, arg156_1, arg157_1, arg158_1, arg159_1, arg160_1, arg161_1, arg162_1, arg163_1, arg164_1, arg165_1, arg166_1, arg167_1, arg168_1, arg169_1, arg170_1, arg171_1, arg172_1, arg173_1, arg174_1, arg175_1, arg176_1, arg177_1, arg178_1, arg179_1, arg180_1, arg181_1, arg182_1, arg183_1, arg184_1, arg185_1, arg186_1, arg187_1, arg188_1, arg189_1, arg190_1, arg191_1, arg192_1, arg193_1, arg194_1, arg195_1, arg196_1, arg197_1, arg198_1, arg199_1, arg200_1, arg201_1, arg202_1, arg203_1, arg204_1, arg205_1, arg206_1, arg207_1, arg208_1, arg209_1, arg210_1, arg211_1, arg212_1, arg213_1, arg214_1, arg215_1, arg216_1, arg217_1, arg218_1, arg219_1, arg220_1, arg221_1, arg222_1, arg223_1, arg224_1, arg225_1, arg226_1, arg227_1, arg228_1, arg229_1, arg230_1, arg231_1, arg232_1, arg233_1, arg234_1, arg235_1, arg236_1, arg237_1, arg238_1, arg239_1, arg240_1, arg241_1, arg242_1, arg243_1, arg244_1, arg245_1, arg246_1, arg247_1, arg248_1, arg249_1, arg250_1, arg251_1, arg252_1, arg253_1, arg254_1, arg255_1, arg256_1, arg257_1, arg258_1, arg259_1, arg260_1, arg261_1, arg262_1 = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        buf1 = _empty_cuda((32, 3, 225, 225, ), (151875, 1, 675, 3, ), torch.bfloat16)
        buf2 = _empty_cuda((32, 3, 3, 3, ), (27, 1, 9, 3, ), torch.bfloat16)
        kernel_constant_pad_nd_convolution_9dd826fdce(((1620000) + 63) // 64 * (((3) + 3) // 4) + ((288) + 31) // 32 * (((3) + 3) // 4), arg0_1, buf1, arg1_1, buf2, 1620000, 3, 288, 3, ((1620000) + 63) // 64 * (((3) + 3) // 4), 64, 4, 32, 4)
        del arg0_1, arg1_1
        buf3 = _c1(buf1, buf2, None, [2, 2], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del buf1, buf2
        buf5 = _empty_cuda((32, 32, 114, 114, ), (415872, 1, 3648, 32, ), torch.bfloat16)
        buf6 = _empty_cuda((32, 1, 3, 3, ), (1, 288, 96, 32, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_0a1c1d8b41(((415872) + 63) // 64 * (((32) + 31) // 32) + ((9) + 15) // 16 * (((32) + 31) // 32), buf3, arg2_1, arg3_1, arg4_1, arg5_1, buf5, arg6_1, buf6, 415872, 32, 9, 32, ((415872) + 63) // 64 * (((32) + 31) // 32), 64, 32, 16, 32)
        del arg2_1, arg3_1, arg4_1, arg5_1, arg6_1
        buf7 = buf3; del buf3  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_d7668e3baa(((401408) + 31) // 32 * (((32) + 31) // 32), buf5, buf6, arg7_1, arg8_1, arg9_1, arg10_1, buf7, 401408, 32, 32, 32)
        del arg10_1, arg7_1, arg8_1, arg9_1, buf5, buf6
        buf8 = _c2(buf7, _view(arg11_1, (16, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg11_1, buf7
        buf10 = buf8  # written over buf8, which dies here
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_13db0dbbb5(((401408) + 127) // 128 * (((16) + 15) // 16), buf8, arg12_1, arg13_1, arg14_1, arg15_1, buf10, 401408, 16, 128, 16)
        del arg12_1, arg13_1, arg14_1, arg15_1, buf8
        buf11 = _c3(buf10, _view(arg16_1, (96, 16, 1, 1, ), (16, 1, 16, 16, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg16_1, buf10
        buf13 = _empty_cuda((32, 96, 113, 113, ), (1225824, 1, 10848, 96, ), torch.bfloat16)
        buf14 = _empty_cuda((96, 1, 3, 3, ), (1, 864, 288, 96, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_bdb50ae811(((408608) + 63) // 64 * (((96) + 31) // 32) + ((9) + 15) // 16 * (((96) + 31) // 32), buf11, arg17_1, arg18_1, arg19_1, arg20_1, buf13, arg21_1, buf14, 408608, 96, 9, 96, ((408608) + 63) // 64 * (((96) + 31) // 32), 64, 32, 16, 32)
        del arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, buf11
        buf15 = _empty_cuda((32, 96, 56, 56, ), (301056, 1, 5376, 96, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_9731bebf8a(((100352) + 31) // 32 * (((96) + 31) // 32), buf13, buf14, arg22_1, arg23_1, arg24_1, arg25_1, buf15, 100352, 96, 32, 32)
        del arg22_1, arg23_1, arg24_1, arg25_1, buf13, buf14
        buf16 = _c4(buf15, _view(arg26_1, (24, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg26_1, buf15
        buf18 = _empty_cuda((32, 24, 56, 56, ), (75264, 1, 1344, 24, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_70bab56407(((100352) + 63) // 64 * (((24) + 31) // 32), buf16, arg27_1, arg28_1, arg29_1, arg30_1, buf18, 100352, 24, 64, 32)
        buf19 = _c5(buf18, _view(arg31_1, (144, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg31_1, buf18
        buf21 = _empty_cuda((32, 144, 58, 58, ), (484416, 1, 8352, 144, ), torch.bfloat16)
        buf22 = _empty_cuda((144, 1, 3, 3, ), (1, 1296, 432, 144, ), torch.bfloat16)
        buf30 = _empty_cuda((144, 1, 3, 3, ), (1, 1296, 432, 144, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_762fa1f09d(((107648) + 63) // 64 * (((144) + 31) // 32) + ((9) + 15) // 16 * (((144) + 31) // 32), buf19, arg32_1, arg33_1, arg34_1, arg35_1, buf21, arg36_1, buf22, arg51_1, buf30, 107648, 144, 9, 144, ((107648) + 63) // 64 * (((144) + 31) // 32), 64, 32, 16, 32)
        del arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg51_1
        buf23 = buf19; del buf19  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_8d8ff1c8cc(((100352) + 31) // 32 * (((144) + 31) // 32), buf21, buf22, arg37_1, arg38_1, arg39_1, arg40_1, buf23, 100352, 144, 32, 32)
        del arg37_1, arg38_1, arg39_1, arg40_1, buf21, buf22
        buf24 = _c6(buf23, _view(arg41_1, (24, 144, 1, 1, ), (144, 1, 144, 144, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg41_1, buf23
        buf26 = buf16  # written over buf16, which dies here
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_b0492c2c60(((100352) + 63) // 64 * (((24) + 31) // 32), buf16, arg27_1, arg28_1, arg29_1, arg30_1, buf24, arg42_1, arg43_1, arg44_1, arg45_1, buf26, 100352, 24, 64, 32)
        del arg27_1, arg28_1, arg29_1, arg30_1, arg42_1, arg43_1, arg44_1, arg45_1, buf16, buf24
        buf27 = _c7(buf26, _view(arg46_1, (144, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg46_1, buf26
        buf29 = _empty_cuda((32, 144, 57, 57, ), (467856, 1, 8208, 144, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_99a9a9914a(((103968) + 63) // 64 * (((144) + 31) // 32), buf27, arg47_1, arg48_1, arg49_1, arg50_1, buf29, 103968, 144, 64, 32)
        del arg47_1, arg48_1, arg49_1, arg50_1, buf27
        buf31 = _empty_cuda((32, 144, 28, 28, ), (112896, 1, 4032, 144, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_8762547b2b(((25088) + 31) // 32 * (((144) + 31) // 32), buf29, buf30, arg52_1, arg53_1, arg54_1, arg55_1, buf31, 25088, 144, 32, 32)
        del arg52_1, arg53_1, arg54_1, arg55_1, buf29, buf30
        buf32 = _c8(buf31, _view(arg56_1, (32, 144, 1, 1, ), (144, 1, 144, 144, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg56_1, buf31
        buf34 = _empty_cuda((32, 32, 28, 28, ), (25088, 1, 896, 32, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_c65aacf611(((25088) + 63) // 64 * (((32) + 31) // 32), buf32, arg57_1, arg58_1, arg59_1, arg60_1, buf34, 25088, 32, 64, 32)
        buf35 = _c9(buf34, _view(arg61_1, (192, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg61_1, buf34
        buf37 = _empty_cuda((32, 192, 30, 30, ), (172800, 1, 5760, 192, ), torch.bfloat16)
        buf38 = _empty_cuda((192, 1, 3, 3, ), (1, 1728, 576, 192, ), torch.bfloat16)
        buf47 = _empty_cuda((192, 1, 3, 3, ), (1, 1728, 576, 192, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_c75463c193(((28800) + 31) // 32 * (((192) + 63) // 64) + ((9) + 15) // 16 * (((192) + 31) // 32), buf35, arg62_1, arg63_1, arg64_1, arg65_1, buf37, arg66_1, buf38, arg81_1, buf47, 28800, 192, 9, 192, ((28800) + 31) // 32 * (((192) + 63) // 64), 32, 64, 16, 32)
        del arg62_1, arg63_1, arg64_1, arg65_1, arg66_1, arg81_1
        buf39 = buf35; del buf35  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_22b14354f7(((25088) + 15) // 16 * (((192) + 63) // 64), buf37, buf38, arg67_1, arg68_1, arg69_1, arg70_1, buf39, 25088, 192, 16, 64)
        del arg67_1, arg68_1, arg69_1, arg70_1, buf37, buf38
        buf40 = _c10(buf39, _view(arg71_1, (32, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg71_1, buf39
        buf42 = buf32  # written over buf32, which dies here
        buf43 = buf42  # the values of buf42, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_b7e99e301d(((25088) + 63) // 64 * (((32) + 31) // 32), buf32, arg57_1, arg58_1, arg59_1, arg60_1, buf40, arg72_1, arg73_1, arg74_1, arg75_1, buf42, 25088, 32, 64, 32)
        del arg57_1, arg58_1, arg59_1, arg60_1, arg72_1, arg73_1, arg74_1, arg75_1, buf32, buf40
        buf44 = _c11(buf43, _view(arg76_1, (192, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg76_1, buf43
        buf46 = _empty_cuda((32, 192, 30, 30, ), (172800, 1, 5760, 192, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_ba7ada1557(((28800) + 31) // 32 * (((192) + 63) // 64), buf44, arg77_1, arg78_1, arg79_1, arg80_1, buf46, 28800, 192, 32, 64)
        del arg77_1, arg78_1, arg79_1, arg80_1
        buf48 = buf44; del buf44  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_22b14354f7(((25088) + 15) // 16 * (((192) + 63) // 64), buf46, buf47, arg82_1, arg83_1, arg84_1, arg85_1, buf48, 25088, 192, 16, 64)
        del arg82_1, arg83_1, arg84_1, arg85_1, buf46, buf47
        buf49 = _c12(buf48, _view(arg86_1, (32, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg86_1, buf48
        buf51 = buf49  # written over buf49, which dies here
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_0db66a67d5(((25088) + 63) // 64 * (((32) + 31) // 32), buf42, buf49, arg87_1, arg88_1, arg89_1, arg90_1, buf51, 25088, 32, 64, 32)
        del arg87_1, arg88_1, arg89_1, arg90_1, buf42, buf49
        buf52 = _c13(buf51, _view(arg91_1, (192, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg91_1, buf51
        buf54 = _empty_cuda((32, 192, 29, 29, ), (161472, 1, 5568, 192, ), torch.bfloat16)
        buf55 = _empty_cuda((192, 1, 3, 3, ), (1, 1728, 576, 192, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_e18aad458a(((26912) + 31) // 32 * (((192) + 63) // 64) + ((9) + 15) // 16 * (((192) + 31) // 32), buf52, arg92_1, arg93_1, arg94_1, arg95_1, buf54, arg96_1, buf55, 26912, 192, 9, 192, ((26912) + 31) // 32 * (((192) + 63) // 64), 32, 64, 16, 32)
        del arg92_1, arg93_1, arg94_1, arg95_1, arg96_1, buf52
        buf56 = _empty_cuda((32, 192, 14, 14, ), (37632, 1, 2688, 192, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_27d41aeddf(((6272) + 15) // 16 * (((192) + 63) // 64), buf54, buf55, arg97_1, arg98_1, arg99_1, arg100_1, buf56, 6272, 192, 16, 64)
        del arg100_1, arg97_1, arg98_1, arg99_1, buf54, buf55
        buf57 = _c14(buf56, _view(arg101_1, (64, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg101_1, buf56
        buf59 = _empty_cuda((32, 64, 14, 14, ), (12544, 1, 896, 64, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_3973a62392(((6272) + 31) // 32 * (((64) + 63) // 64), buf57, arg102_1, arg103_1, arg104_1, arg105_1, buf59, 6272, 64, 32, 64)
        buf60 = _c15(buf59, _view(arg106_1, (384, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg106_1, buf59
        buf62 = _empty_cuda((32, 384, 16, 16, ), (98304, 1, 6144, 384, ), torch.bfloat16)
        buf63 = _empty_cuda((384, 1, 3, 3, ), (1, 3456, 1152, 384, ), torch.bfloat16)
        buf72 = _empty_cuda((384, 1, 3, 3, ), (1, 3456, 1152, 384, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_47cfb4a63f(((8192) + 15) // 16 * (((384) + 127) // 128) + ((9) + 15) // 16 * (((384) + 31) // 32), buf60, arg107_1, arg108_1, arg109_1, arg110_1, buf62, arg111_1, buf63, arg126_1, buf72, 8192, 384, 9, 384, ((8192) + 15) // 16 * (((384) + 127) // 128), 16, 128, 16, 32)
        del arg107_1, arg108_1, arg109_1, arg110_1, arg111_1, arg126_1
        buf64 = buf60; del buf60  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_f6c4b267fc(((6272) + 7) // 8 * (((384) + 127) // 128), buf62, buf63, arg112_1, arg113_1, arg114_1, arg115_1, buf64, 6272, 384, 8, 128)
        del arg112_1, arg113_1, arg114_1, arg115_1, buf62, buf63
        buf65 = _c16(buf64, _view(arg116_1, (64, 384, 1, 1, ), (384, 1, 384, 384, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg116_1, buf64
        buf67 = buf57  # written over buf57, which dies here
        buf68 = buf67  # the values of buf67, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_a5cf0cb2ce(((6272) + 31) // 32 * (((64) + 63) // 64), buf57, arg102_1, arg103_1, arg104_1, arg105_1, buf65, arg117_1, arg118_1, arg119_1, arg120_1, buf67, 6272, 64, 32, 64)
        del arg102_1, arg103_1, arg104_1, arg105_1, arg117_1, arg118_1, arg119_1, arg120_1, buf57, buf65
        buf69 = _c17(buf68, _view(arg121_1, (384, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg121_1, buf68
        buf71 = _empty_cuda((32, 384, 16, 16, ), (98304, 1, 6144, 384, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_defb20b9b3(((8192) + 15) // 16 * (((384) + 127) // 128), buf69, arg122_1, arg123_1, arg124_1, arg125_1, buf71, 8192, 384, 16, 128)
        del arg122_1, arg123_1, arg124_1, arg125_1
        buf73 = buf69; del buf69  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_f6c4b267fc(((6272) + 7) // 8 * (((384) + 127) // 128), buf71, buf72, arg127_1, arg128_1, arg129_1, arg130_1, buf73, 6272, 384, 8, 128)
        del arg127_1, arg128_1, arg129_1, arg130_1, buf71, buf72
        buf74 = _c18(buf73, _view(arg131_1, (64, 384, 1, 1, ), (384, 1, 384, 384, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg131_1, buf73
        buf76 = buf74  # written over buf74, which dies here
        buf77 = buf76  # the values of buf76, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_51103a5427(((6272) + 31) // 32 * (((64) + 63) // 64), buf67, buf74, arg132_1, arg133_1, arg134_1, arg135_1, buf76, 6272, 64, 32, 64)
        del arg132_1, arg133_1, arg134_1, arg135_1, buf67, buf74
        buf78 = _c19(buf77, _view(arg136_1, (384, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg136_1, buf77
        buf80 = _empty_cuda((32, 384, 16, 16, ), (98304, 1, 6144, 384, ), torch.bfloat16)
        buf81 = _empty_cuda((384, 1, 3, 3, ), (1, 3456, 1152, 384, ), torch.bfloat16)
        buf89 = _empty_cuda((384, 1, 3, 3, ), (1, 3456, 1152, 384, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_47cfb4a63f(((8192) + 15) // 16 * (((384) + 127) // 128) + ((9) + 15) // 16 * (((384) + 31) // 32), buf78, arg137_1, arg138_1, arg139_1, arg140_1, buf80, arg141_1, buf81, arg156_1, buf89, 8192, 384, 9, 384, ((8192) + 15) // 16 * (((384) + 127) // 128), 16, 128, 16, 32)
        del arg137_1, arg138_1, arg139_1, arg140_1, arg141_1, arg156_1
        buf82 = buf78; del buf78  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_f6c4b267fc(((6272) + 7) // 8 * (((384) + 127) // 128), buf80, buf81, arg142_1, arg143_1, arg144_1, arg145_1, buf82, 6272, 384, 8, 128)
        del arg142_1, arg143_1, arg144_1, arg145_1, buf80, buf81
        buf83 = _c20(buf82, _view(arg146_1, (64, 384, 1, 1, ), (384, 1, 384, 384, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg146_1, buf82
        buf85 = buf83  # written over buf83, which dies here
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_51103a5427(((6272) + 31) // 32 * (((64) + 63) // 64), buf76, buf83, arg147_1, arg148_1, arg149_1, arg150_1, buf85, 6272, 64, 32, 64)
        del arg147_1, arg148_1, arg149_1, arg150_1, buf76, buf83
        buf86 = _c21(buf85, _view(arg151_1, (384, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg151_1, buf85
        buf88 = _empty_cuda((32, 384, 16, 16, ), (98304, 1, 6144, 384, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_defb20b9b3(((8192) + 15) // 16 * (((384) + 127) // 128), buf86, arg152_1, arg153_1, arg154_1, arg155_1, buf88, 8192, 384, 16, 128)
        del arg152_1, arg153_1, arg154_1, arg155_1
        buf90 = buf86; del buf86  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_f6c4b267fc(((6272) + 7) // 8 * (((384) + 127) // 128), buf88, buf89, arg157_1, arg158_1, arg159_1, arg160_1, buf90, 6272, 384, 8, 128)
        del arg157_1, arg158_1, arg159_1, arg160_1, buf88, buf89
        buf91 = _c22(buf90, _view(arg161_1, (96, 384, 1, 1, ), (384, 1, 384, 384, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg161_1, buf90
        buf93 = _empty_cuda((32, 96, 14, 14, ), (18816, 1, 1344, 96, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_9631c56152(((6272) + 63) // 64 * (((96) + 31) // 32), buf91, arg162_1, arg163_1, arg164_1, arg165_1, buf93, 6272, 96, 64, 32)
        buf94 = _c23(buf93, _view(arg166_1, (576, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg166_1, buf93
        buf96 = _empty_cuda((32, 576, 16, 16, ), (147456, 1, 9216, 576, ), torch.bfloat16)
        buf97 = _empty_cuda((576, 1, 3, 3, ), (1, 5184, 1728, 576, ), torch.bfloat16)
        buf106 = _empty_cuda((576, 1, 3, 3, ), (1, 5184, 1728, 576, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_587be0bbc4(((8192) + 31) // 32 * (((576) + 63) // 64) + ((9) + 15) // 16 * (((576) + 31) // 32), buf94, arg167_1, arg168_1, arg169_1, arg170_1, buf96, arg171_1, buf97, arg186_1, buf106, 8192, 576, 9, 576, ((8192) + 31) // 32 * (((576) + 63) // 64), 32, 64, 16, 32)
        del arg167_1, arg168_1, arg169_1, arg170_1, arg171_1, arg186_1
        buf98 = buf94; del buf94  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_5903a727b8(((6272) + 15) // 16 * (((576) + 63) // 64), buf96, buf97, arg172_1, arg173_1, arg174_1, arg175_1, buf98, 6272, 576, 16, 64)
        del arg172_1, arg173_1, arg174_1, arg175_1, buf96, buf97
        buf99 = _c24(buf98, _view(arg176_1, (96, 576, 1, 1, ), (576, 1, 576, 576, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg176_1, buf98
        buf101 = buf91  # written over buf91, which dies here
        buf102 = buf101  # the values of buf101, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_fe98c45c0f(((6272) + 63) // 64 * (((96) + 31) // 32), buf91, arg162_1, arg163_1, arg164_1, arg165_1, buf99, arg177_1, arg178_1, arg179_1, arg180_1, buf101, 6272, 96, 64, 32)
        del arg162_1, arg163_1, arg164_1, arg165_1, arg177_1, arg178_1, arg179_1, arg180_1, buf91, buf99
        buf103 = _c25(buf102, _view(arg181_1, (576, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg181_1, buf102
        buf105 = _empty_cuda((32, 576, 16, 16, ), (147456, 1, 9216, 576, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_5fefeb0dda(((8192) + 31) // 32 * (((576) + 63) // 64), buf103, arg182_1, arg183_1, arg184_1, arg185_1, buf105, 8192, 576, 32, 64)
        del arg182_1, arg183_1, arg184_1, arg185_1
        buf107 = buf103; del buf103  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_5903a727b8(((6272) + 15) // 16 * (((576) + 63) // 64), buf105, buf106, arg187_1, arg188_1, arg189_1, arg190_1, buf107, 6272, 576, 16, 64)
        del arg187_1, arg188_1, arg189_1, arg190_1, buf105, buf106
        buf108 = _c26(buf107, _view(arg191_1, (96, 576, 1, 1, ), (576, 1, 576, 576, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg191_1, buf107
        buf110 = buf108  # written over buf108, which dies here
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_1f52923c9e(((6272) + 63) // 64 * (((96) + 31) // 32), buf101, buf108, arg192_1, arg193_1, arg194_1, arg195_1, buf110, 6272, 96, 64, 32)
        del arg192_1, arg193_1, arg194_1, arg195_1, buf101, buf108
        buf111 = _c27(buf110, _view(arg196_1, (576, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg196_1, buf110
        buf113 = _empty_cuda((32, 576, 15, 15, ), (129600, 1, 8640, 576, ), torch.bfloat16)
        buf114 = _empty_cuda((576, 1, 3, 3, ), (1, 5184, 1728, 576, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_d3858e6090(((7200) + 31) // 32 * (((576) + 63) // 64) + ((9) + 15) // 16 * (((576) + 31) // 32), buf111, arg197_1, arg198_1, arg199_1, arg200_1, buf113, arg201_1, buf114, 7200, 576, 9, 576, ((7200) + 31) // 32 * (((576) + 63) // 64), 32, 64, 16, 32)
        del arg197_1, arg198_1, arg199_1, arg200_1, arg201_1, buf111
        buf115 = _empty_cuda((32, 576, 7, 7, ), (28224, 1, 4032, 576, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_7d8ea09159(((1568) + 15) // 16 * (((576) + 63) // 64), buf113, buf114, arg202_1, arg203_1, arg204_1, arg205_1, buf115, 1568, 576, 16, 64)
        del arg202_1, arg203_1, arg204_1, arg205_1, buf113, buf114
        buf116 = _c28(buf115, _view(arg206_1, (160, 576, 1, 1, ), (576, 1, 576, 576, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg206_1, buf115
        buf118 = _empty_cuda((32, 160, 7, 7, ), (7840, 1, 1120, 160, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_bf3adfc887(((1568) + 63) // 64 * (((160) + 31) // 32), buf116, arg207_1, arg208_1, arg209_1, arg210_1, buf118, 1568, 160, 64, 32)
        buf119 = _c29(buf118, _view(arg211_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg211_1, buf118
        buf121 = _empty_cuda((32, 960, 9, 9, ), (77760, 1, 8640, 960, ), torch.bfloat16)
        buf122 = _empty_cuda((960, 1, 3, 3, ), (1, 8640, 2880, 960, ), torch.bfloat16)
        buf131 = _empty_cuda((960, 1, 3, 3, ), (1, 8640, 2880, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_2e2431a7f6(((2592) + 31) // 32 * (((960) + 63) // 64) + ((9) + 15) // 16 * (((960) + 31) // 32), buf119, arg212_1, arg213_1, arg214_1, arg215_1, buf121, arg216_1, buf122, arg231_1, buf131, 2592, 960, 9, 960, ((2592) + 31) // 32 * (((960) + 63) // 64), 32, 64, 16, 32)
        del arg212_1, arg213_1, arg214_1, arg215_1, arg216_1, arg231_1
        buf123 = buf119; del buf119  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_b49bec67e8(((1568) + 15) // 16 * (((960) + 63) // 64), buf121, buf122, arg217_1, arg218_1, arg219_1, arg220_1, buf123, 1568, 960, 16, 64)
        del arg217_1, arg218_1, arg219_1, arg220_1, buf121, buf122
        buf124 = _c30(buf123, _view(arg221_1, (160, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg221_1, buf123
        buf126 = buf116  # written over buf116, which dies here
        buf127 = buf126  # the values of buf126, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_c45ba8218f(((1568) + 63) // 64 * (((160) + 31) // 32), buf116, arg207_1, arg208_1, arg209_1, arg210_1, buf124, arg222_1, arg223_1, arg224_1, arg225_1, buf126, 1568, 160, 64, 32)
        del arg207_1, arg208_1, arg209_1, arg210_1, arg222_1, arg223_1, arg224_1, arg225_1, buf116, buf124
        buf128 = _c31(buf127, _view(arg226_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg226_1, buf127
        buf130 = _empty_cuda((32, 960, 9, 9, ), (77760, 1, 8640, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_537453a207(((2592) + 31) // 32 * (((960) + 63) // 64), buf128, arg227_1, arg228_1, arg229_1, arg230_1, buf130, 2592, 960, 32, 64)
        del arg227_1, arg228_1, arg229_1, arg230_1
        buf132 = buf128; del buf128  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_b49bec67e8(((1568) + 15) // 16 * (((960) + 63) // 64), buf130, buf131, arg232_1, arg233_1, arg234_1, arg235_1, buf132, 1568, 960, 16, 64)
        del arg232_1, arg233_1, arg234_1, arg235_1, buf130, buf131
        buf133 = _c32(buf132, _view(arg236_1, (160, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg236_1, buf132
        buf135 = buf133  # written over buf133, which dies here
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_e5dd888333(((1568) + 63) // 64 * (((160) + 31) // 32), buf126, buf133, arg237_1, arg238_1, arg239_1, arg240_1, buf135, 1568, 160, 64, 32)
        del arg237_1, arg238_1, arg239_1, arg240_1, buf126, buf133
        buf136 = _c33(buf135, _view(arg241_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg241_1, buf135
        buf138 = _empty_cuda((32, 960, 9, 9, ), (77760, 1, 8640, 960, ), torch.bfloat16)
        buf139 = _empty_cuda((960, 1, 3, 3, ), (1, 8640, 2880, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_2e3d20d87f(((2592) + 31) // 32 * (((960) + 63) // 64) + ((9) + 15) // 16 * (((960) + 31) // 32), buf136, arg242_1, arg243_1, arg244_1, arg245_1, buf138, arg246_1, buf139, 2592, 960, 9, 960, ((2592) + 31) // 32 * (((960) + 63) // 64), 32, 64, 16, 32)
        del arg242_1, arg243_1, arg244_1, arg245_1, arg246_1
        buf140 = buf136; del buf136  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_b49bec67e8(((1568) + 15) // 16 * (((960) + 63) // 64), buf138, buf139, arg247_1, arg248_1, arg249_1, arg250_1, buf140, 1568, 960, 16, 64)
        del arg247_1, arg248_1, arg249_1, arg250_1, buf138, buf139
        buf141 = _c34(buf140, _view(arg251_1, (320, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg251_1, buf140
        buf143 = buf141  # written over buf141, which dies here
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_e9d028ab1f(((1568) + 31) // 32 * (((320) + 63) // 64), buf141, arg252_1, arg253_1, arg254_1, arg255_1, buf143, 1568, 320, 32, 64)
        del arg252_1, arg253_1, arg254_1, arg255_1, buf141
        buf144 = _c35(buf143, _view(arg256_1, (1280, 320, 1, 1, ), (320, 1, 320, 320, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg256_1, buf143
        buf147 = _empty_cuda((32, 1280, ), (1280, 1, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_mean_view_0a06372ef6(((40960) + 63) // 64, buf144, arg257_1, arg258_1, arg259_1, arg260_1, buf147, 40960, 49, 64, 64)
        del arg257_1, arg258_1, arg259_1, arg260_1, buf144
        buf148 = _c36(arg262_1, buf147, _view(arg261_1, (1280, 2, ), (1, 1280, ), 0))  # aten.addmm.default
        del arg261_1, arg262_1, buf147
        return (buf148,)
