// kernel_relu_max_pool2d_with_indices_b40605689f: relu, max_pool2d_with_indices
extern "C" void kernel_relu_max_pool2d_with_indices_b40605689f(const float* __restrict__ in_ptr0, float* __restrict__ out_ptr1) {
    #pragma omp parallel for collapse(2) if((512) * (64) >= 4096)
    for (int64_t x0 = 0; x0 < 512; x0++) {
    for (int64_t rc = 0; rc < 64; rc += 1024) {
            int64_t tmp1 = static_cast<int64_t>(2*((((x0) / (16)) % (16))) - 1);
            bool tmp2 = tmp1 >= int64_t(0LL);
            int64_t tmp4 = static_cast<int64_t>(2*(((x0) % (16))) - 1);
            bool tmp5 = tmp4 >= int64_t(0LL);
            bool tmp6 = tmp2 && tmp5;
            int64_t tmp7 = (tmp6) ? 4096*(((x0) / (16))) + 128*(((x0) % (16))) - 2112 : 0;
            int64_t tmp17 = (tmp2) ? 4096*(((x0) / (16))) + 128*(((x0) % (16))) - 2048 : 0;
            int64_t tmp27 = (tmp2) ? 4096*(((x0) / (16))) + 128*(((x0) % (16))) - 1984 : 0;
            int64_t tmp37 = (tmp5) ? 4096*(((x0) / (16))) + 128*(((x0) % (16))) - 64 : 0;
            int64_t tmp59 = (tmp5) ? 4096*(((x0) / (16))) + 128*(((x0) % (16))) + 1984 : 0;
            const int64_t rend = kiln_imin(rc + 1024, 64);
            #pragma omp simd
            for (int64_t r0 = rc; r0 < rend; r0++) {
                float tmp8 = in_ptr0[tmp7 + r0];
                float tmp9 = kiln_relu(tmp8);
                float tmp10 = tmp6 ? tmp9 : float(-__builtin_inf());
                bool tmp11 = tmp10 > float(-__builtin_inf());
                bool tmp12 = kiln_isnan(tmp10);
                bool tmp13 = tmp11 || tmp12;
                bool tmp14 = tmp6 && tmp13;
                float tmp15 = tmp14 ? tmp10 : float(-__builtin_inf());
                float tmp18 = in_ptr0[tmp17 + r0];
                float tmp19 = kiln_relu(tmp18);
                float tmp20 = tmp2 ? tmp19 : float(-__builtin_inf());
                bool tmp21 = tmp20 > tmp15;
                bool tmp22 = kiln_isnan(tmp20);
                bool tmp23 = tmp21 || tmp22;
                bool tmp24 = tmp2 && tmp23;
                float tmp25 = tmp24 ? tmp20 : tmp15;
                float tmp28 = in_ptr0[tmp27 + r0];
                float tmp29 = kiln_relu(tmp28);
                float tmp30 = tmp2 ? tmp29 : float(-__builtin_inf());
                bool tmp31 = tmp30 > tmp25;
                bool tmp32 = kiln_isnan(tmp30);
                bool tmp33 = tmp31 || tmp32;
                bool tmp34 = tmp2 && tmp33;
                float tmp35 = tmp34 ? tmp30 : tmp25;
                float tmp38 = in_ptr0[tmp37 + r0];
                float tmp39 = kiln_relu(tmp38);
                float tmp40 = tmp5 ? tmp39 : float(-__builtin_inf());
                bool tmp41 = tmp40 > tmp35;
                bool tmp42 = kiln_isnan(tmp40);
                bool tmp43 = tmp41 || tmp42;
                bool tmp44 = tmp5 && tmp43;
                float tmp45 = tmp44 ? tmp40 : tmp35;
                float tmp46 = in_ptr0[r0 + 4096*(((x0) / (16))) + 128*(((x0) % (16)))];
                float tmp47 = kiln_relu(tmp46);
                bool tmp48 = tmp47 > tmp45;
                bool tmp49 = kiln_isnan(tmp47);
                bool tmp50 = tmp48 || tmp49;
                float tmp51 = tmp50 ? tmp47 : tmp45;
                float tmp52 = in_ptr0[r0 + 4096*(((x0) / (16))) + 128*(((x0) % (16))) + 64];
                float tmp53 = kiln_relu(tmp52);
                bool tmp54 = tmp53 > tmp51;
                bool tmp55 = kiln_isnan(tmp53);
                bool tmp56 = tmp54 || tmp55;
                float tmp57 = tmp56 ? tmp53 : tmp51;
                float tmp60 = in_ptr0[tmp59 + r0];
                float tmp61 = kiln_relu(tmp60);
                float tmp62 = tmp5 ? tmp61 : float(-__builtin_inf());
                bool tmp63 = tmp62 > tmp57;
                bool tmp64 = kiln_isnan(tmp62);
                bool tmp65 = tmp63 || tmp64;
                bool tmp66 = tmp5 && tmp65;
                float tmp67 = tmp66 ? tmp62 : tmp57;
                float tmp68 = in_ptr0[r0 + 4096*(((x0) / (16))) + 128*(((x0) % (16))) + 2048];
                float tmp69 = kiln_relu(tmp68);
                bool tmp70 = tmp69 > tmp67;
                bool tmp71 = kiln_isnan(tmp69);
                bool tmp72 = tmp70 || tmp71;
                float tmp73 = tmp72 ? tmp69 : tmp67;
                float tmp74 = in_ptr0[r0 + 4096*(((x0) / (16))) + 128*(((x0) % (16))) + 2112];
                float tmp75 = kiln_relu(tmp74);
                bool tmp76 = tmp75 > tmp73;
                bool tmp77 = kiln_isnan(tmp75);
                bool tmp78 = tmp76 || tmp77;
                float tmp79 = tmp78 ? tmp75 : tmp73;
                out_ptr1[r0 + 64*x0] = tmp79;
            }
        }
    }
}
