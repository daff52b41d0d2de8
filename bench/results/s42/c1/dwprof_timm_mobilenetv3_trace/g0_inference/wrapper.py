# kiln wrapper for g0_inference
def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1, arg42_1, arg43_1, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, arg49_1, arg50_1, arg51_1, arg52_1, arg53_1, arg54_1, arg55_1, arg56_1, arg57_1, arg58_1, arg59_1, arg60_1, arg61_1, arg62_1, arg63_1, arg64_1, arg65_1, arg66_1, arg67_1, arg68_1, arg69_1, arg70_1, arg71_1, arg72_1, arg73_1, arg74_1, arg75_1, arg76_1, arg77_1, arg78_1, arg79_1, arg80_1, arg81_1, arg82_1, arg83_1, arg84_1, arg85_1, arg86_1, arg87_1, arg88_1, arg89_1, arg90_1, arg91_1, arg92_1, arg93_1, arg94_1, arg95_1, arg96_1, arg97_1, arg98_1, arg99_1, arg100_1, arg101_1, arg102_1, arg103_1, arg104_1, arg105_1, arg106_1, arg107_1, arg108_1, arg109_1, arg110_1, arg111_1, arg112_1, arg113_1, arg114_1, arg115_1, arg116_1, arg117_1, arg118_1, arg119_1, arg120_1, arg121_1, arg122_1, arg123_1, arg124_1, arg125_1, arg126_1, arg127_1, arg128_1, arg129_1, arg130_1, arg131_1, arg132_1, arg133_1, arg134_1, arg135_1, arg136_1, arg137_1, arg138_1, arg139_1, arg140_1, arg141_1, arg142_1, arg143_1, arg144_1, arg145_1, arg146_1, arg147_1, arg148_1, arg149_1, arg150_1, arg151_1, arg152_1, arg153_1, arg154_1, arg155_1, arg156_1, arg157_1, arg158_1, arg159_1, arg160_1, arg161_1, arg162_1, arg163_1, arg164_1, arg165_1, arg166_1, arg167_1, arg168_1, arg169_1, arg170_1, arg171_1, arg172_1, arg173_1, arg174_1, arg175_1, arg176_1, arg177_1, arg178_1, arg179_1, arg180_1, arg181_1, arg182_1, arg183_1, arg184_1, arg185_1, arg186_1, arg187_1, arg188_1, arg189_1, arg190_1, arg191_1, arg192_1, arg193_1, arg194_1, arg195_1, arg196_1, arg197_1, arg198_1, arg199_1, arg200_1, arg201_1, arg202_1, arg203_1, arg204_1, arg205_1, arg206_1, arg207_1, arg208_1, arg209_1, arg210_1, arg211_1, arg212_1, arg213_1, arg214_1, arg215_1, arg216_1, arg217_1, arg218_1, arg219_1, arg220_1, arg221_1, arg222_1, arg223_1, arg224_1, arg225_1, arg226_1, arg227_1, arg228_1, arg229_1, arg230_1, arg231_1, arg232_1, arg233_1, arg234_1, arg235_1, arg236_1, arg237_1, arg238_1, arg239_1, arg240_1, arg241_1, arg242_1, arg243_1, arg244_1, arg245_1, arg246_1, arg247_1, arg248_1, arg249_1, arg250_1, arg251_1, arg252_1, arg253_1, arg254_1, arg255_1, arg256_1, arg257_1, arg258_1, arg259_1, arg260_1, arg261_1, arg262_1, arg263_1, arg264_1, arg265_1, arg266_1 = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        buf1 = _empty_cuda((32, 3, 224, 224, ), (150528, 1, 672, 3, ), torch.bfloat16)
        buf2 = _empty_cuda((16, 3, 3, 3, ), (27, 1, 9, 3, ), torch.bfloat16)
        kernel_convolution_95528f2a27(((1605632) + 63) // 64 * (((3) + 3) // 4) + ((144) + 31) // 32 * (((3) + 3) // 4), arg1_1, buf1, arg0_1, buf2, 1605632, 3, 144, 3, ((1605632) + 63) // 64 * (((3) + 3) // 4), 64, 4, 32, 4)
        del arg0_1, arg1_1
        buf3 = _c1(buf1, buf2, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del buf1, buf2
        buf5 = buf3  # written over buf3, which dies here
        buf6 = _empty_cuda((16, 1, 3, 3, ), (1, 144, 48, 16, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_5b6d0bde9e(((401408) + 127) // 128 * (((16) + 15) // 16) + ((9) + 15) // 16 * (((16) + 15) // 16), buf3, arg2_1, arg3_1, arg4_1, arg5_1, buf5, arg6_1, buf6, 401408, 16, 9, 16, ((401408) + 127) // 128 * (((16) + 15) // 16), 128, 16, 16, 16)
        del arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, buf3
        buf7 = _empty_cuda((32, 16, 112, 112, ), (200704, 1, 1792, 16, ), torch.bfloat16)
        kernel_convolution_native_batch_norm_legit_no_training_relu_590aa9041f(((401408) + 63) // 64 * (((16) + 15) // 16), buf5, buf6, arg7_1, arg8_1, arg9_1, arg10_1, buf7, 401408, 16, 64, 16)
        del arg10_1, arg7_1, arg8_1, arg9_1, buf6
        buf8 = _c2(buf7, _view(arg11_1, (16, 16, 1, 1, ), (16, 1, 16, 16, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg11_1
        buf10 = buf7; del buf7  # reuses a dead buffer
        kernel_native_batch_norm_legit_no_training_add_e637f48b85(((401408) + 127) // 128 * (((16) + 15) // 16), buf8, arg12_1, arg13_1, arg14_1, arg15_1, buf5, buf10, 401408, 16, 128, 16)
        del arg12_1, arg13_1, arg14_1, arg15_1, buf5, buf8
        buf11 = _c3(buf10, _view(arg16_1, (64, 16, 1, 1, ), (16, 1, 16, 16, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg16_1, buf10
        buf13 = buf11  # written over buf11, which dies here
        buf14 = _empty_cuda((64, 1, 3, 3, ), (1, 576, 192, 64, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_661657bb3d(((401408) + 31) // 32 * (((64) + 63) // 64) + ((9) + 15) // 16 * (((64) + 31) // 32), buf11, arg17_1, arg18_1, arg19_1, arg20_1, buf13, arg21_1, buf14, 401408, 64, 9, 64, ((401408) + 31) // 32 * (((64) + 63) // 64), 32, 64, 16, 32)
        del arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, buf11
        buf15 = _empty_cuda((32, 64, 56, 56, ), (200704, 1, 3584, 64, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_9fd41e199c(((100352) + 15) // 16 * (((64) + 63) // 64), buf13, buf14, arg22_1, arg23_1, arg24_1, arg25_1, buf15, 100352, 64, 16, 64)
        del arg22_1, arg23_1, arg24_1, arg25_1, buf13, buf14
        buf16 = _c4(buf15, _view(arg26_1, (24, 64, 1, 1, ), (64, 1, 64, 64, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg26_1, buf15
        buf18 = buf16  # written over buf16, which dies here
        kernel_native_batch_norm_legit_no_training_ee27e008ee(((100352) + 63) // 64 * (((24) + 31) // 32), buf16, arg27_1, arg28_1, arg29_1, arg30_1, buf18, 100352, 24, 64, 32)
        del arg27_1, arg28_1, arg29_1, arg30_1, buf16
        buf19 = _c5(buf18, _view(arg31_1, (72, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg31_1
        buf21 = buf19  # written over buf19, which dies here
        buf22 = _empty_cuda((72, 1, 3, 3, ), (1, 648, 216, 72, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_05f216d0e5(((100352) + 63) // 64 * (((72) + 31) // 32) + ((9) + 15) // 16 * (((72) + 31) // 32), buf19, arg32_1, arg33_1, arg34_1, arg35_1, buf21, arg36_1, buf22, 100352, 72, 9, 72, ((100352) + 63) // 64 * (((72) + 31) // 32), 64, 32, 16, 32)
        del arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, buf19
        buf23 = _empty_cuda((32, 72, 56, 56, ), (225792, 1, 4032, 72, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_35e2d2d00b(((100352) + 31) // 32 * (((72) + 31) // 32), buf21, buf22, arg37_1, arg38_1, arg39_1, arg40_1, buf23, 100352, 72, 32, 32)
        del arg37_1, arg38_1, arg39_1, arg40_1, buf21, buf22
        buf24 = _c6(buf23, _view(arg41_1, (24, 72, 1, 1, ), (72, 1, 72, 72, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg41_1, buf23
        buf26 = buf18  # written over buf18, which dies here
        kernel_native_batch_norm_legit_no_training_add_1e23231c24(((100352) + 63) // 64 * (((24) + 31) // 32), buf24, arg42_1, arg43_1, arg44_1, arg45_1, buf18, buf26, 100352, 24, 64, 32)
        del arg42_1, arg43_1, arg44_1, arg45_1, buf18, buf24
        buf27 = _c7(buf26, _view(arg46_1, (72, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg46_1, buf26
        buf29 = buf27  # written over buf27, which dies here
        buf30 = _empty_cuda((72, 1, 5, 5, ), (1, 1800, 360, 72, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_2d822d0081(((100352) + 63) // 64 * (((72) + 31) // 32) + ((25) + 31) // 32 * (((72) + 31) // 32), buf27, arg47_1, arg48_1, arg49_1, arg50_1, buf29, arg51_1, buf30, 100352, 72, 25, 72, ((100352) + 63) // 64 * (((72) + 31) // 32), 64, 32, 32, 32)
        del arg47_1, arg48_1, arg49_1, arg50_1, arg51_1, buf27
        buf31 = _empty_cuda((32, 72, 28, 28, ), (56448, 1, 2016, 72, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_9ed6d63d84(((25088) + 15) // 16 * (((72) + 31) // 32), buf29, buf30, buf31, 25088, 72, 16, 32)
        del buf29, buf30
        buf33 = _empty_cuda((32, 72, 1, 1, ), (72, 1, 72, 72, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_mean_3cdf7693d8(((2304) + 63) // 64, buf31, arg52_1, arg53_1, arg54_1, arg55_1, buf33, 2304, 784, 64, 64)
        buf34 = _c8(buf33, _view(arg56_1, (24, 72, 1, 1, ), (72, 1, 72, 72, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg56_1, buf33
        buf36 = buf34  # written over buf34, which dies here
        kernel_native_batch_norm_legit_no_training_relu_mean_convolution_47ad637079(((32) + 31) // 32 * (((24) + 31) // 32), buf34, arg57_1, buf36, 32, 24, 32, 32)
        del arg57_1, buf34
        buf37 = _c9(buf36, _view(arg58_1, (72, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg58_1, buf36
        buf39 = buf31  # written over buf31, which dies here
        kernel_native_batch_norm_legit_no_training_relu_mean_convolution_28c9ebf72a(((25088) + 63) // 64 * (((72) + 31) // 32), buf31, arg52_1, arg53_1, arg54_1, arg55_1, buf37, arg59_1, buf39, 25088, 72, 64, 32)
        del arg52_1, arg53_1, arg54_1, arg55_1, arg59_1, buf31, buf37
        buf40 = _c10(buf39, _view(arg60_1, (40, 72, 1, 1, ), (72, 1, 72, 72, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg60_1, buf39
        buf42 = buf40  # written over buf40, which dies here
        kernel_native_batch_norm_legit_no_training_e0eb9c0224(((25088) + 31) // 32 * (((40) + 63) // 64), buf40, arg61_1, arg62_1, arg63_1, arg64_1, buf42, 25088, 40, 32, 64)
        del arg61_1, arg62_1, arg63_1, arg64_1, buf40
        buf43 = _c11(buf42, _view(arg65_1, (120, 40, 1, 1, ), (40, 1, 40, 40, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg65_1
        buf45 = buf43  # written over buf43, which dies here
        buf46 = _empty_cuda((120, 1, 5, 5, ), (1, 3000, 600, 120, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_5a9e652b57(((25088) + 15) // 16 * (((120) + 127) // 128) + ((25) + 31) // 32 * (((120) + 31) // 32), buf43, arg66_1, arg67_1, arg68_1, arg69_1, buf45, arg70_1, buf46, 25088, 120, 25, 120, ((25088) + 15) // 16 * (((120) + 127) // 128), 16, 128, 32, 32)
        del arg66_1, arg67_1, arg68_1, arg69_1, arg70_1, buf43
        buf47 = _empty_cuda((32, 120, 28, 28, ), (94080, 1, 3360, 120, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_3a9730a1fb(((25088) + 3) // 4 * (((120) + 127) // 128), buf45, buf46, buf47, 25088, 120, 4, 128)
        del buf45, buf46
        buf49 = _empty_cuda((32, 120, 1, 1, ), (120, 1, 120, 120, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_mean_7406ffb4d1(((3840) + 63) // 64, buf47, arg71_1, arg72_1, arg73_1, arg74_1, buf49, 3840, 784, 64, 64)
        buf50 = _c12(buf49, _view(arg75_1, (32, 120, 1, 1, ), (120, 1, 120, 120, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg75_1, buf49
        buf52 = buf50  # written over buf50, which dies here
        kernel_native_batch_norm_legit_no_training_relu_mean_convolution_74fde973f7(((32) + 31) // 32 * (((32) + 31) // 32), buf50, arg76_1, buf52, 32, 32, 32, 32)
        del arg76_1, buf50
        buf53 = _c13(buf52, _view(arg77_1, (120, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg77_1, buf52
        buf55 = buf47  # written over buf47, which dies here
        kernel_native_batch_norm_legit_no_training_relu_mean_convolution_fa24084de9(((25088) + 15) // 16 * (((120) + 127) // 128), buf47, arg71_1, arg72_1, arg73_1, arg74_1, buf53, arg78_1, buf55, 25088, 120, 16, 128)
        del arg71_1, arg72_1, arg73_1, arg74_1, arg78_1, buf47, buf53
        buf56 = _c14(buf55, _view(arg79_1, (40, 120, 1, 1, ), (120, 1, 120, 120, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg79_1, buf55
        buf58 = buf42  # written over buf42, which dies here
        kernel_native_batch_norm_legit_no_training_add_b7bebccc56(((25088) + 31) // 32 * (((40) + 63) // 64), buf56, arg80_1, arg81_1, arg82_1, arg83_1, buf42, buf58, 25088, 40, 32, 64)
        del arg80_1, arg81_1, arg82_1, arg83_1, buf42, buf56
        buf59 = _c15(buf58, _view(arg84_1, (120, 40, 1, 1, ), (40, 1, 40, 40, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg84_1
        buf61 = buf59  # written over buf59, which dies here
        buf62 = _empty_cuda((120, 1, 5, 5, ), (1, 3000, 600, 120, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_5a9e652b57(((25088) + 15) // 16 * (((120) + 127) // 128) + ((25) + 31) // 32 * (((120) + 31) // 32), buf59, arg85_1, arg86_1, arg87_1, arg88_1, buf61, arg89_1, buf62, 25088, 120, 25, 120, ((25088) + 15) // 16 * (((120) + 127) // 128), 16, 128, 32, 32)
        del arg85_1, arg86_1, arg87_1, arg88_1, arg89_1, buf59
        buf63 = _empty_cuda((32, 120, 28, 28, ), (94080, 1, 3360, 120, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_convolution_3a9730a1fb(((25088) + 3) // 4 * (((120) + 127) // 128), buf61, buf62, buf63, 25088, 120, 4, 128)
        del buf61, buf62
        buf65 = _empty_cuda((32, 120, 1, 1, ), (120, 1, 120, 120, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_relu_mean_7406ffb4d1(((3840) + 63) // 64, buf63, arg90_1, arg91_1, arg92_1, arg93_1, buf65, 3840, 784, 64, 64)
        buf66 = _c16(buf65, _view(arg94_1, (32, 120, 1, 1, ), (120, 1, 120, 120, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg94_1, buf65
        buf68 = buf66  # written over buf66, which dies here
        kernel_native_batch_norm_legit_no_training_relu_mean_convolution_74fde973f7(((32) + 31) // 32 * (((32) + 31) // 32), buf66, arg95_1, buf68, 32, 32, 32, 32)
        del arg95_1, buf66
        buf69 = _c17(buf68, _view(arg96_1, (120, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg96_1, buf68
        buf71 = buf63  # written over buf63, which dies here
        kernel_native_batch_norm_legit_no_training_relu_mean_convolution_fa24084de9(((25088) + 15) // 16 * (((120) + 127) // 128), buf63, arg90_1, arg91_1, arg92_1, arg93_1, buf69, arg97_1, buf71, 25088, 120, 16, 128)
        del arg90_1, arg91_1, arg92_1, arg93_1, arg97_1, buf63, buf69
        buf72 = _c18(buf71, _view(arg98_1, (40, 120, 1, 1, ), (120, 1, 120, 120, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg98_1, buf71
        buf74 = buf58  # written over buf58, which dies here
        kernel_native_batch_norm_legit_no_training_add_b7bebccc56(((25088) + 31) // 32 * (((40) + 63) // 64), buf72, arg99_1, arg100_1, arg101_1, arg102_1, buf58, buf74, 25088, 40, 32, 64)
        del arg100_1, arg101_1, arg102_1, arg99_1, buf58, buf72
        buf75 = _c19(buf74, _view(arg103_1, (240, 40, 1, 1, ), (40, 1, 40, 40, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg103_1, buf74
        buf77 = buf75  # written over buf75, which dies here
        buf78 = _empty_cuda((240, 1, 3, 3, ), (1, 2160, 720, 240, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_b71881b376(((25088) + 7) // 8 * (((240) + 255) // 256) + ((9) + 15) // 16 * (((240) + 31) // 32), buf75, arg104_1, arg105_1, arg106_1, arg107_1, buf77, arg108_1, buf78, 25088, 240, 9, 240, ((25088) + 7) // 8 * (((240) + 255) // 256), 8, 256, 16, 32)
        del arg104_1, arg105_1, arg106_1, arg107_1, arg108_1, buf75
        buf80 = _empty_cuda((32, 240, 14, 14, ), (47040, 1, 3360, 240, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_bf281d8e90(((6272) + 3) // 4 * (((240) + 255) // 256), buf77, buf78, arg109_1, arg110_1, arg111_1, arg112_1, buf80, 6272, 240, 4, 256)
        del arg109_1, arg110_1, arg111_1, arg112_1, buf77, buf78
        buf81 = _c20(buf80, _view(arg113_1, (80, 240, 1, 1, ), (240, 1, 240, 240, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg113_1, buf80
        buf83 = buf81  # written over buf81, which dies here
        kernel_native_batch_norm_legit_no_training_e8d5178907(((6272) + 63) // 64 * (((80) + 31) // 32), buf81, arg114_1, arg115_1, arg116_1, arg117_1, buf83, 6272, 80, 64, 32)
        del arg114_1, arg115_1, arg116_1, arg117_1, buf81
        buf84 = _c21(buf83, _view(arg118_1, (200, 80, 1, 1, ), (80, 1, 80, 80, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg118_1
        buf86 = buf84  # written over buf84, which dies here
        buf87 = _empty_cuda((200, 1, 3, 3, ), (1, 1800, 600, 200, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_3c4423676e(((6272) + 63) // 64 * (((200) + 31) // 32) + ((9) + 15) // 16 * (((200) + 31) // 32), buf84, arg119_1, arg120_1, arg121_1, arg122_1, buf86, arg123_1, buf87, 6272, 200, 9, 200, ((6272) + 63) // 64 * (((200) + 31) // 32), 64, 32, 16, 32)
        del arg119_1, arg120_1, arg121_1, arg122_1, arg123_1, buf84
        buf89 = _empty_cuda((32, 200, 14, 14, ), (39200, 1, 2800, 200, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_a1d4f16e57(((6272) + 31) // 32 * (((200) + 31) // 32), buf86, buf87, arg124_1, arg125_1, arg126_1, arg127_1, buf89, 6272, 200, 32, 32)
        del arg124_1, arg125_1, arg126_1, arg127_1, buf86, buf87
        buf90 = _c22(buf89, _view(arg128_1, (80, 200, 1, 1, ), (200, 1, 200, 200, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg128_1, buf89
        buf92 = buf83  # written over buf83, which dies here
        kernel_native_batch_norm_legit_no_training_add_c3b56f34e7(((6272) + 63) // 64 * (((80) + 31) // 32), buf90, arg129_1, arg130_1, arg131_1, arg132_1, buf83, buf92, 6272, 80, 64, 32)
        del arg129_1, arg130_1, arg131_1, arg132_1, buf83, buf90
        buf93 = _c23(buf92, _view(arg133_1, (184, 80, 1, 1, ), (80, 1, 80, 80, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg133_1
        buf95 = buf93  # written over buf93, which dies here
        buf96 = _empty_cuda((184, 1, 3, 3, ), (1, 1656, 552, 184, ), torch.bfloat16)
        buf105 = _empty_cuda((184, 1, 3, 3, ), (1, 1656, 552, 184, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_fc4bf83970(((6272) + 31) // 32 * (((184) + 63) // 64) + ((9) + 15) // 16 * (((184) + 31) // 32), buf93, arg134_1, arg135_1, arg136_1, arg137_1, buf95, arg138_1, buf96, arg153_1, buf105, 6272, 184, 9, 184, ((6272) + 31) // 32 * (((184) + 63) // 64), 32, 64, 16, 32)
        del arg134_1, arg135_1, arg136_1, arg137_1, arg138_1, arg153_1, buf93
        buf98 = _empty_cuda((32, 184, 14, 14, ), (36064, 1, 2576, 184, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_4a04dd1253(((6272) + 15) // 16 * (((184) + 63) // 64), buf95, buf96, arg139_1, arg140_1, arg141_1, arg142_1, buf98, 6272, 184, 16, 64)
        del arg139_1, arg140_1, arg141_1, arg142_1, buf95, buf96
        buf99 = _c24(buf98, _view(arg143_1, (80, 184, 1, 1, ), (184, 1, 184, 184, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg143_1, buf98
        buf101 = buf92  # written over buf92, which dies here
        kernel_native_batch_norm_legit_no_training_add_c3b56f34e7(((6272) + 63) // 64 * (((80) + 31) // 32), buf99, arg144_1, arg145_1, arg146_1, arg147_1, buf92, buf101, 6272, 80, 64, 32)
        del arg144_1, arg145_1, arg146_1, arg147_1, buf92, buf99
        buf102 = _c25(buf101, _view(arg148_1, (184, 80, 1, 1, ), (80, 1, 80, 80, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg148_1
        buf104 = buf102  # written over buf102, which dies here
        kernel_native_batch_norm_legit_no_training_hardswish_df4aada46e(((6272) + 31) // 32 * (((184) + 63) // 64), buf102, arg149_1, arg150_1, arg151_1, arg152_1, buf104, 6272, 184, 32, 64)
        del arg149_1, arg150_1, arg151_1, arg152_1, buf102
        buf107 = _empty_cuda((32, 184, 14, 14, ), (36064, 1, 2576, 184, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_4a04dd1253(((6272) + 15) // 16 * (((184) + 63) // 64), buf104, buf105, arg154_1, arg155_1, arg156_1, arg157_1, buf107, 6272, 184, 16, 64)
        del arg154_1, arg155_1, arg156_1, arg157_1, buf104, buf105
        buf108 = _c26(buf107, _view(arg158_1, (80, 184, 1, 1, ), (184, 1, 184, 184, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg158_1, buf107
        buf110 = buf101  # written over buf101, which dies here
        kernel_native_batch_norm_legit_no_training_add_c3b56f34e7(((6272) + 63) // 64 * (((80) + 31) // 32), buf108, arg159_1, arg160_1, arg161_1, arg162_1, buf101, buf110, 6272, 80, 64, 32)
        del arg159_1, arg160_1, arg161_1, arg162_1, buf101, buf108
        buf111 = _c27(buf110, _view(arg163_1, (480, 80, 1, 1, ), (80, 1, 80, 80, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg163_1, buf110
        buf113 = buf111  # written over buf111, which dies here
        buf114 = _empty_cuda((480, 1, 3, 3, ), (1, 4320, 1440, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_0e1ec40638(((6272) + 63) // 64 * (((480) + 31) // 32) + ((9) + 15) // 16 * (((480) + 31) // 32), buf111, arg164_1, arg165_1, arg166_1, arg167_1, buf113, arg168_1, buf114, 6272, 480, 9, 480, ((6272) + 63) // 64 * (((480) + 31) // 32), 64, 32, 16, 32)
        del arg164_1, arg165_1, arg166_1, arg167_1, arg168_1, buf111
        buf115 = _empty_cuda((32, 480, 14, 14, ), (94080, 1, 6720, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_5115033247(((6272) + 31) // 32 * (((480) + 31) // 32), buf113, buf114, arg169_1, arg170_1, arg171_1, arg172_1, buf115, 6272, 480, 32, 32)
        del arg169_1, arg170_1, arg171_1, arg172_1, buf113, buf114
        buf117 = _empty_cuda((32, 480, 1, 1, ), (480, 1, 480, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_mean_e60ef3a931(((15360) + 63) // 64, buf115, buf117, 15360, 196, 64, 64)
        buf118 = _c28(buf117, _view(arg173_1, (120, 480, 1, 1, ), (480, 1, 480, 480, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg173_1, buf117
        buf120 = buf118  # written over buf118, which dies here
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_mean_f403026dad(((32) + 15) // 16 * (((120) + 127) // 128), buf118, arg174_1, buf120, 32, 120, 16, 128)
        del arg174_1, buf118
        buf121 = _c29(buf120, _view(arg175_1, (480, 120, 1, 1, ), (120, 1, 120, 120, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg175_1, buf120
        buf123 = buf115  # written over buf115, which dies here
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_mean_c8fd978133(((6272) + 63) // 64 * (((480) + 31) // 32), buf115, buf121, arg176_1, buf123, 6272, 480, 64, 32)
        del arg176_1, buf115, buf121
        buf124 = _c30(buf123, _view(arg177_1, (112, 480, 1, 1, ), (480, 1, 480, 480, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg177_1, buf123
        buf126 = buf124  # written over buf124, which dies here
        kernel_native_batch_norm_legit_no_training_9c3fd5a962(((6272) + 15) // 16 * (((112) + 127) // 128), buf124, arg178_1, arg179_1, arg180_1, arg181_1, buf126, 6272, 112, 16, 128)
        del arg178_1, arg179_1, arg180_1, arg181_1, buf124
        buf127 = _c31(buf126, _view(arg182_1, (672, 112, 1, 1, ), (112, 1, 112, 112, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg182_1
        buf129 = buf127  # written over buf127, which dies here
        buf130 = _empty_cuda((672, 1, 3, 3, ), (1, 6048, 2016, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_a5093933df(((6272) + 31) // 32 * (((672) + 63) // 64) + ((9) + 15) // 16 * (((672) + 31) // 32), buf127, arg183_1, arg184_1, arg185_1, arg186_1, buf129, arg187_1, buf130, 6272, 672, 9, 672, ((6272) + 31) // 32 * (((672) + 63) // 64), 32, 64, 16, 32)
        del arg183_1, arg184_1, arg185_1, arg186_1, arg187_1, buf127
        buf131 = _empty_cuda((32, 672, 14, 14, ), (131712, 1, 9408, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_af0c9ec8c2(((6272) + 15) // 16 * (((672) + 63) // 64), buf129, buf130, arg188_1, arg189_1, arg190_1, arg191_1, buf131, 6272, 672, 16, 64)
        del arg188_1, arg189_1, arg190_1, arg191_1, buf129, buf130
        buf133 = _empty_cuda((32, 672, 1, 1, ), (672, 1, 672, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_mean_b141490412(((21504) + 63) // 64, buf131, buf133, 21504, 196, 64, 64)
        buf134 = _c32(buf133, _view(arg192_1, (168, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg192_1, buf133
        buf136 = buf134  # written over buf134, which dies here
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_mean_832f2a21f5(((32) + 31) // 32 * (((168) + 63) // 64), buf134, arg193_1, buf136, 32, 168, 32, 64)
        del arg193_1, buf134
        buf137 = _c33(buf136, _view(arg194_1, (672, 168, 1, 1, ), (168, 1, 168, 168, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg194_1, buf136
        buf139 = buf131  # written over buf131, which dies here
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_mean_d58444c3a0(((6272) + 31) // 32 * (((672) + 63) // 64), buf131, buf137, arg195_1, buf139, 6272, 672, 32, 64)
        del arg195_1, buf131, buf137
        buf140 = _c34(buf139, _view(arg196_1, (112, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg196_1, buf139
        buf142 = buf126  # written over buf126, which dies here
        kernel_native_batch_norm_legit_no_training_add_4d94a59b8b(((6272) + 15) // 16 * (((112) + 127) // 128), buf140, arg197_1, arg198_1, arg199_1, arg200_1, buf126, buf142, 6272, 112, 16, 128)
        del arg197_1, arg198_1, arg199_1, arg200_1, buf126, buf140
        buf143 = _c35(buf142, _view(arg201_1, (672, 112, 1, 1, ), (112, 1, 112, 112, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg201_1, buf142
        buf145 = buf143  # written over buf143, which dies here
        buf146 = _empty_cuda((672, 1, 5, 5, ), (1, 16800, 3360, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_40d5019fc8(((6272) + 31) // 32 * (((672) + 63) // 64) + ((25) + 31) // 32 * (((672) + 31) // 32), buf143, arg202_1, arg203_1, arg204_1, arg205_1, buf145, arg206_1, buf146, 6272, 672, 25, 672, ((6272) + 31) // 32 * (((672) + 63) // 64), 32, 64, 32, 32)
        del arg202_1, arg203_1, arg204_1, arg205_1, arg206_1, buf143
        buf147 = _empty_cuda((32, 672, 7, 7, ), (32928, 1, 4704, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_27434c24c9(((1568) + 7) // 8 * (((672) + 63) // 64), buf145, buf146, buf147, 1568, 672, 8, 64)
        del buf145, buf146
        buf148 = _empty_cuda((32, 672, 7, 7, ), (32928, 49, 7, 1, ), torch.bfloat16)
        buf150 = _empty_cuda((32, 672, 1, 1, ), (672, 1, 672, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_mean_6527efd2ef(((21504) + 63) // 64, buf147, arg207_1, arg208_1, arg209_1, arg210_1, buf148, buf150, 21504, 49, 64, 64)
        del arg207_1, arg208_1, arg209_1, arg210_1, buf147
        buf151 = _c36(buf150, _view(arg211_1, (168, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg211_1, buf150
        buf153 = buf151  # written over buf151, which dies here
        kernel_mean_convolution_relu_5a45d749fe(((32) + 31) // 32 * (((168) + 63) // 64), buf151, arg212_1, buf153, 32, 168, 32, 64)
        del arg212_1, buf151
        buf154 = _c37(buf153, _view(arg213_1, (672, 168, 1, 1, ), (168, 1, 168, 168, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg213_1, buf153
        buf156 = _empty_cuda((32, 672, 7, 7, ), (32928, 1, 4704, 672, ), torch.bfloat16)
        kernel_mean_convolution_relu_hardsigmoid_337eacd121(((1568) + 63) // 64 * (((672) + 63) // 64), buf148, buf154, arg214_1, buf156, 1568, 672, 64, 64)
        del arg214_1, buf148, buf154
        buf157 = _c38(buf156, _view(arg215_1, (160, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg215_1, buf156
        buf159 = buf157  # written over buf157, which dies here
        kernel_native_batch_norm_legit_no_training_4b85b23642(((1568) + 63) // 64 * (((160) + 31) // 32), buf157, arg216_1, arg217_1, arg218_1, arg219_1, buf159, 1568, 160, 64, 32)
        del arg216_1, arg217_1, arg218_1, arg219_1, buf157
        buf160 = _c39(buf159, _view(arg220_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg220_1
        buf162 = buf160  # written over buf160, which dies here
        buf163 = _empty_cuda((960, 1, 5, 5, ), (1, 24000, 4800, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_b596301032(((1568) + 31) // 32 * (((960) + 63) // 64) + ((25) + 31) // 32 * (((960) + 31) // 32), buf160, arg221_1, arg222_1, arg223_1, arg224_1, buf162, arg225_1, buf163, 1568, 960, 25, 960, ((1568) + 31) // 32 * (((960) + 63) // 64), 32, 64, 32, 32)
        del arg221_1, arg222_1, arg223_1, arg224_1, arg225_1, buf160
        buf164 = _empty_cuda((32, 960, 7, 7, ), (47040, 1, 6720, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_a1243ce7eb(((1568) + 7) // 8 * (((960) + 63) // 64), buf162, buf163, buf164, 1568, 960, 8, 64)
        del buf162, buf163
        buf165 = _empty_cuda((32, 960, 7, 7, ), (47040, 49, 7, 1, ), torch.bfloat16)
        buf167 = _empty_cuda((32, 960, 1, 1, ), (960, 1, 960, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_mean_16acd659cb(((30720) + 63) // 64, buf164, arg226_1, arg227_1, arg228_1, arg229_1, buf165, buf167, 30720, 49, 64, 64)
        del arg226_1, arg227_1, arg228_1, arg229_1, buf164
        buf168 = _c40(buf167, _view(arg230_1, (240, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg230_1, buf167
        buf170 = buf168  # written over buf168, which dies here
        kernel_mean_convolution_relu_7b7fd04e9e(((32) + 7) // 8 * (((240) + 255) // 256), buf168, arg231_1, buf170, 32, 240, 8, 256)
        del arg231_1, buf168
        buf171 = _c41(buf170, _view(arg232_1, (960, 240, 1, 1, ), (240, 1, 240, 240, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg232_1, buf170
        buf173 = _empty_cuda((32, 960, 7, 7, ), (47040, 1, 6720, 960, ), torch.bfloat16)
        kernel_mean_convolution_relu_hardsigmoid_b9bb6da81b(((1568) + 63) // 64 * (((960) + 63) // 64), buf165, buf171, arg233_1, buf173, 1568, 960, 64, 64)
        del arg233_1, buf165, buf171
        buf174 = _c42(buf173, _view(arg234_1, (160, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg234_1, buf173
        buf176 = buf159  # written over buf159, which dies here
        kernel_native_batch_norm_legit_no_training_add_f2fe228755(((1568) + 63) // 64 * (((160) + 31) // 32), buf174, arg235_1, arg236_1, arg237_1, arg238_1, buf159, buf176, 1568, 160, 64, 32)
        del arg235_1, arg236_1, arg237_1, arg238_1, buf159, buf174
        buf177 = _c43(buf176, _view(arg239_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg239_1
        buf179 = buf177  # written over buf177, which dies here
        buf180 = _empty_cuda((960, 1, 5, 5, ), (1, 24000, 4800, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_b596301032(((1568) + 31) // 32 * (((960) + 63) // 64) + ((25) + 31) // 32 * (((960) + 31) // 32), buf177, arg240_1, arg241_1, arg242_1, arg243_1, buf179, arg244_1, buf180, 1568, 960, 25, 960, ((1568) + 31) // 32 * (((960) + 63) // 64), 32, 64, 32, 32)
        del arg240_1, arg241_1, arg242_1, arg243_1, arg244_1, buf177
        buf181 = _empty_cuda((32, 960, 7, 7, ), (47040, 1, 6720, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_convolution_a1243ce7eb(((1568) + 7) // 8 * (((960) + 63) // 64), buf179, buf180, buf181, 1568, 960, 8, 64)
        del buf179, buf180
        buf182 = _empty_cuda((32, 960, 7, 7, ), (47040, 49, 7, 1, ), torch.bfloat16)
        buf184 = _empty_cuda((32, 960, 1, 1, ), (960, 1, 960, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_mean_16acd659cb(((30720) + 63) // 64, buf181, arg245_1, arg246_1, arg247_1, arg248_1, buf182, buf184, 30720, 49, 64, 64)
        del arg245_1, arg246_1, arg247_1, arg248_1, buf181
        buf185 = _c44(buf184, _view(arg249_1, (240, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg249_1, buf184
        buf187 = buf185  # written over buf185, which dies here
        kernel_mean_convolution_relu_7b7fd04e9e(((32) + 7) // 8 * (((240) + 255) // 256), buf185, arg250_1, buf187, 32, 240, 8, 256)
        del arg250_1, buf185
        buf188 = _c45(buf187, _view(arg251_1, (960, 240, 1, 1, ), (240, 1, 240, 240, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg251_1, buf187
        buf190 = _empty_cuda((32, 960, 7, 7, ), (47040, 1, 6720, 960, ), torch.bfloat16)
        kernel_mean_convolution_relu_hardsigmoid_b9bb6da81b(((1568) + 63) // 64 * (((960) + 63) // 64), buf182, buf188, arg252_1, buf190, 1568, 960, 64, 64)
        del arg252_1, buf182, buf188
        buf191 = _c46(buf190, _view(arg253_1, (160, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg253_1, buf190
        buf193 = buf176  # written over buf176, which dies here
        kernel_native_batch_norm_legit_no_training_add_f2fe228755(((1568) + 63) // 64 * (((160) + 31) // 32), buf191, arg254_1, arg255_1, arg256_1, arg257_1, buf176, buf193, 1568, 160, 64, 32)
        del arg254_1, arg255_1, arg256_1, arg257_1, buf176, buf191
        buf194 = _c47(buf193, _view(arg258_1, (960, 160, 1, 1, ), (160, 1, 160, 160, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg258_1, buf193
        buf197 = _empty_cuda((32, 960, 1, 1, ), (960, 1, 960, 960, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_hardswish_mean_df5d1db678(((30720) + 63) // 64, buf194, arg259_1, arg260_1, arg261_1, arg262_1, buf197, 30720, 49, 64, 64)
        del arg259_1, arg260_1, arg261_1, arg262_1, buf194
        buf198 = _c48(buf197, _view(arg263_1, (1280, 960, 1, 1, ), (960, 1, 960, 960, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg263_1, buf197
        buf200 = _view(buf198, (32, 1280, ), (1280, 1, ), 0)  # written over buf198, which dies here
        kernel_native_batch_norm_legit_no_training_hardswish_mean_convolution_264297ab52(((32) + 7) // 8 * (((1280) + 255) // 256), buf198, arg264_1, buf200, 32, 1280, 8, 256)
        del arg264_1, buf198
        buf201 = _c49(arg266_1, buf200, _view(arg265_1, (1280, 1000, ), (1, 1280, ), 0))  # aten.addmm.default
        del arg265_1, arg266_1, buf200
        return (buf201,)
