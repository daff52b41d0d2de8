#include <chrono>
extern "C" void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*, const float*, const int*, const float*, const int*, const float*, float*, const int*);
extern "C" double bench(const float* x, const float* w, float* out, int M, int K, int N, int iters, int nt) {
    // out[M,N] = x[M,K] @ w^T (w: [N,K]) ; column-major: out^T[N,M] = w[N,K]... 
    float one = 1.f, zero = 0.f;
    auto s = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; i++) {
        // row-major C = A B^T  <=> col-major C^T = B A^T: C^T (N x M) = op(B)(N x K) * op(A^T)(K x M)
        // B row-major [N,K] is col-major K x N -> transpose 'T' gives N x K; A row-major [M,K] is col-major K x M -> 'N'
        if (nt) sgemm_("T", "N", &N, &M, &K, &one, w, &K, x, &K, &zero, out, &N);
        else sgemm_("N", "N", &N, &M, &K, &one, w, &N, x, &K, &zero, out, &N);
    }
    auto e = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::micro>(e - s).count() / iters;
}
