/* main.c - calls a model compiled ahead of time by tilec.
 *
 *   tilec examples/matmul.tile --target=llvm-x86 -o model.o   # and model.h
 *   cc -I. examples/embed/main.c model.o -L/usr/lib/llvm-22/lib -lomp -lm \
 *      -Wl,-rpath,/usr/lib/llvm-22/lib -o embed
 *   ./embed
 *
 * The model is `main` of examples/matmul.tile: C = A x B for A: f32[4, 6]
 * and B: f32[6, 5]. The symbol is the object's stem, `model`. The program
 * prints C and exits 1 when it differs from the product computed here.
 */
#include "model.h"

#include <math.h>
#include <stdio.h>

enum { M = 4, K = 6, N = 5 };

int main(void) {
  float a[M * K], b[K * N], c[M * N];
  for (int i = 0; i < M * K; ++i)
    a[i] = (float)(i % 7) - 3.0f;
  for (int i = 0; i < K * N; ++i)
    b[i] = (float)(i % 4) - 1.5f;
  model(a, b, c);

  int failures = 0;
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      float expected = 0;
      for (int k = 0; k < K; ++k)
        expected += a[m * K + k] * b[k * N + n];
      printf("%s%g", n ? " " : "C: ", c[m * N + n]);
      if (fabsf(c[m * N + n] - expected) > 1e-4f)
        ++failures;
    }
    printf("\n");
  }
  printf("%s\n", failures ? "MISMATCH" : "ok");
  return failures != 0;
}
