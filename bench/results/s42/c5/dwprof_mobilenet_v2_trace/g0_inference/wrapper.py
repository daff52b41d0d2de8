# kiln wrapper for g0_inference
def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1, arg42_1, arg43_1, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, arg49_1, arg50_1, arg51_1, arg52_1, arg53_1, arg54_1, arg55_1, arg56_1, arg57_1, arg58_1, arg59_1, arg60_1, arg61_1, arg62_1, arg63_1, arg64_1, arg65_1, arg66_1, arg67_1, arg68_1, arg69_1, arg70_1, arg71_1, arg72_1, arg73_1, arg74_1, arg75_1, arg76_1, arg77_1, arg78_1, arg79_1, arg80_1, arg81_1, arg82_1, arg83_1, arg84_1, arg85_1, arg86_1, arg87_1, arg88_1, arg89_1, arg90_1, arg91_1, arg92_1, arg93_1, arg94_1, arg95_1, arg96_1, arg97_1, arg98_1, arg99_1, arg100_1, arg101_1, arg102_1, arg103_1, arg104_1, arg105_1, arg106_1, arg107_1, arg108_1, arg109_1, arg110_1, arg111_1, arg112_1, arg113_1, arg114_1, arg115_1, arg116_1, arg117_1, arg118_1, arg119_1, arg120_1, arg121_1, arg122_1, arg123_1, arg124_1, arg125_1, arg126_1, arg127_1, arg128_1, arg129_1, arg130_1, arg131_1, arg132_1, arg133_1, arg134_1, arg135_1, arg136_1, arg137_1, arg138_1, arg139_1, arg140_1, arg141_1, arg142_1, arg143_1, arg144_1, arg145_1, arg146_1, arg147_1, arg148_1, arg149_1, arg150_1, arg151_1, arg152_1, arg153_1, arg154_1, arg155_1, arg156_1, arg157_1, arg158_1, arg159_1, arg160_1, arg161_1, arg162_1, arg163_1, arg164_1, arg165_1, arg166_1, arg167_1, arg168_1, arg169_1, arg170_1, arg171_1, arg172_1, arg173_1, arg174_1, arg175_1, arg176_1, arg177_1, arg178_1, arg179_1, arg180_1, arg181_1, arg182_1, arg183_1, arg184_1, arg185_1, arg186_1, arg187_1, arg188_1, arg189_1, arg190_1, arg191_1, arg192_1, arg193_1, arg194_1, arg195_1, arg196_1, arg197_1, arg198_1, arg199_1, arg200_1, arg201_1, arg202_1, arg203_1, arg204_1, arg205_1, arg206_1, arg207_1, arg208_1, arg209_1, arg210_1, arg211_1, arg212_1, arg213_1, arg214_1, arg215_1, arg216_1, arg217_1, arg218_1, arg219_1, arg220_1, arg221_1, arg222_1, arg223_1, arg224_1, arg225_1, arg226_1, arg227_1, arg228_1, arg229_1, arg230_1, arg231_1, arg232_1, arg233_1, arg234_1, arg235_1, arg236_1, arg237_1, arg238_1, arg239_1, arg240_1, arg241_1, arg242_1, arg243_1, arg244_1, arg245_1, arg246_1, arg247_1, arg248_1, arg249_1, arg250_1, arg251_1, arg252_1, arg253_1, arg254_1, arg255_1, arg256_1, arg257_1, arg258_1, arg259_1, arg260_1, arg261_1, arg262_1 = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        buf1 = _empty_cuda((32, 3, 225, 225, ), (151875, 1, 675, 3, ), torch.bfloat16)
        buf2 = _empty_cuda((32, 3, 3, 3, ), (27, 1, 9, 3, ), torch.bfloat16)
        buf5 = _empty_cuda((32, ), (1, ), torch.float32)
        buf8 = _empty_cuda((32, ), (1, ), torch.float32)
        kernel_constant_pad_nd_convolution_native_batch_norm_legit_no_training_d623df59f4(((1620000) + 63) // 64 * (((3) + 3) // 4) + ((288) + 31) // 32 * (((3) + 3) // 4) + ((1) + 0) // 1 * (((32) + 31) // 32), arg0_1, buf1, arg1_1, buf2, arg3_1, buf5, arg8_1, buf8, 1620000, 3, 288, 3, 1, 32, ((1620000) + 63) // 64 * (((3) + 3) // 4), ((288) + 31) // 32 * (((3) + 3) // 4), 64, 4, 32, 4, 1, 32)
        del arg0_1, arg1_1, arg3_1, arg8_1
        buf3 = _c1(buf1, buf2, None, [2, 2], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del buf1, buf2
        buf6 = _empty_cuda((32, 32, 114, 114, ), (415872, 1, 3648, 32, ), torch.bfloat16)
        buf7 = _empty_cuda((32, 1, 3, 3, ), (1, 288, 96, 32, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_ee77710824(((415872) + 63) // 64 * (((32) + 31) // 32) + ((9) + 15) // 16 * (((32) + 31) // 32), buf3, arg2_1, buf5, arg4_1, arg5_1, buf6, arg6_1, buf7, 415872, 32, 9, 32, ((415872) + 63) // 64 * (((32) + 31) // 32), 64, 32, 16, 32)
        del arg2_1, arg4_1, arg5_1, arg6_1, buf5
        buf9 = buf3; del buf3  # reuses a dead buffer
        buf12 = _empty_cuda((16, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_670279c6d7(((401408) + 31) // 32 * (((32) + 31) // 32) + ((1) + 0) // 1 * (((16) + 15) // 16), buf6, buf7, arg7_1, buf8, arg9_1, arg10_1, buf9, arg13_1, buf12, 401408, 32, 1, 16, ((401408) + 31) // 32 * (((32) + 31) // 32), 32, 32, 1, 16)
        del arg10_1, arg13_1, arg7_1, arg9_1, buf6, buf7, buf8
        buf10 = _c2(buf9, _view(arg11_1, (16, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg11_1, buf9
        buf13 = buf10  # written over buf10, which dies here
        buf16 = _empty_cuda((96, ), (1, ), torch.float32)
        buf19 = _empty_cuda((96, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_73ef2cb232(((401408) + 127) // 128 * (((16) + 15) // 16) + ((1) + 0) // 1 * (((96) + 127) // 128), buf10, arg12_1, buf12, arg14_1, arg15_1, buf13, arg18_1, buf16, arg23_1, buf19, 401408, 16, 1, 96, ((401408) + 127) // 128 * (((16) + 15) // 16), 128, 16, 1, 128)
        del arg12_1, arg14_1, arg15_1, arg18_1, arg23_1, buf10, buf12
        buf14 = _c3(buf13, _view(arg16_1, (96, 16, 1, 1, ), (16, 1, 16, 16, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg16_1, buf13
        buf17 = _empty_cuda((32, 96, 113, 113, ), (1225824, 1, 10848, 96, ), torch.bfloat16)
        buf18 = _empty_cuda((96, 1, 3, 3, ), (1, 864, 288, 96, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_5e8174fe73(((408608) + 63) // 64 * (((96) + 31) // 32) + ((9) + 15) // 16 * (((96) + 31) // 32), buf14, arg17_1, buf16, arg19_1, arg20_1, buf17, arg21_1, buf18, 408608, 96, 9, 96, ((408608) + 63) // 64 * (((96) + 31) // 32), 64, 32, 16, 32)
        del arg17_1, arg19_1, arg20_1, arg21_1, buf14, buf16
        buf20 = _empty_cuda((32, 96, 56, 56, ), (301056, 1, 5376, 96, ), torch.bfloat16)
        buf23 = _empty_cuda((24, ), (1, ), torch.float32)
        buf34 = _empty_cuda((24, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_2cd22f4b1e(((100352) + 31) // 32 * (((96) + 31) // 32) + ((1) + 0) // 1 * (((24) + 31) // 32), buf17, buf18, arg22_1, buf19, arg24_1, arg25_1, buf20, arg28_1, buf23, arg43_1, buf34, 100352, 96, 1, 24, ((100352) + 31) // 32 * (((96) + 31) // 32), 32, 32, 1, 32)
        del arg22_1, arg24_1, arg25_1, arg28_1, arg43_1, buf17, buf18, buf19
        buf21 = _c4(buf20, _view(arg26_1, (24, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg26_1, buf20
        buf24 = _empty_cuda((32, 24, 56, 56, ), (75264, 1, 1344, 24, ), torch.bfloat16)
        buf27 = _empty_cuda((144, ), (1, ), torch.float32)
        buf30 = _empty_cuda((144, ), (1, ), torch.float32)
        buf38 = _empty_cuda((144, ), (1, ), torch.float32)
        buf41 = _empty_cuda((144, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_05d91943af(((100352) + 63) // 64 * (((24) + 31) // 32) + ((1) + 0) // 1 * (((144) + 255) // 256), buf21, arg27_1, buf23, arg29_1, arg30_1, buf24, arg33_1, buf27, arg38_1, buf30, arg48_1, buf38, arg53_1, buf41, 100352, 24, 1, 144, ((100352) + 63) // 64 * (((24) + 31) // 32), 64, 32, 1, 256)
        del arg33_1, arg38_1, arg48_1, arg53_1
        buf25 = _c5(buf24, _view(arg31_1, (144, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg31_1, buf24
        buf28 = _empty_cuda((32, 144, 58, 58, ), (484416, 1, 8352, 144, ), torch.bfloat16)
        buf29 = _empty_cuda((144, 1, 3, 3, ), (1, 1296, 432, 144, ), torch.bfloat16)
        buf40 = _empty_cuda((144, 1, 3, 3, ), (1, 1296, 432, 144, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_bba95b6f38(((107648) + 63) // 64 * (((144) + 31) // 32) + ((9) + 15) // 16 * (((144) + 31) // 32), buf25, arg32_1, buf27, arg34_1, arg35_1, buf28, arg36_1, buf29, arg51_1, buf40, 107648, 144, 9, 144, ((107648) + 63) // 64 * (((144) + 31) // 32), 64, 32, 16, 32)
        del arg32_1, arg34_1, arg35_1, arg36_1, arg51_1, buf27
        buf31 = buf25; del buf25  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_0568d29396(((100352) + 31) // 32 * (((144) + 31) // 32), buf28, buf29, arg37_1, buf30, arg39_1, arg40_1, buf31, 100352, 144, 32, 32)
        del arg37_1, arg39_1, arg40_1, buf28, buf29, buf30
        buf32 = _c6(buf31, _view(arg41_1, (24, 144, 1, 1, ), (144, 1, 144, 144, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg41_1, buf31
        buf35 = buf21  # written over buf21, which dies here
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_0558307133(((100352) + 63) // 64 * (((24) + 31) // 32), buf21, arg27_1, buf23, arg29_1, arg30_1, buf32, arg42_1, buf34, arg44_1, arg45_1, buf35, 100352, 24, 64, 32)
        del arg27_1, arg29_1, arg30_1, arg42_1, arg44_1, arg45_1, buf21, buf23, buf32, buf34
        buf36 = _c7(buf35, _view(arg46_1, (144, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg46_1, buf35
        buf39 = _empty_cuda((32, 144, 57, 57, ), (467856, 1, 8208, 144, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_d505fdc025(((103968) + 63) // 64 * (((144) + 31) // 32), buf36, arg47_1, buf38, arg49_1, arg50_1, buf39, 103968, 144, 64, 32)
        del arg47_1, arg49_1, arg50_1, buf36, buf38
        buf42 = _empty_cuda((32, 144, 28, 28, ), (112896, 1, 4032, 144, ), torch.bfloat16)
        buf45 = _empty_cuda((32, ), (1, ), torch.float32)
        buf56 = _empty_cuda((32, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_9157922090(((25088) + 31) // 32 * (((144) + 31) // 32) + ((1) + 0) // 1 * (((32) + 31) // 32), buf39, buf40, arg52_1, buf41, arg54_1, arg55_1, buf42, arg58_1, buf45, arg73_1, buf56, 25088, 144, 1, 32, ((25088) + 31) // 32 * (((144) + 31) // 32), 32, 32, 1, 32)
        del arg52_1, arg54_1, arg55_1, arg58_1, arg73_1, buf39, buf40, buf41
        buf43 = _c8(buf42, _view(arg56_1, (32, 144, 1, 1, ), (144, 1, 144, 144, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg56_1, buf42
        buf46 = _empty_cuda((32, 32, 28, 28, ), (25088, 1, 896, 32, ), torch.bfloat16)
        buf49 = _empty_cuda((192, ), (1, ), torch.float32)
        buf52 = _empty_cuda((192, ), (1, ), torch.float32)
        buf61 = _empty_cuda((192, ), (1, ), torch.float32)
        buf64 = _empty_cuda((192, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_f8fecd6b7b(((25088) + 63) // 64 * (((32) + 31) // 32) + ((1) + 0) // 1 * (((192) + 255) // 256), buf43, arg57_1, buf45, arg59_1, arg60_1, buf46, arg63_1, buf49, arg68_1, buf52, arg78_1, buf61, arg83_1, buf64, 25088, 32, 1, 192, ((25088) + 63) // 64 * (((32) + 31) // 32), 64, 32, 1, 256)
        del arg63_1, arg68_1, arg78_1, arg83_1
        buf47 = _c9(buf46, _view(arg61_1, (192, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg61_1, buf46
        buf50 = _empty_cuda((32, 192, 30, 30, ), (172800, 1, 5760, 192, ), torch.bfloat16)
        buf51 = _empty_cuda((192, 1, 3, 3, ), (1, 1728, 576, 192, ), torch.bfloat16)
        buf63 = _empty_cuda((192, 1, 3, 3, ), (1, 1728, 576, 192, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_16ab066d2b(((28800) + 31) // 32 * (((192) + 63) // 64) + ((9) + 15) // 16 * (((192) + 31) // 32), buf47, arg62_1, buf49, arg64_1, arg65_1, buf50, arg66_1, buf51, arg81_1, buf63, 28800, 192, 9, 192, ((28800) + 31) // 32 * (((192) + 63) // 64), 32, 64, 16, 32)
        del arg62_1, arg64_1, arg65_1, arg66_1, arg81_1, buf49
        buf53 = buf47; del buf47  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_318ff4e6de(((25088) + 15) // 16 * (((192) + 63) // 64), buf50, buf51, arg67_1, buf52, arg69_1, arg70_1, buf53, 25088, 192, 16, 64)
        del arg67_1, arg69_1, arg70_1, buf50, buf51, buf52
        buf54 = _c10(buf53, _view(arg71_1, (32, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg71_1, buf53
        buf57 = buf43  # written over buf43, which dies here
        buf58 = buf57  # the values of buf57, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_dcab18d1df(((25088) + 63) // 64 * (((32) + 31) // 32), buf43, arg57_1, buf45, arg59_1, arg60_1, buf54, arg72_1, buf56, arg74_1, arg75_1, buf57, 25088, 32, 64, 32)
        del arg57_1, arg59_1, arg60_1, arg72_1, arg74_1, arg75_1, buf43, buf45, buf54, buf56
        buf59 = _c11(buf58, _view(arg76_1, (192, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg76_1, buf58
        buf62 = _empty_cuda((32, 192, 30, 30, ), (172800, 1, 5760, 192, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_5aab656a4a(((28800) + 31) // 32 * (((192) + 63) // 64), buf59, arg77_1, buf61, arg79_1, arg80_1, buf62, 28800, 192, 32, 64)
        del arg77_1, arg79_1, arg80_1, buf61
        buf65 = buf59; del buf59  # reuses a dead buffer
        buf68 = _empty_cuda((32, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_7ca1d060bd(((25088) + 15) // 16 * (((192) + 63) // 64) + ((1) + 0) // 1 * (((32) + 31) // 32), buf62, buf63, arg82_1, buf64, arg84_1, arg85_1, buf65, arg88_1, buf68, 25088, 192, 1, 32, ((25088) + 15) // 16 * (((192) + 63) // 64), 16, 64, 1, 32)
        del arg82_1, arg84_1, arg85_1, arg88_1, buf62, buf63, buf64
        buf66 = _c12(buf65, _view(arg86_1, (32, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg86_1, buf65
        buf69 = buf66  # written over buf66, which dies here
        buf72 = _empty_cuda((192, ), (1, ), torch.float32)
        buf75 = _empty_cuda((192, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_c13935cb3e(((25088) + 63) // 64 * (((32) + 31) // 32) + ((1) + 0) // 1 * (((192) + 255) // 256), buf57, buf66, arg87_1, buf68, arg89_1, arg90_1, buf69, arg93_1, buf72, arg98_1, buf75, 25088, 32, 1, 192, ((25088) + 63) // 64 * (((32) + 31) // 32), 64, 32, 1, 256)
        del arg87_1, arg89_1, arg90_1, arg93_1, arg98_1, buf57, buf66, buf68
        buf70 = _c13(buf69, _view(arg91_1, (192, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg91_1, buf69
        buf73 = _empty_cuda((32, 192, 29, 29, ), (161472, 1, 5568, 192, ), torch.bfloat16)
        buf74 = _empty_cuda((192, 1, 3, 3, ), (1, 1728, 576, 192, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_9e650567e4(((26912) + 31) // 32 * (((192) + 63) // 64) + ((9) + 15) // 16 * (((192) + 31) // 32), buf70, arg92_1, buf72, arg94_1, arg95_1, buf73, arg96_1, buf74, 26912, 192, 9, 192, ((26912) + 31) // 32 * (((192) + 63) // 64), 32, 64, 16, 32)
        del arg92_1, arg94_1, arg95_1, arg96_1, buf70, buf72
        buf76 = _empty_cuda((32, 192, 14, 14, ), (37632, 1, 2688, 192, ), torch.bfloat16)
        buf79 = _empty_cuda((64, ), (1, ), torch.float32)
        buf90 = _empty_cuda((64, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_ba346e2b98(((6272) + 15) // 16 * (((192) + 63) // 64) + ((1) + 0) // 1 * (((64) + 63) // 64), buf73, buf74, arg97_1, buf75, arg99_1, arg100_1, buf76, arg103_1, buf79, arg118_1, buf90, 6272, 192, 1, 64, ((6272) + 15) // 16 * (((192) + 63) // 64), 16, 64, 1, 64)
        del arg100_1, arg103_1, arg118_1, arg97_1, arg99_1, buf73, buf74, buf75
        buf77 = _c14(buf76, _view(arg101_1, (64, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg101_1, buf76
        buf80 = _empty_cuda((32, 64, 14, 14, ), (12544, 1, 896, 64, ), torch.bfloat16)
        buf83 = _empty_cuda((384, ), (1, ), torch.float32)
        buf86 = _empty_cuda((384, ), (1, ), torch.float32)
        buf95 = _empty_cuda((384, ), (1, ), torch.float32)
        buf98 = _empty_cuda((384, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_c3b1e2fa91(((6272) + 31) // 32 * (((64) + 63) // 64) + ((1) + 0) // 1 * (((384) + 511) // 512), buf77, arg102_1, buf79, arg104_1, arg105_1, buf80, arg108_1, buf83, arg113_1, buf86, arg123_1, buf95, arg128_1, buf98, 6272, 64, 1, 384, ((6272) + 31) // 32 * (((64) + 63) // 64), 32, 64, 1, 512)
        del arg108_1, arg113_1, arg123_1, arg128_1
        buf81 = _c15(buf80, _view(arg106_1, (384, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg106_1, buf80
        buf84 = _empty_cuda((32, 384, 16, 16, ), (98304, 1, 6144, 384, ), torch.bfloat16)
        buf85 = _empty_cuda((384, 1, 3, 3, ), (1, 3456, 1152, 384, ), torch.bfloat16)
        buf97 = _empty_cuda((384, 1, 3, 3, ), (1, 3456, 1152, 384, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_c6a0fcd563(((8192) + 15) // 16 * (((384) + 127) // 128) + ((9) + 15) // 16 * (((384) + 31) // 32), buf81, arg107_1, buf83, arg109_1, arg110_1, buf84, arg111_1, buf85, arg126_1, buf97, 8192, 384, 9, 384, ((8192) + 15) // 16 * (((384) + 127) // 128), 16, 128, 16, 32)
        del arg107_1, arg109_1, arg110_1, arg111_1, arg126_1, buf83
        buf87 = buf81; del buf81  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_4a44696b01(((6272) + 7) // 8 * (((384) + 127) // 128), buf84, buf85, arg112_1, buf86, arg114_1, arg115_1, buf87, 6272, 384, 8, 128)
        del arg112_1, arg114_1, arg115_1, buf84, buf85, buf86
        buf88 = _c16(buf87, _view(arg116_1, (64, 384, 1, 1, ), (384, 1, 384, 384, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg116_1, buf87
        buf91 = buf77  # written over buf77, which dies here
        buf92 = buf91  # the values of buf91, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_c699e63b4c(((6272) + 31) // 32 * (((64) + 63) // 64), buf77, arg102_1, buf79, arg104_1, arg105_1, buf88, arg117_1, buf90, arg119_1, arg120_1, buf91, 6272, 64, 32, 64)
        del arg102_1, arg104_1, arg105_1, arg117_1, arg119_1, arg120_1, buf77, buf79, buf88, buf90
        buf93 = _c17(buf92, _view(arg121_1, (384, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg121_1, buf92
        buf96 = _empty_cuda((32, 384, 16, 16, ), (98304, 1, 6144, 384, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_7a6534c18a(((8192) + 15) // 16 * (((384) + 127) // 128), buf93, arg122_1, buf95, arg124_1, arg125_1, buf96, 8192, 384, 16, 128)
        del arg122_1, arg124_1, arg125_1, buf95
        buf99 = buf93; del buf93  # reuses a dead buffer
        buf102 = _empty_cuda((64, ), (1, ), torch.float32)
        buf114 = _empty_cuda((64, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_cdf7847387(((6272) + 7) // 8 * (((384) + 127) // 128) + ((1) + 0) // 1 * (((64) + 63) // 64), buf96, buf97, arg127_1, buf98, arg129_1, arg130_1, buf99, arg133_1, buf102, arg148_1, buf114, 6272, 384, 1, 64, ((6272) + 7) // 8 * (((384) + 127) // 128), 8, 128, 1, 64)
        del arg127_1, arg129_1, arg130_1, arg133_1, arg148_1, buf96, buf97, buf98
        buf100 = _c18(buf99, _view(arg131_1, (64, 384, 1, 1, ), (384, 1, 384, 384, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg131_1, buf99
        buf103 = buf100  # written over buf100, which dies here
        buf107 = _empty_cuda((384, ), (1, ), torch.float32)
        buf110 = _empty_cuda((384, ), (1, ), torch.float32)
        buf118 = _empty_cuda((384, ), (1, ), torch.float32)
        buf121 = _empty_cuda((384, ), (1, ), torch.float32)
        buf104 = buf103  # the values of buf103, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_25848cca8b(((6272) + 31) // 32 * (((64) + 63) // 64) + ((1) + 0) // 1 * (((384) + 511) // 512), buf91, buf100, arg132_1, buf102, arg134_1, arg135_1, buf103, arg138_1, buf107, arg143_1, buf110, arg153_1, buf118, arg158_1, buf121, 6272, 64, 1, 384, ((6272) + 31) // 32 * (((64) + 63) // 64), 32, 64, 1, 512)
        del arg132_1, arg134_1, arg135_1, arg138_1, arg143_1, arg153_1, arg158_1, buf100, buf102, buf91
        buf105 = _c19(buf104, _view(arg136_1, (384, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg136_1, buf104
        buf108 = _empty_cuda((32, 384, 16, 16, ), (98304, 1, 6144, 384, ), torch.bfloat16)
        buf109 = _empty_cuda((384, 1, 3, 3, ), (1, 3456, 1152, 384, ), torch.bfloat16)
        buf120 = _empty_cuda((384, 1, 3, 3, ), (1, 3456, 1152, 384, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_c6a0fcd563(((8192) + 15) // 16 * (((384) + 127) // 128) + ((9) + 15) // 16 * (((384) + 31) // 32), buf105, arg137_1, buf107, arg139_1, arg140_1, buf108, arg141_1, buf109, arg156_1, buf120, 8192, 384, 9, 384, ((8192) + 15) // 16 * (((384) + 127) // 128), 16, 128, 16, 32)
        del arg137_1, arg139_1, arg140_1, arg141_1, arg156_1, buf107
        buf111 = buf105; del buf105  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_4a44696b01(((6272) + 7) // 8 * (((384) + 127) // 128), buf108, buf109, arg142_1, buf110, arg144_1, arg145_1, buf111, 6272, 384, 8, 128)
        del arg142_1, arg144_1, arg145_1, buf108, buf109, buf110
        buf112 = _c20(buf111, _view(arg146_1, (64, 384, 1, 1, ), (384, 1, 384, 384, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg146_1, buf111
        buf115 = buf112  # written over buf112, which dies here
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_52eb3cb0b7(((6272) + 31) // 32 * (((64) + 63) // 64), buf103, buf112, arg147_1, buf114, arg149_1, arg150_1, buf115, 6272, 64, 32, 64)
        del arg147_1, arg149_1, arg150_1, buf103, buf112, buf114
        buf116 = _c21(buf115, _view(arg151_1, (384, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg151_1, buf115
        buf119 = _empty_cuda((32, 384, 16, 16, ), (98304, 1, 6144, 384, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_7a6534c18a(((8192) + 15) // 16 * (((384) + 127) // 128), buf116, arg152_1, buf118, arg154_1, arg155_1, buf119, 8192, 384, 16, 128)
        del arg152_1, arg154_1, arg155_1, buf118
        buf122 = buf116; del buf116  # reuses a dead buffer
        buf125 = _empty_cuda((96, ), (1, ), torch.float32)
        buf136 = _empty_cuda((96, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_1e351e32d0(((6272) + 7) // 8 * (((384) + 127) // 128) + ((1) + 0) // 1 * (((96) + 127) // 128), buf119, buf120, arg157_1, buf121, arg159_1, arg160_1, buf122, arg163_1, buf125, arg178_1, buf136, 6272, 384, 1, 96, ((6272) + 7) // 8 * (((384) + 127) // 128), 8, 128, 1, 128)
        del arg157_1, arg159_1, arg160_1, arg163_1, arg178_1, buf119, buf120, buf121
        buf123 = _c22(buf122, _view(arg161_1, (96, 384, 1, 1, ), (384, 1, 384, 384, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg161_1, buf122
        buf126 = _empty_cuda((32, 96, 14, 14, ), (18816, 1, 1344, 96, ), torch.bfloat16)
        buf129 = _empty_cuda((576, ), (1, ), torch.float32)
        buf132 = _empty_cuda((576, ), (1, ), torch.float32)
        buf141 = _empty_cuda((576, ), (1, ), torch.float32)
        buf144 = _empty_cuda((576, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_6656fb78c8(((6272) + 63) // 64 * (((96) + 31) // 32) + ((1) + 0) // 1 * (((576) + 511) // 512), buf123, arg162_1, buf125, arg164_1, arg165_1, buf126, arg168_1, buf129, arg173_1, buf132, arg183_1, buf141, arg188_1, buf144, 6272, 96, 1, 576, ((6272) + 63) // 64 * (((96) + 31) // 32), 64, 32, 1, 512)
        del arg168_1, arg173_1, arg183_1, arg188_1
        buf127 = _c23(buf126, _view(arg166_1, (576, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg166_1, buf126
        buf130 = _empty_cuda((32, 576, 16, 16, ), (147456, 1, 9216, 576, ), torch.bfloat16)
        buf131 = _empty_cuda((576, 1, 3, 3, ), (1, 5184, 1728, 576, ), torch.bfloat16)
        buf143 = _empty_cuda((576, 1, 3, 3, ), (1, 5184, 1728, 576, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_818284914d(((8192) + 31) // 32 * (((576) + 63) // 64) + ((9) + 15) // 16 * (((576) + 31) // 32), buf127, arg167_1, buf129, arg169_1, arg170_1, buf130, arg171_1, buf131, arg186_1, buf143, 8192, 576, 9, 576, ((8192) + 31) // 32 * (((576) + 63) // 64), 32, 64, 16, 32)
        del arg167_1, arg169_1, arg170_1, arg171_1, arg186_1, buf129
        buf133 = buf127; del buf127  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_d79b5877a3(((6272) + 15) // 16 * (((576) + 63) // 64), buf130, buf131, arg172_1, buf132, arg174_1, arg175_1, buf133, 6272, 576, 16, 64)
        del arg172_1, arg174_1, arg175_1, buf130, buf131, buf132
        buf134 = _c24(buf133, _view(arg176_1, (96, 576, 1, 1, ), (576, 1, 576, 576, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg176_1, buf133
        buf137 = buf123  # written over buf123, which dies here
        buf138 = buf137  # the values of buf137, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_db314ac06e(((6272) + 63) // 64 * (((96) + 31) // 32), buf123, arg162_1, buf125, arg164_1, arg165_1, buf134, arg177_1, buf136, arg179_1, arg180_1, buf137, 6272, 96, 64, 32)
        del arg162_1, arg164_1, arg165_1, arg177_1, arg179_1, arg180_1, buf123, buf125, buf134, buf136
        buf139 = _c25(buf138, _view(arg181_1, (576, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg181_1, buf138
        buf142 = _empty_cuda((32, 576, 16, 16, ), (147456, 1, 9216, 576, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_0089cf1f36(((8192) + 31) // 32 * (((576) + 63) // 64), buf139, arg182_1, buf141, arg184_1, arg185_1, buf142, 8192, 576, 32, 64)
        del arg182_1, arg184_1, arg185_1, buf141
        buf145 = buf139; del buf139  # reuses a dead buffer
        buf148 = _empty_cuda((96, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_bb60d577e7(((6272) + 15) // 16 * (((576) + 63) // 64) + ((1) + 0) // 1 * (((96) + 127) // 128), buf142, buf143, arg187_1, buf144, arg189_1, arg190_1, buf145, arg193_1, buf148, 6272, 576, 1, 96, ((6272) + 15) // 16 * (((576) + 63) // 64), 16, 64, 1, 128)
        del arg187_1, arg189_1, arg190_1, arg193_1, buf142, buf143, buf144
        buf146 = _c26(buf145, _view(arg191_1, (96, 576, 1, 1, ), (576, 1, 576, 576, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg191_1, buf145
        buf149 = buf146  # written over buf146, which dies here
        buf152 = _empty_cuda((576, ), (1, ), torch.float32)
        buf155 = _empty_cuda((576, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_36e9bd5485(((6272) + 63) // 64 * (((96) + 31) // 32) + ((1) + 0) // 1 * (((576) + 511) // 512), buf137, buf146, arg192_1, buf148, arg194_1, arg195_1, buf149, arg198_1, buf152, arg203_1, buf155, 6272, 96, 1, 576, ((6272) + 63) // 64 * (((96) + 31) // 32), 64, 32, 1, 512)
        del arg192_1, arg194_1, arg195_1, arg198_1, arg203_1, buf137, buf146, buf148
        buf150 = _c27(buf149, _view(arg196_1, (576, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg196_1, buf149
        buf153 = _empty_cuda((32, 576, 15, 15, ), (129600, 1, 8640, 576, ), torch.bfloat16)
        buf154 = _empty_cuda((576, 1, 3, 3, ), (1, 5184, 1728, 576, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_a8222a1656(((7200) + 31) // 32 * (((576) + 63) // 64) + ((9) + 15) // 16 * (((576) + 31) // 32), buf150, arg197_1, buf152, arg199_1, arg200_1, buf153, arg201_1, buf154, 7200, 576, 9, 576, ((7200) + 31) // 32 * (((576) + 63) // 64), 32, 64, 16, 32)
        del arg197_1, arg199_1, arg200_1, arg201_1, buf150, buf152
        buf156 = _empty_cuda((32, 576, 7, 7, ), (28224, 1, 4032, 576, ), torch.bfloat16)
        buf159 = _empty_cuda((160, ), (1, ), torch.float32)
        buf170 = _empty_cuda((160, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_01c133ad54(((1568) + 15) // 16 * (((576) + 63) // 64) + ((1) + 0) // 1 * (((160) + 255) // 256), buf153, buf154, arg202_1, buf155, arg204_1, arg205_1, buf156, arg208_1, buf159, arg223_1, buf170, 1568, 576, 1, 160, ((1568) + 15) // 16 * (((576) + 63) // 64), 16, 64, 1, 256)
        del arg202_1, arg204_1, arg205_1, arg208_1, arg223_1, buf153, buf154, buf155
        buf157 = _c28(buf156, _view(arg206_1, (160, 576, 1, 1, ), (576, 1, 576, 576, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg206_1, buf156
        buf160 = _empty_cuda((32, 160, 7, 7, ), (7840, 1, 1120, 160, ), torch.bfloat16)
        buf163 = _empty_cuda((960, ), (1, ), torch.float32)
        buf166 = _empty_cuda((960, ), (1, ), torch.float32)
        buf175 = _empty_cuda((960, ), (1, ), torch.float32)
        buf178 = _empty_cuda((960, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_4af5aaab6f(((1568) + 63) // 64 * (((160) + 31) // 32) + ((1) + 0) // 1 * (((960) + 511) // 512), buf157, arg207_1, buf159, arg209_1, arg210_1, buf160, arg213_1, buf163, arg218_1, buf166, arg228_1, buf175, arg233_1, buf178, 1568, 160, 1, 960, ((1568) + 63) // 64 * (((160) + 31) // 32), 64, 32, 1, 512)
        del arg213_1, arg218_1, arg228_1, arg233_1
        buf161 = _c29(buf160, _view(arg211_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg211_1, buf160
        buf164 = _empty_cuda((32, 960, 9, 9, ), (77760, 1, 8640, 960, ), torch.bfloat16)
        buf165 = _empty_cuda((960, 1, 3, 3, ), (1, 8640, 2880, 960, ), torch.bfloat16)
        buf177 = _empty_cuda((960, 1, 3, 3, ), (1, 8640, 2880, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_344938a6d7(((2592) + 31) // 32 * (((960) + 63) // 64) + ((9) + 15) // 16 * (((960) + 31) // 32), buf161, arg212_1, buf163, arg214_1, arg215_1, buf164, arg216_1, buf165, arg231_1, buf177, 2592, 960, 9, 960, ((2592) + 31) // 32 * (((960) + 63) // 64), 32, 64, 16, 32)
        del arg212_1, arg214_1, arg215_1, arg216_1, arg231_1, buf163
        buf167 = buf161; del buf161  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_343f237421(((1568) + 15) // 16 * (((960) + 63) // 64), buf164, buf165, arg217_1, buf166, arg219_1, arg220_1, buf167, 1568, 960, 16, 64)
        del arg217_1, arg219_1, arg220_1, buf164, buf165, buf166
        buf168 = _c30(buf167, _view(arg221_1, (160, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg221_1, buf167
        buf171 = buf157  # written over buf157, which dies here
        buf172 = buf171  # the values of buf171, at the same offsets
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_826f694a06(((1568) + 63) // 64 * (((160) + 31) // 32), buf157, arg207_1, buf159, arg209_1, arg210_1, buf168, arg222_1, buf170, arg224_1, arg225_1, buf171, 1568, 160, 64, 32)
        del arg207_1, arg209_1, arg210_1, arg222_1, arg224_1, arg225_1, buf157, buf159, buf168, buf170
        buf173 = _c31(buf172, _view(arg226_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg226_1, buf172
        buf176 = _empty_cuda((32, 960, 9, 9, ), (77760, 1, 8640, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_eadb3ea804(((2592) + 31) // 32 * (((960) + 63) // 64), buf173, arg227_1, buf175, arg229_1, arg230_1, buf176, 2592, 960, 32, 64)
        del arg227_1, arg229_1, arg230_1, buf175
        buf179 = buf173; del buf173  # reuses a dead buffer
        buf182 = _empty_cuda((160, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_dd08b6470b(((1568) + 15) // 16 * (((960) + 63) // 64) + ((1) + 0) // 1 * (((160) + 255) // 256), buf176, buf177, arg232_1, buf178, arg234_1, arg235_1, buf179, arg238_1, buf182, 1568, 960, 1, 160, ((1568) + 15) // 16 * (((960) + 63) // 64), 16, 64, 1, 256)
        del arg232_1, arg234_1, arg235_1, arg238_1, buf176, buf177, buf178
        buf180 = _c32(buf179, _view(arg236_1, (160, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg236_1, buf179
        buf183 = buf180  # written over buf180, which dies here
        buf186 = _empty_cuda((960, ), (1, ), torch.float32)
        buf189 = _empty_cuda((960, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_add_constant_pad_nd_e49ac18ef4(((1568) + 63) // 64 * (((160) + 31) // 32) + ((1) + 0) // 1 * (((960) + 511) // 512), buf171, buf180, arg237_1, buf182, arg239_1, arg240_1, buf183, arg243_1, buf186, arg248_1, buf189, 1568, 160, 1, 960, ((1568) + 63) // 64 * (((160) + 31) // 32), 64, 32, 1, 512)
        del arg237_1, arg239_1, arg240_1, arg243_1, arg248_1, buf171, buf180, buf182
        buf184 = _c33(buf183, _view(arg241_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg241_1, buf183
        buf187 = _empty_cuda((32, 960, 9, 9, ), (77760, 1, 8640, 960, ), torch.bfloat16)
        buf188 = _empty_cuda((960, 1, 3, 3, ), (1, 8640, 2880, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_d241bfa8a5(((2592) + 31) // 32 * (((960) + 63) // 64) + ((9) + 15) // 16 * (((960) + 31) // 32), buf184, arg242_1, buf186, arg244_1, arg245_1, buf187, arg246_1, buf188, 2592, 960, 9, 960, ((2592) + 31) // 32 * (((960) + 63) // 64), 32, 64, 16, 32)
        del arg242_1, arg244_1, arg245_1, arg246_1, buf186
        buf190 = buf184; del buf184  # reuses a dead buffer
        buf193 = _empty_cuda((320, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_hardtanh_constant_pad_nd_convolution_dd08b6470b(((1568) + 15) // 16 * (((960) + 63) // 64) + ((1) + 0) // 1 * (((320) + 511) // 512), buf187, buf188, arg247_1, buf189, arg249_1, arg250_1, buf190, arg253_1, buf193, 1568, 960, 1, 320, ((1568) + 15) // 16 * (((960) + 63) // 64), 16, 64, 1, 512)
        del arg247_1, arg249_1, arg250_1, arg253_1, buf187, buf188, buf189
        buf191 = _c34(buf190, _view(arg251_1, (320, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg251_1, buf190
        buf194 = buf191  # written over buf191, which dies here
        buf197 = _empty_cuda((1280, ), (1, ), torch.float32)
        kernel_native_batch_norm_legit_no_training_constant_pad_nd_5eb112693d(((1568) + 31) // 32 * (((320) + 63) // 64) + ((1) + 0) // 1 * (((1280) + 511) // 512), buf191, arg252_1, buf193, arg254_1, arg255_1, buf194, arg258_1, buf197, 1568, 320, 1, 1280, ((1568) + 31) // 32 * (((320) + 63) // 64), 32, 64, 1, 512)
        del arg252_1, arg254_1, arg255_1, arg258_1, buf191, buf193
        buf195 = _c35(buf194, _view(arg256_1, (1280, 320, 1, 1, ), (320, 1, 320, 320, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg256_1, buf194
        buf199 = _empty_cuda((32, 1280, ), (1280, 1, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardtanh_mean_view_3c3075876f(((40960) + 63) // 64, buf195, arg257_1, buf197, arg259_1, arg260_1, buf199, 40960, 49, 64, 64)
        del arg257_1, arg259_1, arg260_1, buf195, buf197
        buf200 = _c36(arg262_1, buf199, _view(arg261_1, (1280, 2, ), (1, 1280, ), 0))  # aten.addmm.default
        del arg261_1, arg262_1, buf199
        return (buf200,)
