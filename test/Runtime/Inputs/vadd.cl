// C = A + B over 8 floats, and D = 2 * C through a temporary: two kernels,
// written by hand in the form tilec's OpenCL back end emits.
kernel void add_C(global const float *A, global const float *B,
                  global float *T) {
  size_t i = get_global_id(0);
  T[i] = A[i] + B[i];
}

kernel void scale_D(global const float *T, global float *C,
                    global float *D) {
  size_t i = get_global_id(0);
  C[i] = T[i];
  D[i] = 2.0f * T[i];
}
