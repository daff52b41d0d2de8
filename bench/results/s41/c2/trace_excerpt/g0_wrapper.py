# kiln wrapper for g0_inference
def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1, arg42_1, arg43_1, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, arg49_1, arg50_1, arg51_1, arg52_1, arg53_1, arg54_1, arg55_1, arg56_1, arg57_1, arg58_1, arg59_1, arg60_1, arg61_1, arg62_1, arg63_1, arg64_1, arg65_1, arg66_1, arg67_1, arg68_1, arg69_1, arg70_1, arg71_1, arg72_1, arg73_1, arg74_1, arg75_1, arg76_1, arg77_1, arg78_1, arg79_1, arg80_1, arg81_1, arg82_1, arg83_1, arg84_1, arg85_1, arg86_1, arg87_1, arg88_1, arg89_1, arg90_1, arg91_1, arg92_1, arg93_1, arg94_1, arg95_1, arg96_1, arg97_1, arg98_1, arg99_1, arg100_1, arg101_1, arg102_1, arg103_1, arg104_1, arg105_1, arg106_1, arg107_1, arg108_1, arg109_1, arg110_1, arg111_1, arg112_1, arg113_1, arg114_1, arg115_1, arg116_1, arg117_1, arg118_1, arg119_1, arg120_1, arg121_1, arg122_1, arg123_1, arg124_1, arg125_1, arg126_1, arg127_1, arg128_1, arg129_1, arg130_1, arg131_1, arg132_1, arg133_1, arg134_1, arg135_1, arg136_1, arg137_1, arg138_1, arg139_1, arg140_1, arg141_1, arg142_1, arg143_1, arg144_1, arg145_1, arg146_1, arg147_1, arg148_1, arg149_1, arg150_1, arg151_1, arg152_1, arg153_1, arg154_1, arg155_1, arg156_1, arg157_1, arg158_1, arg159_1, arg160_1, arg161_1, arg162_1, arg163_1, arg164_1, arg165_1, arg166_1, arg167_1, arg168_1, arg169_1, arg170_1, arg171_1, arg172_1, arg173_1, arg174_1, arg175_1, arg176_1, arg177_1, arg178_1, arg179_1, arg180_1, arg181_1, arg182_1, arg183_1, arg184_1, arg185_1, arg186_1, arg187_1, arg188_1, arg189_1, arg190_1, arg191_1, arg192_1, arg193_1, arg194_1, arg195_1, arg196_1, arg197_1, arg198_1, arg199_1, arg200_1, arg201_1, arg202_1, arg203_1, arg204_1, arg205_1, arg206_1, arg207_1, arg208_1, arg209_1, arg210_1, arg211_1, arg212_1, arg213_1, arg214_1, arg215_1, arg216_1, arg217_1, arg218_1, arg219_1, arg220_1, arg221_1, arg222_1, arg223_1, arg224_1, arg225_1, arg226_1, arg227_1, arg228_1, arg229_1, arg230_1, arg231_1, arg232_1, arg233_1, arg234_1, arg235_1, arg236_1, arg237_1, arg238_1, arg239_1, arg240_1, arg241_1, arg242_1, arg243_1, arg244_1, arg245_1, arg246_1, arg247_1, arg248_1, arg249_1, arg250_1, arg251_1, arg252_1, arg253_1, arg254_1, arg255_1, arg256_1, arg257_1, arg258_1, arg259_1, arg260_1, arg261_1, arg262_1, arg263_1, arg264_1, arg265_1, arg266_1, arg267_1, arg268_1, arg269_1, arg270_1, arg271_1, arg272_1, arg273_1, arg274_1, arg275_1, arg276_1, arg277_1, arg278_1, arg279_1, arg280_1, arg281_1, arg282_1, arg283_1, arg284_1, arg285_1, arg286_1, arg287_1, arg288_1, arg289_1, arg290_1, arg291_1, arg292_1, arg293_1, arg294_1, arg295_1, arg296_1, arg297_1, arg298_1, arg299_1, arg300_1, arg301_1, arg302_1, arg303_1, arg304_1, arg305_1, arg306_1, arg307_1, arg308_1, arg309_1, arg310_1, arg311_1 = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        buf1 = _empty_cuda((32, 3, 224, 224, ), (150528, 1, 672, 3, ), torch.bfloat16)
        buf2 = _empty_cuda((32, 3, 3, 3, ), (27, 1, 9, 3, ), torch.bfloat16)
        kernel_convolution_b1a83a1a40(((1605632) + 63) // 64 * (((3) + 3) // 4) + ((288) + 31) // 32 * (((3) + 3) // 4), arg1_1, buf1, arg0_1, buf2, 1605632, 3, 288, 3, ((1605632) + 63) // 64 * (((3) + 3) // 4), 64, 4, 32, 4)
        del arg0_1, arg1_1
        buf3 = _c1(buf1, buf2, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del buf1, buf2
        buf5 = buf3  # written over buf3, which dies here
        kernel_native_batch_norm_legit_no_training_silu_3baa97c8bf(((401408) + 63) // 64 * (((32) + 31) // 32), buf3, arg2_1, arg3_1, arg4_1, arg5_1, buf5, 401408, 32, 64, 32)
        del arg2_1, arg3_1, arg4_1, arg5_1, buf3
        buf6 = _empty_cuda((32, 32, 112, 112, ), (401408, 12544, 112, 1, ), torch.bfloat16)
        buf8 = _empty_cuda((32, 32, 1, 1, ), (32, 1, 32, 32, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_967f63a12c(((1024) + 0) // 1, buf5, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, buf6, buf8, 1024, 12544, 1, 16384)
        del arg10_1, arg6_1, arg7_1, arg8_1, arg9_1, buf5
        buf9 = _c2(buf8, _view(arg11_1, (8, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg11_1, buf8
        buf11 = buf9  # written over buf9, which dies here
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_5fcfb0d76b(((32) + 31) // 32 * (((8) + 7) // 8), buf9, arg12_1, buf11, 32, 8, 32, 8)
        del arg12_1, buf9
        buf12 = _c3(buf11, _view(arg13_1, (32, 8, 1, 1, ), (8, 1, 8, 8, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg13_1, buf11
        buf14 = _empty_cuda((32, 32, 112, 112, ), (401408, 1, 3584, 32, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_9a9dfaa009(((401408) + 63) // 64 * (((32) + 31) // 32), buf6, buf12, arg14_1, buf14, 401408, 32, 64, 32)
        del arg14_1, buf12, buf6
        buf15 = _c4(buf14, _view(arg15_1, (16, 32, 1, 1, ), (32, 1, 32, 32, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg15_1, buf14
        buf17 = buf15  # written over buf15, which dies here
        kernel_native_batch_norm_legit_no_training_ec9cf465e0(((401408) + 127) // 128 * (((16) + 15) // 16), buf15, arg16_1, arg17_1, arg18_1, arg19_1, buf17, 401408, 16, 128, 16)
        del arg16_1, arg17_1, arg18_1, arg19_1, buf15
        buf18 = _c5(buf17, _view(arg20_1, (96, 16, 1, 1, ), (16, 1, 16, 16, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg20_1, buf17
        buf20 = buf18  # written over buf18, which dies here
        kernel_native_batch_norm_legit_no_training_silu_0dd48ac0a0(((401408) + 15) // 16 * (((96) + 127) // 128), buf18, arg21_1, arg22_1, arg23_1, arg24_1, buf20, 401408, 96, 16, 128)
        del arg21_1, arg22_1, arg23_1, arg24_1, buf18
        buf21 = _empty_cuda((32, 96, 56, 56, ), (301056, 3136, 56, 1, ), torch.bfloat16)
        buf23 = _empty_cuda((32, 96, 1, 1, ), (96, 1, 96, 96, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_a5143caeec(((3072) + 0) // 1, buf20, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, buf21, buf23, 3072, 3136, 1, 4096)
        del arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, buf20
        buf24 = _c6(buf23, _view(arg30_1, (4, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg30_1, buf23
        buf26 = buf24  # written over buf24, which dies here
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_9dd3d32ef9(((32) + 31) // 32 * (((4) + 3) // 4), buf24, arg31_1, buf26, 32, 4, 32, 4)
        del arg31_1, buf24
        buf27 = _c7(buf26, _view(arg32_1, (96, 4, 1, 1, ), (4, 1, 4, 4, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg32_1, buf26
        buf29 = _empty_cuda((32, 96, 56, 56, ), (301056, 1, 5376, 96, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_a6dece6bb6(((100352) + 63) // 64 * (((96) + 63) // 64), buf21, buf27, arg33_1, buf29, 100352, 96, 64, 64)
        del arg33_1, buf21, buf27
        buf30 = _c8(buf29, _view(arg34_1, (24, 96, 1, 1, ), (96, 1, 96, 96, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg34_1, buf29
        buf32 = buf30  # written over buf30, which dies here
        kernel_native_batch_norm_legit_no_training_b4425cb0be(((100352) + 63) // 64 * (((24) + 31) // 32), buf30, arg35_1, arg36_1, arg37_1, arg38_1, buf32, 100352, 24, 64, 32)
        del arg35_1, arg36_1, arg37_1, arg38_1, buf30
        buf33 = _c9(buf32, _view(arg39_1, (144, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg39_1
        buf35 = buf33  # written over buf33, which dies here
        kernel_native_batch_norm_legit_no_training_silu_9d9cf135e4(((100352) + 15) // 16 * (((144) + 127) // 128), buf33, arg40_1, arg41_1, arg42_1, arg43_1, buf35, 100352, 144, 16, 128)
        del arg40_1, arg41_1, arg42_1, arg43_1, buf33
        buf36 = _empty_cuda((32, 144, 56, 56, ), (451584, 3136, 56, 1, ), torch.bfloat16)
        buf38 = _empty_cuda((32, 144, 1, 1, ), (144, 1, 144, 144, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_820372900e(((4608) + 0) // 1, buf35, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, buf36, buf38, 4608, 3136, 1, 4096)
        del arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, buf35
        buf39 = _c10(buf38, _view(arg49_1, (6, 144, 1, 1, ), (144, 1, 144, 144, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg49_1, buf38
        buf41 = buf39  # written over buf39, which dies here
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_006b46bcf5(((32) + 31) // 32 * (((6) + 7) // 8), buf39, arg50_1, buf41, 32, 6, 32, 8)
        del arg50_1, buf39
        buf42 = _c11(buf41, _view(arg51_1, (144, 6, 1, 1, ), (6, 1, 6, 6, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg51_1, buf41
        buf44 = _empty_cuda((32, 144, 56, 56, ), (451584, 1, 8064, 144, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_7f0b804d31(((100352) + 63) // 64 * (((144) + 63) // 64), buf36, buf42, arg52_1, buf44, 100352, 144, 64, 64)
        del arg52_1, buf36, buf42
        buf45 = _c12(buf44, _view(arg53_1, (24, 144, 1, 1, ), (144, 1, 144, 144, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg53_1, buf44
        buf47 = buf32  # written over buf32, which dies here
        kernel_native_batch_norm_legit_no_training_add_6fb039446e(((100352) + 63) // 64 * (((24) + 31) // 32), buf45, arg54_1, arg55_1, arg56_1, arg57_1, buf32, buf47, 100352, 24, 64, 32)
        del arg54_1, arg55_1, arg56_1, arg57_1, buf32, buf45
        buf48 = _c13(buf47, _view(arg58_1, (144, 24, 1, 1, ), (24, 1, 24, 24, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg58_1, buf47
        buf50 = buf48  # written over buf48, which dies here
        kernel_native_batch_norm_legit_no_training_silu_9d9cf135e4(((100352) + 15) // 16 * (((144) + 127) // 128), buf48, arg59_1, arg60_1, arg61_1, arg62_1, buf50, 100352, 144, 16, 128)
        del arg59_1, arg60_1, arg61_1, arg62_1, buf48
        buf52 = _empty_cuda((32, 144, 28, 28, ), (112896, 784, 28, 1, ), torch.bfloat16)
        buf54 = _empty_cuda((32, 144, 1, 1, ), (144, 1, 144, 144, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_04365ada2e(((4608) + 0) // 1, buf50, arg63_1, arg64_1, arg65_1, arg66_1, arg67_1, buf52, buf54, 4608, 784, 1, 1024)
        del arg63_1, arg64_1, arg65_1, arg66_1, arg67_1, buf50
        buf55 = _c14(buf54, _view(arg68_1, (6, 144, 1, 1, ), (144, 1, 144, 144, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg68_1, buf54
        buf57 = buf55  # written over buf55, which dies here
        kernel_mean_convolution_silu_facf91968b(((32) + 31) // 32 * (((6) + 7) // 8), buf55, arg69_1, buf57, 32, 6, 32, 8)
        del arg69_1, buf55
        buf58 = _c15(buf57, _view(arg70_1, (144, 6, 1, 1, ), (6, 1, 6, 6, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg70_1, buf57
        buf60 = _empty_cuda((32, 144, 28, 28, ), (112896, 1, 4032, 144, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_d68aef6191(((25088) + 63) // 64 * (((144) + 63) // 64), buf52, buf58, arg71_1, buf60, 25088, 144, 64, 64)
        del arg71_1, buf52, buf58
        buf61 = _c16(buf60, _view(arg72_1, (40, 144, 1, 1, ), (144, 1, 144, 144, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg72_1, buf60
        buf63 = buf61  # written over buf61, which dies here
        kernel_native_batch_norm_legit_no_training_80a42e72b4(((25088) + 31) // 32 * (((40) + 63) // 64), buf61, arg73_1, arg74_1, arg75_1, arg76_1, buf63, 25088, 40, 32, 64)
        del arg73_1, arg74_1, arg75_1, arg76_1, buf61
        buf64 = _c17(buf63, _view(arg77_1, (240, 40, 1, 1, ), (40, 1, 40, 40, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg77_1
        buf66 = buf64  # written over buf64, which dies here
        kernel_native_batch_norm_legit_no_training_silu_1a4b252d33(((25088) + 15) // 16 * (((240) + 127) // 128), buf64, arg78_1, arg79_1, arg80_1, arg81_1, buf66, 25088, 240, 16, 128)
        del arg78_1, arg79_1, arg80_1, arg81_1, buf64
        buf67 = _empty_cuda((32, 240, 28, 28, ), (188160, 1, 6720, 240, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_d1827e087a(((25088) + 3) // 4 * (((240) + 127) // 128), buf66, arg82_1, buf67, 25088, 240, 4, 128)
        del arg82_1, buf66
        buf68 = _empty_cuda((32, 240, 28, 28, ), (188160, 784, 28, 1, ), torch.bfloat16)
        buf70 = _empty_cuda((32, 240, 1, 1, ), (240, 1, 240, 240, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_mean_f18fd8a949(((7680) + 3) // 4, buf67, arg83_1, arg84_1, arg85_1, arg86_1, buf68, buf70, 7680, 784, 4, 1024)
        del arg83_1, arg84_1, arg85_1, arg86_1, buf67
        buf71 = _c18(buf70, _view(arg87_1, (10, 240, 1, 1, ), (240, 1, 240, 240, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg87_1, buf70
        buf73 = buf71  # written over buf71, which dies here
        kernel_mean_convolution_silu_67fb724edc(((32) + 31) // 32 * (((10) + 15) // 16), buf71, arg88_1, buf73, 32, 10, 32, 16)
        del arg88_1, buf71
        buf74 = _c19(buf73, _view(arg89_1, (240, 10, 1, 1, ), (10, 1, 10, 10, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg89_1, buf73
        buf76 = _empty_cuda((32, 240, 28, 28, ), (188160, 1, 6720, 240, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_a4d3d36a9c(((25088) + 63) // 64 * (((240) + 63) // 64), buf68, buf74, arg90_1, buf76, 25088, 240, 64, 64)
        del arg90_1, buf68, buf74
        buf77 = _c20(buf76, _view(arg91_1, (40, 240, 1, 1, ), (240, 1, 240, 240, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg91_1, buf76
        buf79 = buf63  # written over buf63, which dies here
        kernel_native_batch_norm_legit_no_training_add_66aa7923fb(((25088) + 31) // 32 * (((40) + 63) // 64), buf77, arg92_1, arg93_1, arg94_1, arg95_1, buf63, buf79, 25088, 40, 32, 64)
        del arg92_1, arg93_1, arg94_1, arg95_1, buf63, buf77
        buf80 = _c21(buf79, _view(arg96_1, (240, 40, 1, 1, ), (40, 1, 40, 40, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg96_1, buf79
        buf82 = buf80  # written over buf80, which dies here
        kernel_native_batch_norm_legit_no_training_silu_1a4b252d33(((25088) + 15) // 16 * (((240) + 127) // 128), buf80, arg97_1, arg98_1, arg99_1, arg100_1, buf82, 25088, 240, 16, 128)
        del arg100_1, arg97_1, arg98_1, arg99_1, buf80
        buf83 = _empty_cuda((32, 240, 14, 14, ), (47040, 196, 14, 1, ), torch.bfloat16)
        buf85 = _empty_cuda((32, 240, 1, 1, ), (240, 1, 240, 240, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_4553bcce4d(((7680) + 7) // 8, buf82, arg101_1, arg102_1, arg103_1, arg104_1, arg105_1, buf83, buf85, 7680, 196, 8, 256)
        del arg101_1, arg102_1, arg103_1, arg104_1, arg105_1, buf82
        buf86 = _c22(buf85, _view(arg106_1, (10, 240, 1, 1, ), (240, 1, 240, 240, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg106_1, buf85
        buf88 = buf86  # written over buf86, which dies here
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_46a22fddfa(((32) + 31) // 32 * (((10) + 15) // 16), buf86, arg107_1, buf88, 32, 10, 32, 16)
        del arg107_1, buf86
        buf89 = _c23(buf88, _view(arg108_1, (240, 10, 1, 1, ), (10, 1, 10, 10, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg108_1, buf88
        buf91 = _empty_cuda((32, 240, 14, 14, ), (47040, 1, 3360, 240, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_6f250d311e(((6272) + 63) // 64 * (((240) + 63) // 64), buf83, buf89, arg109_1, buf91, 6272, 240, 64, 64)
        del arg109_1, buf83, buf89
        buf92 = _c24(buf91, _view(arg110_1, (80, 240, 1, 1, ), (240, 1, 240, 240, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg110_1, buf91
        buf94 = buf92  # written over buf92, which dies here
        kernel_native_batch_norm_legit_no_training_e8d5178907(((6272) + 15) // 16 * (((80) + 127) // 128), buf92, arg111_1, arg112_1, arg113_1, arg114_1, buf94, 6272, 80, 16, 128)
        del arg111_1, arg112_1, arg113_1, arg114_1, buf92
        buf95 = _c25(buf94, _view(arg115_1, (480, 80, 1, 1, ), (80, 1, 80, 80, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg115_1
        buf97 = buf95  # written over buf95, which dies here
        kernel_native_batch_norm_legit_no_training_silu_cf15ab56e3(((6272) + 15) // 16 * (((480) + 127) // 128), buf95, arg116_1, arg117_1, arg118_1, arg119_1, buf97, 6272, 480, 16, 128)
        del arg116_1, arg117_1, arg118_1, arg119_1, buf95
        buf98 = _empty_cuda((32, 480, 14, 14, ), (94080, 196, 14, 1, ), torch.bfloat16)
        buf100 = _empty_cuda((32, 480, 1, 1, ), (480, 1, 480, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_f640ff8e05(((15360) + 7) // 8, buf97, arg120_1, arg121_1, arg122_1, arg123_1, arg124_1, buf98, buf100, 15360, 196, 8, 256)
        del arg120_1, arg121_1, arg122_1, arg123_1, arg124_1, buf97
        buf101 = _c26(buf100, _view(arg125_1, (20, 480, 1, 1, ), (480, 1, 480, 480, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg125_1, buf100
        buf103 = buf101  # written over buf101, which dies here
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_ab4720c3a4(((32) + 31) // 32 * (((20) + 31) // 32), buf101, arg126_1, buf103, 32, 20, 32, 32)
        del arg126_1, buf101
        buf104 = _c27(buf103, _view(arg127_1, (480, 20, 1, 1, ), (20, 1, 20, 20, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg127_1, buf103
        buf106 = _empty_cuda((32, 480, 14, 14, ), (94080, 1, 6720, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_168f44e133(((6272) + 63) // 64 * (((480) + 63) // 64), buf98, buf104, arg128_1, buf106, 6272, 480, 64, 64)
        del arg128_1, buf104, buf98
        buf107 = _c28(buf106, _view(arg129_1, (80, 480, 1, 1, ), (480, 1, 480, 480, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg129_1, buf106
        buf109 = buf107  # written over buf107, which dies here
        kernel_native_batch_norm_legit_no_training_add_c3b56f34e7(((6272) + 15) // 16 * (((80) + 127) // 128), buf107, arg130_1, arg131_1, arg132_1, arg133_1, buf94, buf109, 6272, 80, 16, 128)
        del arg130_1, arg131_1, arg132_1, arg133_1, buf107, buf94
        buf110 = _c29(buf109, _view(arg134_1, (480, 80, 1, 1, ), (80, 1, 80, 80, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg134_1
        buf112 = buf110  # written over buf110, which dies here
        kernel_native_batch_norm_legit_no_training_silu_cf15ab56e3(((6272) + 15) // 16 * (((480) + 127) // 128), buf110, arg135_1, arg136_1, arg137_1, arg138_1, buf112, 6272, 480, 16, 128)
        del arg135_1, arg136_1, arg137_1, arg138_1, buf110
        buf113 = _empty_cuda((32, 480, 14, 14, ), (94080, 196, 14, 1, ), torch.bfloat16)
        buf115 = _empty_cuda((32, 480, 1, 1, ), (480, 1, 480, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_f640ff8e05(((15360) + 7) // 8, buf112, arg139_1, arg140_1, arg141_1, arg142_1, arg143_1, buf113, buf115, 15360, 196, 8, 256)
        del arg139_1, arg140_1, arg141_1, arg142_1, arg143_1, buf112
        buf116 = _c30(buf115, _view(arg144_1, (20, 480, 1, 1, ), (480, 1, 480, 480, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg144_1, buf115
        buf118 = buf116  # written over buf116, which dies here
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_ab4720c3a4(((32) + 31) // 32 * (((20) + 31) // 32), buf116, arg145_1, buf118, 32, 20, 32, 32)
        del arg145_1, buf116
        buf119 = _c31(buf118, _view(arg146_1, (480, 20, 1, 1, ), (20, 1, 20, 20, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg146_1, buf118
        buf121 = _empty_cuda((32, 480, 14, 14, ), (94080, 1, 6720, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_168f44e133(((6272) + 63) // 64 * (((480) + 63) // 64), buf113, buf119, arg147_1, buf121, 6272, 480, 64, 64)
        del arg147_1, buf113, buf119
        buf122 = _c32(buf121, _view(arg148_1, (80, 480, 1, 1, ), (480, 1, 480, 480, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg148_1, buf121
        buf124 = buf109  # written over buf109, which dies here
        kernel_native_batch_norm_legit_no_training_add_c3b56f34e7(((6272) + 15) // 16 * (((80) + 127) // 128), buf122, arg149_1, arg150_1, arg151_1, arg152_1, buf109, buf124, 6272, 80, 16, 128)
        del arg149_1, arg150_1, arg151_1, arg152_1, buf109, buf122
        buf125 = _c33(buf124, _view(arg153_1, (480, 80, 1, 1, ), (80, 1, 80, 80, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg153_1, buf124
        buf127 = buf125  # written over buf125, which dies here
        kernel_native_batch_norm_legit_no_training_silu_cf15ab56e3(((6272) + 15) // 16 * (((480) + 127) // 128), buf125, arg154_1, arg155_1, arg156_1, arg157_1, buf127, 6272, 480, 16, 128)
        del arg154_1, arg155_1, arg156_1, arg157_1, buf125
        buf128 = _empty_cuda((32, 480, 14, 14, ), (94080, 1, 6720, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_43c7651e03(((6272) + 3) // 4 * (((480) + 127) // 128), buf127, arg158_1, buf128, 6272, 480, 4, 128)
        del arg158_1, buf127
        buf129 = _empty_cuda((32, 480, 14, 14, ), (94080, 196, 14, 1, ), torch.bfloat16)
        buf131 = _empty_cuda((32, 480, 1, 1, ), (480, 1, 480, 480, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_mean_d24ae3a064(((15360) + 15) // 16, buf128, arg159_1, arg160_1, arg161_1, arg162_1, buf129, buf131, 15360, 196, 16, 256)
        del arg159_1, arg160_1, arg161_1, arg162_1, buf128
        buf132 = _c34(buf131, _view(arg163_1, (20, 480, 1, 1, ), (480, 1, 480, 480, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg163_1, buf131
        buf134 = buf132  # written over buf132, which dies here
        kernel_mean_convolution_silu_5ec3903240(((32) + 31) // 32 * (((20) + 31) // 32), buf132, arg164_1, buf134, 32, 20, 32, 32)
        del arg164_1, buf132
        buf135 = _c35(buf134, _view(arg165_1, (480, 20, 1, 1, ), (20, 1, 20, 20, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg165_1, buf134
        buf137 = _empty_cuda((32, 480, 14, 14, ), (94080, 1, 6720, 480, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_bf5068e544(((6272) + 63) // 64 * (((480) + 63) // 64), buf129, buf135, arg166_1, buf137, 6272, 480, 64, 64)
        del arg166_1, buf129, buf135
        buf138 = _c36(buf137, _view(arg167_1, (112, 480, 1, 1, ), (480, 1, 480, 480, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg167_1, buf137
        buf140 = buf138  # written over buf138, which dies here
        kernel_native_batch_norm_legit_no_training_9c3fd5a962(((6272) + 15) // 16 * (((112) + 127) // 128), buf138, arg168_1, arg169_1, arg170_1, arg171_1, buf140, 6272, 112, 16, 128)
        del arg168_1, arg169_1, arg170_1, arg171_1, buf138
        buf141 = _c37(buf140, _view(arg172_1, (672, 112, 1, 1, ), (112, 1, 112, 112, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg172_1
        buf143 = buf141  # written over buf141, which dies here
        kernel_native_batch_norm_legit_no_training_silu_b6a6eb9c19(((6272) + 15) // 16 * (((672) + 127) // 128), buf141, arg173_1, arg174_1, arg175_1, arg176_1, buf143, 6272, 672, 16, 128)
        del arg173_1, arg174_1, arg175_1, arg176_1, buf141
        buf144 = _empty_cuda((32, 672, 14, 14, ), (131712, 1, 9408, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_e21ee0607b(((6272) + 3) // 4 * (((672) + 127) // 128), buf143, arg177_1, buf144, 6272, 672, 4, 128)
        del arg177_1, buf143
        buf145 = _empty_cuda((32, 672, 14, 14, ), (131712, 196, 14, 1, ), torch.bfloat16)
        buf147 = _empty_cuda((32, 672, 1, 1, ), (672, 1, 672, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_mean_802f25d6c9(((21504) + 15) // 16, buf144, arg178_1, arg179_1, arg180_1, arg181_1, buf145, buf147, 21504, 196, 16, 256)
        del arg178_1, arg179_1, arg180_1, arg181_1, buf144
        buf148 = _c38(buf147, _view(arg182_1, (28, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg182_1, buf147
        buf150 = buf148  # written over buf148, which dies here
        kernel_mean_convolution_silu_7b397b5da0(((32) + 31) // 32 * (((28) + 31) // 32), buf148, arg183_1, buf150, 32, 28, 32, 32)
        del arg183_1, buf148
        buf151 = _c39(buf150, _view(arg184_1, (672, 28, 1, 1, ), (28, 1, 28, 28, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg184_1, buf150
        buf153 = _empty_cuda((32, 672, 14, 14, ), (131712, 1, 9408, 672, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_e6ae83a07c(((6272) + 63) // 64 * (((672) + 63) // 64), buf145, buf151, arg185_1, buf153, 6272, 672, 64, 64)
        del arg185_1, buf145, buf151
        buf154 = _c40(buf153, _view(arg186_1, (112, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg186_1, buf153
        buf156 = buf140  # written over buf140, which dies here
        kernel_native_batch_norm_legit_no_training_add_4d94a59b8b(((6272) + 15) // 16 * (((112) + 127) // 128), buf154, arg187_1, arg188_1, arg189_1, arg190_1, buf140, buf156, 6272, 112, 16, 128)
        del arg187_1, arg188_1, arg189_1, arg190_1, buf140, buf154
        buf157 = _c41(buf156, _view(arg191_1, (672, 112, 1, 1, ), (112, 1, 112, 112, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg191_1
        buf159 = buf157  # written over buf157, which dies here
        kernel_native_batch_norm_legit_no_training_silu_b6a6eb9c19(((6272) + 15) // 16 * (((672) + 127) // 128), buf157, arg192_1, arg193_1, arg194_1, arg195_1, buf159, 6272, 672, 16, 128)
        del arg192_1, arg193_1, arg194_1, arg195_1, buf157
        buf160 = _empty_cuda((32, 672, 14, 14, ), (131712, 1, 9408, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_e21ee0607b(((6272) + 3) // 4 * (((672) + 127) // 128), buf159, arg196_1, buf160, 6272, 672, 4, 128)
        del arg196_1, buf159
        buf161 = _empty_cuda((32, 672, 14, 14, ), (131712, 196, 14, 1, ), torch.bfloat16)
        buf163 = _empty_cuda((32, 672, 1, 1, ), (672, 1, 672, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_mean_802f25d6c9(((21504) + 15) // 16, buf160, arg197_1, arg198_1, arg199_1, arg200_1, buf161, buf163, 21504, 196, 16, 256)
        del arg197_1, arg198_1, arg199_1, arg200_1, buf160
        buf164 = _c42(buf163, _view(arg201_1, (28, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg201_1, buf163
        buf166 = buf164  # written over buf164, which dies here
        kernel_mean_convolution_silu_7b397b5da0(((32) + 31) // 32 * (((28) + 31) // 32), buf164, arg202_1, buf166, 32, 28, 32, 32)
        del arg202_1, buf164
        buf167 = _c43(buf166, _view(arg203_1, (672, 28, 1, 1, ), (28, 1, 28, 28, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg203_1, buf166
        buf169 = _empty_cuda((32, 672, 14, 14, ), (131712, 1, 9408, 672, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_e6ae83a07c(((6272) + 63) // 64 * (((672) + 63) // 64), buf161, buf167, arg204_1, buf169, 6272, 672, 64, 64)
        del arg204_1, buf161, buf167
        buf170 = _c44(buf169, _view(arg205_1, (112, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg205_1, buf169
        buf172 = buf156  # written over buf156, which dies here
        kernel_native_batch_norm_legit_no_training_add_4d94a59b8b(((6272) + 15) // 16 * (((112) + 127) // 128), buf170, arg206_1, arg207_1, arg208_1, arg209_1, buf156, buf172, 6272, 112, 16, 128)
        del arg206_1, arg207_1, arg208_1, arg209_1, buf156, buf170
        buf173 = _c45(buf172, _view(arg210_1, (672, 112, 1, 1, ), (112, 1, 112, 112, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg210_1, buf172
        buf175 = buf173  # written over buf173, which dies here
        kernel_native_batch_norm_legit_no_training_silu_b6a6eb9c19(((6272) + 15) // 16 * (((672) + 127) // 128), buf173, arg211_1, arg212_1, arg213_1, arg214_1, buf175, 6272, 672, 16, 128)
        del arg211_1, arg212_1, arg213_1, arg214_1, buf173
        buf177 = _empty_cuda((32, 672, 7, 7, ), (32928, 49, 7, 1, ), torch.bfloat16)
        buf179 = _empty_cuda((32, 672, 1, 1, ), (672, 1, 672, 672, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_17c2079750(((21504) + 15) // 16, buf175, arg215_1, arg216_1, arg217_1, arg218_1, arg219_1, buf177, buf179, 21504, 49, 16, 64)
        del arg215_1, arg216_1, arg217_1, arg218_1, arg219_1, buf175
        buf180 = _c46(buf179, _view(arg220_1, (28, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg220_1, buf179
        buf182 = buf180  # written over buf180, which dies here
        kernel_mean_convolution_silu_7b397b5da0(((32) + 31) // 32 * (((28) + 31) // 32), buf180, arg221_1, buf182, 32, 28, 32, 32)
        del arg221_1, buf180
        buf183 = _c47(buf182, _view(arg222_1, (672, 28, 1, 1, ), (28, 1, 28, 28, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg222_1, buf182
        buf185 = _empty_cuda((32, 672, 7, 7, ), (32928, 1, 4704, 672, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_503bc52968(((1568) + 63) // 64 * (((672) + 63) // 64), buf177, buf183, arg223_1, buf185, 1568, 672, 64, 64)
        del arg223_1, buf177, buf183
        buf186 = _c48(buf185, _view(arg224_1, (192, 672, 1, 1, ), (672, 1, 672, 672, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg224_1, buf185
        buf188 = buf186  # written over buf186, which dies here
        kernel_native_batch_norm_legit_no_training_448385b6a0(((1568) + 15) // 16 * (((192) + 127) // 128), buf186, arg225_1, arg226_1, arg227_1, arg228_1, buf188, 1568, 192, 16, 128)
        del arg225_1, arg226_1, arg227_1, arg228_1, buf186
        buf189 = _c49(buf188, _view(arg229_1, (1152, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg229_1
        buf191 = buf189  # written over buf189, which dies here
        kernel_native_batch_norm_legit_no_training_silu_b1020b287f(((1568) + 15) // 16 * (((1152) + 127) // 128), buf189, arg230_1, arg231_1, arg232_1, arg233_1, buf191, 1568, 1152, 16, 128)
        del arg230_1, arg231_1, arg232_1, arg233_1, buf189
        buf192 = _empty_cuda((32, 1152, 7, 7, ), (56448, 1, 8064, 1152, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_aa7e18b170(((1568) + 3) // 4 * (((1152) + 127) // 128), buf191, arg234_1, buf192, 1568, 1152, 4, 128)
        del arg234_1, buf191
        buf193 = _empty_cuda((32, 1152, 7, 7, ), (56448, 49, 7, 1, ), torch.bfloat16)
        buf195 = _empty_cuda((32, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_mean_e3d91d3974(((36864) + 63) // 64, buf192, arg235_1, arg236_1, arg237_1, arg238_1, buf193, buf195, 36864, 49, 64, 64)
        del arg235_1, arg236_1, arg237_1, arg238_1, buf192
        buf196 = _c50(buf195, _view(arg239_1, (48, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg239_1, buf195
        buf198 = buf196  # written over buf196, which dies here
        kernel_mean_convolution_silu_7180766f61(((32) + 31) // 32 * (((48) + 63) // 64), buf196, arg240_1, buf198, 32, 48, 32, 64)
        del arg240_1, buf196
        buf199 = _c51(buf198, _view(arg241_1, (1152, 48, 1, 1, ), (48, 1, 48, 48, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg241_1, buf198
        buf201 = _empty_cuda((32, 1152, 7, 7, ), (56448, 1, 8064, 1152, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_d85346b106(((1568) + 63) // 64 * (((1152) + 63) // 64), buf193, buf199, arg242_1, buf201, 1568, 1152, 64, 64)
        del arg242_1, buf193, buf199
        buf202 = _c52(buf201, _view(arg243_1, (192, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg243_1, buf201
        buf204 = buf188  # written over buf188, which dies here
        kernel_native_batch_norm_legit_no_training_add_c33b58bcc4(((1568) + 15) // 16 * (((192) + 127) // 128), buf202, arg244_1, arg245_1, arg246_1, arg247_1, buf188, buf204, 1568, 192, 16, 128)
        del arg244_1, arg245_1, arg246_1, arg247_1, buf188, buf202
        buf205 = _c53(buf204, _view(arg248_1, (1152, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg248_1
        buf207 = buf205  # written over buf205, which dies here
        kernel_native_batch_norm_legit_no_training_silu_b1020b287f(((1568) + 15) // 16 * (((1152) + 127) // 128), buf205, arg249_1, arg250_1, arg251_1, arg252_1, buf207, 1568, 1152, 16, 128)
        del arg249_1, arg250_1, arg251_1, arg252_1, buf205
        buf208 = _empty_cuda((32, 1152, 7, 7, ), (56448, 1, 8064, 1152, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_aa7e18b170(((1568) + 3) // 4 * (((1152) + 127) // 128), buf207, arg253_1, buf208, 1568, 1152, 4, 128)
        del arg253_1, buf207
        buf209 = _empty_cuda((32, 1152, 7, 7, ), (56448, 49, 7, 1, ), torch.bfloat16)
        buf211 = _empty_cuda((32, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_mean_e3d91d3974(((36864) + 63) // 64, buf208, arg254_1, arg255_1, arg256_1, arg257_1, buf209, buf211, 36864, 49, 64, 64)
        del arg254_1, arg255_1, arg256_1, arg257_1, buf208
        buf212 = _c54(buf211, _view(arg258_1, (48, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg258_1, buf211
        buf214 = buf212  # written over buf212, which dies here
        kernel_mean_convolution_silu_7180766f61(((32) + 31) // 32 * (((48) + 63) // 64), buf212, arg259_1, buf214, 32, 48, 32, 64)
        del arg259_1, buf212
        buf215 = _c55(buf214, _view(arg260_1, (1152, 48, 1, 1, ), (48, 1, 48, 48, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg260_1, buf214
        buf217 = _empty_cuda((32, 1152, 7, 7, ), (56448, 1, 8064, 1152, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_d85346b106(((1568) + 63) // 64 * (((1152) + 63) // 64), buf209, buf215, arg261_1, buf217, 1568, 1152, 64, 64)
        del arg261_1, buf209, buf215
        buf218 = _c56(buf217, _view(arg262_1, (192, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg262_1, buf217
        buf220 = buf204  # written over buf204, which dies here
        kernel_native_batch_norm_legit_no_training_add_c33b58bcc4(((1568) + 15) // 16 * (((192) + 127) // 128), buf218, arg263_1, arg264_1, arg265_1, arg266_1, buf204, buf220, 1568, 192, 16, 128)
        del arg263_1, arg264_1, arg265_1, arg266_1, buf204, buf218
        buf221 = _c57(buf220, _view(arg267_1, (1152, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg267_1
        buf223 = buf221  # written over buf221, which dies here
        kernel_native_batch_norm_legit_no_training_silu_b1020b287f(((1568) + 15) // 16 * (((1152) + 127) // 128), buf221, arg268_1, arg269_1, arg270_1, arg271_1, buf223, 1568, 1152, 16, 128)
        del arg268_1, arg269_1, arg270_1, arg271_1, buf221
        buf224 = _empty_cuda((32, 1152, 7, 7, ), (56448, 1, 8064, 1152, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_aa7e18b170(((1568) + 3) // 4 * (((1152) + 127) // 128), buf223, arg272_1, buf224, 1568, 1152, 4, 128)
        del arg272_1, buf223
        buf225 = _empty_cuda((32, 1152, 7, 7, ), (56448, 49, 7, 1, ), torch.bfloat16)
        buf227 = _empty_cuda((32, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_mean_e3d91d3974(((36864) + 63) // 64, buf224, arg273_1, arg274_1, arg275_1, arg276_1, buf225, buf227, 36864, 49, 64, 64)
        del arg273_1, arg274_1, arg275_1, arg276_1, buf224
        buf228 = _c58(buf227, _view(arg277_1, (48, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg277_1, buf227
        buf230 = buf228  # written over buf228, which dies here
        kernel_mean_convolution_silu_7180766f61(((32) + 31) // 32 * (((48) + 63) // 64), buf228, arg278_1, buf230, 32, 48, 32, 64)
        del arg278_1, buf228
        buf231 = _c59(buf230, _view(arg279_1, (1152, 48, 1, 1, ), (48, 1, 48, 48, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg279_1, buf230
        buf233 = _empty_cuda((32, 1152, 7, 7, ), (56448, 1, 8064, 1152, ), torch.bfloat16)
        kernel_mean_convolution_silu_sigmoid_d85346b106(((1568) + 63) // 64 * (((1152) + 63) // 64), buf225, buf231, arg280_1, buf233, 1568, 1152, 64, 64)
        del arg280_1, buf225, buf231
        buf234 = _c60(buf233, _view(arg281_1, (192, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg281_1, buf233
        buf236 = buf220  # written over buf220, which dies here
        kernel_native_batch_norm_legit_no_training_add_c33b58bcc4(((1568) + 15) // 16 * (((192) + 127) // 128), buf234, arg282_1, arg283_1, arg284_1, arg285_1, buf220, buf236, 1568, 192, 16, 128)
        del arg282_1, arg283_1, arg284_1, arg285_1, buf220, buf234
        buf237 = _c61(buf236, _view(arg286_1, (1152, 192, 1, 1, ), (192, 1, 192, 192, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg286_1, buf236
        buf239 = buf237  # written over buf237, which dies here
        kernel_native_batch_norm_legit_no_training_silu_b1020b287f(((1568) + 15) // 16 * (((1152) + 127) // 128), buf237, arg287_1, arg288_1, arg289_1, arg290_1, buf239, 1568, 1152, 16, 128)
        del arg287_1, arg288_1, arg289_1, arg290_1, buf237
        buf240 = _empty_cuda((32, 1152, 7, 7, ), (56448, 49, 7, 1, ), torch.bfloat16)
        buf242 = _empty_cuda((32, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_477d7c3d4e(((36864) + 31) // 32, buf239, arg291_1, arg292_1, arg293_1, arg294_1, arg295_1, buf240, buf242, 36864, 49, 32, 64)
        del arg291_1, arg292_1, arg293_1, arg294_1, arg295_1, buf239
        buf243 = _c62(buf242, _view(arg296_1, (48, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg296_1, buf242
        buf245 = buf243  # written over buf243, which dies here
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_0d76c66bc4(((32) + 31) // 32 * (((48) + 63) // 64), buf243, arg297_1, buf245, 32, 48, 32, 64)
        del arg297_1, buf243
        buf246 = _c63(buf245, _view(arg298_1, (1152, 48, 1, 1, ), (48, 1, 48, 48, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg298_1, buf245
        buf248 = _empty_cuda((32, 1152, 7, 7, ), (56448, 1, 8064, 1152, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_convolution_mean_778abe0500(((1568) + 63) // 64 * (((1152) + 63) // 64), buf240, buf246, arg299_1, buf248, 1568, 1152, 64, 64)
        del arg299_1, buf240, buf246
        buf249 = _c64(buf248, _view(arg300_1, (320, 1152, 1, 1, ), (1152, 1, 1152, 1152, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg300_1, buf248
        buf251 = buf249  # written over buf249, which dies here
        kernel_native_batch_norm_legit_no_training_46d7c14b0d(((1568) + 15) // 16 * (((320) + 127) // 128), buf249, arg301_1, arg302_1, arg303_1, arg304_1, buf251, 1568, 320, 16, 128)
        del arg301_1, arg302_1, arg303_1, arg304_1, buf249
        buf252 = _c65(buf251, _view(arg305_1, (1280, 320, 1, 1, ), (320, 1, 320, 320, ), 0), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)  # aten.convolution.default (channels-last)
        del arg305_1, buf251
        buf255 = _empty_cuda((32, 1280, ), (1280, 1, ), torch.bfloat16)
        kernel_native_batch_norm_legit_no_training_silu_mean_view_b325ec2131(((40960) + 63) // 64, buf252, arg306_1, arg307_1, arg308_1, arg309_1, buf255, 40960, 49, 64, 64)
        del arg306_1, arg307_1, arg308_1, arg309_1, buf252
        buf256 = _c66(arg311_1, buf255, _view(arg310_1, (1280, 1000, ), (1, 1280, ), 0))  # aten.addmm.default
        del arg310_1, arg311_1, buf255
        return (buf256,)
